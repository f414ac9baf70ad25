//! The agent handle: the engine's players, handed only one side's information.

use salpakan::{Agent, AgentKind, Ismcts, Level};

use crate::args::{agent_kind_arg, side_arg};
use crate::boundary::guard;
use crate::game::SalpakanGame;
use crate::handle::Handle;
use crate::result::{Failure, SalpakanResult};
use crate::values::SalpakanMove;

/// `salpakan_agent_new` kind: a uniformly random legal move (seeded).
pub const SALPAKAN_AGENT_RANDOM: u8 = 0;
/// `salpakan_agent_new` kind: one ply of look-ahead on the exact posterior.
pub const SALPAKAN_AGENT_GREEDY: u8 = 1;
/// `salpakan_agent_new` kind: information-set Monte Carlo tree search, `budget` iterations a
/// move (0 for its default, `SALPAKAN_ISMCTS_DEFAULT_BUDGET`).
pub const SALPAKAN_AGENT_ISMCTS: u8 = 2;
/// The iterations a move of `SALPAKAN_AGENT_ISMCTS` when `budget` is 0.
pub const SALPAKAN_ISMCTS_DEFAULT_BUDGET: u32 = 10_000;
/// The levels of `salpakan_agent_new_level`: 1 (weakest) to this (strongest).
pub const SALPAKAN_AGENT_LEVELS: u8 = 8;

// cbindgen needs the constants as literals; these tie them to the engine's values.
const _: () = {
    assert!(SALPAKAN_ISMCTS_DEFAULT_BUDGET == Ismcts::DEFAULT_BUDGET);
    assert!(SALPAKAN_AGENT_RANDOM == AgentKind::Random as u8);
    assert!(SALPAKAN_AGENT_GREEDY == AgentKind::Greedy as u8);
    assert!(SALPAKAN_AGENT_ISMCTS == AgentKind::Ismcts as u8);
    assert!(SALPAKAN_AGENT_LEVELS == Level::COUNT);
};

/// An opaque player. Create it with `salpakan_agent_new` and release it with
/// `salpakan_agent_free`.
pub struct SalpakanAgent {
    agent: Box<dyn Agent + Send>,
}

impl Handle for SalpakanAgent {}

impl SalpakanAgent {
    /// The move it chooses from one side's knowledge.
    pub(crate) fn choose_from(
        &mut self,
        tracker: &salpakan::Tracker,
    ) -> Result<salpakan::Move, salpakan::ChooseError> {
        self.agent.try_choose(tracker)
    }
}

/// Creates a player of `kind` (`SALPAKAN_AGENT_*`) whose random draws are seeded with `seed`;
/// `budget` is the search's iterations a move for `SALPAKAN_AGENT_ISMCTS` (0 for
/// `SALPAKAN_ISMCTS_DEFAULT_BUDGET`) and is ignored by the others. Release it with
/// `salpakan_agent_free`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for an unknown kind.
///
/// # Safety
/// `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_agent_new(
    kind: u8,
    seed: u64,
    budget: u32,
    out: *mut *mut SalpakanAgent,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let handle = unsafe { crate::args::out(out, "out") }?;
        let kind = agent_kind_arg(kind, "kind")?;
        SalpakanAgent {
            agent: kind.build(seed, budget),
        }
        .hand_out(handle);
        Ok(())
    })
}

/// Creates the bot of the ladder's `level`, 1 (weakest) to `SALPAKAN_AGENT_LEVELS`
/// (strongest), whose random draws are seeded with `seed`; play it with
/// `salpakan_agent_choose` and release it with `salpakan_agent_free`. The levels are meant to
/// grow stronger one by one; their measured ratings are in the repository's
/// `docs/PERFORMANCE.md`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a level outside 1 to
/// `SALPAKAN_AGENT_LEVELS` (`*out` unchanged).
///
/// # Safety
/// `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_agent_new_level(
    level: u8,
    seed: u64,
    out: *mut *mut SalpakanAgent,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let handle = unsafe { crate::args::out(out, "out") }?;
        let level = Level::new(i64::from(level), seed).map_err(|e| {
            Failure::of(
                e.kind(),
                format!("argument `level`: {e} (1 to SALPAKAN_AGENT_LEVELS)"),
            )
        })?;
        SalpakanAgent {
            agent: Box::new(level),
        }
        .hand_out(handle);
        Ok(())
    })
}

/// Writes to `*out` the move `agent` chooses for `side` in `game`. The agent is handed only
/// what `side` may know (its own setup, the enemy's squares, the public history), never the
/// arbiter's game: the same public history with other hidden enemy ranks gives the same move
/// for the same seed. The agent's state advances (its random draws), the game does not: play
/// the move with `salpakan_game_play`.
///
/// Errors: `NULL_ARGUMENT`; `GAME_OVER` once the game has ended; `INVALID_ARGUMENT` for a
/// side out of range, a side not to move, or a game started from a position text (it has no
/// history to follow). Nothing changes on an error.
///
/// # Safety
/// `agent` and `game` are NULL or live handles; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_agent_choose(
    agent: *mut SalpakanAgent,
    game: *const SalpakanGame,
    side: u8,
    out: *mut SalpakanMove,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (agent, game) = unsafe {
            (
                SalpakanAgent::borrow_mut(agent, "agent")?,
                SalpakanGame::borrow(game, "game")?,
            )
        };
        let side = side_arg(side, "side")?;
        // SAFETY: forwarded from the caller.
        let chosen = unsafe { crate::args::out(out, "out") }?;
        let mv = agent
            .agent
            .choose_in(&game.game, side)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        chosen.write(SalpakanMove::from(mv));
        Ok(())
    })
}

/// Releases a player. `NULL` is a no-op.
///
/// # Safety
/// `agent` is NULL or a handle from this library not yet freed; it is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_agent_free(agent: *mut SalpakanAgent) {
    guard(|| {
        // SAFETY: forwarded from the caller.
        unsafe { SalpakanAgent::free(agent) };
        Ok(())
    });
}
