//! What a game's chat holds (the games service's `chat` decides and sends): each room's
//! lines, each seat's mode and mutes, each socket's name, mode, mutes and rate, and what the
//! chat shares across games. The rooms are kept apart (the seats', the spectators'); a line
//! is sent as a `chat` frame of its own (never inside an event).
//! Who may say what: preset phrases always (unless a chat is off); free lines in the
//! players' room only while both seats are at `free` (the default in a friend's game), in
//! the spectators' room from a spectator named by its player's key. Rates: a socket's
//! lines in 10 s, a player's (or an anonymous seat's) in a minute over all its games.
//!
//! A server bot says only what public events decide: a greeting at `start`, "good game" at
//! `over`; nothing it computes reaches a line.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use salpakan::Side;
use tokio::time::Instant;

use crate::budget::Rate;
use crate::chat::{Blocklist, Room};
use crate::config::Limits;
use crate::room::{Player, Recipient, SavedChat, Spec};
use crate::services::outbox::Out;
use crate::wire::{ChatLine, ChatMode, ChatModes, ChatSettings, ServerMessage, SideWord};

/// The most names one seat or socket may mute.
pub(super) const MAX_MUTED: usize = 50;

/// The window of a socket's chat rate.
pub(super) const SOCKET_WINDOW: Duration = Duration::from_secs(10);

/// What the chat shares across games: the operator's words, and each player's lines a
/// minute.
pub(super) struct Talk {
    /// The words a free line may not carry.
    pub(super) blocklist: Blocklist,
    players: Mutex<HashMap<String, Rate>>,
}

impl Talk {
    pub(super) fn new(blocklist: Blocklist) -> Talk {
        Talk {
            blocklist,
            players: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a line of player `name` at `now`; `false` past its lines a minute.
    pub(super) fn take(&self, name: &str, per_minute: usize, now: Instant) -> bool {
        let mut players = self.players.lock().unwrap_or_else(PoisonError::into_inner);
        if players.len() >= 4096 {
            players.retain(|_, rate| !rate.is_full(now));
        }
        players
            .entry(name.to_ascii_lowercase())
            .or_insert_with(|| Rate::per(per_minute, Duration::from_secs(60), now))
            .take(now)
    }
}

/// A game's chat in memory, under the room's lock.
pub(super) struct GameChat {
    /// Each room's lines, in order (index: [`Room::index`]).
    pub(super) lines: [Vec<ChatLine>; 2],
    /// Each seat's mode.
    pub(super) modes: [ChatMode; 2],
    /// Whose lines each seat hides.
    pub(super) muted: [Vec<String>; 2],
    /// Each seat's lines a minute (an anonymous seat's; a named player's are counted by
    /// player, over all its games).
    pub(super) seats: [Rate; 2],
}

/// A socket as the chat sees it: its id, whom it is for, its own chat.
#[derive(Clone, Copy)]
pub(super) struct Listener<'a> {
    /// The socket's id among the game's.
    pub(super) id: u64,
    /// Whom it is for.
    pub(super) to: Recipient,
    /// What it says and hears of the chat.
    pub(super) chat: &'a SocketChat,
}

/// What one socket says and hears of the chat.
pub(super) struct SocketChat {
    /// The player it speaks as (a seat's player; a spectator once it sent its key).
    pub(super) name: Option<String>,
    /// A spectator's mode (a seat's is the seat's).
    pub(super) mode: ChatMode,
    /// Whose lines a spectator's socket hides.
    pub(super) muted: Vec<String>,
    /// Its lines in 10 s.
    pub(super) rate: Rate,
}

impl SocketChat {
    /// A new socket's, for `to` of a game made with `spec`.
    pub(super) fn new(spec: &Spec, to: Recipient, limits: &Limits) -> SocketChat {
        SocketChat {
            name: to.side().and_then(|side| spec.names[side.index()].clone()),
            mode: ChatMode::Presets,
            muted: Vec::new(),
            rate: Rate::per(limits.chat_lines_per_socket, SOCKET_WINDOW, Instant::now()),
        }
    }
}

/// A line's frame.
pub(super) fn frame(line: &ChatLine) -> Arc<str> {
    ServerMessage::Chat(line.clone()).to_json().into()
}

impl GameChat {
    /// The chat of a game made with `spec`, as the database kept it.
    pub(super) fn new(spec: &Spec, saved: SavedChat, limits: &Limits) -> GameChat {
        let mut lines = [Vec::new(), Vec::new()];
        for line in saved.lines {
            lines[line.room.index()].push(line);
        }
        // Free lines by default between friends (a game made with an invite), never with a
        // bot.
        let default = |side: Side| match spec.players[side.index()] {
            Player::Bot(_) => ChatMode::Presets,
            Player::Human if spec.invite.is_some() => ChatMode::Free,
            Player::Human => ChatMode::Presets,
        };
        let now = Instant::now();
        GameChat {
            lines,
            modes: Side::ALL.map(|side| saved.modes[side.index()].unwrap_or(default(side))),
            muted: [Vec::new(), Vec::new()],
            seats: [(); 2]
                .map(|()| Rate::per(limits.chat_lines_per_minute, Duration::from_secs(60), now)),
        }
    }

    /// Whether `to` hears `line` said by subscriber `speaker`.
    pub(super) fn hears(&self, sub: Listener<'_>, line: &ChatLine, speaker: Option<u64>) -> bool {
        if speaker == Some(sub.id) {
            return true;
        }
        match (line.room, sub.to) {
            (Room::Players, Recipient::Seat(side)) => {
                line.side == Some(SideWord(side))
                    || (self.modes[side.index()] != ChatMode::Off
                        && !line.muted_by(&self.muted[side.index()]))
            }
            (Room::Spectators, Recipient::Spectator) => {
                sub.chat.mode != ChatMode::Off && !line.muted_by(&sub.chat.muted)
            }
            _ => false,
        }
    }

    /// `sub`'s settings.
    pub(super) fn settings(&self, sub: Listener<'_>) -> ChatSettings {
        match sub.to {
            Recipient::Seat(side) => ChatSettings {
                mode: self.modes[side.index()],
                seats: Some(ChatModes {
                    white: self.modes[0],
                    black: self.modes[1],
                }),
                name: sub.chat.name.clone(),
                muted: self.muted[side.index()].clone(),
            },
            Recipient::Spectator => ChatSettings {
                mode: sub.chat.mode,
                seats: None,
                name: sub.chat.name.clone(),
                muted: sub.chat.muted.clone(),
            },
        }
    }

    /// The `chat-settings` frame for `sub`.
    pub(super) fn settings_frame(&self, sub: Listener<'_>) -> Out {
        Out::Text(
            ServerMessage::ChatSettings(self.settings(sub))
                .to_json()
                .into(),
        )
    }

    /// The lines of its room a socket that just opened hears (none at all in a game where
    /// nobody spoke: the frames a socket gets then are as they were before chat).
    pub(super) fn opening(&self, sub: Listener<'_>) -> Vec<Arc<str>> {
        let room = match sub.to {
            Recipient::Seat(_) => Room::Players,
            Recipient::Spectator => Room::Spectators,
        };
        let i = room.index();
        self.lines[i]
            .iter()
            .filter(|line| self.hears(sub, line, None))
            .map(frame)
            .collect()
    }
}
