//! What the server tells its operator: the metrics it counts (Prometheus text at
//! `/metrics` on `--metrics-addr`) and the log's set-up (`tracing`, filtered by `RUST_LOG`).
//!
//! Nothing here ever receives a token, a key, an invite, a formation or a query string:
//! the callers hand over ids, phases, codes and reasons only. Without a recorder installed
//! (no `--metrics-addr`), every count is a no-op.

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// The log's format on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One line of text per event (the default).
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Games in memory by phase (`phase`: setup, playing, over, aborted).
pub(crate) const GAMES_LIVE: &str = "salpakan_games_live";
/// Games created.
pub(crate) const GAMES_CREATED: &str = "salpakan_games_created_total";
/// Games ended, by `reason` (the contract's reason words, `aborted-…` for an abort).
pub(crate) const GAMES_ENDED: &str = "salpakan_games_ended_total";
/// Plies committed.
pub(crate) const PLIES: &str = "salpakan_plies_total";
/// Open sockets by `kind` (seat, spectator, player, lobby).
pub(crate) const SOCKETS: &str = "salpakan_sockets_open";
/// Refusals sent (HTTP replies and socket `error` messages), by `code`.
pub(crate) const REFUSALS: &str = "salpakan_refusals_total";
/// Chat lines kept and sent, by `room`.
pub(crate) const CHAT_LINES: &str = "salpakan_chat_lines_total";
/// Chat lines reported to the operator.
pub(crate) const CHAT_REPORTS: &str = "salpakan_chat_reports_total";
/// Sockets the server closed, by `code`.
pub(crate) const CLOSES: &str = "salpakan_socket_closes_total";
/// Seconds a group commit took (the transaction, its flush included).
pub(crate) const COMMIT_SECONDS: &str = "salpakan_commit_seconds";
/// Writes in a group commit.
pub(crate) const COMMIT_WRITES: &str = "salpakan_commit_writes";
/// Group commits that failed.
pub(crate) const COMMIT_FAILURES: &str = "salpakan_commit_failures_total";
/// Seconds a server bot thought, by `bot` (the thinking alone, not the wait for the floor).
pub(crate) const BOT_SECONDS: &str = "salpakan_bot_think_seconds";
/// Games this node took over from nodes whose leases lapsed.
pub(crate) const GAMES_TAKEN_OVER: &str = "salpakan_games_taken_over_total";
/// Requests and sockets this node forwarded to the node owning their game, by `kind`.
pub(crate) const FORWARDED: &str = "salpakan_forwarded_total";
/// 1, with the build's `version` and `commit`.
pub(crate) const BUILD_INFO: &str = "salpakan_build_info";

/// The version and commit the binary was built from (`unknown` without git at build).
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit the binary was built from.
pub(crate) const COMMIT: &str = env!("SALPAKAN_COMMIT");

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process's metrics recorder (once; later calls return the same handle), or
/// `None` if another recorder was installed first.
pub(crate) fn install() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let seconds = [
                0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
            ];
            let writes = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(COMMIT_SECONDS.into()), &seconds)
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full(BOT_SECONDS.into()), &seconds))
                .and_then(|b| {
                    b.set_buckets_for_metric(Matcher::Full(COMMIT_WRITES.into()), &writes)
                })
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            describe();
            zero();
            gauge!(BUILD_INFO, "version" => VERSION, "commit" => COMMIT).set(1.0);
            Some(handle)
        })
        .clone()
}

/// Every counter without labels at 0 from the start, so that a scrape right after a restart
/// shows it (a rate over a restart reads the drop to 0, not a series that went missing).
fn zero() {
    for name in [GAMES_CREATED, PLIES, COMMIT_FAILURES, GAMES_TAKEN_OVER] {
        counter!(name).increment(0);
    }
}

