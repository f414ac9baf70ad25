//! Formation commitments: an arbiter that players can check. Before the first move the
//! arbiter publishes, for each side, the SHA-256 of a secret [`Salt`] and that side's
//! formation; at the end it opens them (the salts, and the formations in the record). Anyone
//! holding the record can then check that each formation played is the one committed before
//! the first move ([`Game::verify_commitments`]), and replaying the record checks every
//! announced challenge against the opened formations ([`Game::from_record`] refuses an
//! announcement the formations do not give).
//!
//! The commitment of a formation `setup` with salt `salt` is the lower-case hexadecimal
//! SHA-256 of the UTF-8 text `"salpakan-commitment-1\n" + SALT + "\n" + SETUP`, where `SALT`
//! is the salt's 32 lower-case hexadecimal digits and `SETUP` the formation's setup text
//! (its pieces in square order, `"FL:a1 PV:b1 …"`, lower case for Black), the same text as
//! the record's `WhiteSetup` or `BlackSetup` tag. A record carries them as the tags
//! `WhiteCommitment`, `BlackCommitment`, `WhiteSalt` and `BlackSalt`.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::error_kind::ErrorKind;
use crate::game::Game;
use crate::setup::Setup;
use crate::side::Side;

/// What every commitment's hashed text starts with (a commitment of this scheme can never
/// be read as the hash of anything else).
pub const COMMITMENT_DOMAIN: &str = "salpakan-commitment-1\n";

/// A secret salt of 128 bits: it keeps a commitment from being matched against guessed
/// formations. It must come from a secret source (the operating system's generator): the
/// crate only carries it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salt([u8; Salt::BYTES]);

/// A formation's commitment: a SHA-256 digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment([u8; Commitment::BYTES]);

/// Text that is not a salt's or a commitment's hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{what} is {digits} hexadecimal digits, not {text:?}")]
pub struct HexError {
    /// `"a salt"` or `"a commitment"`.
    pub what: &'static str,
    /// How many digits it takes.
    pub digits: usize,
    /// The text refused (at most its first 80 characters).
    pub text: String,
}

/// Why a game's commitments do not hold.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommitmentError {
    /// A tag the check needs is missing.
    #[error("no {tag} tag")]
    Missing {
        /// The tag's name.
        tag: &'static str,
    },
    /// A tag is not hexadecimal digits of the right length.
    #[error("the {tag} tag: {error}")]
    Unreadable {
        /// The tag's name.
        tag: &'static str,
        /// What is wrong with it.
        error: HexError,
    },
    /// The game started from a position, not from two formations: there is nothing to open.
    #[error("the game started from a position, not from two formations")]
    NoFormations,
    /// A side's formation and salt do not give its commitment.
    #[error("{side}'s formation and salt do not give its commitment")]
    Mismatch {
        /// The side.
        side: Side,
    },
}

impl CommitmentError {
    /// [`ErrorKind::Commitment`]: the record does not verify.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Commitment
    }
}

impl HexError {
    /// [`ErrorKind::Argument`]: a salt or commitment given that is not one (inside a record,
    /// [`Game::verify_commitments`] reports it as [`CommitmentError::Unreadable`]).
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Argument
    }
}

crate::error_kind::engine_error!(CommitmentError, HexError);

fn hex(bytes: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for byte in bytes {
        write!(f, "{byte:02x}")?;
    }
    Ok(())
}

fn unhex<const N: usize>(text: &str, what: &'static str) -> Result<[u8; N], HexError> {
    let refused = || HexError {
        what,
        digits: 2 * N,
        text: text.chars().take(80).collect(),
    };
    let digits = text.as_bytes();
    if digits.len() != 2 * N {
        return Err(refused());
    }
    let mut out = [0_u8; N];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let high = char::from(pair[0]).to_digit(16).ok_or_else(refused)?;
        let low = char::from(pair[1]).to_digit(16).ok_or_else(refused)?;
        *byte = (high * 16 + low) as u8;
    }
    Ok(out)
}

