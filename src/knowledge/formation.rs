//! How people deploy: a [`Formation`] is a distribution over one side's setups, a weight per
//! rank (and for an empty square) on each square of the setup zone, with the hard pattern
//! players use most: a guarded Flag on the back row. Bots deploy by one, and believe the enemy
//! did ([`crate::Tracker::beliefs_under`]).

use core::str::FromStr;
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use super::weighted::{KINDS, Weighted};
use crate::error_kind::{ErrorKind, engine_error};
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;
use crate::value_error::ValueError;

/// The squares of the largest setup zone (four rows of nine).
pub(crate) const ZONE_MAX: usize = 36;

/// The kind that stands for an empty square in the counts (after the fifteen ranks).
const EMPTY: usize = Rank::NUM;

/// A distribution over one side's formations.
///
/// The squares of the setup zone are named by depth and file: depth 0 is the side's own back
/// row (row 1 for White, row 8 for Black), depth 1 the row in front of it, and so on, so one
/// formation serves both sides. Each rank `r` has a weight `w(r, depth, file)`, and so has an
/// empty square; a setup's probability is proportional to the product of its squares'
/// weights (its *product form*). With the guard on, only setups whose Flag stands on the back
/// row with every zone square beside it (left, right and in front) occupied are kept: the
/// product form conditioned on that pattern.
///
/// Draws are exact ([`Formation::sample`], [`Setup::sample_with`]): the product form is
/// summed once per zone size by a dynamic programme over how many of each rank the squares
/// so far hold, then each draw takes 27 (or 36) steps; the guard is applied by drawing again
/// (at most 1,000 draws, the last kept if none passes: only weights that almost never put the
/// Flag on the back row get there).
///
/// # Examples
/// ```
/// use salpakan::{Formation, Rank, Rules, Setup, Side, SplitMix64};
///
/// let rules = Rules::default();
/// let classic = Formation::classic();
/// let mut rng = SplitMix64::new(7);
/// let setup = Setup::sample_with(Side::Black, rules, &classic, &mut rng);
/// // The guarded Flag: on Black's back row, every zone neighbour occupied.
/// let flag = setup.pieces().find(|(_, rank)| *rank == Rank::Flag).unwrap().0;
/// assert_eq!(flag.row(), 7);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Formation {
    /// For a zone of 3 and of 4 rows, `[kind][depth * 9 + file]`: the fifteen ranks, then
    /// an empty square.
    tables: [[[f64; ZONE_MAX]; KINDS]; 2],
    guarded_flag: bool,
    /// A hash of the weights and the guard, naming the formation in the trackers' caches.
    fingerprint: u64,
    /// The product form's sums for a zone of 3 and of 4 rows, made when first needed and
    /// shared by every clone (the built-ins hand out clones).
    sums: Arc<[OnceLock<Option<Arc<Weighted>>>; 2]>,
}

/// Why a formation's weights were refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FormationError {
    /// A weight that is negative, infinite or not a number.
    #[error("the weight {value} of {kind} at depth {depth}, file {file} is not finite and >= 0")]
    Weight {
        /// The rank's name, or "an empty square".
        kind: String,
        /// The row's depth from the side's back row.
        depth: u8,
        /// The file, 0 for a.
        file: u8,
        /// The weight given.
        value: f64,
    },
    /// A tempering power that is negative, infinite or not a number
    /// ([`Formation::tempered`]).
    #[error("the power {0} is not finite and >= 0")]
    Power(f64),
    /// No setup of a zone of `rows` rows has a positive weight.
    #[error("no setup of a {rows}-row zone has a positive weight")]
    NoSetup {
        /// The zone's rows.
        rows: u8,
    },
}

impl FormationError {
    /// Its kind: always [`ErrorKind::Argument`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Argument
    }
}

engine_error!(FormationError);

impl PartialEq for Formation {
    fn eq(&self, other: &Formation) -> bool {
        self.tables == other.tables && self.guarded_flag == other.guarded_flag
    }
}

