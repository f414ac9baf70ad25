//! One macro for the crate's small enums, so that each gets the same items written once:
//! `ALL` (in index order), `NUM`, `index()`, `try_index()`, `name()`, a `Display` that
//! prints the name, and (where a binding passes the value as a number) `from_number()`.

/// Declares a fieldless `#[repr(u8)]` enum whose variants carry their numeric value (the C
/// ABI's) and their English name, and gives it:
/// - `ALL`: every variant in declaration order, and `NUM`, their number;
/// - `index()`: the position in `ALL` (0..NUM), and `try_index()`, its inverse (arithmetic
///   when the values are consecutive, as for ranks and sides; a lookup when they are not, as
///   for the win reasons, whose C values leave room for the draw reasons);
/// - `name()`: the English name, which `Display` prints;
/// - with a trailing `number_error = Error::Variant`, `from_number(i64)`: the value whose
///   number is that (as a foreign caller passes it), or `Error::Variant(number)`.
macro_rules! simple_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $value:literal => $text:literal,
            )*
        }
        $(number_error = $error:ident :: $error_variant:ident)?
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
            /// Whether the values are consecutive in declaration order (then `index` is one
            /// subtraction).
            const CONSECUTIVE: bool = {
                let mut i = 0;
                let mut consecutive = true;
                while i < $name::NUM {
                    consecutive &= $name::ALL[i] as u8 as usize == $name::ALL[0] as u8 as usize + i;
                    i += 1;
                }
                consecutive
            };

            /// Every value, in index order.
            pub const ALL: [$name; [$($name::$variant),*].len()] = [$($name::$variant),*];
            /// The number of values.
            pub const NUM: usize = $name::ALL.len();

            /// The position of the value in [`Self::ALL`].
            #[inline]
            #[must_use]
            pub const fn index(self) -> usize {
                if $name::CONSECUTIVE {
                    (self as u8 - $name::ALL[0] as u8) as usize
                } else {
                    // The position in declaration order, from a twin enum without values.
                    #[allow(dead_code)]
                    enum Position {
                        $($variant,)*
                    }
                    match self {
                        $($name::$variant => Position::$variant as usize,)*
                    }
                }
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

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        $(
            impl $name {
                /// The value whose number (its `#[repr(u8)]` value, the C ABI's) is `value`,
                /// as a binding reads it from a foreign caller.
                ///
                /// # Errors
                #[doc = concat!("`", stringify!($error), "::", stringify!($error_variant), "(value)` for any other number.")]
                pub fn from_number(value: i64) -> Result<$name, $error> {
                    $name::ALL
                        .into_iter()
                        .find(|&v| v as u8 as i64 == value)
                        .ok_or($error::$error_variant(value))
                }
            }
        )?
    };
}

pub(crate) use simple_enum;
