//! The numbers and plain structs of the C ABI, and their conversions from and to Rust values.

use salpakan::{
    ActionMask, Move, MoveList, Observation, Outcome, Position, Report, Setup, Square, Status,
};

/// Major version of the crate (and of the ABI).
pub const SALPAKAN_VERSION_MAJOR: u32 = 0;
/// Minor version of the crate.
pub const SALPAKAN_VERSION_MINOR: u32 = 2;
/// Patch version of the crate.
pub const SALPAKAN_VERSION_PATCH: u32 = 0;

/// White's side value.
pub const SALPAKAN_WHITE: u8 = 0;
/// Black's side value.
pub const SALPAKAN_BLACK: u8 = 1;
/// No side: an empty square in a view, or no winner.
pub const SALPAKAN_NO_SIDE: u8 = 255;

/// Rank value of the Flag.
pub const SALPAKAN_RANK_FLAG: u8 = 0;
/// Rank value of a Private.
pub const SALPAKAN_RANK_PRIVATE: u8 = 1;
/// Rank value of the Sergeant.
pub const SALPAKAN_RANK_SERGEANT: u8 = 2;
/// Rank value of the 2nd Lieutenant.
pub const SALPAKAN_RANK_SECOND_LIEUTENANT: u8 = 3;
/// Rank value of the 1st Lieutenant.
pub const SALPAKAN_RANK_FIRST_LIEUTENANT: u8 = 4;
/// Rank value of the Captain.
pub const SALPAKAN_RANK_CAPTAIN: u8 = 5;
/// Rank value of the Major.
pub const SALPAKAN_RANK_MAJOR: u8 = 6;
/// Rank value of the Lieutenant Colonel.
pub const SALPAKAN_RANK_LIEUTENANT_COLONEL: u8 = 7;
/// Rank value of the Colonel.
pub const SALPAKAN_RANK_COLONEL: u8 = 8;
/// Rank value of the 1-Star General.
pub const SALPAKAN_RANK_ONE_STAR_GENERAL: u8 = 9;
/// Rank value of the 2-Star General.
pub const SALPAKAN_RANK_TWO_STAR_GENERAL: u8 = 10;
/// Rank value of the 3-Star General.
pub const SALPAKAN_RANK_THREE_STAR_GENERAL: u8 = 11;
/// Rank value of the 4-Star General.
pub const SALPAKAN_RANK_FOUR_STAR_GENERAL: u8 = 12;
/// Rank value of the 5-Star General.
pub const SALPAKAN_RANK_FIVE_STAR_GENERAL: u8 = 13;
/// Rank value of a Spy.
pub const SALPAKAN_RANK_SPY: u8 = 14;
/// A hidden enemy piece in a view.
pub const SALPAKAN_RANK_UNKNOWN: u8 = 15;
/// An empty cell in a setup array (and the rank of an empty square in a view).
pub const SALPAKAN_NO_PIECE: u8 = 255;

/// Challenge outcome: the attacker wins.
pub const SALPAKAN_OUTCOME_WIN: u8 = 0;
/// Challenge outcome: the attacker loses.
pub const SALPAKAN_OUTCOME_LOSE: u8 = 1;
/// Challenge outcome: both pieces are removed.
pub const SALPAKAN_OUTCOME_TIE: u8 = 2;
/// No outcome: the move was not a challenge.
pub const SALPAKAN_NO_OUTCOME: u8 = 255;

/// Game state: going on.
pub const SALPAKAN_STATE_ONGOING: u8 = 0;
/// Game state: won (see the winner and reason).
pub const SALPAKAN_STATE_WON: u8 = 1;
/// Game state: drawn (see the reason).
pub const SALPAKAN_STATE_DRAWN: u8 = 2;

