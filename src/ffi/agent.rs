//! The agent handle: the engine's players, handed only one side's information.

use crate::agents::{Agent, Greedy, Ismcts, Random};

use super::boundary::{
    Failure, SALPAKAN_RESULT_GAME_OVER, SALPAKAN_RESULT_INVALID_ARGUMENT, SalpakanResult, arg_mut,
    arg_ref, guard, out_ptr, side_arg, write_out,
};
use super::game::SalpakanGame;
use super::values::SalpakanMove;

/// `salpakan_agent_new` kind: a uniformly random legal move (seeded).
pub const SALPAKAN_AGENT_RANDOM: u8 = 0;
/// `salpakan_agent_new` kind: one ply of look-ahead on the exact posterior.
pub const SALPAKAN_AGENT_GREEDY: u8 = 1;
/// `salpakan_agent_new` kind: information-set Monte Carlo tree search, `budget` iterations a
/// move (0 for its default, 3000).
pub const SALPAKAN_AGENT_ISMCTS: u8 = 2;

/// An opaque player. Create it with `salpakan_agent_new` and release it with
/// `salpakan_agent_free`.
pub struct SalpakanAgent {
    agent: Box<dyn Agent + Send>,
}

/// Creates a player of `kind` (`SALPAKAN_AGENT_*`) whose random draws are seeded with `seed`;
/// `budget` is the search's iterations a move for `SALPAKAN_AGENT_ISMCTS` (0 for the default)
/// and is ignored by the others. Release it with `salpakan_agent_free`.
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
        let out = out_ptr(out, "out")?;
        let agent: Box<dyn Agent + Send> = match kind {
            SALPAKAN_AGENT_RANDOM => Box::new(Random::new(seed)),
            SALPAKAN_AGENT_GREEDY => Box::new(Greedy::new(seed)),
            SALPAKAN_AGENT_ISMCTS => Box::new(Ismcts::new(seed, budget)),
            other => {
                return Err(Failure::new(
                    SALPAKAN_RESULT_INVALID_ARGUMENT,
                    format!(
                        "`kind` is {other}: it must be SALPAKAN_AGENT_RANDOM (0), \
                         SALPAKAN_AGENT_GREEDY (1) or SALPAKAN_AGENT_ISMCTS (2)"
                    ),
                ));
            }
        };
        let handle = Box::into_raw(Box::new(SalpakanAgent { agent }));
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, handle) };
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
        let agent = unsafe { arg_mut(agent, "agent") }?;
        // SAFETY: forwarded from the caller.
        let game = unsafe { arg_ref(game, "game") }?;
        let side = side_arg(side, "side")?;
        let out = out_ptr(out, "out")?;
        let status = game.game.status();
        if !status.is_ongoing() {
            return Err(Failure::new(
                SALPAKAN_RESULT_GAME_OVER,
                format!("the game is over ({status})"),
            ));
        }
        if game.game.side_to_move() != side {
            return Err(Failure::invalid(format!(
                "it is {}'s turn, not {side}'s",
                side.other()
            )));
        }
        let tracker = game
            .game
            .tracker(side)
            .map_err(|e| Failure::invalid(e.to_string()))?;
        let mv = agent
            .agent
            .choose(&tracker)
            .ok_or_else(|| Failure::invalid(format!("{side} has no move to choose")))?;
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { write_out(out, SalpakanMove::from(mv)) };
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
        if !agent.is_null() {
            // SAFETY: the caller hands back ownership of a handle made by `Box::into_raw`.
            drop(unsafe { Box::from_raw(agent) });
        }
        Ok(())
    });
}
