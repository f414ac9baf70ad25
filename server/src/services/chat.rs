//! The chat service (lila's `ChatApi`): each game's chat in memory, its lines committed
//! before anyone hears them, then sent to the sockets that hear them; a finished game's chat
//! read back; the reports for the operator. Its rules are [`crate::chat`]'s value, with no
//! I/O; a chat frame is its own message and never passes through the game.
//!
//! Each game's chat has a lock of its own: a line said never waits for the game's lock, nor
//! a move for a line. The games service opens a game's chat when the game comes into memory
//! and joins each socket to it (the socket's `state` carries its chat settings, then the
//! lines it hears), and tells it the events a server bot greets or closes with.

use std::sync::Arc;

use thiserror::Error;
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::outbox::{Out, Outlet};
use super::players::Players;
use crate::chat::{Blocklist, Command, Decision, GameChat, Policy};
use crate::config::Limits;
use crate::room::{Event, Recipient, SavedChat, Spec};
use crate::store::ChatWrite;
use crate::store::{ReportGroup, ReportPage, Store, StoreError, Write};
use crate::wire::{
    Channel, ChatLine, ChatRecord, ChatSettings, Code, Phrase, Refusal, ServerMessage,
};

/// Why the chat service refused a request.
#[derive(Debug, Error)]
pub(crate) enum ChatError {
    /// No such game, or one not over: one reply for both (as the games service says it).
    #[error("no such game, or not this invite")]
    NotFound,
    /// The database failed (the cause is logged, never sent).
    #[error("the server could not do that")]
    Store(#[from] StoreError),
}

/// What the chat service is made of.
pub(crate) struct Parts {
    /// The limits (rates, sockets).
    pub limits: Limits,
    /// The database.
    pub store: Store,
    /// The players (a spectator names itself with its key).
    pub players: Arc<Players>,
    /// The words a free line may not carry.
    pub blocklist: Blocklist,
}

/// The chat service.
pub(crate) struct Chats {
    limits: Limits,
    store: Store,
    players: Arc<Players>,
    policy: Policy,
}

/// One game's chat in memory: its rules' state and each socket's outlet, behind a lock of
/// its own.
pub(crate) struct Chat {
    game: String,
    held: Mutex<Held>,
}

struct Held {
    chat: GameChat,
    outlets: Vec<(u64, Outlet)>,
}

impl Held {
    fn send(&self, to: &[u64], out: &Out) {
        for (id, outlet) in &self.outlets {
            if to.contains(id) {
                outlet.send(out.clone());
            }
        }
    }

    fn settings(&self, ids: &[u64]) {
        for (id, outlet) in &self.outlets {
            if ids.contains(id)
                && let Some(settings) = self.chat.settings(*id)
            {
                outlet.send(text(&ServerMessage::ChatSettings(settings)));
            }
        }
    }

    fn refuse(&self, id: u64, refusal: &Refusal) {
        crate::telemetry::refused(refusal.code.word());
        self.send(&[id], &text(&refusal.message()));
    }
}

fn text(message: &ServerMessage) -> Out {
    Out::Text(message.to_json().into())
}

impl Chats {
    /// The chat service of `parts`.
    #[must_use]
    pub(crate) fn new(parts: Parts) -> Arc<Chats> {
        Arc::new(Chats {
            limits: parts.limits,
            store: parts.store,
            players: parts.players,
            policy: Policy::new(parts.blocklist),
        })
    }

    /// The chat of game `spec` (its lines and modes as the database kept them), for the
    /// game's time in memory.
    #[must_use]
    pub(crate) fn open(&self, spec: &Spec, saved: SavedChat) -> Arc<Chat> {
        Arc::new(Chat {
            game: spec.id.clone(),
            held: Mutex::new(Held {
                chat: GameChat::new(spec, saved, &self.limits),
                outlets: Vec::new(),
            }),
        })
    }

    /// Socket `id` for `to` (speaking as `name`, a seat's player) hears `chat` from now on:
    /// it is sent `state` with its chat settings, then the lines it hears so far.
    pub(crate) async fn join(
        &self,
        chat: &Chat,
        (id, to, name): (u64, Recipient, Option<String>),
        outlet: Outlet,
        mut state: ServerMessage,
    ) {
        let mut held = chat.held.lock().await;
        let (settings, lines) = held.chat.join(id, to, name);
        if let ServerMessage::State { chat, .. } = &mut state {
            *chat = Some(Box::new(settings));
        }
        let lines: Vec<Arc<str>> = lines.into_iter().map(frame).collect();
        outlet.send(Out::Text(state.to_json().into()));
        if !lines.is_empty() {
            outlet.send(Out::Frames(lines));
        }
        held.outlets.push((id, outlet));
    }

    /// Socket `id` no longer hears `chat`.
    pub(crate) async fn leave(&self, chat: &Chat, id: u64) {
        let mut held = chat.held.lock().await;
        held.chat.leave(id);
        held.outlets.retain(|(other, _)| *other != id);
    }

    /// Socket `id`'s settings (for a fresh `state`).
    pub(crate) async fn settings(&self, chat: &Chat, id: u64) -> Option<ChatSettings> {
        chat.held.lock().await.chat.settings(id)
    }

