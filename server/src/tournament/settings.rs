//! A tournament's settings, fixed when it is made: its kind, rounds, cutoffs, games' rules,
//! and who may register; checked in one place.

use serde::{Deserialize, Serialize};

use super::bounds::{MAX_ENTRANTS, TournamentError};
use crate::clock::ClockSettings;

/// The longest arena, in minutes: four hours (each pairing of an arena is a round the
/// tournament keeps, so its length bounds what it holds).
pub(crate) const MAX_ARENA_MINUTES: u32 = 240;

/// The most entrants of a round robin (every pair meets: 20 entrants are 190 games).
pub(crate) const MAX_ROUND_ROBIN: u32 = 20;

/// The kinds of tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `rounds` rounds paired by score then rating.
    Swiss,
    /// Every entrant meets every other once.
    RoundRobin,
    /// Two entrants race to `target` points, at most `rounds` games.
    Series,
    /// For `minutes`, whoever is free is paired at once.
    Arena,
}

/// Who may register.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Eligibility {
    /// The lowest rating allowed.
    pub min_rating: Option<f64>,
    /// The highest rating allowed.
    pub max_rating: Option<f64>,
    /// The highest title allowed (`"Major"`: "Major or below"); a provisional player
    /// (`"Recruit"`) is below every title.
    pub max_title: Option<String>,
}

/// A tournament's settings, fixed at its creation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Its name, 3 to 60 characters.
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// Swiss: its rounds; series: the most games.
    pub rounds: u32,
    /// Series: the points that win it.
    pub target: u32,
    /// Arena: how long it runs, in minutes.
    pub minutes: u32,
    /// From a round's pairing to its cutoff, in milliseconds: a game not started by then
    /// (both formations in) is a default.
    pub round_ms: u64,
    /// Each game's clock.
    pub clock: Option<ClockSettings>,
    /// Each game's setup rows (3, the official rule, when absent).
    pub setup_rows: Option<i64>,
    /// Each game's move limit (the server's default when absent).
    pub move_limit: Option<i64>,
    /// Whether its games are rated.
    pub rated: bool,
    /// Who may register.
    pub eligibility: Eligibility,
    /// The most entrants.
    pub max_entrants: u32,
    /// Whether spectators may watch its games while it runs (the public board only: their
    /// records and openings stay sealed to all but the players until it ends).
    #[serde(default)]
    pub watching: bool,
}

/// The titles, lowest first, as eligibility compares them.
pub(super) fn title_rank(title: &str) -> Option<usize> {
    ["Recruit", "Private"]
        .into_iter()
        .chain(crate::rating::TITLES.iter().copied())
        .position(|t| t.eq_ignore_ascii_case(title))
}

impl Settings {
    /// Checks the settings: names, counts and times in range.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] naming the value out of range.
    pub fn check(&self, min_round_ms: u64) -> Result<(), TournamentError> {
        let length = self.name.chars().count();
        if !(3..=60).contains(&length) || self.name.chars().any(char::is_control) {
            return Err(TournamentError::invalid(
                "name must be 3 to 60 characters, none a control",
            ));
        }
        match self.kind {
            Kind::Swiss if !(1..=20).contains(&self.rounds) => {
                return Err(TournamentError::invalid("a Swiss has 1 to 20 rounds"));
            }
            Kind::Series if !(1..=10).contains(&self.target) => {
                return Err(TournamentError::invalid(
                    "a series' target is 1 to 10 points",
                ));
            }
            Kind::Series if !(1..=30).contains(&self.rounds) => {
                return Err(TournamentError::invalid(
                    "a series has at most 1 to 30 games (rounds)",
                ));
            }
            Kind::Arena if !(1..=MAX_ARENA_MINUTES).contains(&self.minutes) => {
                return Err(TournamentError::invalid(format!(
                    "an arena lasts 1 to {MAX_ARENA_MINUTES} minutes"
                )));
            }
            Kind::RoundRobin if self.max_entrants > MAX_ROUND_ROBIN => {
                return Err(TournamentError::invalid(format!(
                    "a round robin takes at most {MAX_ROUND_ROBIN} entrants (max_entrants): \
                     every pair meets, so larger events are Swiss"
                )));
            }
            _ => {}
        }
        const WEEK_MS: u64 = 7 * 24 * 60 * 60 * 1000;
        if !(min_round_ms..=WEEK_MS).contains(&self.round_ms) {
            return Err(TournamentError::invalid(format!(
                "round_ms must be {min_round_ms} … {WEEK_MS} (from a round's pairing to its \
                 cutoff), not {}",
                self.round_ms
            )));
        }
        if !(2..=MAX_ENTRANTS).contains(&self.max_entrants) {
            return Err(TournamentError::invalid(format!(
                "max_entrants must be 2 … {MAX_ENTRANTS}"
            )));
        }
        if let Some(title) = &self.eligibility.max_title
            && title_rank(title).is_none()
        {
            return Err(TournamentError::invalid(format!(
                "no such title: {title:?}"
            )));
        }
        Ok(())
    }
}
