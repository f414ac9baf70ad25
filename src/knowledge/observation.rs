//! The observation tensor: what one side knows, as fixed-size `f32` planes over the board, for
//! learning agents.

use crate::rank::Rank;
use crate::side::Side;
use crate::square::Square;

use super::error::ObserveError;
use super::tracker::Tracker;

/// How the board is laid out in an [`Observation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    /// The viewer always plays "up": row 0 of the tensor is the viewer's home row and file 0
    /// is the viewer's left, so that White's and Black's tensors look alike (the board turned
    /// half a turn for Black). What learning code expects; the default.
    #[default]
    ViewerUp,
    /// The board as the square numbering has it: row 0 is row 1, file 0 is file `a`, whoever
    /// views.
    Board,
}

/// One side's observation tensor: [`Observation::PLANES`] planes of 8 rows × 9 files of
/// `f32`, row-major (`[plane][row][file]`), built from that side's information alone (its own
/// setup, the enemy's squares, the public history), so no hidden rank can leak into it.
///
/// The planes, in order (constants name each first plane):
///
/// | planes | name | value on a square |
/// |---|---|---|
/// | 0–14 | [`Observation::OWN`] + rank | 1 where the viewer's own piece of that rank (Flag 0 … Spy 14) stands |
/// | 15 | [`Observation::ENEMY`] | 1 where an enemy piece stands |
/// | 16–30 | [`Observation::BELIEF`] + rank | on an enemy piece, the exact posterior probability that it has that rank; they sum to 1 over the 15 planes |
/// | 31 | [`Observation::LAST_FROM`] | 1 on the square the last move left |
/// | 32 | [`Observation::LAST_TO`] | 1 on the square the last move entered (a challenge's square) |
/// | 33 | [`Observation::LAST_CHALLENGE`] | all 1 if the last move was a challenge |
/// | 34 | [`Observation::OWN_WAITING`] | 1 on the viewer's own Flag if it waits on its far row for the enemy's one reply |
/// | 35 | [`Observation::ENEMY_ARRIVED`] | 1 on an enemy piece that reached its far row beside a piece of the viewer's and may be a waiting Flag |
/// | 36 | [`Observation::TO_MOVE`] | all 1 if the viewer is to move |
/// | 37 | [`Observation::QUIET`] | all equal to the plies since the last challenge divided by the move limit (0 without a limit) |
///
/// # Examples
/// ```
/// use salpakan::{Game, Observation, Orientation, Rules, Side};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let obs = game.observation(Side::Black, Orientation::ViewerUp)?;
/// assert_eq!(obs.as_slice().len(), Observation::LEN);
/// // Before any challenge, each enemy piece is a Private with probability 6/21.
/// let p = obs.get(Observation::BELIEF + 1, 7, 0); // the enemy's home row, seen from Black
/// assert!(p == 0.0 || (p - 6.0 / 21.0).abs() < 1e-6);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct Observation {
    data: Box<[f32; Observation::LEN]>,
}

impl core::fmt::Debug for Observation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Observation")
            .field("shape", &Observation::SHAPE)
            .finish_non_exhaustive()
    }
}

impl Observation {
    /// The first of the 15 own-rank planes (plus the rank's value).
    pub const OWN: usize = 0;
    /// The enemy-presence plane.
    pub const ENEMY: usize = 15;
    /// The first of the 15 belief planes (plus the rank's value).
    pub const BELIEF: usize = 16;
    /// The plane of the last move's start.
    pub const LAST_FROM: usize = 31;
    /// The plane of the last move's target.
    pub const LAST_TO: usize = 32;
    /// The plane that is all 1 after a challenge.
    pub const LAST_CHALLENGE: usize = 33;
    /// The plane of the viewer's own waiting Flag.
    pub const OWN_WAITING: usize = 34;
    /// The plane of an enemy piece that may be a waiting Flag.
    pub const ENEMY_ARRIVED: usize = 35;
    /// The plane that is all 1 when the viewer is to move.
    pub const TO_MOVE: usize = 36;
    /// The move-limit counter plane.
    pub const QUIET: usize = 37;
    /// The number of planes.
    pub const PLANES: usize = 38;
    /// Rows of a plane.
    pub const ROWS: usize = Square::ROWS as usize;
    /// Files of a plane.
    pub const FILES: usize = Square::FILES as usize;
    /// The tensor's shape: `[planes, rows, files]`.
    pub const SHAPE: [usize; 3] = [Observation::PLANES, Observation::ROWS, Observation::FILES];
    /// The number of floats: planes × rows × files.
    pub const LEN: usize = Observation::PLANES * Observation::ROWS * Observation::FILES;
    /// The layout's version: raised whenever a plane's meaning, order or scale changes, so
    /// that a policy trained on one layout is never fed another silently. Every binding
    /// exposes it (`SALPAKAN_OBSERVATION_VERSION`, Python's `salpakan.OBSERVATION_VERSION`,
    /// JavaScript's `OBSERVATION_VERSION`, C#'s `Limits.ObservationVersion`); a test pins
    /// each version's tensors of a fixed game, so a change of layout without a new version
    /// fails it.
    pub const VERSION: u32 = 1;

