//! The parts a [`Position`] is made of, and the checks that they describe a state some game
//! can reach: what a position text (or any other builder) must pass before it becomes a
//! position.

use crate::bitboard::Bitboard;
use crate::prelude::*;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;
use crate::status::{DrawReason, Status, WinReason};

/// Everything a [`Position`] is made of, as its text spells it out: checked by whoever builds
/// one (a setup pair, a sample, or the position text's parser with [`Parts::check`]), then
/// turned into a position by [`Position::from_parts`].
///
/// [`Position`]: super::Position
/// [`Position::from_parts`]: super::Position::from_parts
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parts {
    pub(crate) occupied: [Bitboard; 2],
    pub(crate) board: [Option<Rank>; Square::NUM],
    pub(crate) side_to_move: Side,
    pub(crate) waiting_flag: Option<Square>,
    pub(crate) status: Status,
    pub(crate) plies_since_challenge: u16,
    pub(crate) rules: Rules,
    pub(crate) ply: u32,
}

/// Why parts describe no state a game can reach: what was expected, and what was found
/// instead (the position text's error message is made of the two).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreachable {
    pub(crate) expected: String,
    pub(crate) found: String,
}

fn unreachable<T>(expected: impl Into<String>, found: impl Into<String>) -> Result<T, Unreachable> {
    Err(Unreachable {
        expected: expected.into(),
        found: found.into(),
    })
}

impl Parts {
    /// Whether the parts describe a state some game can reach: no side with more of a rank
    /// than its army, a status and counters that fit the board
    /// ([`Parts::check_status`]), and a waiting Flag only where the rules can leave one.
    pub(crate) fn check(&self) -> Result<(), Unreachable> {
        let mut counts = [[0u8; Rank::NUM]; 2];
        for square in Square::ALL {
            let (Some(side), Some(rank)) = (
                Side::ALL
                    .into_iter()
                    .find(|s| self.occupied[s.index()].has(square)),
                self.board[square.index()],
            ) else {
                continue;
            };
            let n = &mut counts[side.index()][rank.index()];
            *n += 1;
            if *n > rank.count() {
                return unreachable(
                    format!("at most {} {side} {rank} (an army's count)", rank.count()),
                    format!("another on {square}"),
                );
            }
        }
        let flags = Side::ALL.map(|side| counts[side.index()][Rank::Flag.index()] == 1);
        self.check_status(flags)?;
        if let Some(square) = self.waiting_flag {
            let owner = self.side_to_move.other();
            let ok = self.status.is_ongoing()
                && self.occupied[owner.index()].has(square)
                && self.board[square.index()] == Some(Rank::Flag)
                && square.row() == owner.far_row();
            if !ok {
                return unreachable(
                    format!(
                        "a waiting Flag only for the side not to move ({owner}), on its own Flag on its far row, while the game goes on"
                    ),
                    format!("waiting square {square}"),
                );
            }
        }
        Ok(())
    }

    /// The checks that the status and the counters fit the board, so that no text describes a
    /// state no game can reach. Each names the field at fault.
    ///
    /// - The plies since the last challenge are at most the plies played, and, under a move
    ///   limit, at most the limit.
    /// - A game that goes on has both Flags; at the limit it goes on only while a Flag waits
    ///   (the wait is settled before the limit), otherwise it would be drawn.
    /// - `draw:move-limit` needs a limit that the counter has reached.
    /// - `X:flag-captured`: the loser's Flag is gone and the winner's is on the board.
    /// - `X:flag-reached-end`: X's Flag stands on X's far row, and the loser's Flag is on the
    ///   board; resignations and agreements leave both Flags on the board.
    fn check_status(&self, flags: [bool; 2]) -> Result<(), Unreachable> {
        let (occupied, board) = (&self.occupied, &self.board);
        let quiet = self.plies_since_challenge;
        if u32::from(quiet) > self.ply {
            return unreachable(
                format!(
                    "plies since the last challenge (field 4) at most the plies played ({})",
                    self.ply
                ),
                quiet.to_string(),
            );
        }
        let limit = self.rules.move_limit();
        if let Some(limit) = limit
            && quiet > limit
        {
            return unreachable(
                format!(
                    "plies since the last challenge (field 4) at most the move limit ({limit})"
                ),
                quiet.to_string(),
            );
        }
        let at_limit = limit.is_some_and(|limit| quiet >= limit);
        let flag_of = |side: Side| flags[side.index()];
        let flagless = Side::ALL.into_iter().find(|&side| !flag_of(side));
        match self.status {
            Status::Ongoing => {
                if let Some(side) = flagless {
                    return unreachable(
                        format!("{side}'s Flag on the board while the game goes on (status field)"),
                        "none",
                    );
                }
                if at_limit && self.waiting_flag.is_none() {
                    return unreachable(
                        "a status of draw:move-limit (status field): the move limit is reached and no Flag waits",
                        "\"-\"",
                    );
                }
            }
            Status::Drawn {
                reason: DrawReason::MoveLimit,
            } if !at_limit => {
                return unreachable(
                    "plies since the last challenge at the move limit, for draw:move-limit (status field)",
                    format!("{quiet} of {}", limit.unwrap_or(0)),
                );
            }
            Status::Won {
                winner,
                reason: WinReason::FlagCaptured,
            } => {
                if flag_of(winner.other()) || !flag_of(winner) {
                    return unreachable(
                        format!(
                            "for {} (status field): {}'s Flag gone and {winner}'s on the board",
                            self.status.token(),
                            winner.other()
                        ),
                        "the Flags as they stand",
                    );
                }
            }
            Status::Won {
                winner,
                reason: WinReason::FlagReachedEnd,
            } => {
                let far_row = Bitboard::rows(winner.far_row(), winner.far_row() + 1);
                let on_far_row = (occupied[winner.index()] & far_row)
                    .any(|square| board[square.index()] == Some(Rank::Flag));
                if !on_far_row || !flag_of(winner.other()) {
                    return unreachable(
                        format!(
                            "for {} (status field): {winner}'s Flag on its far row and {}'s Flag on the board",
                            self.status.token(),
                            winner.other()
                        ),
                        "the Flags as they stand",
                    );
                }
            }
            _ => {
                if let Some(side) = flagless {
                    return unreachable(
                        format!(
                            "{side}'s Flag on the board for {} (status field)",
                            self.status.token()
                        ),
                        "none",
                    );
                }
            }
        }
        Ok(())
    }
}