impl Salt {
    /// A salt's length in bytes (128 bits).
    pub const BYTES: usize = 16;

    /// The salt of `bytes` (from a secret source: the operating system's generator).
    #[must_use]
    pub const fn from_bytes(bytes: [u8; Salt::BYTES]) -> Salt {
        Salt(bytes)
    }

    /// Its bytes.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; Salt::BYTES] {
        &self.0
    }
}

impl fmt::Display for Salt {
    /// 32 lower-case hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        hex(&self.0, f)
    }
}

impl fmt::Debug for Salt {
    /// Never the salt itself: a salt is a secret until it is opened.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Salt(..)")
    }
}

impl FromStr for Salt {
    type Err = HexError;

    /// Reads 32 hexadecimal digits (either case).
    fn from_str(text: &str) -> Result<Salt, HexError> {
        unhex(text, "a salt").map(Salt)
    }
}

impl Commitment {
    /// A commitment's length in bytes (SHA-256).
    pub const BYTES: usize = 32;

    /// The commitment of formation `setup` with `salt` (the scheme is in this module's
    /// documentation).
    ///
    /// ```
    /// use salpakan::{Rules, Setup, Side};
    /// use salpakan::commitment::{Commitment, Salt};
    /// let setup = Setup::random(Side::White, Rules::default(), 1);
    /// let salt = Salt::from_bytes(*b"0123456789abcdef"); // from the OS's generator, in use
    /// let commitment = Commitment::of(&setup, &salt);
    /// assert!(commitment.opens(&setup, &salt));
    /// assert_eq!(commitment.to_string().len(), 64);
    /// ```
    #[must_use]
    pub fn of(setup: &Setup, salt: &Salt) -> Commitment {
        let mut hasher = Sha256::new();
        hasher.update(COMMITMENT_DOMAIN.as_bytes());
        hasher.update(salt.to_string().as_bytes());
        hasher.update(b"\n");
        hasher.update(setup.to_string().as_bytes());
        Commitment(hasher.finalize().into())
    }

    /// Whether `setup` and `salt` give this commitment.
    #[must_use]
    pub fn opens(&self, setup: &Setup, salt: &Salt) -> bool {
        Commitment::of(setup, salt) == *self
    }

    /// Its bytes.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; Commitment::BYTES] {
        &self.0
    }
}

impl fmt::Display for Commitment {
    /// 64 lower-case hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        hex(&self.0, f)
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({self})")
    }
}

impl FromStr for Commitment {
    type Err = HexError;

    /// Reads 64 hexadecimal digits (either case).
    fn from_str(text: &str) -> Result<Commitment, HexError> {
        unhex(text, "a commitment").map(Commitment)
    }
}

/// A side's commitment and salt tags.
const fn tags(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::White => ("WhiteCommitment", "WhiteSalt"),
        Side::Black => ("BlackCommitment", "BlackSalt"),
    }
}

impl Game {
    /// Records `side`'s commitment (before the first move) as its tag: `WhiteCommitment` or
    /// `BlackCommitment`.
    pub fn set_commitment(&mut self, side: Side, commitment: &Commitment) {
        self.set_tag(tags(side).0, &commitment.to_string());
    }

    /// Commits `side` to its formation with `salt` (before the first move): the commitment
    /// of the game's own formation, recorded as [`Game::set_commitment`] does, and returned
    /// to be published. What an arbiter does at the start; [`Game::open_commitment`] at the
    /// end.
    ///
    /// ```
    /// use salpakan::{Game, Rules, Side};
    /// use salpakan::commitment::Salt;
    /// let mut game = Game::dealt(Side::White, Rules::default(), 7);
    /// let salt = Salt::from_bytes([9; 16]); // from the OS's generator, in use
    /// let published = game.commit(Side::Black, &salt)?;
    /// assert_eq!(game.commitment(Side::Black), Some(published));
    /// # Ok::<_, salpakan::commitment::CommitmentError>(())
    /// ```
    ///
    /// # Errors
    /// [`CommitmentError::NoFormations`] for a game made from a position.
    pub fn commit(&mut self, side: Side, salt: &Salt) -> Result<Commitment, CommitmentError> {
        let setup = self.setup(side).ok_or(CommitmentError::NoFormations)?;
        let commitment = Commitment::of(setup, salt);
        self.set_commitment(side, &commitment);
        Ok(commitment)
    }

