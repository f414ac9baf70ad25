//! A game's chat, decided and sent: a line said (who may say what, its limits, committed
//! before anyone hears it, then sent to every socket that hears it), a mode set, a mute, a
//! report, a spectator's name; a server bot's phrases; the chat of a finished game. What the
//! chat holds is `talk`.
//!
//! A server bot says only what public events decide: a greeting at `start`, "good game" at
//! `over`; nothing it computes reaches a line.

use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::live::LiveState;
use super::talk::{MAX_MUTED, frame};
use super::{GameError, Games, Live};
use crate::chat::{MAX_LINES, Phrase, Room, Unclean};
use crate::room::{Player, Recipient};
use crate::services::outbox::Out;
use crate::store::Write;
use crate::wire::{
    ChatLine, ChatMode, ChatRecord, ClientMessage, Code, Refusal, ServerMessage, SideWord,
};

fn refused(code: Code, message: impl Into<String>) -> Result<(), Refusal> {
    Err(Refusal::new(code, message))
}

impl Games {
    /// A chat message from `subscriber` (a socket for `to`), read at `now`: decided, kept
    /// and sent, or refused (the refusal goes to the sender alone, and nothing changed).
    pub(super) async fn chat(
        &self,
        live: &Live,
        state: &mut LiveState,
        (subscriber, to): (u64, Recipient),
        message: ClientMessage,
        now: Instant,
    ) {
        let outcome = match message {
            ClientMessage::Say { phrase, text } => {
                self.say(live, state, (subscriber, to), (phrase, text), now)
                    .await
            }
            ClientMessage::ChatMode { mode } => {
                self.set_mode(live, state, (subscriber, to), mode).await
            }
            ClientMessage::Mute { who } => mute(state, (subscriber, to), &who, true),
            ClientMessage::Unmute { who } => mute(state, (subscriber, to), &who, false),
            ClientMessage::Report { room, n } => {
                self.report(live, state, (subscriber, to), (room, n), now)
                    .await
            }
            ClientMessage::Auth { key } => self.name_spectator(state, (subscriber, to), &key),
            _ => Ok(()),
        };
        if let Err(refusal) = outcome {
            crate::telemetry::refused(refusal.code.word());
            if let Some(s) = state.subscribers.iter().find(|s| s.id == subscriber) {
                let _ = s.tx.try_send(Out::Text(refusal.message().to_json().into()));
            }
        }
    }

    async fn say(
        &self,
        live: &Live,
        state: &mut LiveState,
        (subscriber, to): (u64, Recipient),
        (phrase, text): (Option<Phrase>, Option<String>),
        now: Instant,
    ) -> Result<(), Refusal> {
        let Some(sub) = state.subscribers.iter_mut().find(|s| s.id == subscriber) else {
            return Ok(());
        };
        let chat = &mut state.chat;
        let (room, mode) = match to {
            Recipient::Seat(side) => (Room::Players, chat.modes[side.index()]),
            Recipient::Spectator => (Room::Spectators, sub.chat.mode),
        };
        if mode == ChatMode::Off {
            return refused(Code::ChatNotAllowed, "your chat is off (chat-mode)");
        }
        if to == Recipient::Spectator && sub.chat.name.is_none() {
            return refused(
                Code::ChatNotAllowed,
                "anyone may listen; to talk, send your player's key (auth)",
            );
        }
        let text = match (phrase, text) {
            (Some(phrase), _) => phrase.text().to_owned(),
            (None, Some(text)) => {
                if room == Room::Players && chat.modes.iter().any(|m| *m != ChatMode::Free) {
                    return refused(
                        Code::ChatNotAllowed,
                        "free lines need both players to allow them (chat-mode free); phrases are always allowed",
                    );
                }
                match self.talk.blocklist.line(&text) {
                    Ok(line) => line,
                    Err(Unclean::Empty) => return refused(Code::BadMessage, "an empty line"),
                    Err(e @ Unclean::TooLong(_)) => {
                        return refused(Code::ChatTooLong, e.to_string());
                    }
                    Err(e @ Unclean::Blocked) => return refused(Code::ChatBlocked, e.to_string()),
                }
            }
            (None, None) => return refused(Code::BadMessage, "a phrase or a text"),
        };
        if chat.lines[room.index()].len() >= MAX_LINES {
            return refused(
                Code::ChatFull,
                format!("this room keeps {MAX_LINES} lines, and has them"),
            );
        }
        let limits = &self.config.limits;
        let per_minute = limits.chat_lines_per_minute;
        let player_ok = match (&sub.chat.name, to) {
            (Some(name), _) => self.talk.take(name, per_minute, now),
            (None, Recipient::Seat(side)) => chat.seats[side.index()].take(now),
            (None, Recipient::Spectator) => false,
        };
        if !sub.chat.rate.take(now) || !player_ok {
            return refused(
                Code::ChatRateLimited,
                format!(
                    "at most {} lines in 10 s a socket, {per_minute} a minute a player",
                    limits.chat_lines_per_socket
                ),
            );
        }
        let line = ChatLine {
            room,
            n: chat.lines[room.index()].len() as u64 + 1,
            side: to.side().map(SideWord),
            name: sub.chat.name.clone(),
            bot: false,
            phrase,
            text,
        };
        self.keep_and_send(live, state, line, Some(subscriber))
            .await
    }