impl Formation {
    /// The names of the built-in formations, as [`Formation::from_str`] reads them.
    pub const NAMES: [&'static str; 2] = ["uniform", "classic"];

    /// Every setup equally likely, no guard: the same distribution as [`Setup::random`] (not
    /// the same draws).
    #[must_use]
    pub fn uniform() -> Formation {
        static UNIFORM: OnceLock<Formation> = OnceLock::new();
        UNIFORM
            .get_or_init(|| Formation::built_in(|_, _, _, _| 1.0, false))
            .clone()
    }

    /// How people deploy, in the proportions players' guides teach: the Flag on the back row
    /// (weight 1; the middle rows 0.15, the front row 0.02), guarded; the Generals forward (the
    /// front row 1, the middle 0.6, the back 0.2) and the other senior officers likewise but
    /// less; Spies in the front and middle rows (1, back 0.4); Privates behind (the back and
    /// middle rows 1, front 0.6), near the Flag; the junior officers anywhere; the holes
    /// mostly in front (front 1, middle 0.5, back 0.25).
    #[must_use]
    pub fn classic() -> Formation {
        static CLASSIC: OnceLock<Formation> = OnceLock::new();
        CLASSIC.get_or_init(Formation::make_classic).clone()
    }

    /// [`Formation::classic`]'s weights, made once.
    fn make_classic() -> Formation {
        Formation::built_in(
            |kind, depth, _, rows| {
                let (back, middle, front) = match kind {
                    Some(Rank::Flag) => (1.0, 0.15, 0.02),
                    Some(Rank::FiveStarGeneral | Rank::FourStarGeneral) => (0.2, 0.6, 1.0),
                    Some(
                        Rank::ThreeStarGeneral
                        | Rank::TwoStarGeneral
                        | Rank::OneStarGeneral
                        | Rank::Colonel,
                    ) => (0.4, 0.8, 1.0),
                    Some(Rank::Spy) => (0.4, 1.0, 1.0),
                    Some(Rank::Private) => (1.0, 1.0, 0.6),
                    None => (0.25, 0.5, 1.0),
                    Some(_) => (1.0, 1.0, 1.0),
                };
                if depth == 0 {
                    back
                } else if depth + 1 >= rows {
                    front
                } else {
                    middle
                }
            },
            true,
        )
    }

    /// A formation from its weights: `weight(kind, depth, file, rows)` for a rank (`Some`)
    /// or an empty square (`None`) at `depth` from the side's back row and `file` (0 for a)
    /// in a zone of `rows` rows (3 or 4), and whether the Flag is guarded.
    ///
    /// # Errors
    /// [`FormationError::Weight`] for a weight that is negative or not finite,
    /// [`FormationError::NoSetup`] if no setup of a zone of 3 or of 4 rows has a positive
    /// weight (or, guarded, no setup puts the Flag on the back row).
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Formation, Rank};
    ///
    /// // The Flag only in the corners of the back row; everything else anywhere.
    /// let corners = Formation::new(|kind, depth, file, _| match kind {
    ///     Some(Rank::Flag) if depth == 0 && (file == 0 || file == 8) => 1.0,
    ///     Some(Rank::Flag) => 0.0,
    ///     _ => 1.0,
    /// }, false)?;
    /// assert_eq!(corners.weight(Some(Rank::Flag), 0, 4, 3), 0.0);
    /// # Ok::<_, salpakan::FormationError>(())
    /// ```
    pub fn new(
        weight: impl Fn(Option<Rank>, u8, u8, u8) -> f64,
        guarded_flag: bool,
    ) -> Result<Formation, FormationError> {
        let mut tables = [[[0.0; ZONE_MAX]; KINDS]; 2];
        for (table, rows) in tables.iter_mut().zip([3u8, 4]) {
            for (kind, row) in table.iter_mut().enumerate() {
                let rank = Rank::ALL.get(kind).copied();
                for (index, w) in row.iter_mut().enumerate().take(usize::from(rows) * 9) {
                    let (depth, file) = ((index / 9) as u8, (index % 9) as u8);
                    let value = weight(rank, depth, file, rows);
                    if !(value.is_finite() && value >= 0.0) {
                        return Err(FormationError::Weight {
                            kind: rank.map_or("an empty square".to_owned(), |r| r.to_string()),
                            depth,
                            file,
                            value,
                        });
                    }
                    *w = value;
                }
            }
        }
        // FNV-1a over the weights' bits and the guard.
        let mut fingerprint = 0xcbf2_9ce4_8422_2325u64;
        for w in tables.iter().flatten().flatten() {
            fingerprint = (fingerprint ^ w.to_bits()).wrapping_mul(0x100_0000_01b3);
        }
        fingerprint = (fingerprint ^ u64::from(guarded_flag)).wrapping_mul(0x100_0000_01b3);
        let formation = Formation {
            tables,
            guarded_flag,
            fingerprint,
            sums: Default::default(),
        };
        for rows in [3, 4] {
            let back_flag =
                (0..9).any(|file| formation.weight(Some(Rank::Flag), 0, file, rows) > 0.0);
            if !formation.has_setup(rows) || (guarded_flag && !back_flag) {
                return Err(FormationError::NoSetup { rows });
            }
        }
        Ok(formation)
    }

