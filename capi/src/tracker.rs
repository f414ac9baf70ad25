//! The tracker handle: one side's knowledge, kept by a program that plays that side of a game
//! arbitrated elsewhere (a server, a board's arbiter). It holds the side's own formation, the
//! squares the enemy stood on at the start, and the public reports; never an enemy rank.

use salpakan::{Bitboard, Outcome, Report, Side, Square, Status, Tracker};

use crate::agent::SalpakanAgent;
use crate::args::{
    arg_array, arg_ref, move_arg, out, rules_arg, setup_arg, side_arg, write_prefix,
};
use crate::boundary::guard;
use crate::handle::Handle;
use crate::result::{Failure, FfiResult, SalpakanResult};
use crate::values::{
    SALPAKAN_NO_OUTCOME, SalpakanMove, SalpakanReport, SalpakanRules, SalpakanStatus,
};

/// An opaque side's knowledge. Create it with `salpakan_tracker_new` and release it with
/// `salpakan_tracker_free`.
pub struct SalpakanTracker {
    tracker: Tracker,
}

impl Handle for SalpakanTracker {}

/// Every status there is, each copied from here: a `Status` made in place leaves the bytes
/// of its variant's missing fields undefined, and the tracker's reports are compared and
/// copied whole, so the C values are mapped to these fully written ones.
static STATUSES: [Status;
    1 + 2 * salpakan::WinReason::ALL.len() + salpakan::DrawReason::ALL.len()] = {
    let mut all =
        [Status::Ongoing; 1 + 2 * salpakan::WinReason::ALL.len() + salpakan::DrawReason::ALL.len()];
    let mut i = 0;
    while i < salpakan::WinReason::ALL.len() {
        all[1 + 2 * i] = Status::Won {
            winner: Side::White,
            reason: salpakan::WinReason::ALL[i],
        };
        all[2 + 2 * i] = Status::Won {
            winner: Side::Black,
            reason: salpakan::WinReason::ALL[i],
        };
        i += 1;
    }
    let mut j = 0;
    while j < salpakan::DrawReason::ALL.len() {
        all[1 + 2 * salpakan::WinReason::ALL.len() + j] = Status::Drawn {
            reason: salpakan::DrawReason::ALL[j],
        };
        j += 1;
    }
    all
};

/// A status from its C value, if it is one.
fn status_of(status: SalpakanStatus) -> Option<Status> {
    STATUSES
        .iter()
        .find(|s| SalpakanStatus::from(**s) == status)
        .copied()
}

/// A status from its C value, checked.
fn status_arg(status: SalpakanStatus) -> FfiResult<Status> {
    status_of(status).ok_or_else(|| {
        Failure::invalid(format!(
            "report.status is {{state {}, winner {}, reason {}}}: not a status",
            status.state, status.winner, status.reason
        ))
    })
}

/// A report from the arbiter's C values: the move and what was announced.
fn report_arg(mv: SalpakanMove, report: &SalpakanReport) -> FfiResult<Report> {
    let outcome = match (report.challenge, report.outcome) {
        (0, SALPAKAN_NO_OUTCOME) => None,
        (1, value) => Some(
            Outcome::ALL
                .into_iter()
                .find(|o| *o as u8 == value)
                .ok_or_else(|| {
                    Failure::invalid(format!("report.outcome is {value}: not an outcome"))
                })?,
        ),
        (challenge, value) => {
            return Err(Failure::invalid(format!(
                "report.challenge is {challenge} with outcome {value}: a challenge (1) has an outcome 0..2, a plain move (0) has 255"
            )));
        }
    };
    Ok(Report {
        mv: move_arg(mv)?,
        outcome,
        status: status_arg(report.status)?,
    })
}

/// Creates `side`'s knowledge at the start of a game: its own formation (`own`, 72 cells as
/// `salpakan_game_new` takes them), the squares the enemy's 21 pieces stand on (`enemy`, 72
/// bytes: 1 where an enemy piece stands, 0 elsewhere: what the arbiter announces at the
/// start, e.g. from `salpakan_game_view`), who moves first and the rules. Nothing of the
/// enemy's ranks is needed or taken. Feed it each ply's report with `salpakan_tracker_observe`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a side, first mover or rules out of range,
/// an `enemy` byte other than 0 or 1, or enemy squares that are not 21 in the enemy's zone;
/// `INVALID_SETUP` for a formation the rules refuse.
///
/// # Safety
/// `own` and `enemy` are NULL or point to 72 readable bytes; `rules` is NULL or readable;
/// `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_new(
    own: *const u8,
    side: u8,
    enemy: *const u8,
    first: u8,
    rules: *const SalpakanRules,
    out: *mut *mut SalpakanTracker,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let handle = unsafe { crate::args::out(out, "out") }?;
        let side = side_arg(side, "side")?;
        let first = side_arg(first, "first")?;
        // SAFETY: forwarded from the caller.
        let rules = rules_arg(unsafe { arg_ref(rules, "rules") }?)?;
        // SAFETY: forwarded from the caller.
        let own = unsafe { setup_arg(own, side, rules, "own") }?;
        // SAFETY: forwarded from the caller.
        let cells = unsafe { arg_array::<u8, { Square::NUM }>(enemy, "enemy") }?;
        let mut squares = Bitboard::EMPTY;
        for (square, &cell) in Square::ALL.into_iter().zip(cells.iter()) {
            match cell {
                0 => {}
                1 => squares = squares.with(square),
                other => {
                    return Err(Failure::invalid(format!(
                        "`enemy[{}]` is {other}: 1 where an enemy piece stands, 0 elsewhere",
                        square.index()
                    )));
                }
            }
        }
        let tracker = Tracker::new(&own, squares, first, rules)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        SalpakanTracker { tracker }.hand_out(handle);
        Ok(())
    })
}

