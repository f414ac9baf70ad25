//! The pruner: deletes the finished games past the retention (`--retention-days`), at start
//! and every hour until the server stops, a batch at a time with a pause between batches for
//! the other writes. It reads and writes the store only: no game in memory is touched (a game
//! in memory is not finished long enough to be pruned).

use std::time::Duration;

use super::stopping::Stopping;
use crate::store::{GameWrite, Store, Write};

/// How often finished games past their retention are deleted.
const EVERY: Duration = Duration::from_secs(3600);

/// The pause between two batches of a prune.
const PAUSE: Duration = Duration::from_millis(50);

/// Starts the pruner of the games in `store` that ended more than `retention` ago (none when
/// the games are kept for good). Call inside a tokio runtime.
pub(crate) fn start(store: Store, retention: Option<Duration>, stopping: &Stopping) {
    let Some(retention) = retention else {
        return;
    };
    tokio::spawn(run(store, retention, stopping.clone()));
}

async fn run(store: Store, retention: Duration, stopping: Stopping) {
    let mut stop = stopping.listen();
    loop {
        let cut = crate::clock::unix_ms()
            .saturating_sub(u64::try_from(retention.as_millis()).unwrap_or(u64::MAX));
        loop {
            match store.any_ended_before(cut).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    tracing::error!(error = %e, "finished games not pruned");
                    break;
                }
            }
            let write = Write::Game(GameWrite::Prune {
                ended_before_ms: cut,
            });
            if let Err(e) = store.write(vec![write]).await {
                tracing::error!(error = %e, "finished games not pruned");
                break;
            }
            if !stop.sleep(PAUSE).await {
                return;
            }
        }
        if !stop.sleep(EVERY).await {
            return;
        }
    }
}
