//! The games in play anyone may watch: `GET /api/live` and the live list's socket
//! (`/api/live/socket`: the whole list first, then what changed).

use serde::{Deserialize, Serialize};

use super::{Bots, ClockWords, Names, OutcomeWord, RulesWords, SideWord};

/// The most games the live list shows (the best first).
pub(crate) const LIVE_SHOWN: usize = 50;

/// Each side's rating in a live game (rounded; `null` for an anonymous seat).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveRatings {
    /// White's.
    pub white: Option<i64>,
    /// Black's.
    pub black: Option<i64>,
}

/// The last challenge of a game: the arbiter's words, as every spectator heard them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastChallenge {
    /// Its ply.
    pub ply: u32,
    /// The side that attacked.
    pub side: SideWord,
    /// The arbiter's word, the attacker's.
    pub outcome: OutcomeWord,
}

/// A game in play, as the live list shows it: public facts only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveEntry {
    /// The game's id (its watch socket is `/api/games/{game}/socket`).
    pub game: String,
    /// Each seat's player's name (`null`: anonymous).
    pub names: Names,
    /// Whether each seat's player is a bot.
    pub bots: Bots,
    /// Each side's rating when the list was made.
    pub ratings: LiveRatings,
    /// Whether the game is rated.
    pub rated: bool,
    /// The rules.
    pub rules: RulesWords,
    /// The clock as of the last ply (a page runs it on from there); `null` when untimed.
    pub clock: Option<ClockWords>,
    /// Plies played.
    pub ply: u64,
    /// The last challenge, if there was one.
    pub last: Option<LastChallenge>,
}

/// What moves in a listed game between two versions: its plies, its clock, its last
/// challenge (a delta's `moved`: the rest of its entry stays as it was).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LiveMove {
    /// The game.
    pub game: String,
    /// Plies played.
    pub ply: u64,
    /// The clock as of the last ply.
    pub clock: Option<ClockWords>,
    /// The last challenge.
    pub last: Option<LastChallenge>,
}

impl LiveEntry {
    /// Its moving part.
    #[must_use]
    pub(crate) fn moving(&self) -> LiveMove {
        LiveMove {
            game: self.game.clone(),
            ply: self.ply,
            clock: self.clock,
            last: self.last,
        }
    }

    /// Whether `other` is this game with the same fixed part (names, bots, ratings, rated,
    /// rules): what a [`LiveMove`] leaves as it was.
    #[must_use]
    pub(crate) fn same_but_moves(&self, other: &LiveEntry) -> bool {
        self.game == other.game
            && self.names == other.names
            && self.bots == other.bots
            && self.ratings == other.ratings
            && self.rated == other.rated
            && self.rules == other.rules
    }

    /// The list's order: the higher mean rating first (an anonymous seat counts as 1500),
    /// then the longer game, then the id.
    #[must_use]
    pub(crate) fn rank_key(&self) -> (i64, u64, String) {
        let rating = |r: Option<i64>| r.unwrap_or(1500);
        let mean = (rating(self.ratings.white) + rating(self.ratings.black)) / 2;
        (-mean, u64::MAX - self.ply, self.game.clone())
    }
}

/// `GET /api/live`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LiveReply {
    /// The games in play, best first, at most [`LIVE_SHOWN`].
    pub games: Vec<LiveEntry>,
    /// The featured game: the operator's choice, or the best game in play.
    pub featured: Option<String>,
}

/// What the live list's socket sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub(crate) enum LiveMessage {
    /// The whole list: on connect, and to a socket that fell behind.
    Live {
        /// The list's version (one more for each change).
        v: u64,
        /// The games, best first.
        games: Vec<LiveEntry>,
        /// The featured game.
        featured: Option<String>,
    },
    /// What changed since version `v - 1`: entries new or changed (replacing those of the
    /// same game), games that moved on (their plies, clock and last challenge), and games
    /// gone from the list.
    LiveDelta {
        /// The list's version.
        v: u64,
        /// New entries, or entries whose fixed part changed.
        changed: Vec<LiveEntry>,
        /// Games listed before that moved on.
        moved: Vec<LiveMove>,
        /// Games no longer listed.
        gone: Vec<String>,
        /// The featured game.
        featured: Option<String>,
    },
    /// The answer to a ping.
    Pong,
}

impl LiveMessage {
    /// The frame's text.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: &str, ratings: (Option<i64>, Option<i64>), ply: u64) -> LiveEntry {
        LiveEntry {
            game: game.into(),
            names: Names::default(),
            bots: Bots::default(),
            ratings: LiveRatings {
                white: ratings.0,
                black: ratings.1,
            },
            rated: false,
            rules: RulesWords::from(salpakan::Rules::default()),
            clock: None,
            ply,
            last: None,
        }
    }

    #[test]
    fn the_higher_mean_rating_comes_first_then_the_longer_game() {
        let mut list = [
            entry("a", (None, None), 10),
            entry("b", (Some(1900), Some(1700)), 3),
            entry("c", (Some(1400), None), 99),
            entry("d", (Some(1600), Some(1400)), 40),
            entry("e", (Some(1800), Some(1800)), 3),
        ];
        list.sort_by_key(LiveEntry::rank_key);
        let order: Vec<&str> = list.iter().map(|e| e.game.as_str()).collect();
        assert_eq!(order, ["b", "e", "d", "a", "c"]);
    }
}