    /// Commits `line`, then sends it to every socket that hears it.
    async fn keep_and_send(
        &self,
        live: &Live,
        state: &mut LiveState,
        line: ChatLine,
        speaker: Option<u64>,
    ) -> Result<(), Refusal> {
        let write = Write::Chat {
            game: live.id().to_owned(),
            line: line.clone(),
            at_ms: crate::clock::unix_ms(),
        };
        if let Err(e) = self.store.write(vec![write]).await {
            tracing::error!(game = %live.id(), error = %e, "chat line not kept");
            return refused(Code::Internal, "the server could not do that");
        }
        crate::telemetry::chat_line(line.room.word());
        let frame = frame(&line);
        let chat = &mut state.chat;
        state.subscribers.retain(|s| {
            !chat.hears(s.listener(), &line, speaker)
                || s.tx.try_send(Out::Text(Arc::clone(&frame))).is_ok()
        });
        let i = line.room.index();
        chat.lines[i].push(line);
        Ok(())
    }

    /// A server bot's line for the events from index `from`: a greeting at `start`, "good
    /// game" at `over` (public events alone decide it).
    pub(super) async fn bot_lines(&self, live: &Live, state: &mut LiveState, from: usize) {
        let spec = state.room.spec();
        let Some(side) = Side::ALL
            .into_iter()
            .find(|side| matches!(spec.players[side.index()], Player::Bot(_)))
        else {
            return;
        };
        let name = spec.players[side.index()].bot_name();
        let phrases: Vec<Phrase> = state.room.events()[from..]
            .iter()
            .filter_map(|event| match event {
                crate::room::Event::Start { .. } => Some(Phrase::Hello),
                crate::room::Event::Over { .. } => Some(Phrase::GoodGame),
                _ => None,
            })
            .collect();
        for phrase in phrases {
            let line = ChatLine {
                room: Room::Players,
                n: state.chat.lines[0].len() as u64 + 1,
                side: Some(SideWord(side)),
                name: name.clone(),
                bot: true,
                phrase: Some(phrase),
                text: phrase.text().to_owned(),
            };
            if state.chat.lines[0].len() < MAX_LINES {
                let _ = self.keep_and_send(live, state, line, None).await;
            }
        }
    }

    async fn set_mode(
        &self,
        live: &Live,
        state: &mut LiveState,
        (subscriber, to): (u64, Recipient),
        mode: ChatMode,
    ) -> Result<(), Refusal> {
        match to {
            Recipient::Seat(side) => {
                let write = Write::ChatMode {
                    game: live.id().to_owned(),
                    side,
                    mode,
                };
                if let Err(e) = self.store.write(vec![write]).await {
                    tracing::error!(game = %live.id(), error = %e, "chat mode not kept");
                    return refused(Code::Internal, "the server could not do that");
                }
                state.chat.modes[side.index()] = mode;
                // Both seats are told: free lines need both.
                let chat = &state.chat;
                for s in state
                    .subscribers
                    .iter()
                    .filter(|s| s.to != Recipient::Spectator)
                {
                    let _ = s.tx.try_send(chat.settings_frame(s.listener()));
                }
            }
            Recipient::Spectator => {
                if let Some(s) = state.subscribers.iter_mut().find(|s| s.id == subscriber) {
                    s.chat.mode = mode;
                    let _ = s.tx.try_send(state.chat.settings_frame(s.listener()));
                }
            }
        }
        Ok(())
    }