/// End reason: none, the game goes on.
pub const SALPAKAN_REASON_NONE: u8 = 0;
/// End reason: a Flag was captured.
pub const SALPAKAN_REASON_FLAG_CAPTURED: u8 = 1;
/// End reason: a Flag reached the far end.
pub const SALPAKAN_REASON_FLAG_REACHED_END: u8 = 2;
/// End reason: a side resigned.
pub const SALPAKAN_REASON_RESIGNATION: u8 = 3;
/// End reason: both sides agreed to a draw.
pub const SALPAKAN_REASON_AGREEMENT: u8 = 4;
/// End reason: the move limit was reached.
pub const SALPAKAN_REASON_MOVE_LIMIT: u8 = 5;
/// End reason: the loser's clock ran out (decided by whoever keeps the clocks, such as a
/// server; a game record can say it).
pub const SALPAKAN_REASON_TIME: u8 = 6;
/// End reason: the loser left the game and did not come back in time (decided by a server).
pub const SALPAKAN_REASON_ABANDONED: u8 = 7;
/// End reason: both sides left the game and neither came back in time, a draw (decided by a
/// server).
pub const SALPAKAN_REASON_ABANDONED_BY_BOTH: u8 = 8;

/// The most legal moves any position has.
pub const SALPAKAN_MAX_MOVES: usize = 84;
/// The number of squares, and the length of setup, board and view arrays.
pub const SALPAKAN_SQUARES: usize = 72;
/// The number of action ids (72 squares × 4 directions).
pub const SALPAKAN_ACTIONS: usize = 288;
/// The length in bytes of a legal-action mask.
pub const SALPAKAN_ACTION_MASK_BYTES: usize = 36;

/// The number of planes of the observation tensor (`salpakan_game_observation`).
pub const SALPAKAN_OBSERVATION_PLANES: usize = 38;
/// The number of floats of the observation tensor: planes × 8 rows × 9 files.
pub const SALPAKAN_OBSERVATION_LEN: usize = 2736;
/// The observation tensor's layout version (the crate's `Observation::VERSION`): raised
/// whenever a plane's meaning, order or scale changes.
pub const SALPAKAN_OBSERVATION_VERSION: u32 = 1;

const _: () = assert!(SALPAKAN_OBSERVATION_VERSION == salpakan::Observation::VERSION);

/// The version of the text formats (the crate's `TEXT_FORMAT`): a record's first tag,
/// `[Format "1"]`; a record or text of a newer format is refused as newer.
pub const SALPAKAN_TEXT_FORMAT: u32 = 1;

const _: () = assert!(SALPAKAN_TEXT_FORMAT == salpakan::text::TEXT_FORMAT);

/// The deepest `salpakan_game_perft` accepts.
pub const SALPAKAN_MAX_PERFT_DEPTH: u32 = 32;

/// A move: from and to are square indices, `(row - 1) * 9 + file`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalpakanMove {
    /// The square the piece leaves.
    pub from: u8,
    /// The square the piece enters.
    pub to: u8,
}

impl From<Move> for SalpakanMove {
    #[inline]
    fn from(mv: Move) -> SalpakanMove {
        SalpakanMove {
            from: mv.from.index() as u8,
            to: mv.to.index() as u8,
        }
    }
}

// cbindgen needs the C constants as literals; these tie each to the Rust value it mirrors.
const _: () = {
    assert!(SALPAKAN_MAX_MOVES == MoveList::CAPACITY);
    assert!(SALPAKAN_OBSERVATION_PLANES == Observation::PLANES);
    assert!(SALPAKAN_OBSERVATION_LEN == Observation::LEN);
    // A move is a `[from, to]` byte pair (`Position::legal_move_pairs` writes them so).
    assert!(core::mem::size_of::<SalpakanMove>() == 2);
    assert!(core::mem::align_of::<SalpakanMove>() == 1);
    assert!(core::mem::offset_of!(SalpakanMove, from) == 0);
    assert!(SALPAKAN_MAX_PERFT_DEPTH == Position::MAX_PERFT_DEPTH);
    assert!(SALPAKAN_SQUARES == Square::NUM);
    assert!(SALPAKAN_ACTIONS == Move::NUM_ACTIONS);
    assert!(SALPAKAN_ACTION_MASK_BYTES == Move::NUM_ACTIONS / 8);
    assert!(SALPAKAN_ACTION_MASK_BYTES == core::mem::size_of::<ActionMask>());
    assert!(SALPAKAN_NO_PIECE == Setup::EMPTY_CELL);
};

