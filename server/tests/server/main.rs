//! The server's tests: the real stack (HTTP, sockets, SQLite) on loopback.

mod common;
mod noninterference;
