//! What a rating says of a player: the values a new player starts from, whether a rating is
//! still provisional, and the army rank it earns as a title (the contract's table); how a game
//! moves it is [`glicko`]'s.

pub mod bots;
pub mod glicko;
pub mod playban;

/// A new player's rating.
pub const INITIAL_RATING: f64 = 1500.0;
/// A new player's rating deviation.
pub const INITIAL_RD: f64 = 350.0;
/// A new player's volatility.
pub const INITIAL_VOLATILITY: f64 = 0.06;
/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_RD: f64 = 110.0;

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
pub const TITLES: [&str; 12] = [
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
