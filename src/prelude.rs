//! What the standard prelude gives a module that a `no_std` build must import from `alloc`:
//! every module that names `Vec`, `String`, `Box`, `format!` or `vec!` imports
//! `crate::prelude::*`, with or without `std`.

#[allow(unused_imports)]
pub(crate) use alloc::{
    borrow::ToOwned,
    boxed::Box,
    format,
    string::{String, ToString},
    vec,
    vec::Vec,
};