    async fn report(
        &self,
        live: &Live,
        state: &mut LiveState,
        (subscriber, to): (u64, Recipient),
        (room, n): (Room, u64),
        now: Instant,
    ) -> Result<(), Refusal> {
        let Some(sub) = state.subscribers.iter_mut().find(|s| s.id == subscriber) else {
            return Ok(());
        };
        let hears = match to {
            Recipient::Seat(_) => Room::Players,
            Recipient::Spectator => Room::Spectators,
        };
        let line = (room == hears)
            .then(|| {
                n.checked_sub(1)
                    .and_then(|i| state.chat.lines[room.index()].get(i as usize))
            })
            .flatten();
        let Some(line) = line.cloned() else {
            return refused(
                Code::NotFound,
                format!("no line {n} in the {} room you hear", room.word()),
            );
        };
        let reporter = match (&sub.chat.name, to) {
            (Some(name), _) => name.clone(),
            (None, Recipient::Seat(side)) => side.word().to_owned(),
            (None, Recipient::Spectator) => {
                return refused(
                    Code::ChatNotAllowed,
                    "send your player's key (auth) to report",
                );
            }
        };
        if !sub.chat.rate.take(now) {
            return refused(
                Code::ChatRateLimited,
                "too many lines and reports from this socket",
            );
        }
        let write = Write::Report {
            game: live.id().to_owned(),
            line,
            reporter,
            at_ms: crate::clock::unix_ms(),
        };
        if let Err(e) = self.store.write(vec![write]).await {
            tracing::error!(game = %live.id(), error = %e, "report not kept");
            return refused(Code::Internal, "the server could not do that");
        }
        crate::telemetry::chat_report();
        let _ = sub.tx.try_send(Out::Text(
            ServerMessage::Reported { room, n }.to_json().into(),
        ));
        Ok(())
    }

    fn name_spectator(
        &self,
        state: &mut LiveState,
        (subscriber, to): (u64, Recipient),
        key: &str,
    ) -> Result<(), Refusal> {
        if to != Recipient::Spectator {
            return refused(Code::BadMessage, "a seat speaks as its seat");
        }
        let Ok(name) = self.players.by_key(key) else {
            return refused(Code::BadKey, "not a player's key");
        };
        if let Some(s) = state.subscribers.iter_mut().find(|s| s.id == subscriber) {
            s.chat.name = Some(name);
            let _ = s.tx.try_send(state.chat.settings_frame(s.listener()));
        }
        Ok(())
    }
}

impl Games {
    /// `GET /api/games/{id}/chat`: a finished game's chat. The spectators' room for anyone;
    /// the players' room too for one of its players: `player` (by key) holding a seat, or
    /// the holder of a seat's `token`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game or one not over (one reply for both).
    pub async fn chat_record(
        &self,
        id: &str,
        player: Option<&str>,
        token: Option<&str>,
    ) -> Result<ChatRecord, GameError> {
        if !super::plausible_id(id) {
            return Err(GameError::NotFound);
        }
        let Some(found) = self.store.finished_chat(id).await? else {
            return Err(GameError::NotFound);
        };
        let by_name = player.is_some_and(|p| {
            found
                .names
                .iter()
                .flatten()
                .any(|n| n.eq_ignore_ascii_case(p))
        });
        let by_token = token.is_some_and(|t| {
            found
                .tokens
                .iter()
                .flatten()
                .any(|d| crate::secret::matches(t, d))
        });
        let (players, spectators): (Vec<ChatLine>, Vec<ChatLine>) = found
            .lines
            .into_iter()
            .partition(|line| line.room == Room::Players);
        Ok(ChatRecord {
            game: id.to_owned(),
            players: (by_name || by_token).then_some(players),
            spectators,
        })
    }

    /// The newest chat reports, for the operator.
    ///
    /// # Errors
    /// The database's.
    pub async fn chat_reports(
        &self,
        limit: usize,
    ) -> Result<Vec<crate::store::ReportRow>, GameError> {
        Ok(self.store.reports(limit).await?)
    }
}

/// Mutes (or unmutes) `who` for the seat of `to`, or for a spectator's socket.
fn mute(
    state: &mut LiveState,
    (subscriber, to): (u64, Recipient),
    who: &str,
    on: bool,
) -> Result<(), Refusal> {
    let who = who.trim().to_ascii_lowercase();
    if who.is_empty() || who.len() > 40 {
        return refused(Code::BadMessage, "mute names a side or a player");
    }
    let chat = &mut state.chat;
    let muted = match to {
        Recipient::Seat(side) => &mut chat.muted[side.index()],
        Recipient::Spectator => match state.subscribers.iter_mut().find(|s| s.id == subscriber) {
            Some(s) => &mut s.chat.muted,
            None => return Ok(()),
        },
    };
    if on && !muted.contains(&who) {
        if muted.len() >= MAX_MUTED {
            return refused(Code::ChatFull, format!("at most {MAX_MUTED} muted"));
        }
        muted.push(who);
    } else if !on {
        muted.retain(|m| *m != who);
    }
    // Every socket of the seat (or the one spectator's) is told its settings.
    let chat = &state.chat;
    for s in &state.subscribers {
        let same = match to {
            Recipient::Seat(_) => s.to == to,
            Recipient::Spectator => s.id == subscriber,
        };
        if same {
            let _ = s.tx.try_send(chat.settings_frame(s.listener()));
        }
    }
    Ok(())
}