    /// Whether some setup of a zone of `rows` rows has a positive weight, so that its exact
    /// sums exist. A matching of squares to pieces settles it at once, and the sums wait for
    /// their first use (each is a pass over every setup); only weights so far apart that a
    /// product of them could underflow have their sums made now, to decide.
    fn has_setup(&self, rows: u8) -> bool {
        self.can_fill(rows) && (self.cannot_underflow(rows) || self.sums(rows).is_some())
    }

    /// Whether the zone's squares can each take a piece or stay empty, every rank its count
    /// of times, each square only what weighs more than 0 there: a bipartite matching of the
    /// squares to the army's pieces and the holes (augmenting paths).
    fn can_fill(&self, rows: u8) -> bool {
        let squares = usize::from(rows) * 9;
        let table = &self.tables[usize::from(rows - 3)];
        let mut slots: Vec<usize> = Rank::ALL
            .iter()
            .flat_map(|rank| std::iter::repeat_n(rank.index(), usize::from(rank.count())))
            .collect();
        slots.resize(squares, EMPTY);
        let mut holder = vec![usize::MAX; squares];
        (0..squares).all(|square| {
            let mut seen = vec![false; squares];
            augment(
                square,
                &|slot, square| table[slots[slot]][square] > 0.0,
                &mut holder,
                &mut seen,
            )
        })
    }

    /// Whether every product of the zone's weights, each square's row scaled to a largest
    /// weight of 1 as the sums scale it, is a normal number: the sums cannot then lose a setup.
    fn cannot_underflow(&self, rows: u8) -> bool {
        let table = &self.tables[usize::from(rows - 3)];
        let log_floor: f64 = (0..usize::from(rows) * 9)
            .map(|square| {
                // Every square takes something (`can_fill` said so): its largest weight is
                // positive, and the least positive one is not above it.
                let column = table.iter().map(|row| row[square]);
                let top = column.clone().fold(0.0, f64::max);
                let least = column.filter(|&w| w != 0.0).fold(top, f64::min);
                (least / top).ln()
            })
            .sum();
        log_floor > f64::MIN_POSITIVE.ln() + 64.0 * std::f64::consts::LN_2
    }

    /// A built-in formation (its weights are valid by construction).
    fn built_in(weight: impl Fn(Option<Rank>, u8, u8, u8) -> f64, guarded_flag: bool) -> Formation {
        Formation::new(weight, guarded_flag).expect("the built-in weights are valid")
    }

    /// The same formation, tempered: every weight raised to `power`, the guard kept. Power 1
    /// is this formation, 0 every setup alike (the guard aside), and in between a hedge: the
    /// same leanings, each weaker by the same factor in the logarithm. A bot that believes a
    /// tempered prior still expects people's formations but is less surprised by others (a
    /// Flag in front, say: `classic` weighs it 0.02 against the back row's 1, tempered by 0.5
    /// 0.14).
    ///
    /// # Errors
    /// [`FormationError::Power`] for a power that is negative or not finite.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Formation, Rank};
    ///
    /// let hedged = Formation::classic().tempered(0.5)?;
    /// let front = hedged.weight(Some(Rank::Flag), 2, 4, 3);
    /// assert!((front - 0.02f64.sqrt()).abs() < 1e-12);
    /// assert!(hedged.guarded_flag());
    /// assert_eq!(Formation::classic().tempered(1.0)?, Formation::classic());
    /// assert!(Formation::classic().tempered(-1.0).is_err());
    /// # Ok::<_, salpakan::FormationError>(())
    /// ```
    pub fn tempered(&self, power: f64) -> Result<Formation, FormationError> {
        if !(power.is_finite() && power >= 0.0) {
            return Err(FormationError::Power(power));
        }
        Formation::new(
            |kind, depth, file, rows| self.weight(kind, depth, file, rows).powf(power),
            self.guarded_flag,
        )
    }

