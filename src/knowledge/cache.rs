//! What a tracker keeps between calls: the counts behind its beliefs, and the sums under the
//! last prior asked for ([`super::Tracker::beliefs_under`]).

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::weighted::Weighted;
use crate::rank::Rank;

use super::count::Count;
use super::rankset::RankSet;

/// The sums under one formation's prior, for one set of facts.
#[derive(Debug)]
pub(crate) struct PriorSums {
    /// Which formation they are for (`Formation::fingerprint`).
    fingerprint: u64,
    sums: Option<Weighted>,
}

impl PriorSums {
    /// The sums (`None` if no assignment with a positive prior fits) for a formation.
    pub(crate) fn new(fingerprint: u64, sums: Option<Weighted>) -> PriorSums {
        PriorSums { fingerprint, sums }
    }

    /// Which formation they are for.
    pub(crate) fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The sums, if any assignment fits.
    pub(crate) fn sums(&self) -> Option<&Weighted> {
        self.sums.as_ref()
    }
}

impl PartialEq for PriorSums {
    fn eq(&self, other: &PriorSums) -> bool {
        self.fingerprint == other.fingerprint
            && self.sums.as_ref().map(|s| &s.marginals) == other.sums.as_ref().map(|s| &s.marginals)
    }
}

/// The sums under the last formation asked for, kept like the plain counts until a fact
/// changes a constraint (one formation at a time: an agent believes one).
#[derive(Default)]
pub(crate) struct PriorCache(Mutex<Option<Arc<PriorSums>>>);

impl Clone for PriorCache {
    /// A copy keeps what this one kept (as a clone of the plain counts does).
    fn clone(&self) -> PriorCache {
        PriorCache(Mutex::new(
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        ))
    }
}

impl PriorCache {
    /// The sums for the formation with `fingerprint`, made by `make` unless kept.
    pub(crate) fn get(
        &self,
        fingerprint: u64,
        make: impl FnOnce() -> Arc<PriorSums>,
    ) -> Arc<PriorSums> {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(sums) = kept.as_ref().filter(|s| s.fingerprint() == fingerprint) {
            return Arc::clone(sums);
        }
        let sums = make();
        *kept = Some(Arc::clone(&sums));
        sums
    }
}

impl PartialEq for PriorCache {
    fn eq(&self, _: &PriorCache) -> bool {
        true
    }
}

impl Eq for PriorCache {}

impl core::fmt::Debug for PriorCache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("prior sums")
    }
}

/// The counts behind the beliefs, made the first time they are asked for and kept until a
/// fact changes a constraint: most plies add none, so most calls of [`Tracker::beliefs`] only
/// read them. Not part of the tracker's value (two trackers that know the same are equal
/// whether or not either has counted yet).
#[derive(Clone, Default)]
pub(crate) struct CountCache(OnceLock<Option<Arc<Count>>>);

impl CountCache {
    /// The counts for `sets`, made now if they were not yet.
    pub(crate) fn get(&self, sets: &[RankSet]) -> Option<Arc<Count>> {
        self.0
            .get_or_init(|| Count::new(sets, &Rank::ARMY).map(Arc::new))
            .clone()
    }
}

impl PartialEq for CountCache {
    fn eq(&self, _: &CountCache) -> bool {
        true
    }
}

impl Eq for CountCache {}

impl core::fmt::Debug for CountCache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "counted"
        } else {
            "not counted"
        })
    }
}
