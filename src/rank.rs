//! The fifteen ranks, their codes and the composition of an army.

use crate::prelude::*;
use core::str::FromStr;

use crate::parse::ParseError;
use crate::side::Side;
use crate::value_error::ValueError;

crate::enums::simple_enum! {
    /// A piece's rank. The numeric values are those of the [rulebook](crate::rulebook) and the C ABI: `Flag` = 0,
    /// `Private` = 1 up to `FiveStarGeneral` = 13, `Spy` = 14.
    ///
    /// Ordering follows the numeric value; who wins a challenge is decided by
    /// [`crate::challenge`], not by this order (the Spy and the Flag are special).
    ///
    /// # Examples
    /// ```
    /// use salpakan::Rank;
    ///
    /// assert_eq!(Rank::Private.count(), 6);
    /// assert_eq!(Rank::ALL.iter().map(|r| r.count() as usize).sum::<usize>(), Rank::ARMY_SIZE);
    /// assert_eq!("5G".parse::<Rank>()?, Rank::FiveStarGeneral);
    /// assert_eq!(Rank::Spy.code(), "SP");
    /// assert_eq!(Rank::try_index(13), Some(Rank::FiveStarGeneral));
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    pub enum Rank {
        /// The Flag (`FL`): captured by anything; reaching the far end wins.
        Flag = 0 => "Flag",
        /// Private (`PV`), six per army: the only piece that eliminates the Spy.
        Private = 1 => "Private",
        /// Sergeant (`SG`).
        Sergeant = 2 => "Sergeant",
        /// 2nd Lieutenant (`2L`).
        SecondLieutenant = 3 => "2nd Lieutenant",
        /// 1st Lieutenant (`1L`).
        FirstLieutenant = 4 => "1st Lieutenant",
        /// Captain (`CP`).
        Captain = 5 => "Captain",
        /// Major (`MJ`).
        Major = 6 => "Major",
        /// Lieutenant Colonel (`LC`).
        LieutenantColonel = 7 => "Lieutenant Colonel",
        /// Colonel (`CO`).
        Colonel = 8 => "Colonel",
        /// 1-Star General (`1G`).
        OneStarGeneral = 9 => "1-Star General",
        /// 2-Star General (`2G`).
        TwoStarGeneral = 10 => "2-Star General",
        /// 3-Star General (`3G`).
        ThreeStarGeneral = 11 => "3-Star General",
        /// 4-Star General (`4G`).
        FourStarGeneral = 12 => "4-Star General",
        /// 5-Star General (`5G`).
        FiveStarGeneral = 13 => "5-Star General",
        /// Spy (`SP`), two per army: beats every officer from Sergeant to 5-Star General.
        Spy = 14 => "Spy",
    }
    number_error = ValueError::Rank
}

impl Rank {
    /// The number of pieces in an army: every rank's [`Rank::count`] added up.
    pub const ARMY_SIZE: usize = 21;

    /// An army's ranks in rank order, each as often as [`Rank::count`] says: Flag, six
    /// Privates, Sergeant, …, 5-Star General, two Spies.
    ///
    /// ```
    /// use salpakan::Rank;
    /// assert_eq!(Rank::ARMY.len(), Rank::ARMY_SIZE);
    /// assert_eq!(Rank::ARMY.iter().filter(|r| **r == Rank::Private).count(), 6);
    /// ```
    pub const ARMY: [Rank; Rank::ARMY_SIZE] = {
        let mut army = [Rank::Flag; Rank::ARMY_SIZE];
        let (mut i, mut r) = (0, 0);
        while r < Rank::NUM {
            let mut n = 0;
            while n < Rank::ALL[r].count() {
                army[i] = Rank::ALL[r];
                i += 1;
                n += 1;
            }
            r += 1;
        }
        assert!(i == Rank::ARMY_SIZE);
        army
    };

    /// How many pieces of this rank one army has (6 Privates, 2 Spies, 1 of each other rank).
    #[inline]
    #[must_use]
    pub const fn count(self) -> u8 {
        match self {
            Rank::Private => 6,
            Rank::Spy => 2,
            _ => 1,
        }
    }

    /// The two-character code of the [rulebook](crate::rulebook), upper case (`"5G"`, `"PV"`, `"FL"`, …).
    #[must_use]
    pub const fn code(self) -> &'static str {
        [
            "FL", "PV", "SG", "2L", "1L", "CP", "MJ", "LC", "CO", "1G", "2G", "3G", "4G", "5G",
            "SP",
        ][self as usize]
    }

    /// The code as a given side writes it: upper case for White, lower case for Black.
    #[must_use]
    pub const fn code_for(self, side: Side) -> &'static str {
        match side {
            Side::White => self.code(),
            Side::Black => [
                "fl", "pv", "sg", "2l", "1l", "cp", "mj", "lc", "co", "1g", "2g", "3g", "4g", "5g",
                "sp",
            ][self as usize],
        }
    }

    /// Whether the rank is an officer from Sergeant to 5-Star General (the ranks the Spy beats).
    #[inline]
    #[must_use]
    pub const fn is_officer(self) -> bool {
        (self as u8) >= Rank::Sergeant as u8 && (self as u8) <= Rank::FiveStarGeneral as u8
    }

    /// Parses a rank code in either case and tells which side the case means: upper case is
    /// White, lower case is Black.
    ///
    /// ```
    /// use salpakan::{Rank, Side};
    /// assert_eq!(Rank::parse_with_side("5g")?, (Rank::FiveStarGeneral, Side::Black));
    /// assert_eq!(Rank::parse_with_side("PV")?, (Rank::Private, Side::White));
    /// assert!(Rank::parse_with_side("Pv").is_err());
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// [`ParseError::Rank`] if the text is not a code, or mixes cases.
    pub fn parse_with_side(s: &str) -> Result<(Rank, Side), ParseError> {
        Rank::ALL
            .into_iter()
            .find_map(|rank| {
                Side::ALL
                    .into_iter()
                    .find(|&side| rank.code_for(side) == s)
                    .map(|side| (rank, side))
            })
            .ok_or_else(|| ParseError::Rank(s.to_owned()))
    }
}

impl FromStr for Rank {
    type Err = ParseError;

    /// Parses a rank code in either case (`"5G"` or `"5g"`) or a rank's name (`"5-Star
    /// General"`, in any case).
    fn from_str(s: &str) -> Result<Rank, ParseError> {
        Rank::parse_with_side(s).map(|(rank, _)| rank).or_else(|e| {
            Rank::ALL
                .into_iter()
                .find(|rank| rank.name().eq_ignore_ascii_case(s))
                .ok_or(e)
        })
    }
}
