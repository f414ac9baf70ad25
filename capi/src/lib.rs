//! The C ABI of the `salpakan` rules engine: a thin shell over the crate's API that validates
//! every value coming from C, translates it, and catches every panic. It holds no rules.
//!
//! Built as `libsalpakan_capi.{so,a}` and installed by `scripts/install` as the C library
//! `libsalpakan` (`libsalpakan.so.MAJOR` and `libsalpakan.a`) with its header
//! `include/salpakan.h` at the workspace's top (generated from this crate by cbindgen with the
//! top's `cbindgen.toml`), the C++ wrapper `include/salpakan.hpp`, `salpakan.pc` and a CMake package. The header documents
//! every function; `docs/C.md` at the repository's root is the guide.
//!
//! Conventions (rustls-ffi's): every exported function is a visible
//! `#[unsafe(no_mangle)] pub extern "C" fn` whose body runs inside one panic boundary
//! (`boundary::guard`), returns a `SalpakanResult` (a `#[repr(u32)]` enum), takes C values
//! as integers and checks them (`args`), writes outputs only on success, and holds its
//! handles through one helper (`handle::Handle`). A game handle may be used from any thread, but not
//! from two threads at once.
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod agent;
mod args;
mod boundary;
mod commitment;
mod game;
mod handle;
mod result;
mod standalone;
mod text;
mod tracker;
mod values;

pub use agent::*;
pub use commitment::*;
pub use game::*;
pub use result::SalpakanResult;
pub use standalone::*;
pub use text::*;
pub use tracker::*;
pub use values::*;
