//! The operator's listener (`--metrics-addr`, kept on loopback or a private network): the
//! Prometheus text at `/metrics` and the admin routes. None of it is on the players'
//! address, and nothing it answers holds a token, a key, an invite or the formation of an
//! unfinished game.
//!
//! A web page the operator has open must not reach it: every request must name the listener
//! by address in its `Host` (an IP literal or `localhost`, so that no name of a page's can be
//! rebound to it), and a route that changes something needs the header
//! `X-Salpakan-Admin: 1`, which no page can send another origin without its leave (421 and
//! 403 otherwise). Its connections are held to their own small bounds ([`limits`]).
//!
//! - `GET /metrics`: Prometheus text (the games by phase counted at each scrape).
//! - `GET /admin/games`: `{"games": [...]}`, every game in memory, oldest first (at most
//!   10,000): id, phase, plies, each side's kind and name, rated, created.
//! - `GET /admin/unrated`: `{"games": [...]}`, the games asked rated but played unrated,
//!   newest first (at most 1,000): id, names, why (`same-address`, `same-address-day`,
//!   `pair-day`, `address-day`, `early`), created, and each seat's address while kept: what rating farming would leave.
//! - `POST /admin/moderators` body `{"name", "moderator": BOOL}`: names a player a
//!   moderator of the desk (`/api/mod/…`, with its own key), or no longer one.
//! - `GET /admin/reports?after=CURSOR&player=NAME&limit=N`: `{"reports": [...], "next"}`,
//!   the chat lines players reported, one entry a line, oldest first reported first (at most
//!   `limit`, [`crate::services::desk::REPORTS_LISTED`] by default and at the most): each its game, the line as said
//!   (who said it is who is reported), how many reported it, first and last; `next` the
//!   cursor of the next page (`null` at the end); `player` only that player's lines;
//! - `POST /admin/featured` body `{"game": ID|null}`: the game the lobby features (while it
//!   is in play; `null`: the best game in play); the reply says whether it is shown, and
//!   why not (`unlisted`, `over`, `not-here`);
//! - `POST /admin/drain`: no new games from now on, `/api/ready` 503; the games held go on.
//! - `POST /admin/backup`: an online, checked copy of the database beside it, in `backups/`;
//!   answers `{"path", "bytes", "games", "version"}`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use metrics_exporter_prometheus::PrometheusHandle;
use serde_json::json;

use crate::http::reply::json as reply;
use crate::services::Services;
use crate::store;

/// The most games `GET /admin/games` lists.
pub(crate) const LISTED: usize = 10_000;

/// The most games `GET /admin/unrated` lists.
pub(crate) const UNRATED_LISTED: usize = 1_000;

#[derive(Clone)]
struct Operator {
    services: Arc<Services>,
    metrics: Option<PrometheusHandle>,
}

/// The header a route that changes something needs (a browser sends it to no other origin
/// without a preflight the listener never answers).
pub(crate) const ADMIN_HEADER: &str = "x-salpakan-admin";

/// The most connections the operator's listener holds at once.
pub(crate) const CONNECTIONS: usize = 32;

/// The operator's listener's bounds: the players' header timeout, and its own few
/// connections (8 waiting for a request per address, [`CONNECTIONS`] in all).
#[must_use]
pub(crate) fn limits(players: &crate::config::Limits) -> crate::config::Limits {
    crate::config::Limits {
        max_connections: CONNECTIONS,
        pending_per_ip: 8,
        ..*players
    }
}

/// The operator's routes over `services`, the metrics rendered from `metrics`.
pub(crate) fn router(services: Arc<Services>, metrics: Option<PrometheusHandle>) -> Router {
    Router::new()
        .route("/metrics", get(render))
        .route("/admin/games", get(games))
        .route("/admin/unrated", get(unrated))
        .route("/admin/reports", get(reports))
        .route("/admin/drain", post(drain))
        .route("/admin/featured", post(feature))
        .route("/admin/moderators", post(moderators))
        .route("/admin/backup", post(backup))
        .layer(axum::middleware::from_fn(guard))
        .with_state(Operator { services, metrics })
}

/// Refuses what a web page could send: a `Host` that is a name (DNS rebinding: 421), and a
/// request that changes something without [`ADMIN_HEADER`] (a form posted cross-site: 403).
async fn guard(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !addressed(host) {
        return (
            StatusCode::MISDIRECTED_REQUEST,
            "the operator's listener answers requests to its address only\n",
        )
            .into_response();
    }
    let changes =
        request.method() != axum::http::Method::GET && request.method() != axum::http::Method::HEAD;
    if changes && request.headers().get(ADMIN_HEADER).is_none_or(|v| v != "1") {
        return (
            StatusCode::FORBIDDEN,
            "a request that changes something needs the header X-Salpakan-Admin: 1\n",
        )
            .into_response();
    }
    next.run(request).await
}

/// Whether `host` (a `Host` header) names the listener by address: an IP literal or
/// `localhost`, with or without a port.
#[must_use]
pub(crate) fn addressed(host: &str) -> bool {
    let port_ok = |port: &str| port.is_empty() || port.bytes().all(|b| b.is_ascii_digit());
    // [v6] or [v6]:port
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split_once(']').is_some_and(|(ip, after)| {
            ip.parse::<std::net::Ipv6Addr>().is_ok()
                && (after.is_empty() || after.strip_prefix(':').is_some_and(port_ok))
        });
    }
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port_ok(port) => name,
        _ => host,
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok()
}

async fn render(State(op): State<Operator>) -> Response {
    let Some(handle) = op.metrics else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "another metrics recorder is installed\n",
        )
            .into_response();
    };
    op.services.desk.count_phases();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
        .into_response()
}

