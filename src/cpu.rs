//! Which instructions this CPU offers: the fast paths of move generation, perft and playouts
//! ask before they take them.

/// Whether this x86-64 CPU has every target feature named: asked at run time with `std`,
/// known when compiled without it.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_has {
    ($($feature:tt),+) => {{
        #[cfg(feature = "std")]
        let has = true $(&& std::arch::is_x86_feature_detected!($feature))+;
        #[cfg(not(feature = "std"))]
        let has = cfg!(all($(target_feature = $feature),+));
        has
    }};
}