    /// The weight of `kind` (a rank, or `None` for an empty square) at `depth` and `file` in a
    /// zone of `rows` rows (0 outside the zone).
    #[must_use]
    pub fn weight(&self, kind: Option<Rank>, depth: u8, file: u8, rows: u8) -> f64 {
        if depth >= rows || file >= 9 || !(3..=4).contains(&rows) {
            return 0.0;
        }
        let kind = kind.map_or(EMPTY, Rank::index);
        self.tables[usize::from(rows - 3)][kind][usize::from(depth) * 9 + usize::from(file)]
    }

    /// Whether the Flag is guarded: on the back row, every zone square beside it occupied.
    #[inline]
    #[must_use]
    pub fn guarded_flag(&self) -> bool {
        self.guarded_flag
    }

    /// A hash of the weights and the guard: equal formations have equal fingerprints.
    pub(crate) fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Whether every rank has the same weight on every square of a zone of `rows` rows: the
    /// prior is then no prior, and beliefs under it are the plain count.
    pub(crate) fn is_uniform_over_ranks(&self, rows: u8) -> bool {
        let table = &self.tables[usize::from(rows - 3)];
        let squares = usize::from(rows) * 9;
        let first = table[0][0];
        table[..Rank::NUM]
            .iter()
            .all(|row| row[..squares].iter().all(|&w| w == first))
    }

    /// The weight row of the piece that started on `square` of `side`'s zone, over the ranks
    /// (the beliefs' prior for it).
    pub(crate) fn rank_row(&self, side: Side, rules: Rules, square: Square) -> [f64; KINDS] {
        let (depth, file) = depth_and_file(side, square);
        let mut row = [0.0; KINDS];
        for rank in Rank::ALL {
            row[rank.index()] = self.weight(Some(rank), depth, file, rules.setup_rows());
        }
        row
    }

    /// The product form's sums for a zone of `rows` rows: items are the zone's squares by
    /// depth and file, kinds the ranks and "empty".
    fn sums(&self, rows: u8) -> Option<Arc<Weighted>> {
        self.sums[usize::from(rows - 3)]
            .get_or_init(|| {
                let squares = usize::from(rows) * 9;
                let table = &self.tables[usize::from(rows - 3)];
                let rows_of_weights: Vec<[f64; KINDS]> = (0..squares)
                    .map(|index| core::array::from_fn(|kind| table[kind][index]))
                    .collect();
                let mut counts = [0u8; KINDS];
                for rank in Rank::ALL {
                    counts[rank.index()] = rank.count();
                }
                counts[EMPTY] = (squares - Rank::ARMY_SIZE) as u8;
                Weighted::new(&rows_of_weights, counts).map(Arc::new)
            })
            .clone()
    }

    /// The probability of each rank on each square of `side`'s zone under the product form
    /// (the guard not applied): `[square][rank]`, 0 outside the zone. Exact.
    ///
    /// ```
    /// use salpakan::{Formation, Rank, Rules, Side};
    ///
    /// let p = Formation::uniform().probabilities(Side::White, Rules::default());
    /// assert!((p[0][Rank::Flag.index()] - 1.0 / 27.0).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn probabilities(&self, side: Side, rules: Rules) -> [[f64; Rank::NUM]; Square::NUM] {
        let mut out = [[0.0; Rank::NUM]; Square::NUM];
        let sums = self
            .sums(rules.setup_rows())
            .expect("checked when the formation was made");
        for square in rules.setup_zone(side) {
            let (depth, file) = depth_and_file(side, square);
            let marginal = &sums.marginals[usize::from(depth) * 9 + usize::from(file)];
            out[square.index()].copy_from_slice(&marginal[..Rank::NUM]);
        }
        out
    }

    /// A setup for `side` drawn from this formation: its probability is proportional to the
    /// product of its squares' weights, kept only if the Flag is guarded when the guard is on.
    pub fn sample(&self, side: Side, rules: Rules, rng: &mut SplitMix64) -> Setup {
        let rows = rules.setup_rows();
        let sums = self
            .sums(rows)
            .expect("checked when the formation was made");
        let mut cells = [None; Square::NUM];
        for attempt in 0..1000 {
            cells = [None; Square::NUM];
            for (index, &kind) in sums.sample(rng).iter().enumerate() {
                let square = square_at(side, (index / 9) as u8, (index % 9) as u8);
                cells[square.index()] = Rank::ALL.get(usize::from(kind)).copied();
            }
            if !self.guarded_flag || is_guarded(side, rules, &cells) || attempt == 999 {
                break;
            }
        }
        Setup::from_cells(side, rules, &cells).expect("a draw places the army in the zone")
    }
}