async fn games(State(op): State<Operator>) -> Response {
    reply(
        StatusCode::OK,
        &json!({ "games": op.services.desk.live_games(LISTED) }),
    )
}

async fn unrated(State(op): State<Operator>) -> Response {
    match op.services.desk.unrated(UNRATED_LISTED).await {
        Ok(games) => reply(StatusCode::OK, &json!({ "games": games })),
        Err(e) => reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({ "error": e.to_string() }),
        ),
    }
}

async fn reports(
    State(op): State<Operator>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let page = match crate::services::desk::report_page(&query, false) {
        Ok(page) => page,
        Err(message) => {
            return reply(
                StatusCode::BAD_REQUEST,
                &json!({ "error": "bad-message", "message": message }),
            );
        }
    };
    let limit = page.limit;
    match op.services.desk.reports(page).await {
        Ok(reports) => {
            let next = (reports.len() == limit)
                .then(|| reports.last().map(|g| store::ReportCursor::after(g).word()))
                .flatten();
            reply(StatusCode::OK, &json!({ "reports": reports, "next": next }))
        }
        Err(e) => reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({ "error": e.to_string() }),
        ),
    }
}

/// Why game `id`, featured, is not on the live list this node serves (`None`: it is, as
/// long as it is in play): not held here (another node may hold it in play: then it is
/// shown), over, or never listed.
fn unseen(services: &Services, id: &str) -> Option<&'static str> {
    let Some(table) = services.games.tables().get(id) else {
        return Some("not-here");
    };
    let shown = table.shown();
    if !shown.listed() {
        Some("unlisted")
    } else if shown.phase().is_some_and(crate::room::Phase::finished) {
        Some("over")
    } else {
        None
    }
}

/// `POST /admin/featured` body `{"game": ID|null}`: features that game while it is in
/// play (`null`: the best game in play).
async fn feature(State(op): State<Operator>, body: String) -> Response {
    match serde_json::from_str::<serde_json::Value>(&body) {
        Ok(value)
            if value
                .get("game")
                .is_some_and(|g| g.is_string() || g.is_null()) =>
        {
            let game = value["game"].as_str().map(str::to_owned);
            let unseen = game.as_deref().and_then(|id| unseen(&op.services, id));
            op.services.live.feature(game.clone());
            reply(
                StatusCode::OK,
                &json!({ "featured": game, "shown": unseen.is_none(), "why": unseen }),
            )
        }
        _ => reply(
            StatusCode::BAD_REQUEST,
            &json!({ "error": "bad-message", "message": "a body {\"game\": ID or null}" }),
        ),
    }
}

/// `POST /admin/moderators` body `{"name": NAME, "moderator": BOOL}`: names a player a
/// moderator (or no longer one); 200 `{"name", "moderator"}`, 404 for no such player.
async fn moderators(State(op): State<Operator>, body: String) -> Response {
    let request = match crate::wire::object::<crate::wire::ModeratorRequest>(&body) {
        Ok(request) => request,
        Err(message) => {
            return reply(
                StatusCode::BAD_REQUEST,
                &json!({ "error": "bad-message", "message": message }),
            );
        }
    };
    let named = json!({ "name": request.name, "moderator": request.moderator });
    match op.services.moderation.name(request).await {
        Ok(()) => reply(StatusCode::OK, &named),
        Err(crate::services::moderation::ModerationError::NotFound(why)) => reply(
            StatusCode::NOT_FOUND,
            &json!({ "error": "not-found", "message": why }),
        ),
        Err(e) => reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({ "error": "internal", "message": e.to_string() }),
        ),
    }
}

async fn drain(State(op): State<Operator>) -> Response {
    op.services.readiness.drain();
    reply(StatusCode::OK, &json!({ "draining": true }))
}

/// Where a backup made now goes: `backups/NAME-UNIXMS.db` beside the database.
#[must_use]
pub(crate) fn backup_path(db: &Path, now_ms: u64) -> PathBuf {
    let dir = db
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("backups");
    let stem = db
        .file_stem()
        .map_or("salpakan".into(), |s| s.to_string_lossy());
    dir.join(format!("{stem}-{now_ms}.db"))
}

async fn backup(State(op): State<Operator>) -> Response {
    let db = op.services.config.db.clone();
    let to = backup_path(&db, crate::clock::unix_ms());
    let made = tokio::task::spawn_blocking(move || {
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(|e| store::StoreError::Backup {
                to: to.display().to_string(),
                reason: e.to_string(),
            })?;
        }
        store::backup(&db, &to).map(|made| (to, made))
    })
    .await;
    match made {
        Ok(Ok((to, made))) => {
            tracing::info!(path = %to.display(), bytes = made.bytes, games = made.games, "backup made");
            reply(
                StatusCode::OK,
                &json!({
                    "path": to.display().to_string(),
                    "bytes": made.bytes,
                    "games": made.games,
                    "version": made.version,
                }),
            )
        }
        Ok(Err(e)) => {
            tracing::error!(error = %e, "backup failed");
            reply(
                StatusCode::INTERNAL_SERVER_ERROR,
                &json!({ "error": e.to_string() }),
            )
        }
        Err(e) => reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({ "error": e.to_string() }),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::addressed;

    #[test]
    fn only_addresses_name_the_listener() {
        for host in [
            "127.0.0.1:9090",
            "127.0.0.1",
            "[::1]:9090",
            "localhost:9090",
            "LOCALHOST",
            "10.0.0.5:80",
        ] {
            assert!(addressed(host), "{host}");
        }
        for host in [
            "",
            "evil.example",
            "evil.example:9090",
            "127.0.0.1.nip.io:9090",
            "[::1",
            "localhost.evil:1",
        ] {
            assert!(!addressed(host), "{host}");
        }
    }
}
