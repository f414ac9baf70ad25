//! The tournaments' bodies and replies: `POST /api/tournaments` and the director's requests,
//! `GET /api/tournaments` and `GET /api/tournaments/{id}` (the tournament, its standings and
//! its log: everything in them is public).

use serde::{Deserialize, Serialize};

use super::RulesRequest;
use crate::clock::ClockSettings;
use crate::tournament::event::{Eligibility, Kind, Tournament};
use crate::tournament::standings::Standing;

/// `POST /api/tournaments`: `name` and `kind` required, the rest optional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct CreateTournament {
    /// 3 to 60 characters.
    pub name: String,
    /// `swiss`, `round-robin`, `series` or `arena`.
    pub kind: Kind,
    /// Swiss: its rounds (default 5); series: the most games (default 7).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Series: the points that win it (default 4: "race to 4").
    #[serde(default)]
    pub target: Option<u32>,
    /// Arena: its length in minutes (default 60).
    #[serde(default)]
    pub minutes: Option<u32>,
    /// From a round's pairing to its cutoff, in milliseconds (default an hour): a game not
    /// started by then is a default.
    #[serde(default)]
    pub round_ms: Option<u64>,
    /// Each game's clock.
    #[serde(default)]
    pub clock: Option<ClockSettings>,
    /// Each game's rules.
    #[serde(default)]
    pub rules: Option<RulesRequest>,
    /// Whether its games are rated (default false).
    #[serde(default)]
    pub rated: Option<bool>,
    /// Who may register (default anyone).
    #[serde(default)]
    pub eligibility: Option<Eligibility>,
    /// The most entrants (default 64, at most 256; a round robin's default and most 20).
    #[serde(default)]
    pub max_entrants: Option<u32>,
    /// Other directors, by name (the creator is always one), at most 7.
    #[serde(default)]
    pub directors: Option<Vec<String>>,
    /// Whether spectators may watch its games while it runs (default false): the public
    /// board only, never a record or an opening before the end.
    #[serde(default)]
    pub watching: Option<bool>,
}

/// `POST /api/tournaments/{id}/extend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ExtendRequest {
    /// Minutes to move the current round's cutoff by, 1 … 1440.
    pub minutes: u32,
}

/// `POST /api/tournaments/{id}/decide`: a director's default or void of one board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DecideRequest {
    /// The round, from 1.
    pub round: usize,
    /// The board, from 1.
    pub board: usize,
    /// `default` or `void`.
    pub result: String,
    /// For a default: `white`, `black` (the side present, who scores it) or absent (neither).
    #[serde(default)]
    pub present: Option<String>,
    /// Why, said in the log (needed to void a game that ended; at most 200 characters).
    #[serde(default)]
    pub reason: Option<String>,
}

/// One line of the standings: the entrant's name, then its place, score and tie-breaks
/// ([`Standing`]'s fields: `entrant`, `place`, `score`, `direct`, `played_points`,
/// `buchholz`, `sonneborn_berger`, `played`, `wins`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StandingWords {
    /// The entrant's name.
    pub name: String,
    /// Its place, score and tie-breaks.
    #[serde(flatten)]
    pub standing: Standing,
}

/// `GET /api/tournaments/{id}`: the tournament (settings, status, directors, entrants, rounds
/// with each board's game and result, the public log) and its standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct TournamentReply {
    /// The tournament.
    #[serde(flatten)]
    pub tournament: Tournament,
    /// The standings now, best first.
    pub standings: Vec<StandingWords>,
}

impl TournamentReply {
    /// The reply for `tournament`.
    #[must_use]
    pub fn of(tournament: &Tournament) -> TournamentReply {
        let standings = tournament
            .standings()
            .iter()
            .map(|s| words(tournament, s))
            .collect();
        TournamentReply {
            tournament: tournament.public(),
            standings,
        }
    }
}

fn words(t: &Tournament, s: &Standing) -> StandingWords {
    StandingWords {
        name: t.entrants[s.entrant].name.clone(),
        standing: s.clone(),
    }
}

/// One tournament in `GET /api/tournaments`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TournamentEntry {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// Whether a director paused it.
    pub paused: bool,
    /// Its entrants.
    pub entrants: usize,
    /// The rounds paired so far.
    pub rounds: usize,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Whether its games are rated.
    pub rated: bool,
    /// The leaders (the winners once it finished), at most three.
    pub leaders: Vec<String>,
}

impl TournamentEntry {
    /// `tournament`'s entry.
    #[must_use]
    pub fn of(t: &Tournament) -> TournamentEntry {
        TournamentEntry {
            id: t.id.clone(),
            name: t.settings.name.clone(),
            kind: t.settings.kind,
            status: t.status.word().to_owned(),
            paused: t.paused,
            entrants: t.entrants.len(),
            rounds: t.rounds.iter().filter(|r| r.paired_ms > 0).count(),
            created_ms: t.created_ms,
            rated: t.settings.rated,
            leaders: if t.status == crate::tournament::event::Status::Upcoming {
                Vec::new()
            } else {
                t.leaders(3)
            },
        }
    }
}

/// `GET /api/tournaments`: upcoming, running, and the newest finished ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TournamentList {
    /// Each tournament: upcoming and running first (oldest first), then finished (newest
    /// first).
    pub tournaments: Vec<TournamentEntry>,
}