impl Setup {
    /// A setup for `side` drawn from `formation` ([`Formation::sample`]); the uniform deal
    /// is [`Setup::random`].
    ///
    /// ```
    /// use salpakan::{Formation, Rules, Setup, Side, SplitMix64};
    ///
    /// let mut rng = SplitMix64::new(1);
    /// let setup = Setup::sample_with(Side::White, Rules::default(), &Formation::classic(), &mut rng);
    /// assert_eq!(setup.pieces().count(), 21);
    /// ```
    #[must_use]
    pub fn sample_with(
        side: Side,
        rules: Rules,
        formation: &Formation,
        rng: &mut SplitMix64,
    ) -> Setup {
        formation.sample(side, rules, rng)
    }
}

/// Kuhn's augmenting path from `square`: gives it a slot it `fits`, moving the slots' holders
/// on where they can go; `holder[slot]` is the square holding each slot (`usize::MAX` none).
fn augment(
    square: usize,
    fits: &dyn Fn(usize, usize) -> bool,
    holder: &mut [usize],
    seen: &mut [bool],
) -> bool {
    for slot in 0..holder.len() {
        if seen[slot] || !fits(slot, square) {
            continue;
        }
        seen[slot] = true;
        if holder[slot] == usize::MAX || augment(holder[slot], fits, holder, seen) {
            holder[slot] = square;
            return true;
        }
    }
    false
}

impl FromStr for Formation {
    type Err = ValueError;

    /// A built-in formation by name: `"uniform"` or `"classic"`, in any case, optionally
    /// [tempered](Formation::tempered) by a power after `^`: `"classic^0.5"` (level 8's
    /// belief).
    ///
    /// ```
    /// use salpakan::Formation;
    ///
    /// let hedged: Formation = "classic^0.5".parse()?;
    /// assert_eq!(hedged, Formation::classic().tempered(0.5)?);
    /// assert!("classic^-1".parse::<Formation>().is_err());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    fn from_str(name: &str) -> Result<Formation, ValueError> {
        let refuse = || ValueError::Formation(name.to_owned());
        let (base, power) = match name.split_once('^') {
            Some((base, power)) => (base, Some(power.parse::<f64>().map_err(|_| refuse())?)),
            None => (name, None),
        };
        let formation = if base.eq_ignore_ascii_case("uniform") {
            Formation::uniform()
        } else if base.eq_ignore_ascii_case("classic") {
            Formation::classic()
        } else {
            return Err(refuse());
        };
        match power {
            Some(power) => formation.tempered(power).map_err(|_| refuse()),
            None => Ok(formation),
        }
    }
}

/// A square's depth from `side`'s back row, and its file.
pub(crate) fn depth_and_file(side: Side, square: Square) -> (u8, u8) {
    let depth = match side {
        Side::White => square.row(),
        Side::Black => 7 - square.row(),
    };
    (depth, square.file())
}

/// The square of `side`'s zone at `depth` and `file`.
fn square_at(side: Side, depth: u8, file: u8) -> Square {
    let row = match side {
        Side::White => depth,
        Side::Black => 7 - depth,
    };
    Square::from_coords(file, row).expect("depth and file inside the board")
}