    /// `side`'s commitment as its tag holds it (`None` without one, or an unreadable one).
    #[must_use]
    pub fn commitment(&self, side: Side) -> Option<Commitment> {
        self.tag(tags(side).0)?.parse().ok()
    }

    /// Opens `side`'s commitment in the record: its salt as the tag `WhiteSalt` or
    /// `BlackSalt` (the formation is in the record already).
    pub fn open_commitment(&mut self, side: Side, salt: &Salt) {
        self.set_tag(tags(side).1, &salt.to_string());
    }

    /// Checks that each side's formation, with its salt, gives the commitment the record
    /// says was published before the first move (the tags `WhiteCommitment`,
    /// `BlackCommitment`, `WhiteSalt`, `BlackSalt`). With [`Game::from_record`], which
    /// refuses a record whose announcements the formations do not give, this is the whole
    /// check of an arbiter's game.
    ///
    /// ```
    /// use salpakan::{Game, Rules, Side};
    /// use salpakan::commitment::{Commitment, Salt};
    /// let mut game = Game::dealt(Side::White, Rules::default(), 7);
    /// for (side, byte) in [(Side::White, 1), (Side::Black, 2)] {
    ///     let salt = Salt::from_bytes([byte; 16]); // from the OS's generator, in use
    ///     let formation = game.setup(side).unwrap();
    ///     game.set_commitment(side, &Commitment::of(formation, &salt));
    ///     game.open_commitment(side, &salt);
    /// }
    /// let record = game.record();
    /// assert_eq!(Game::from_record(&record)?.verify_commitments(), Ok(()));
    /// # Ok::<_, salpakan::text::TextError>(())
    /// ```
    ///
    /// # Errors
    /// [`CommitmentError`]: a tag missing or unreadable, a game from a position, or the side
    /// whose formation and salt do not give its commitment.
    pub fn verify_commitments(&self) -> Result<(), CommitmentError> {
        for side in Side::ALL {
            let (commitment_tag, salt_tag) = tags(side);
            let read = |tag: &'static str| self.tag(tag).ok_or(CommitmentError::Missing { tag });
            let commitment: Commitment =
                read(commitment_tag)?
                    .parse()
                    .map_err(|error| CommitmentError::Unreadable {
                        tag: commitment_tag,
                        error,
                    })?;
            let salt: Salt =
                read(salt_tag)?
                    .parse()
                    .map_err(|error| CommitmentError::Unreadable {
                        tag: salt_tag,
                        error,
                    })?;
            let setup = self.setup(side).ok_or(CommitmentError::NoFormations)?;
            if !commitment.opens(setup, &salt) {
                return Err(CommitmentError::Mismatch { side });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn salt(byte: u8) -> Salt {
        Salt::from_bytes(core::array::from_fn(|i| byte.wrapping_add(i as u8)))
    }

    /// The scheme as documented, computed apart from this crate: Python's
    /// `hashlib.sha256(("salpakan-commitment-1\n" + salt + "\n" + setup).encode()).hexdigest()`
    /// for the salt 00 01 … 0f and `Setup::random(Side::White, Rules::default(), 1)`.
    #[test]
    fn a_commitment_is_the_documented_hash() {
        let setup = Setup::random(Side::White, Rules::default(), 1);
        assert_eq!(
            setup.to_string(),
            "PV:a1 FL:b1 MJ:c1 PV:d1 PV:e1 5G:f1 3G:g1 CO:h1 1L:i1 2G:a2 PV:c2 PV:d2 CP:e2 4G:f2 \
             2L:i2 SP:a3 LC:c3 1G:d3 SP:e3 SG:h3 PV:i3"
        );
        let commitment = Commitment::of(&setup, &salt(0));
        assert_eq!(
            commitment.to_string(),
            "c28a12f12ba6b9945bd5e1990632c07e9aaca63d35a45777912e65d65ae1437c"
        );
        assert_eq!(salt(0).to_string(), "000102030405060708090a0b0c0d0e0f");
    }

    #[test]
    fn a_commitment_opens_with_its_own_formation_and_salt_only() {
        let rules = Rules::default();
        let setup = Setup::random(Side::Black, rules, 9);
        let commitment = Commitment::of(&setup, &salt(3));
        assert!(commitment.opens(&setup, &salt(3)));
        // Another salt, by one bit.
        let mut bytes = *salt(3).as_bytes();
        bytes[15] ^= 1;
        assert!(!commitment.opens(&setup, &Salt::from_bytes(bytes)));
        // Another formation: two of its pieces swapped.
        let mut cells = setup.cell_values();
        let occupied: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 255).collect();
        let (a, b) = (
            occupied[0],
            occupied[1..]
                .iter()
                .copied()
                .find(|&i| cells[i] != cells[occupied[0]])
                .unwrap(),
        );
        cells.swap(a, b);
        let swapped = Setup::from_cell_values(Side::Black, rules, &cells).unwrap();
        assert_ne!(swapped, setup);
        assert!(!commitment.opens(&swapped, &salt(3)));
        assert!(!commitment.opens(&Setup::random(Side::White, rules, 9), &salt(3)));
    }

    #[test]
    fn salts_and_commitments_read_back_and_refuse_what_is_not_theirs() {
        let s = salt(0xf0);
        assert_eq!(s.as_bytes()[..3], [0xf0, 0xf1, 0xf2]);
        assert_eq!(Salt::from_bytes(*s.as_bytes()), s);
        assert_eq!(s.to_string().parse::<Salt>(), Ok(s));
        assert_eq!(s.to_string().to_uppercase().parse::<Salt>(), Ok(s));
        assert_eq!(format!("{s:?}"), "Salt(..)");
        let c = Commitment::of(&Setup::random(Side::White, Rules::default(), 2), &s);
        assert_eq!(c.to_string().parse::<Commitment>(), Ok(c));
        let digits: String = c.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digits, c.to_string());
        assert!(format!("{c:?}").contains(&c.to_string()));
        for bad in [
            "",
            "0",
            &"0".repeat(31),
            &"0".repeat(33),
            &"g".repeat(32),
            &"é".repeat(16),
        ] {
            let refused = bad.parse::<Salt>().unwrap_err();
            assert_eq!((refused.what, refused.digits), ("a salt", 32), "{bad:?}");
        }
        let refused = "xyz".parse::<Commitment>().unwrap_err();
        assert_eq!(
            refused.to_string(),
            "a commitment is 64 hexadecimal digits, not \"xyz\""
        );
    }

    /// A game with both sides' commitments and salts in its tags.
    fn committed(seed: u64) -> Game {
        let mut game = Game::dealt(Side::White, Rules::default(), seed);
        for side in Side::ALL {
            let s = salt(side.index() as u8 * 100);
            let c = Commitment::of(game.setup(side).unwrap(), &s);
            game.set_commitment(side, &c);
            game.open_commitment(side, &s);
        }
        game
    }

    #[test]
    fn a_record_verifies_and_names_what_fails() {
        let mut game = committed(4);
        while game.status().is_ongoing() && game.history().len() < 60 {
            game.play(game.legal_moves()[0]).unwrap();
        }
        let record = game.record();
        assert_eq!(
            Game::from_record(&record).unwrap().verify_commitments(),
            Ok(())
        );
        // One salt changed.
        let white_salt = salt(0).to_string();
        let other = record.replace(&white_salt, &salt(1).to_string());
        assert_eq!(
            Game::from_record(&other).unwrap().verify_commitments(),
            Err(CommitmentError::Mismatch { side: Side::White })
        );
        // Black's committed formation swapped for another one.
        let black = game.setup(Side::Black).unwrap().to_string();
        let commitment = game.tag("BlackCommitment").unwrap().to_owned();
        let forged = Commitment::of(
            &Setup::random(Side::Black, Rules::default(), 99),
            &salt(100),
        );
        let other = record.replace(&commitment, &forged.to_string());
        assert_eq!(
            Game::from_record(&other).unwrap().verify_commitments(),
            Err(CommitmentError::Mismatch { side: Side::Black })
        );
        assert!(record.contains(&black));
        // A tag missing or unreadable.
        let mut bare = game.clone();
        bare.set_tag("BlackSalt", "zz");
        assert!(matches!(
            bare.verify_commitments(),
            Err(CommitmentError::Unreadable {
                tag: "BlackSalt",
                ..
            })
        ));
        let plain = Game::dealt(Side::White, Rules::default(), 4);
        assert_eq!(
            plain.verify_commitments(),
            Err(CommitmentError::Missing {
                tag: "WhiteCommitment"
            })
        );
        // A game from a position has no formations to open.
        let mut from_position = Game::from_position(*plain.position());
        for side in Side::ALL {
            from_position
                .set_commitment(side, &Commitment::of(plain.setup(side).unwrap(), &salt(0)));
            from_position.open_commitment(side, &salt(0));
        }
        assert_eq!(
            from_position.verify_commitments(),
            Err(CommitmentError::NoFormations)
        );
        let mut half = plain.clone();
        half.set_commitment(
            Side::White,
            &Commitment::of(plain.setup(Side::White).unwrap(), &salt(0)),
        );
        assert_eq!(
            half.verify_commitments(),
            Err(CommitmentError::Missing { tag: "WhiteSalt" })
        );
    }

    #[test]
    fn an_announcement_the_formations_do_not_give_is_refused_by_the_replay() {
        let mut game = committed(8);
        while game.status().is_ongoing() && !game.history().iter().any(|r| r.outcome.is_some()) {
            game.play(game.legal_moves()[0]).unwrap();
        }
        let record = game.record();
        let said = game.history().iter().find_map(|r| r.outcome).unwrap();
        let wrong = [
            crate::Outcome::Win,
            crate::Outcome::Lose,
            crate::Outcome::Tie,
        ]
        .into_iter()
        .find(|o| *o != said)
        .unwrap();
        let at = record.rfind(said.name()).unwrap();
        let forged = format!(
            "{}{}{}",
            &record[..at],
            wrong.name(),
            &record[at + said.name().len()..]
        );
        assert!(Game::from_record(&forged).is_err());
    }

    #[test]
    fn commit_records_its_own_formations_commitment_and_reads_it_back() {
        let mut game = Game::dealt(Side::Black, Rules::default(), 5);
        assert_eq!(game.commitment(Side::White), None);
        let made = game.commit(Side::White, &salt(7)).unwrap();
        assert_eq!(
            made,
            Commitment::of(game.setup(Side::White).unwrap(), &salt(7))
        );
        assert_eq!(game.commitment(Side::White), Some(made));
        assert_eq!(game.commitment(Side::Black), None);
        let black = game.commit(Side::Black, &salt(7)).unwrap();
        assert_ne!(black, made, "the same salt, another formation");
        game.set_tag("BlackCommitment", "not hex");
        assert_eq!(game.commitment(Side::Black), None);
        let mut from_position = Game::from_position(*game.position());
        assert_eq!(
            from_position.commit(Side::White, &salt(7)),
            Err(CommitmentError::NoFormations)
        );
        assert_eq!(from_position.commitment(Side::White), None);
        assert_eq!(CommitmentError::NoFormations.kind(), ErrorKind::Commitment);
        assert_eq!(
            "xyz".parse::<Salt>().unwrap_err().kind(),
            ErrorKind::Argument
        );
    }
}
