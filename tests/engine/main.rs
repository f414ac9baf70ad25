//! The crate's integration tests: one binary, a module per subject. Apart, each in a process
//! of its own: `no_alloc.rs` (a counting global allocator) and `stress.rs` (timings).

mod agents;
mod bindings;
mod client;
mod common;
mod examples;
mod knowledge;
mod notation;
mod properties;
mod replay;
mod rules;
mod table;
mod training;
mod values;
