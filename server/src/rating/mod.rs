//! What a rating says of a player: the values a new player starts from, whether a rating is
//! still provisional, and the army rank it earns as a title (the contract's table); a game's
//! result and the settlement of a rated game ([`settle`]); how a game moves a rating is
//! [`glicko`]'s.

pub mod bots;
pub mod glicko;
pub mod playban;

use glicko::Glicko;

/// A player's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// Won.
    Won,
    /// Lost.
    Lost,
    /// Drawn.
    Drawn,
}

impl GameResult {
    /// The score Glicko-2 counts it as: 1, 0.5 or 0.
    #[must_use]
    pub fn score(self) -> f64 {
        match self {
            GameResult::Won => 1.0,
            GameResult::Drawn => 0.5,
            GameResult::Lost => 0.0,
        }
    }
}

/// A rated game's settlement: both players' values after it, each from both players' values
/// before it, the first player having had `result` (the database's writer calls it inside
/// the transaction that ends the game, on the rows it locked).
#[must_use]
pub fn settle(first: Glicko, second: Glicko, result: GameResult) -> (Glicko, Glicko) {
    Glicko::game(first, second, result.score())
}

/// A new player's rating.
pub(crate) const INITIAL_RATING: f64 = 1500.0;
/// A new player's rating deviation.
pub(crate) const INITIAL_RD: f64 = 350.0;
/// A new player's volatility.
pub const INITIAL_VOLATILITY: f64 = 0.06;
/// A rating is provisional while its deviation is above this.
pub(crate) const PROVISIONAL_RD: f64 = 110.0;

/// Whether a rating with deviation `rd` is provisional.
#[must_use]
pub fn provisional(rd: f64) -> bool {
    rd > PROVISIONAL_RD
}

/// A rating (or a deviation) as a whole number, as the contract shows it.
#[must_use]
pub fn rounded(value: f64) -> i64 {
    value.round() as i64
}

/// The titles from 1200 up, one every 100 points (below 1200: Private).
pub(crate) const TITLES: [&str; 12] = [
    "Sergeant",
    "2nd Lieutenant",
    "1st Lieutenant",
    "Captain",
    "Major",
    "Lieutenant Colonel",
    "Colonel",
    "1-Star General",
    "2-Star General",
    "3-Star General",
    "4-Star General",
    "5-Star General",
];

/// The title of a player rated `rating` with deviation `rd`: `"Recruit"` while provisional,
/// else the army's rank for the rating (Private below 1200, one rank up every 100 points,
/// 5-Star General from 2300).
#[must_use]
pub fn title(rating: f64, rd: f64) -> &'static str {
    if provisional(rd) {
        return "Recruit";
    }
    if rating < 1200.0 {
        return "Private";
    }
    // Whole hundreds above 1100: 1200 … 1299 is the first title.
    let step = ((rating - 1200.0) / 100.0).floor();
    let index = if step >= (TITLES.len() - 1) as f64 {
        TITLES.len() - 1
    } else {
        step as usize
    };
    TITLES[index]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settlement_moves_both_players_by_the_result() {
        let new = Glicko {
            rating: INITIAL_RATING,
            rd: INITIAL_RD,
            volatility: INITIAL_VOLATILITY,
        };
        let (a, b) = settle(new, new, GameResult::Won);
        assert!(a.rating > INITIAL_RATING && b.rating < INITIAL_RATING);
        assert!((a.rating - INITIAL_RATING - (INITIAL_RATING - b.rating)).abs() < 1e-9);
        assert_eq!(settle(new, new, GameResult::Lost), (b, a));
        let (c, d) = settle(new, new, GameResult::Drawn);
        assert!((c.rating - INITIAL_RATING).abs() < 1e-9 && c == d);
        assert_eq!(settle(a, b, GameResult::Won), Glicko::game(a, b, 1.0));
    }

    #[test]
    fn titles_follow_the_contracts_table() {
        assert_eq!(title(1500.0, 350.0), "Recruit");
        assert_eq!(title(2900.0, 110.1), "Recruit");
        for (rating, want) in [
            (0.0, "Private"),
            (1199.99, "Private"),
            (1200.0, "Sergeant"),
            (1299.0, "Sergeant"),
            (1300.0, "2nd Lieutenant"),
            (1400.0, "1st Lieutenant"),
            (1500.0, "Captain"),
            (1600.0, "Major"),
            (1700.0, "Lieutenant Colonel"),
            (1800.0, "Colonel"),
            (1900.0, "1-Star General"),
            (2000.0, "2-Star General"),
            (2100.0, "3-Star General"),
            (2200.0, "4-Star General"),
            (2299.9, "4-Star General"),
            (2300.0, "5-Star General"),
            (3100.0, "5-Star General"),
        ] {
            assert_eq!(title(rating, 110.0), want, "{rating}");
        }
        assert!(provisional(INITIAL_RD) && !provisional(PROVISIONAL_RD));
    }
}
