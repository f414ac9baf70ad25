//! Each room's two tasks: its timer (losses on time and by abandonment, and the expiry of a
//! game that never started) and its bot.

use std::sync::Arc;

use tokio::time::{Instant, sleep_until};

use super::{Games, Table};

/// How long the timer waits before it tries again to delete an expired game the database
/// refused to delete.
const RETRY: std::time::Duration = std::time::Duration::from_secs(10);

impl Games {
    /// The room's timer: decides losses on time and by abandonment when they fall due.
    pub(super) async fn run_timer(self: Arc<Games>, table: Arc<Table>) {
        loop {
            let deadline = {
                let mut state = table.state.lock().await;
                if let Some(due) = state.presence_due
                    && Instant::now() >= due
                {
                    state.presence_due = None;
                    table.show_presence(&mut state, Instant::now());
                }
                if state.broken || state.gone || state.room.phase().finished() {
                    return;
                }
                {
                    if state.room.setup_expired(Instant::now()) {
                        if self.discard(&table, &mut state).await {
                            return;
                        }
                        drop(state);
                        sleep_until(Instant::now() + RETRY).await;
                        continue;
                    }
                    let now = self.pauses.now(&mut state.room);
                    if let Some(from) = state.room.expire(now) {
                        self.settle(&table, &mut state, from).await;
                        continue;
                    }
                    let due = state.presence_due;
                    state.room.deadline().into_iter().chain(due).min()
                }
            };
            if self.stopping.stopped() {
                return;
            }
            match deadline {
                Some(at) => {
                    tokio::select! {
                        () = sleep_until(at) => {}
                        () = table.timer.notified() => {}
                    }
                }
                None => table.timer.notified().await,
            }
        }
    }

    /// The room's bot: when it is its move, it thinks on a blocking thread (never on the
    /// async threads), with its own tracker only, then plays.
    pub(super) async fn run_bot(self: Arc<Games>, table: Arc<Table>) {
        loop {
            let turn = {
                let mut state = table.state.lock().await;
                if state.broken || state.gone || state.room.phase().finished() {
                    return;
                }
                state.room.bot_turn()
            };
            if self.stopping.stopped() {
                return;
            }
            let Some(turn) = turn else {
                table.bot.notified().await;
                continue;
            };
            let (side, ply) = (turn.side, turn.ply);
            let bot = match table.shown().players()[side.index()] {
                crate::room::Player::Bot(kind) => kind.word(),
                crate::room::Player::Human => "none",
            };
            let Some(Thought { tracker, mv, took }) =
                think_at_least(turn, self.config.bot_floor).await
            else {
                return;
            };
            crate::telemetry::bot_thought(bot, took);
            let mut state = table.state.lock().await;
            let now = self.pauses.now(&mut state.room);
            if let Some(from) = state.room.bot_done(side, ply, tracker, mv, now) {
                self.settle(&table, &mut state, from).await;
            }
        }
    }
}

/// A bot's answer to its turn.
pub(crate) struct Thought {
    /// Its tracker (as it was given).
    pub tracker: salpakan::Tracker,
    /// Its move (`None` if it has none).
    pub mv: Option<salpakan::Move>,
    /// How long it thought, without the wait for the floor (the think-time metric).
    pub took: std::time::Duration,
}

/// The bot's turn thought through on a blocking thread (never on the async threads), its
/// answer held back until `floor` has passed since the turn began: a fixed-iteration search
/// takes longer on some formations than others, and a move sent as soon as found would tell
/// its opponent so. `None` if the thinking task died.
pub(crate) async fn think_at_least(
    turn: crate::room::BotTurn,
    floor: std::time::Duration,
) -> Option<Thought> {
    let due = tokio::time::Instant::now() + floor;
    let (tracker, mv, took) = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let (tracker, mv) = turn.think();
        (tracker, mv, started.elapsed())
    })
    .await
    .ok()?;
    sleep_until(due).await;
    Some(Thought { tracker, mv, took })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use salpakan::{Game, Level, Rules, Side};
    use tokio::time::Instant;

    use super::{Thought, think_at_least};
    use crate::room::BotTurn;

    fn turn(level: i64) -> BotTurn {
        let rules = Rules::default();
        let game = Game::dealt(Side::White, rules, 1);
        BotTurn {
            side: Side::White,
            ply: 0,
            seed: 3,
            tracker: game.tracker(Side::White).unwrap(),
            agent: Box::new(Level::new(level, 3).unwrap()),
        }
    }

    /// Under paused time: a move found at once (level 1) and one that searches (level 7)
    /// both come exactly at the floor, never sooner; with no floor, at once.
    #[tokio::test(start_paused = true)]
    async fn a_bot_move_comes_no_sooner_than_the_floor() {
        let floor = Duration::from_millis(500);
        for level in [1, 7] {
            let started = Instant::now();
            let thought = think_at_least(turn(level), floor).await.unwrap();
            assert!(thought.mv.is_some());
            assert_eq!(started.elapsed(), floor, "level {level}");
        }
        let started = Instant::now();
        think_at_least(turn(1), Duration::ZERO).await.unwrap();
        assert_eq!(started.elapsed(), Duration::ZERO);
    }

    /// The think-time metric is the thinking alone: in real time, a move found at once
    /// behind a 400 ms floor was thought for far less than the floor, while the answer came
    /// no sooner than it.
    #[tokio::test]
    async fn the_time_thought_leaves_out_the_floor() {
        let floor = Duration::from_millis(400);
        let started = std::time::Instant::now();
        let Thought { took, mv, .. } = think_at_least(turn(1), floor).await.unwrap();
        assert!(mv.is_some());
        assert!(started.elapsed() >= floor);
        assert!(took < floor, "{took:?}");
    }
}
