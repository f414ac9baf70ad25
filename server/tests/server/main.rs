//! The server's tests: the real stack (HTTP, sockets, SQLite) on loopback.

mod attacks;
mod bad_input;
mod clocks;
mod common;
mod crash;
mod golden;
mod history;
mod lobby;
mod nodes;
mod noninterference;
mod operations;
mod play;
mod reconnect;
mod rematch;
mod seats;
mod setup_time;
