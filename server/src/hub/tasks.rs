//! Each room's two tasks: its timer (losses on time and by abandonment, and the expiry of a
//! game that never started) and its bot.

use std::sync::Arc;

use tokio::time::{Instant, sleep_until};

use super::{Hub, Live};

/// How long the timer waits before it tries again to delete an expired game the database
/// refused to delete.
const RETRY: std::time::Duration = std::time::Duration::from_secs(10);

/// How often finished games past their retention are deleted.
const PRUNE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// The pause between two batches of a prune.
const PRUNE_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

impl Hub {
    fn stopped(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Looks at the time every tick, so that a pause of the server is noticed soon after it
    /// (if nothing else looked first).
    pub(super) async fn watch_pauses(self: Arc<Hub>) {
        let mut stopping = self.stopping();
        loop {
            self.pauses.notice(Instant::now());
            tokio::select! {
                () = tokio::time::sleep(super::pauses::TICK) => {}
                _ = stopping.changed() => return,
            }
        }
    }

    /// Deletes the finished games past the retention, at start and every hour, until the
    /// server stops: a batch at a time, with a pause between batches for the other writes.
    pub(super) async fn run_pruner(self: Arc<Hub>) {
        let Some(retention) = self.config.limits.retention else {
            return;
        };
        let mut stopping = self.stopping();
        loop {
            let cut = crate::clock::unix_ms()
                .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
            loop {
                match self.store.any_ended_before(cut).await {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        tracing::error!(error = %e, "finished games not pruned");
                        break;
                    }
                }
                let write = crate::store::Write::Prune {
                    ended_before_ms: cut,
                };
                if let Err(e) = self.store.write(vec![write]).await {
                    tracing::error!(error = %e, "finished games not pruned");
                    break;
                }
                tokio::select! {
                    () = tokio::time::sleep(PRUNE_PAUSE) => {}
                    _ = stopping.changed() => return,
                }
            }
            tokio::select! {
                () = tokio::time::sleep(PRUNE_EVERY) => {}
                _ = stopping.changed() => return,
            }
        }
    }

    /// The room's timer: decides losses on time and by abandonment when they fall due.
    pub(super) async fn run_timer(self: Arc<Hub>, live: Arc<Live>) {
        loop {
            let deadline = {
                let mut state = live.state.lock().await;
                if let Some(due) = state.presence_due
                    && Instant::now() >= due
                {
                    state.presence_due = None;
                    self.show_presence(&live, &mut state, Instant::now());
                }
                if state.broken || state.gone || state.room.phase().finished() {
                    return;
                }
                {
                    if state.room.setup_expired(Instant::now()) {
                        if self.discard(&live, &mut state).await {
                            return;
                        }
                        drop(state);
                        sleep_until(Instant::now() + RETRY).await;
                        continue;
                    }
                    let now = self.now(&mut state.room);
                    if let Some(from) = state.room.expire(now) {
                        self.settle(&live, &mut state, from).await;
                        continue;
                    }
                    let due = state.presence_due;
                    state.room.deadline().into_iter().chain(due).min()
                }
            };
            if self.stopped() {
                return;
            }
            match deadline {
                Some(at) => {
                    tokio::select! {
                        () = sleep_until(at) => {}
                        () = live.timer.notified() => {}
                    }
                }
                None => live.timer.notified().await,
            }
        }
    }

    /// The room's bot: when it is its move, it thinks on a blocking thread (never on the
    /// async threads), with its own tracker only, then plays.
    pub(super) async fn run_bot(self: Arc<Hub>, live: Arc<Live>) {
        loop {
            let turn = {
                let mut state = live.state.lock().await;
                if state.broken || state.gone || state.room.phase().finished() {
                    return;
                }
                state.room.bot_turn()
            };
            if self.stopped() {
                return;
            }
            let Some(turn) = turn else {
                live.bot.notified().await;
                continue;
            };
            let (side, ply) = (turn.side, turn.ply);
            let bot = match live.shown.players[side.index()] {
                crate::room::Player::Bot(kind) => kind.word(),
                crate::room::Player::Human => "none",
            };
            let thinking = std::time::Instant::now();
            let Ok((tracker, mv)) = tokio::task::spawn_blocking(move || turn.think()).await else {
                return;
            };
            crate::telemetry::bot_thought(bot, thinking.elapsed());
            let mut state = live.state.lock().await;
            let now = self.now(&mut state.room);
            if let Some(from) = state.room.bot_done(side, ply, tracker, mv, now) {
                self.settle(&live, &mut state, from).await;
            }
        }
    }
}
