//! The C ABI: a thin shell over the Rust API that validates every value coming from C,
//! translates it, and catches every panic. It holds no rules.
//!
//! The header `include/salpakan.h` is generated from this module by cbindgen (see
//! `cbindgen.toml`); the contract it implements is documented there and in the README
//! ("Use from C and C++").
//!
//! Conventions: every function returns a `SalpakanResult` (or, for the few that cannot fail,
//! a value); outputs go through out-pointers, written only on `SALPAKAN_RESULT_OK`; a NULL
//! where a pointer is required is `SALPAKAN_RESULT_NULL_ARGUMENT`; every enum-like value
//! arrives as an integer and is checked; `salpakan_last_error` says what went wrong.
//! A game handle may be used from any thread, but not from two threads at once.

mod agent;
mod boundary;
mod game;
mod standalone;
mod text;
mod values;

pub use agent::*;
pub use boundary::*;
pub use game::*;
pub use standalone::*;
pub use text::*;
pub use values::*;