/// Whether the Flag in `cells` stands on `side`'s back row with every zone square beside it
/// (left, right, in front) occupied.
fn is_guarded(side: Side, rules: Rules, cells: &[Option<Rank>; Square::NUM]) -> bool {
    let Some(flag) = Square::ALL
        .into_iter()
        .find(|s| cells[s.index()] == Some(Rank::Flag))
    else {
        return false;
    };
    let (depth, file) = depth_and_file(side, flag);
    if depth != 0 {
        return false;
    }
    let zone = rules.setup_zone(side);
    let mut beside = vec![square_at(side, 1, file)];
    if file > 0 {
        beside.push(square_at(side, 0, file - 1));
    }
    if file < 8 {
        beside.push(square_at(side, 0, file + 1));
    }
    beside
        .into_iter()
        .filter(|s| zone.has(*s))
        .all(|s| cells[s.index()].is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_is_a_legal_guarded_setup() {
        let mut rng = SplitMix64::new(3);
        for rows in [3, 4] {
            let rules = Rules::new(rows, 0).unwrap();
            for side in Side::ALL {
                for _ in 0..200 {
                    let setup = Formation::classic().sample(side, rules, &mut rng);
                    // A legal Setup: it goes through the checks again from its cells.
                    let cells: Vec<_> = setup.pieces().collect();
                    assert_eq!(Setup::new(side, rules, cells).unwrap(), setup);
                    let mut all = [None; Square::NUM];
                    for (square, rank) in setup.pieces() {
                        all[square.index()] = Some(rank);
                    }
                    assert!(is_guarded(side, rules, &all));
                }
            }
        }
    }

    /// The Flag's row frequencies over many draws against the exact marginals: chi-square.
    fn flag_rows_follow(formation: &Formation, side: Side, draws: u32) {
        let rules = Rules::default();
        let p = formation.probabilities(side, rules);
        let mut expected = [0.0; 3];
        for square in rules.setup_zone(side) {
            expected[usize::from(depth_and_file(side, square).0)] += p[square.index()][0];
        }
        let mut seen = [0u32; 3];
        let mut rng = SplitMix64::new(17);
        for _ in 0..draws {
            let setup = formation.sample(side, rules, &mut rng);
            let flag = setup.pieces().find(|(_, r)| *r == Rank::Flag).unwrap().0;
            seen[usize::from(depth_and_file(side, flag).0)] += 1;
        }
        let chi: f64 = expected
            .iter()
            .zip(seen)
            .filter(|(e, _)| **e > 0.0)
            .map(|(e, n)| {
                let e = e * f64::from(draws);
                (f64::from(n) - e).powi(2) / e
            })
            .sum();
        // 2 degrees of freedom: 13.8 is the 0.999 point.
        assert!(
            chi < 13.8,
            "{seen:?} against {expected:?}: chi-square {chi}"
        );
    }

    #[test]
    fn flag_rows_follow_the_weights() {
        let classic = Formation::classic();
        let unguarded = Formation::new(
            |kind, depth, _, rows| classic.weight(kind, depth, 4, rows),
            false,
        )
        .unwrap();
        // The weights say 1 : 0.15 : 0.02 for one Flag on a row of nine before the others
        // compete for squares; the exact marginals account for them.
        let p = unguarded.probabilities(Side::White, Rules::default());
        let back: f64 = (0..9).map(|f| p[f][0]).sum();
        assert!(back > 0.8 && back < 0.95, "{back}");
        flag_rows_follow(&unguarded, Side::White, 20_000);
        flag_rows_follow(&unguarded, Side::Black, 20_000);
        flag_rows_follow(&Formation::uniform(), Side::Black, 20_000);
    }

    #[test]
    fn uniform_gives_every_square_the_same_chances() {
        let p = Formation::uniform().probabilities(Side::Black, Rules::default());
        for square in Rules::default().setup_zone(Side::Black) {
            for rank in Rank::ALL {
                let want = f64::from(rank.count()) / 27.0;
                assert!((p[square.index()][rank.index()] - want).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn the_uniform_deal_is_unchanged() {
        // Setup::random keeps its own draws (a shuffle of the zone), untouched by formations:
        // seed 42's deal as it was before them, so a recorded seed keeps its formation.
        let setup = Setup::random(Side::White, Rules::default(), 42);
        let text = setup.to_string();
        assert_eq!(text, SEED_42);
    }

    const SEED_42: &str = "CP:b1 MJ:c1 3G:d1 SG:f1 2G:h1 PV:a2 FL:b2 4G:c2 PV:d2 PV:e2 CO:f2 1G:g2 \
        SP:h2 PV:i2 PV:a3 PV:d3 2L:e3 LC:f3 5G:g3 SP:h3 1L:i3";

    #[test]
    fn tempering_weakens_every_leaning_alike() {
        let classic = Formation::classic();
        let rules = Rules::default();
        let back_flag = |formation: &Formation| -> f64 {
            let p = formation.probabilities(Side::White, rules);
            (0..9).map(|file| p[file][Rank::Flag.index()]).sum()
        };
        // Power 1 is the formation itself, power 0 no leaning at all (the guard kept).
        assert_eq!(classic.tempered(1.0).unwrap(), classic);
        let flat = classic.tempered(0.0).unwrap();
        assert!(flat.is_uniform_over_ranks(3) && flat.guarded_flag());
        assert_eq!(flat.fingerprint(), flat.clone().fingerprint());
        assert_ne!(flat.fingerprint(), Formation::uniform().fingerprint());
        assert!((back_flag(&flat) - 1.0 / 3.0).abs() < 1e-12);
        // Each weight raised to the power; powers compose.
        let half = classic.tempered(0.5).unwrap();
        let quarter = half.tempered(0.5).unwrap();
        let direct = classic.tempered(0.25).unwrap();
        for kind in Rank::ALL.map(Some).into_iter().chain([None]) {
            for (depth, file) in [(0, 0), (1, 4), (2, 8), (3, 3)] {
                let w = classic.weight(kind, depth, file, 4);
                assert!((half.weight(kind, depth, file, 4) - w.sqrt()).abs() < 1e-12);
                let q = direct.weight(kind, depth, file, 4);
                assert!((quarter.weight(kind, depth, file, 4) - q).abs() < 1e-12);
            }
        }
        // The Flag's chance of the back row falls with the power, from classic's to a third
        // (powers 1, 0.5, 0.25 and 0: the formations made above, whose sums are kept).
        let chances: Vec<f64> = [&classic, &half, &direct, &flat]
            .into_iter()
            .map(back_flag)
            .collect();
        assert!(chances.windows(2).all(|w| w[0] > w[1]), "{chances:?}");
        assert!(chances[0] > 0.8, "{chances:?}");
        // Draws from a tempered formation follow its marginals, guarded.
        flag_rows_follow(
            &Formation::new(|k, d, _, r| half.weight(k, d, 4, r), false).unwrap(),
            Side::Black,
            20_000,
        );
        let mut rng = SplitMix64::new(5);
        let setup = half.sample(Side::White, rules, &mut rng);
        let mut cells = [None; Square::NUM];
        for (square, rank) in setup.pieces() {
            cells[square.index()] = Some(rank);
        }
        assert!(is_guarded(Side::White, rules, &cells));
        for power in [-0.5, f64::NAN, f64::INFINITY] {
            let err = classic.tempered(power).unwrap_err();
            assert!(
                matches!(err, FormationError::Power(p) if p.to_bits() == power.to_bits()),
                "{err:?}"
            );
            assert!(err.to_string().contains("is not finite and >= 0"), "{err}");
        }
    }

    #[test]
    fn a_formation_makes_its_sums_at_first_use_unless_they_could_underflow() {
        let made = |f: &Formation| [f.sums[0].get().is_some(), f.sums[1].get().is_some()];
        // Weights of 0 and 1 (no Flag off the back row): nothing made until it is needed,
        // then one zone's, once for every clone.
        let back_flag = Formation::new(
            |kind, depth, _, _| {
                if kind == Some(Rank::Flag) && depth > 0 {
                    0.0
                } else {
                    1.0
                }
            },
            false,
        )
        .unwrap();
        let copy = back_flag.clone();
        assert_eq!(made(&back_flag), [false, false]);
        let _ = back_flag.probabilities(Side::White, Rules::default());
        assert_eq!(made(&copy), [true, false]);
        assert_eq!(
            made(&Formation::classic().tempered(0.3).unwrap()),
            [false, false]
        );
        // Each square's weights over its largest: pieces at 2e-11 beside holes at 4 give a
        // product over the 3-row zone's 27 squares of e^-702, within 2^64 of the smallest
        // double (e^-708): made at once, both zones.
        let faint = |piece: f64| {
            Formation::new(
                move |kind, _, _, _| if kind.is_some() { piece } else { 4.0 },
                false,
            )
            .unwrap()
        };
        assert_eq!(made(&faint(2e-11)), [true, true]);
        // At 1.4e-10, e^-650 for 3 rows waits; e^-867 for 4 rows does not.
        assert_eq!(made(&faint(1.4e-10)), [false, true]);
        let p = faint(1.4e-10).probabilities(Side::White, Rules::default());
        let pieces: f64 = p.iter().flatten().sum();
        assert!((pieces - 21.0).abs() < 1e-9, "{pieces}");
    }

    #[test]
    fn bad_weights_are_refused_by_name() {
        let err = Formation::new(
            |kind, depth, file, _| {
                if kind == Some(Rank::Spy) && depth == 1 && file == 2 {
                    -1.0
                } else {
                    1.0
                }
            },
            false,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the weight -1 of Spy at depth 1, file 2 is not finite and >= 0"
        );
        let err = Formation::new(
            |kind, _, _, _| if kind.is_none() { 1.0 } else { 0.0 },
            false,
        )
        .unwrap_err();
        assert_eq!(err, FormationError::NoSetup { rows: 3 });
        let err = Formation::new(
            |kind, depth, _, _| {
                if kind == Some(Rank::Flag) && depth == 0 {
                    0.0
                } else {
                    1.0
                }
            },
            true,
        )
        .unwrap_err();
        assert_eq!(err, FormationError::NoSetup { rows: 3 });
        // Every square may take something, yet the two Spies have one square between them.
        let one_spy_square = |kind, depth, file, _| match kind {
            Some(Rank::Spy) if (depth, file) != (1, 1) => 0.0,
            _ => 1.0,
        };
        let err = Formation::new(one_spy_square, false).unwrap_err();
        assert_eq!(err, FormationError::NoSetup { rows: 3 });
        // Two squares for them: a setup exists, and the matching agrees with the exact sums.
        let two = Formation::new(
            |kind, depth, file, rows| {
                if (depth, file) == (2, 7) {
                    1.0
                } else {
                    one_spy_square(kind, depth, file, rows)
                }
            },
            false,
        )
        .unwrap();
        let p = two.probabilities(Side::White, Rules::default());
        let spies: f64 = p.iter().map(|row| row[Rank::Spy.index()]).sum();
        assert!((spies - 2.0).abs() < 1e-9, "{spies}");
        for square in ["b2", "h3"] {
            let square: Square = square.parse().unwrap();
            assert!((p[square.index()][Rank::Spy.index()] - 1.0).abs() < 1e-9);
        }
        // Weights whose every setup weighs less than the smallest double are no setup either:
        // the sums, made at once for such weights, decide.
        let err = Formation::new(
            |kind, _, _, _| if kind.is_some() { 1e-300 } else { 1.0 },
            false,
        )
        .unwrap_err();
        assert_eq!(err, FormationError::NoSetup { rows: 3 });
        let faint = Formation::new(
            |kind, _, _, _| if kind.is_some() { 1e-13 } else { 1.0 },
            false,
        )
        .unwrap();
        let p = faint.probabilities(Side::Black, Rules::default());
        let pieces: f64 = p.iter().flatten().sum();
        assert!((pieces - 21.0).abs() < 1e-9, "{pieces}");
        assert_eq!(
            "Classic".parse::<Formation>().unwrap(),
            Formation::classic()
        );
        assert!("blitz".parse::<Formation>().is_err());
        assert_eq!(
            "CLASSIC^0.25".parse::<Formation>().unwrap(),
            Formation::classic().tempered(0.25).unwrap()
        );
        for bad in [
            "classic^",
            "classic^x",
            "classic^-1",
            "classic^inf",
            "blitz^0.5",
            "^0.5",
        ] {
            let err = bad.parse::<Formation>().unwrap_err();
            assert_eq!(err, ValueError::Formation(bad.to_owned()), "{bad}");
        }
    }
}
