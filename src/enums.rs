//! One macro for the crate's small enums, so that each gets the same items written once:
//! `ALL` (in index order), `NUM`, `index()`, `try_index()`, `name()` and a `Display` that
//! prints the name.

/// Declares a fieldless `#[repr(u8)]` enum whose variants carry their numeric value (the C
/// ABI's) and their English name, and gives it:
/// - `ALL`: every variant in declaration order, and `NUM`, their number;
/// - `index()`: the position in `ALL` (0..NUM), and `try_index()`, its inverse (the values
///   must be consecutive, which a compile-time check enforces);
/// - `name()`: the English name, which `Display` prints.
macro_rules! simple_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $value:literal => $text:literal,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(u8)]
        $vis enum $name {
            $(
                $(#[$variant_meta])*
                $variant = $value,
            )*
        }

        impl $name {
            /// Every value, in index order.
            pub const ALL: [$name; [$($name::$variant),*].len()] = [$($name::$variant),*];
            /// The number of values.
            pub const NUM: usize = $name::ALL.len();

            /// The position of the value in [`Self::ALL`].
            #[inline]
            #[must_use]
            pub const fn index(self) -> usize {
                (self as u8 - $name::ALL[0] as u8) as usize
            }

            /// The value at position `index` of [`Self::ALL`], or `None` past the end.
            #[inline]
            #[must_use]
            pub const fn try_index(index: usize) -> Option<$name> {
                if index < $name::NUM {
                    Some($name::ALL[index])
                } else {
                    None
                }
            }

            /// The value's English name, as `Display` prints it.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        // `index` relies on the values being consecutive, in declaration order.
        const _: () = {
            let mut i = 0;
            while i < $name::NUM {
                assert!($name::ALL[i] as u8 as usize == $name::ALL[0] as u8 as usize + i);
                i += 1;
            }
        };

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use simple_enum;