/// Takes in one ply of either side, as the arbiter announced it: the move and its report
/// (`salpakan_game_play`'s, or the same values from wherever the arbiter is). The tracker's
/// beliefs follow from it.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for values out of range or a report that does
/// not fit what this side knows (an impossible move, an outcome no piece could give);
/// `GAME_OVER` once the reports ended the game; the tracker is unchanged then.
///
/// # Safety
/// `tracker` is NULL or a live handle; `report` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_observe(
    tracker: *mut SalpakanTracker,
    mv: SalpakanMove,
    report: *const SalpakanReport,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (tracker, report) = unsafe {
            (
                SalpakanTracker::borrow_mut(tracker, "tracker")?,
                arg_ref(report, "report")?,
            )
        };
        let report = report_arg(mv, report)?;
        let mut next = tracker.tracker.clone();
        next.observe(&report)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        tracker.tracker = next;
        Ok(())
    })
}

/// Writes the side to move (as this side knows it) to `*side`.
///
/// # Safety
/// `tracker` is NULL or a live handle; `side` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_side_to_move(
    tracker: *const SalpakanTracker,
    side: *mut u8,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (tracker, side) = unsafe {
            (
                SalpakanTracker::borrow(tracker, "tracker")?,
                out(side, "side")?,
            )
        };
        side.write(tracker.tracker.side_to_move() as u8);
        Ok(())
    })
}

/// Writes the status as the reports told it to `*status`.
///
/// # Safety
/// `tracker` is NULL or a live handle; `status` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_status(
    tracker: *const SalpakanTracker,
    status: *mut SalpakanStatus,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (tracker, status) = unsafe {
            (
                SalpakanTracker::borrow(tracker, "tracker")?,
                out(status, "status")?,
            )
        };
        status.write(tracker.tracker.status().into());
        Ok(())
    })
}

/// Writes this side's legal moves when it is to move (none otherwise, and none once the game
/// ended) to `moves` and their number to `*count`; the buffer rules of
/// `salpakan_game_legal_moves` (`SALPAKAN_MAX_MOVES` is always enough).
///
/// # Safety
/// `tracker` is NULL or a live handle; `moves` is NULL or has room for `capacity` moves;
/// `count` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_legal_moves(
    tracker: *const SalpakanTracker,
    moves: *mut SalpakanMove,
    capacity: usize,
    count: *mut usize,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (tracker, count) = unsafe {
            (
                SalpakanTracker::borrow(tracker, "tracker")?,
                out(count, "count")?,
            )
        };
        if moves.is_null() && capacity > 0 {
            return Err(Failure::null("moves"));
        }
        let legal: Vec<SalpakanMove> = tracker
            .tracker
            .legal_moves()
            .iter()
            .map(|&mv| SalpakanMove::from(mv))
            .collect();
        count.write(legal.len());
        if legal.len() > capacity {
            return Err(Failure::new(
                SalpakanResult::BufferTooSmall,
                format!(
                    "`capacity` is {capacity}, and there are {} legal moves",
                    legal.len()
                ),
            ));
        }
        // SAFETY: room for `capacity >= legal.len()` moves (the caller's promise).
        unsafe { write_prefix(moves, &legal) };
        Ok(())
    })
}

/// Writes this side's exact beliefs about each enemy piece, laid out as
/// `salpakan_game_beliefs` writes them: 72 × 15 probabilities, square-major.
///
/// # Safety
/// `tracker` is NULL or a live handle; `probabilities` is NULL or has room for 1,080 doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_beliefs(
    tracker: *const SalpakanTracker,
    probabilities: *mut f64,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let tracker = unsafe { SalpakanTracker::borrow(tracker, "tracker") }?;
        // SAFETY: forwarded from the caller.
        unsafe { crate::game::write_beliefs(tracker.tracker.beliefs_by_square(), probabilities) }
    })
}

/// Writes to `*out` the move `agent` chooses from this side's knowledge alone: what a
/// program playing one side of a game arbitrated elsewhere asks (`salpakan_agent_choose` is
/// the same for a game held here).
///
/// Errors: `NULL_ARGUMENT`; `GAME_OVER` once the game has ended; `INVALID_ARGUMENT` when it
/// is not this side's move.
///
/// # Safety
/// `agent` and `tracker` are NULL or live handles; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_agent_choose_tracked(
    agent: *mut SalpakanAgent,
    tracker: *const SalpakanTracker,
    out: *mut SalpakanMove,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (agent, tracker) = unsafe {
            (
                SalpakanAgent::borrow_mut(agent, "agent")?,
                SalpakanTracker::borrow(tracker, "tracker")?,
            )
        };
        // SAFETY: forwarded from the caller.
        let chosen = unsafe { crate::args::out(out, "out") }?;
        let mv = agent
            .choose_from(&tracker.tracker)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        chosen.write(SalpakanMove::from(mv));
        Ok(())
    })
}

/// Releases a tracker. `NULL` is a no-op.
///
/// # Safety
/// `tracker` is NULL or a handle from this library not yet freed; it is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_tracker_free(tracker: *mut SalpakanTracker) {
    guard(|| {
        // SAFETY: forwarded from the caller.
        unsafe { SalpakanTracker::free(tracker) };
        Ok(())
    });
}