    /// The floats, `[plane][row][file]` row-major.
    #[must_use]
    pub fn as_slice(&self) -> &[f32] {
        self.data.as_slice()
    }

    /// The value at `plane`, `row`, `file` (in the tensor's orientation); 0 outside the shape.
    #[must_use]
    pub fn get(&self, plane: usize, row: usize, file: usize) -> f32 {
        if plane >= Observation::PLANES || row >= Observation::ROWS || file >= Observation::FILES {
            return 0.0;
        }
        self.data[(plane * Observation::ROWS + row) * Observation::FILES + file]
    }

    /// One plane, 72 floats row-major.
    #[must_use]
    pub fn plane(&self, plane: usize) -> &[f32] {
        let size = Observation::ROWS * Observation::FILES;
        let start = plane.min(Observation::PLANES - 1) * size;
        &self.data[start..start + size]
    }
}

/// The position of `square` in a plane, under `orientation`, for `viewer`: its index, or the
/// index counted from the other end when the board is turned half a turn (row `r` becomes
/// `7 - r` and file `f` becomes `8 - f`).
#[inline]
fn cell(square: Square, viewer: Side, orientation: Orientation) -> usize {
    if orientation == Orientation::ViewerUp && viewer == Side::Black {
        Square::NUM - 1 - square.index()
    } else {
        square.index()
    }
}

impl Tracker {
    /// This side's [`Observation`]. Its belief planes come from the tracker's counts, made
    /// once per set of facts (see [`Tracker::beliefs`]).
    ///
    /// # Errors
    /// As [`Tracker::beliefs`].
    pub fn observation(&self, orientation: Orientation) -> Result<Observation, ObserveError> {
        let mut data = Box::new([0.0f32; Observation::LEN]);
        self.write_observation(orientation, &mut data)?;
        Ok(Observation { data })
    }

    /// Writes this side's observation into `out` (for batched environments that keep their
    /// own buffers). Every float is written; nothing is allocated once the tracker has
    /// counted its beliefs.
    ///
    /// # Errors
    /// As [`Tracker::beliefs`]; `out` is then unchanged.
    pub fn write_observation(
        &self,
        orientation: Orientation,
        out: &mut [f32; Observation::LEN],
    ) -> Result<(), ObserveError> {
        let counts = self.counts().ok_or(ObserveError::NoFit {
            why: "no assignment of the enemy's ranks fits every fact",
        })?;
        let me = self.side();
        let size = Observation::ROWS * Observation::FILES;
        // The planes with a few marked squares start at 0; the last two are filled below.
        out[..Observation::TO_MOVE * size].fill(0.0);
        let mut set = |plane: usize, square: Square, value: f32| {
            out[plane * size + cell(square, me, orientation)] = value;
        };
        for square in Square::ALL {
            let Some(id) = self.piece_at(square) else {
                continue;
            };
            if id.side() == me {
                if let Some(rank) = self.own_rank(square) {
                    set(Observation::OWN + rank.index(), square, 1.0);
                }
            } else {
                set(Observation::ENEMY, square, 1.0);
                let probabilities = &counts.marginals[id.number()];
                for rank in Rank::ALL {
                    set(
                        Observation::BELIEF + rank.index(),
                        square,
                        probabilities[rank.index()] as f32,
                    );
                }
            }
        }
        if let Some(last) = self.history().last() {
            set(Observation::LAST_FROM, last.mv.from, 1.0);
            set(Observation::LAST_TO, last.mv.to, 1.0);
        }
        if let Some(square) = self.own_waiting_flag() {
            set(Observation::OWN_WAITING, square, 1.0);
        }
        if let Some(square) = self.enemy_arrived() {
            set(Observation::ENEMY_ARRIVED, square, 1.0);
        }
        let constant = |out: &mut [f32; Observation::LEN], plane: usize, value: f32| {
            out[plane * size..(plane + 1) * size].fill(value);
        };
        let challenge = self.history().last().is_some_and(|r| r.outcome.is_some());
        constant(
            out,
            Observation::LAST_CHALLENGE,
            f32::from(u8::from(challenge)),
        );
        let to_move = self.status().is_ongoing() && self.side_to_move() == me;
        constant(out, Observation::TO_MOVE, f32::from(u8::from(to_move)));
        let quiet = match self.rules().move_limit() {
            Some(limit) => f32::from(self.plies_since_challenge()) / f32::from(limit),
            None => 0.0,
        };
        constant(out, Observation::QUIET, quiet);
        Ok(())
    }
}
