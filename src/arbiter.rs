//! The arbiter: who wins a challenge. This is the one place the challenge table lives.

use crate::parse::ParseError;
use crate::prelude::*;
use crate::rank::Rank;

crate::enums::simple_enum! {
    /// The result of a challenge, always from the attacker's side. It is all the arbiter announces:
    /// no rank is ever revealed.
    pub enum Outcome {
        /// The defender is removed and the attacker takes its square.
        Win = 0 => "win",
        /// The attacker is removed; the defender stays.
        Lose = 1 => "lose",
        /// Both pieces are removed.
        Tie = 2 => "tie",
    }
}

impl Outcome {
    /// The outcome whose [`name`](Outcome::name) is `word`: `"win"`, `"lose"` or `"tie"`.
    ///
    /// # Errors
    /// [`ParseError::Outcome`] for any other word.
    ///
    /// # Examples
    /// ```
    /// use salpakan::Outcome;
    /// assert_eq!(Outcome::from_word("tie")?, Outcome::Tie);
    /// assert!(Outcome::from_word("draw").is_err());
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    pub fn from_word(word: &str) -> Result<Outcome, ParseError> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.name() == word)
            .ok_or_else(|| ParseError::Outcome(word.to_owned()))
    }
}

/// The rules of the [rulebook](crate::rulebook), in their order. Evaluated once per pair at compile time.
const fn resolve(attacker: Rank, defender: Rank) -> Outcome {
    let (a, d) = (attacker as u8, defender as u8);
    // 1. Flag attacks Flag: the attacker captures the enemy Flag.
    if a == Rank::Flag as u8 && d == Rank::Flag as u8 {
        return Outcome::Win;
    }
    // 2. Same rank: tie.
    if a == d {
        return Outcome::Tie;
    }
    // 3. The Flag loses to everything.
    if d == Rank::Flag as u8 {
        return Outcome::Win;
    }
    if a == Rank::Flag as u8 {
        return Outcome::Lose;
    }
    // 4. Spy vs Private: the Private's side wins.
    if a == Rank::Spy as u8 && d == Rank::Private as u8 {
        return Outcome::Lose;
    }
    if a == Rank::Private as u8 && d == Rank::Spy as u8 {
        return Outcome::Win;
    }
    // 5. Spy vs any officer (Sergeant to 5-Star General): the Spy's side wins.
    if a == Rank::Spy as u8 {
        return Outcome::Win;
    }
    if d == Rank::Spy as u8 {
        return Outcome::Lose;
    }
    // 6. Otherwise the higher rank wins.
    if a > d { Outcome::Win } else { Outcome::Lose }
}

const TABLE: [[Outcome; Rank::NUM]; Rank::NUM] = {
    let mut table = [[Outcome::Tie; Rank::NUM]; Rank::NUM];
    let mut a = 0;
    while a < Rank::NUM {
        let mut d = 0;
        while d < Rank::NUM {
            table[a][d] = resolve(Rank::ALL[a], Rank::ALL[d]);
            d += 1;
        }
        a += 1;
    }
    table
};

/// Resolves a challenge: `attacker` moved onto `defender`'s square. The result is from the
/// attacker's side.
///
/// The rules, in order: Flag attacks Flag, the attacker wins; same rank, tie; the defending
/// Flag loses, the attacking Flag loses; Spy vs Private, the Private wins; Spy vs any officer
/// from Sergeant up, the Spy wins; otherwise the higher rank wins.
///
/// # Examples
/// ```
/// use salpakan::{challenge, Outcome, Rank};
///
/// assert_eq!(challenge(Rank::Spy, Rank::FiveStarGeneral), Outcome::Win);
/// assert_eq!(challenge(Rank::Spy, Rank::Private), Outcome::Lose);
/// assert_eq!(challenge(Rank::Private, Rank::Private), Outcome::Tie);
/// assert_eq!(challenge(Rank::Flag, Rank::Flag), Outcome::Win);
/// assert_eq!(challenge(Rank::Flag, Rank::Private), Outcome::Lose);
/// ```
#[inline]
#[must_use]
pub const fn challenge(attacker: Rank, defender: Rank) -> Outcome {
    TABLE[attacker as usize][defender as usize]
}

/// Whether the challenge of `attacker` against `defender` removes a Flag: the defender's
/// Flag taken, or an attacking Flag that loses. The game is then over, won by the other side
/// (a tie never removes a Flag: Flag against Flag is the attacker's win). A referee of a
/// physical board asks this after each challenge.
///
/// # Examples
/// ```
/// use salpakan::{captures_flag, Rank};
///
/// assert!(captures_flag(Rank::Private, Rank::Flag));
/// assert!(captures_flag(Rank::Flag, Rank::Private)); // the attacking Flag loses
/// assert!(captures_flag(Rank::Flag, Rank::Flag));
/// assert!(!captures_flag(Rank::Spy, Rank::FiveStarGeneral));
/// ```
#[inline]
#[must_use]
pub const fn captures_flag(attacker: Rank, defender: Rank) -> bool {
    match challenge(attacker, defender) {
        Outcome::Win => defender as u8 == Rank::Flag as u8,
        Outcome::Lose => attacker as u8 == Rank::Flag as u8,
        Outcome::Tie => false,
    }
}
