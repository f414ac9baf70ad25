//! The server's tests: the real stack (HTTP, sockets, SQLite) on loopback.

mod bad_input;
mod bots;
mod budgets;
mod chat;
mod clocks;
mod commitments;
mod common;
mod connections;
mod crash;
mod fair_play;
mod golden;
mod history;
mod live;
mod lobby;
mod nodes;
mod noninterference;
mod operations;
mod pages;
mod pauses;
mod play;
mod reconnect;
mod rematch;
mod seats;
mod setup_time;
mod store;
mod tournaments;