/// A game's status.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SalpakanStatus {
    /// `SALPAKAN_STATE_*`.
    pub state: u8,
    /// The winner when `state` is `SALPAKAN_STATE_WON`, else `SALPAKAN_NO_SIDE`.
    pub winner: u8,
    /// `SALPAKAN_REASON_*`.
    pub reason: u8,
}

/// What the arbiter announces for a move. It never holds a rank.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SalpakanReport {
    /// 1 for a challenge, 0 for a plain move.
    pub challenge: u8,
    /// `SALPAKAN_OUTCOME_*` for a challenge (from the attacker's side), 255 otherwise.
    pub outcome: u8,
    /// The game's status after the move.
    pub status: SalpakanStatus,
}

/// One square of a view: `{SALPAKAN_NO_SIDE, SALPAKAN_NO_PIECE}` when empty; an enemy piece
/// has rank `SALPAKAN_RANK_UNKNOWN`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalpakanCell {
    /// The owner, or `SALPAKAN_NO_SIDE`.
    pub side: u8,
    /// The rank, `SALPAKAN_RANK_UNKNOWN`, or `SALPAKAN_NO_PIECE`.
    pub rank: u8,
}

/// The rule options: `setup_rows` 3 (official) or 4 (the whole half); `move_limit` plies
/// without a challenge before a draw, 0 for none.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalpakanRules {
    /// Rows of each side's setup zone: 3 or 4.
    pub setup_rows: u8,
    /// Plies without a challenge before a draw; 0 = no limit.
    pub move_limit: u16,
}

impl From<Status> for SalpakanStatus {
    fn from(status: Status) -> SalpakanStatus {
        match status {
            Status::Ongoing => SalpakanStatus {
                state: SALPAKAN_STATE_ONGOING,
                winner: SALPAKAN_NO_SIDE,
                reason: SALPAKAN_REASON_NONE,
            },
            Status::Won { winner, reason } => SalpakanStatus {
                state: SALPAKAN_STATE_WON,
                winner: winner as u8,
                reason: reason as u8,
            },
            Status::Drawn { reason } => SalpakanStatus {
                state: SALPAKAN_STATE_DRAWN,
                winner: SALPAKAN_NO_SIDE,
                reason: reason as u8,
            },
        }
    }
}

impl From<Report> for SalpakanReport {
    fn from(report: Report) -> SalpakanReport {
        SalpakanReport {
            challenge: u8::from(report.outcome.is_some()),
            outcome: report
                .outcome
                .map_or(SALPAKAN_NO_OUTCOME, |o: Outcome| o as u8),
            status: report.status.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_constants_match_the_package_version() {
        assert_eq!(
            SALPAKAN_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            SALPAKAN_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            SALPAKAN_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
    }

    #[test]
    fn c_values_equal_the_rust_discriminants() {
        use salpakan::{DrawReason, Rank, Side, WinReason};
        assert_eq!(Side::Black as u8, SALPAKAN_BLACK);
        assert_eq!(Rank::Spy as u8, SALPAKAN_RANK_SPY);
        assert_eq!(Rank::FiveStarGeneral as u8, SALPAKAN_RANK_FIVE_STAR_GENERAL);
        assert_eq!(Outcome::Tie as u8, SALPAKAN_OUTCOME_TIE);
        assert_eq!(WinReason::Resignation as u8, SALPAKAN_REASON_RESIGNATION);
        assert_eq!(DrawReason::MoveLimit as u8, SALPAKAN_REASON_MOVE_LIMIT);
        assert_eq!(WinReason::Time as u8, SALPAKAN_REASON_TIME);
        assert_eq!(WinReason::Abandoned as u8, SALPAKAN_REASON_ABANDONED);
        assert_eq!(
            DrawReason::AbandonedByBoth as u8,
            SALPAKAN_REASON_ABANDONED_BY_BOTH
        );
        assert_eq!(MoveList::CAPACITY, SALPAKAN_MAX_MOVES);
    }
}
