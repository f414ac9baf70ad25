//! A set of ranks.

use bitflags::bitflags;

use crate::rank::Rank;

bitflags! {
    /// A set of ranks, one bit per rank value (`1 << rank as u16`).
    ///
    /// ```
    /// use salpakan::{Rank, RankSet};
    ///
    /// let set = RankSet::of(Rank::Flag) | RankSet::of(Rank::Spy);
    /// assert!(set.has(Rank::Spy) && !set.has(Rank::Private));
    /// assert_eq!(set.ranks().collect::<Vec<_>>(), [Rank::Flag, Rank::Spy]);
    /// assert_eq!(RankSet::all().ranks().count(), 15);
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct RankSet: u16 {
        /// The Flag.
        const FLAG = 1 << 0;
        /// A Private.
        const PRIVATE = 1 << 1;
        /// The Sergeant.
        const SERGEANT = 1 << 2;
        /// The 2nd Lieutenant.
        const SECOND_LIEUTENANT = 1 << 3;
        /// The 1st Lieutenant.
        const FIRST_LIEUTENANT = 1 << 4;
        /// The Captain.
        const CAPTAIN = 1 << 5;
        /// The Major.
        const MAJOR = 1 << 6;
        /// The Lieutenant Colonel.
        const LIEUTENANT_COLONEL = 1 << 7;
        /// The Colonel.
        const COLONEL = 1 << 8;
        /// The 1-Star General.
        const ONE_STAR_GENERAL = 1 << 9;
        /// The 2-Star General.
        const TWO_STAR_GENERAL = 1 << 10;
        /// The 3-Star General.
        const THREE_STAR_GENERAL = 1 << 11;
        /// The 4-Star General.
        const FOUR_STAR_GENERAL = 1 << 12;
        /// The 5-Star General.
        const FIVE_STAR_GENERAL = 1 << 13;
        /// A Spy.
        const SPY = 1 << 14;
    }
}

impl RankSet {
    /// The set holding only `rank`.
    #[inline]
    #[must_use]
    pub const fn of(rank: Rank) -> RankSet {
        RankSet::from_bits_truncate(1 << rank as u16)
    }

    /// Whether `rank` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, rank: Rank) -> bool {
        self.bits() >> rank as u16 & 1 == 1
    }

    /// The ranks in the set, in rank order.
    pub fn ranks(self) -> impl Iterator<Item = Rank> {
        Rank::ALL.into_iter().filter(move |&rank| self.has(rank))
    }

    /// The ranks `r` for which `keep(r)` holds.
    pub fn filter(keep: impl Fn(Rank) -> bool) -> RankSet {
        Rank::ALL
            .into_iter()
            .filter(|&rank| keep(rank))
            .fold(RankSet::empty(), |set, rank| set | RankSet::of(rank))
    }
}
