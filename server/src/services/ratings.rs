//! Ratings: what the players' Glicko-2 ratings say to others. The ratings themselves move in
//! the transaction that ends a rated game (the store's writer, by [`crate::rating::glicko`]);
//! this service reads them for the leaderboard, the lobby's seeks and the pool's pairing.

use std::sync::Arc;

use super::players::Players;
use crate::rating::{self, INITIAL_RATING, INITIAL_RD};
use crate::store::PlayerRow;
use crate::wire::{LEADERBOARD_SIZE, Leaderboard, Ranked};

/// The ratings service, over the players'.
pub(crate) struct Ratings {
    players: Arc<Players>,
}

/// A rating and its deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
}

impl Rating {
    /// A new player's.
    pub(crate) const INITIAL: Rating = Rating {
        rating: INITIAL_RATING,
        rd: INITIAL_RD,
    };

    /// Whether it is still provisional.
    #[must_use]
    pub(crate) fn provisional(self) -> bool {
        rating::provisional(self.rd)
    }
}

impl Ratings {
    /// The ratings of `players`.
    #[must_use]
    pub(crate) fn new(players: Arc<Players>) -> Ratings {
        Ratings { players }
    }

    /// A player's rating (a new player's if unknown: a name no one registered plays as
    /// one).
    #[must_use]
    pub(crate) fn of(&self, name: &str) -> Rating {
        self.players
            .with_row(name, |row| Rating {
                rating: row.rating,
                rd: row.rd,
            })
            .unwrap_or(Rating::INITIAL)
    }

    /// `GET /api/leaderboard`: the players whose ratings are not provisional, highest first
    /// (of equal ratings the lower deviation, then the name), at most [`LEADERBOARD_SIZE`].
    #[must_use]
    pub(crate) fn leaderboard(&self) -> Leaderboard {
        self.players.with_rows(|rows| {
            let mut rated: Vec<&PlayerRow> =
                rows.filter(|row| !rating::provisional(row.rd)).collect();
            let order = |a: &&PlayerRow, b: &&PlayerRow| {
                b.rating
                    .total_cmp(&a.rating)
                    .then(a.rd.total_cmp(&b.rd))
                    .then_with(|| a.name.cmp(&b.name))
            };
            if rated.len() > LEADERBOARD_SIZE {
                rated.select_nth_unstable_by(LEADERBOARD_SIZE - 1, order);
                rated.truncate(LEADERBOARD_SIZE);
            }
            rated.sort_unstable_by(order);
            Leaderboard {
                players: rated
                    .into_iter()
                    .map(|row| Ranked {
                        name: row.name.clone(),
                        bot: row.bot,
                        rating: rating::rounded(row.rating),
                        rd: rating::rounded(row.rd),
                        games: row.games,
                        title: rating::title(row.rating, row.rd).to_owned(),
                    })
                    .collect(),
            }
        })
    }
}
