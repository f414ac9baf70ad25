//! What the operator sees of the games: each room's phase and plies as of its last commit
//! (read without the room's lock), and the log lines and counts of a game's life. Never a
//! token, an invite or a formation.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use serde::Serialize;

use super::{Games, lock};
use crate::room::{Event, Phase, Player, Room, Spec};
use crate::telemetry;
use crate::wire::AbortReason;

/// A room's facts for the operator: fixed ones from its spec, and its phase and plies noted
/// after each commit.
pub(super) struct Shown {
    phase: AtomicU8,
    plies: AtomicU64,
    /// Who plays each side.
    pub(super) players: [Player; 2],
    names: [Option<String>; 2],
    created_ms: u64,
    rated: bool,
}

/// A phase as a number (`BROKEN` for a room being reloaded).
const PHASES: [Phase; 4] = [Phase::Setup, Phase::Playing, Phase::Over, Phase::Aborted];
const BROKEN: u8 = u8::MAX;

impl Shown {
    pub(super) fn of(spec: &Spec) -> Shown {
        Shown {
            phase: AtomicU8::new(0),
            plies: AtomicU64::new(0),
            players: spec.players,
            names: spec.names.clone(),
            created_ms: spec.created_ms,
            rated: spec.rated,
        }
    }

    /// Notes the room's phase and plies now.
    pub(super) fn note(&self, room: &Room, broken: bool) {
        let phase = if broken {
            BROKEN
        } else {
            PHASES.iter().position(|&p| p == room.phase()).unwrap_or(0) as u8
        };
        self.phase.store(phase, Ordering::Relaxed);
        self.plies.store(room.ply(), Ordering::Relaxed);
    }

    fn phase(&self) -> Option<Phase> {
        PHASES
            .get(usize::from(self.phase.load(Ordering::Relaxed)))
            .copied()
    }
}

/// A committed stretch of game `id`'s events, for the log and the counts: its start, its
/// plies, its end (the last `ply` played).
pub(super) fn tell(id: &str, events: &[Event], ply: u64) {
    let mut plies = 0;
    for event in events {
        match event {
            Event::Start { first, .. } => {
                tracing::info!(game = %id, first = first.word(), "game started");
            }
            Event::Ply { .. } => plies += 1,
            Event::Over { status, .. } => {
                let reason = status.reason_token().unwrap_or("unknown");
                let winner = status.winner().map_or("none", |w| w.word());
                tracing::info!(game = %id, reason, winner, plies = ply, "game ended");
                telemetry::game_ended(reason);
            }
            Event::Aborted { reason, side } => {
                let reason = match reason {
                    AbortReason::SetupTime => "setup-time",
                    AbortReason::Abort => "abort",
                };
                tracing::info!(game = %id, reason, side = side.word(), "game aborted");
                telemetry::game_ended("aborted");
            }
            _ => {}
        }
    }
    if plies > 0 {
        telemetry::plies(plies);
    }
}

/// One side of a game in the operator's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedSide {
    /// `"human"` or `"bot"`.
    pub player: &'static str,
    /// The player's name, if a named player (or a server bot) holds the seat.
    pub name: Option<String>,
}

/// A game in memory, as `GET /admin/games` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LiveGame {
    /// Its id.
    pub id: String,
    /// Its phase as of its last commit (`"reloading"` while its room is rebuilt).
    pub phase: &'static str,
    /// Plies played.
    pub plies: u64,
    /// White.
    pub white: ListedSide,
    /// Black.
    pub black: ListedSide,
    /// Whether it is rated.
    pub rated: bool,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
}

impl Games {
    /// Every game in memory, oldest first (at most `limit`).
    #[must_use]
    pub fn live_games(&self, limit: usize) -> Vec<LiveGame> {
        let mut games: Vec<LiveGame> = lock(&self.rooms)
            .values()
            .map(|live| {
                let shown = &live.shown;
                let side = |i: usize| ListedSide {
                    player: shown.players[i].kind_word(),
                    name: shown.names[i]
                        .clone()
                        .or_else(|| shown.players[i].bot_name()),
                };
                LiveGame {
                    id: live.id().to_owned(),
                    phase: shown.phase().map_or("reloading", Phase::word),
                    plies: shown.plies.load(Ordering::Relaxed),
                    white: side(0),
                    black: side(1),
                    rated: shown.rated,
                    created_ms: shown.created_ms,
                }
            })
            .collect();
        games.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        games.truncate(limit);
        games
    }

    /// Sets the gauge of games in memory by phase (for a scrape of `/metrics`).
    pub fn count_phases(&self) {
        let mut counts = PHASES.map(|p| (p.word(), 0));
        for live in lock(&self.rooms).values() {
            if let Some(i) = PHASES.iter().position(|&p| Some(p) == live.shown.phase()) {
                counts[i].1 += 1;
            }
        }
        telemetry::games_live(&counts);
    }
}

impl Games {
    /// The games asked rated but played unrated, newest first, at most `limit` (the
    /// operator's `GET /admin/unrated`).
    ///
    /// # Errors
    /// The database's error.
    pub async fn unrated(
        &self,
        limit: usize,
    ) -> Result<Vec<crate::store::UnratedRow>, super::GameError> {
        Ok(self.store.unrated(limit).await?)
    }
}
