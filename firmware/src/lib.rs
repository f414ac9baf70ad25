//! The game a board's arbiter plays, as the device and the host both play it: the crate
//! without `std` (`default-features = false`), every ply written to a [`core::fmt::Write`].
//!
//! The firmware (`src/main.rs`, feature `device`) writes it through semihosting on a
//! Cortex-M4 under QEMU; the host's run (`examples/host.rs`) writes it to standard output;
//! `scripts/test-firmware` checks the two are the same byte for byte: every move, every
//! challenge's outcome and the result.
//!
//! [`Board`] is a physical arbiter's loop: the two ranks of a challenge read from the pieces
//! (an RFID reader, a camera), the outcome announced, and nothing else shown
//! (`examples/board.rs` reads them from standard input).

#![no_std]

use core::fmt::{self, Write};

use salpakan::{
    Game, Outcome, Rank, Rules, Setup, Side, SplitMix64, Status, captures_flag, challenge,
};

/// The seed of the game the device and the host play.
pub const SEED: u64 = 0x5a1_9a4a;

/// The rules of that game: the official three rows, and a draw after 200 plies without a
/// challenge.
pub const RULES: Rules = match Rules::new(3, 200) {
    Ok(rules) => rules,
    Err(_) => panic!("three rows and a move limit are rules"),
};

/// What a whole game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The plies played.
    pub plies: usize,
    /// The challenges among them, by their outcome for the attacker: won, lost, tied.
    pub challenges: [u32; 3],
    /// How the game ended.
    pub status: Status,
}

/// Deals two formations from `seed`, plays moves chosen uniformly at random (from the same
/// seed) to the end of the game, and writes each ply (`ply move outcome`, `-` for a plain
/// move), the challenges' tally and the result to `out`.
///
/// # Errors
/// Only `out`'s.
pub fn play(seed: u64, out: &mut impl Write) -> Result<Played, fmt::Error> {
    let white = Setup::random(Side::White, RULES, seed);
    let black = Setup::random(Side::Black, RULES, seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut game = Game::new(white, black, Side::White, RULES).map_err(|_| fmt::Error)?;
    let mut rng = SplitMix64::new(seed);
    let mut challenges = [0; 3];
    writeln!(out, "salpakan: seed {seed:#x}")?;
    while game.status().is_ongoing() {
        let moves = game.legal_moves();
        let at = rng.below(moves.len() as u64) as usize;
        let Some(&mv) = moves.get(at) else {
            return Err(fmt::Error);
        };
        let report = game.play(mv).map_err(|_| fmt::Error)?;
        match report.outcome {
            Some(outcome) => {
                challenges[outcome as usize] += 1;
                writeln!(out, "{} {} {}", game.history().len(), mv, outcome.name())?;
            }
            None => writeln!(out, "{} {} -", game.history().len(), mv)?,
        }
    }
    let played = Played {
        plies: game.history().len(),
        challenges,
        status: game.status(),
    };
    writeln!(
        out,
        "plies {}, challenges won {} lost {} tied {}",
        played.plies, challenges[0], challenges[1], challenges[2]
    )?;
    writeln!(out, "result: {}", played.status)?;
    Ok(played)
}

/// A board's arbiter: told the two ranks of each challenge, it announces what the players may
/// hear (the attacker wins, loses, or both are removed, and whether a flag fell) and keeps
/// the tally. The ranks themselves are never announced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Board {
    /// The challenges judged, by their outcome for the attacker: won, lost, tied.
    pub judged: [u32; 3],
}

impl Board {
    /// Judges the challenge of two pieces read as the codes `attacker` and `defender`
    /// (`"5G"`, `"SP"`, `"FL"`, … in either case) and writes the announcement to `out`: `win`,
    /// `lose` or `tie`, and `, flag captured` when a flag fell. A code that is not a rank is
    /// announced as `unread` and judged nothing (the players read the pieces again).
    ///
    /// # Errors
    /// Only `out`'s.
    pub fn judge(
        &mut self,
        attacker: &str,
        defender: &str,
        out: &mut impl Write,
    ) -> Result<Option<Outcome>, fmt::Error> {
        let (Ok(attacker), Ok(defender)) = (attacker.parse::<Rank>(), defender.parse::<Rank>())
        else {
            writeln!(out, "unread")?;
            return Ok(None);
        };
        let outcome = challenge(attacker, defender);
        self.judged[outcome as usize] += 1;
        if captures_flag(attacker, defender) {
            writeln!(out, "{}, flag captured", outcome.name())?;
        } else {
            writeln!(out, "{}", outcome.name())?;
        }
        Ok(Some(outcome))
    }
}
