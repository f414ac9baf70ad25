//! The operator's listener (`--metrics-addr`, kept on loopback or a private network): the
//! Prometheus text at `/metrics` and the admin routes. None of it is on the players'
//! address, and nothing it answers holds a token, a key, an invite or the formation of an
//! unfinished game.
//!
//! - `GET /metrics`: Prometheus text (the games by phase counted at each scrape).
//! - `GET /admin/games`: `{"games": [...]}`, every game in memory, oldest first (at most
//!   10,000): id, phase, plies, each side's kind and name, rated, created.
//! - `GET /admin/unrated`: `{"games": [...]}`, the games asked rated but played unrated,
//!   newest first (at most 1,000): id, names, why (`same-address`, `pair-day`, `address-day`,
//!   `early`), created, and each seat's address while kept: what rating farming would leave.
//! - `POST /admin/drain`: no new games from now on, `/api/ready` 503; the games held go on.
//! - `POST /admin/backup`: an online, checked copy of the database beside it, in `backups/`;
//!   answers `{"path", "bytes", "games", "version"}`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use metrics_exporter_prometheus::PrometheusHandle;
use serde_json::json;

use crate::http::reply::json as reply;
use crate::services::Services;
use crate::store;

/// The most games `GET /admin/games` lists.
pub const LISTED: usize = 10_000;

/// The most games `GET /admin/unrated` lists.
pub const UNRATED_LISTED: usize = 1_000;

#[derive(Clone)]
struct Operator {
    services: Arc<Services>,
    metrics: Option<PrometheusHandle>,
}

/// The operator's routes over `services`, the metrics rendered from `metrics`.
pub fn router(services: Arc<Services>, metrics: Option<PrometheusHandle>) -> Router {
    Router::new()
        .route("/metrics", get(render))
        .route("/admin/games", get(games))
        .route("/admin/unrated", get(unrated))
        .route("/admin/drain", post(drain))
        .route("/admin/backup", post(backup))
        .with_state(Operator { services, metrics })
}

async fn render(State(op): State<Operator>) -> Response {
    let Some(handle) = op.metrics else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "another metrics recorder is installed\n",
        )
            .into_response();
    };
    op.services.games.count_phases();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
        .into_response()
}

async fn games(State(op): State<Operator>) -> Response {
    reply(
        StatusCode::OK,
        &json!({ "games": op.services.games.live_games(LISTED) }),
    )
}

async fn unrated(State(op): State<Operator>) -> Response {
    match op.services.games.unrated(UNRATED_LISTED).await {
        Ok(games) => reply(StatusCode::OK, &json!({ "games": games })),
        Err(e) => reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({ "error": e.to_string() }),
        ),
    }
}

async fn drain(State(op): State<Operator>) -> Response {
    op.services.readiness.drain();
    reply(StatusCode::OK, &json!({ "draining": true }))
}

/// Where a backup made now goes: `backups/NAME-UNIXMS.db` beside the database.
#[must_use]
pub fn backup_path(db: &Path, now_ms: u64) -> PathBuf {
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