/// The counters of sockets closed with each of `codes` at 0 from the start, as the others are
/// does for the others.
pub(crate) fn zero_closes(codes: impl IntoIterator<Item = u16>) {
    for code in codes {
        counter!(CLOSES, "code" => code.to_string()).increment(0);
    }
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_gauge!(GAMES_LIVE, "Games in memory by phase.");
    describe_counter!(GAMES_CREATED, "Games created.");
    describe_counter!(CHAT_LINES, "Chat lines kept and sent, by room.");
    describe_counter!(CHAT_REPORTS, "Chat lines reported.");
    describe_counter!(GAMES_ENDED, "Games ended, by reason.");
    describe_counter!(PLIES, "Plies committed.");
    describe_gauge!(SOCKETS, "Open sockets by kind.");
    describe_counter!(REFUSALS, "Refusals sent, by code.");
    describe_counter!(CLOSES, "Sockets the server closed, by close code.");
    describe_histogram!(COMMIT_SECONDS, "Seconds a group commit took.");
    describe_histogram!(COMMIT_WRITES, "Writes in a group commit.");
    describe_counter!(COMMIT_FAILURES, "Group commits that failed.");
    describe_histogram!(
        BOT_SECONDS,
        "Seconds a server bot thought about a move (not its wait for the floor)."
    );
    describe_gauge!(BUILD_INFO, "The build: version and commit.");
    describe_counter!(
        GAMES_TAKEN_OVER,
        "Games taken over from nodes whose leases lapsed."
    );
    describe_counter!(
        FORWARDED,
        "Requests (kind http) and sockets (kind socket) forwarded to their game's node."
    );
}

/// `n` games were taken over from a lapsed node.
#[cfg(feature = "nodes")]
pub(crate) fn taken_over(n: usize) {
    counter!(GAMES_TAKEN_OVER).increment(n as u64);
}

/// A request (`http`) or a socket (`socket`) was forwarded to another node.
#[cfg(feature = "nodes")]
pub(crate) fn forwarded(kind: &'static str) {
    counter!(FORWARDED, "kind" => kind).increment(1);
}

/// A game was created.
pub(crate) fn game_created() {
    counter!(GAMES_CREATED).increment(1);
}

/// A game ended for `reason`.
pub(crate) fn game_ended(reason: &'static str) {
    counter!(GAMES_ENDED, "reason" => reason).increment(1);
}

/// `n` plies were committed.
pub(crate) fn plies(n: u64) {
    counter!(PLIES).increment(n);
}

/// A refusal with `code` was sent.
pub(crate) fn refused(code: &'static str) {
    counter!(REFUSALS, "code" => code).increment(1);
}

/// A chat line was kept and sent in `room`.
pub(crate) fn chat_line(room: &'static str) {
    counter!(CHAT_LINES, "room" => room).increment(1);
}

/// A chat line was reported.
pub(crate) fn chat_report() {
    counter!(CHAT_REPORTS).increment(1);
}

/// The server closed a socket with `code`.
pub(crate) fn closed(code: u16) {
    counter!(CLOSES, "code" => code.to_string()).increment(1);
}

/// A group commit of `writes` took `took`; `ok` whether it committed.
pub(crate) fn committed(writes: usize, took: Duration, ok: bool) {
    histogram!(COMMIT_SECONDS).record(took.as_secs_f64());
    histogram!(COMMIT_WRITES).record(writes as f64);
    if !ok {
        counter!(COMMIT_FAILURES).increment(1);
    }
}

/// Bot `bot` thought for `took`.
pub(crate) fn bot_thought(bot: &'static str, took: Duration) {
    histogram!(BOT_SECONDS, "bot" => bot).record(took.as_secs_f64());
}

/// Sets the live games of each phase.
pub(crate) fn games_live(counts: &[(&'static str, usize)]) {
    for &(phase, n) in counts {
        gauge!(GAMES_LIVE, "phase" => phase).set(n as f64);
    }
}

/// An open socket of `kind`, counted while it lives.
pub(crate) struct SocketGauge(&'static str);

impl SocketGauge {
    /// Counts a socket of `kind` open until the gauge is dropped.
    #[must_use]
    pub(crate) fn open(kind: &'static str) -> SocketGauge {
        gauge!(SOCKETS, "kind" => kind).increment(1.0);
        SocketGauge(kind)
    }
}

impl Drop for SocketGauge {
    fn drop(&mut self) {
        gauge!(SOCKETS, "kind" => self.0).decrement(1.0);
    }
}

/// Sets up the log on standard error in `format`, filtered by `RUST_LOG` (default `info`).
/// Does nothing if a log was set up already (a test's, or a second server in one process).
pub(crate) fn init_log(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(false).try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