    /// Socket `id`'s chat request, read at `now`: decided, kept and sent, or refused (the
    /// refusal goes to the sender alone, and nothing changed).
    pub(crate) async fn handle(&self, chat: &Chat, id: u64, command: Command, now: Instant) {
        let mut held = chat.held.lock().await;
        let decision = match held.chat.decide(id, command, &self.policy, now) {
            Ok(decision) => decision,
            Err(refusal) => return held.refuse(id, &refusal),
        };
        let kept = match decision {
            Decision::Nothing => Ok(()),
            // A moderator's timeout or mute of the speaker refuses its line.
            Decision::Say(line) => match line
                .name
                .as_deref()
                .and_then(|name| self.players.chat_refusal(name, crate::clock::unix_ms()))
            {
                Some(refusal) => Err(refusal),
                None => self.keep_and_send(chat, &mut held, line, Some(id)).await,
            },
            Decision::Mode(side, mode) => {
                let write = Write::Chat(ChatWrite::Mode {
                    game: chat.game.clone(),
                    side,
                    mode,
                });
                self.keep(chat, write, "chat mode").await.map(|()| {
                    let tell = held.chat.set_mode(side, mode);
                    held.settings(&tell);
                })
            }
            Decision::Report { line, reporter } => {
                let (room, n) = (line.room, line.n);
                let write = Write::Chat(ChatWrite::Report {
                    game: chat.game.clone(),
                    line,
                    reporter,
                    at_ms: crate::clock::unix_ms(),
                });
                self.keep(chat, write, "report").await.map(|()| {
                    crate::telemetry::chat_report();
                    held.send(&[id], &text(&ServerMessage::Reported { room, n }));
                })
            }
            // A person speaks by its key: a token (a bot's bridge, a script) does not.
            Decision::Auth(key) => match self.players.by_key(&key).map(|p| {
                p.may(&[])
                    .and_then(|name| self.players.open_account(&name).map(|()| name))
            }) {
                Ok(Ok(name)) => {
                    if let Decision::Settings(tell) = held.chat.name(id, name) {
                        held.settings(&tell);
                    }
                    Ok(())
                }
                Ok(Err(e)) => {
                    let code = match e {
                        super::players::PlayerError::Closed => Code::AccountClosed,
                        _ => Code::OutOfScope,
                    };
                    Err(Refusal::new(code, e.to_string()))
                }
                Err(_) => Err(Refusal::new(Code::BadKey, "not a player's key")),
            },
            Decision::Settings(tell) => {
                held.settings(&tell);
                Ok(())
            }
        };
        if let Err(refusal) = kept {
            held.refuse(id, &refusal);
        }
    }

    /// Commits `write` (`what`, for the log); a refusal if the database would not.
    async fn keep(&self, chat: &Chat, write: Write, what: &str) -> Result<(), Refusal> {
        self.store.write(vec![write]).await.map(drop).map_err(|e| {
            tracing::error!(game = %chat.game, error = %e, "{what} not kept");
            Refusal::new(Code::Internal, "the server could not do that")
        })
    }

    /// Commits `line`, then sends it to every socket that hears it.
    async fn keep_and_send(
        &self,
        chat: &Chat,
        held: &mut Held,
        line: ChatLine,
        speaker: Option<u64>,
    ) -> Result<(), Refusal> {
        let write = Write::Chat(ChatWrite::Line {
            game: chat.game.clone(),
            line: line.clone(),
            at_ms: crate::clock::unix_ms(),
        });
        self.keep(chat, write, "chat line").await?;
        crate::telemetry::chat_line(line.room.word());
        let out = Out::Text(frame(&line));
        let hear = held.chat.said(line, speaker);
        held.send(&hear, &out);
        Ok(())
    }

    /// The server bot's lines for `events` (a greeting at `start`, "good game" at `over`:
    /// public events alone decide them).
    pub(crate) async fn after(&self, chat: &Chat, events: &[Event]) {
        let phrases: Vec<Phrase> = events
            .iter()
            .filter_map(|event| match event {
                Event::Start { .. } => Some(Phrase::Hello),
                Event::Over { .. } => Some(Phrase::GoodGame),
                _ => None,
            })
            .collect();
        if phrases.is_empty() {
            return;
        }
        let mut held = chat.held.lock().await;
        for phrase in phrases {
            if let Some(line) = held.chat.bot_line(phrase) {
                let _ = self.keep_and_send(chat, &mut held, line, None).await;
            }
        }
    }

    /// `GET /api/games/{id}/chat`: a finished game's chat. The spectators' channel for
    /// anyone; the players' too for one of its players: `player` (by key) holding a seat, or
    /// the holder of a seat's `token`.
    ///
    /// # Errors
    /// [`ChatError::NotFound`] for an unknown game or one not over (one reply for both).
    pub(crate) async fn record(
        &self,
        id: &str,
        player: Option<&str>,
        token: Option<&str>,
    ) -> Result<ChatRecord, ChatError> {
        if !crate::secret::plausible_id(id) {
            return Err(ChatError::NotFound);
        }
        let Some(found) = self.store.finished_chat(id).await? else {
            return Err(ChatError::NotFound);
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
            .partition(|line| line.room == Channel::Players);
        Ok(ChatRecord {
            game: id.to_owned(),
            players: (by_name || by_token).then_some(players),
            spectators,
        })
    }

    /// A page of reported lines, oldest first reported first, for the operator.
    ///
    /// # Errors
    /// The database's.
    pub(crate) async fn reports(&self, page: ReportPage) -> Result<Vec<ReportGroup>, ChatError> {
        Ok(self.store.reports(page).await?)
    }
}

/// A line's frame.
fn frame(line: &ChatLine) -> Arc<str> {
    ServerMessage::Chat(line.clone()).to_json().into()
}
