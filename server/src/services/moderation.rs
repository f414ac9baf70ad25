//! The moderators' desk: the queue of reported lines no action answered yet, the actions
//! (warn, chat timeout, mute, close an account, refund its opponents' ratings, dismiss), the
//! moderation log, each player told what was done and why, and its appeal (once an action).
//! Moderators are players the operator names (`POST /admin/moderators`); they act with
//! their key through the players' routes. Nothing here reads a game: a moderator sees the
//! lines reported and, through the public routes, a game's public record.

use std::collections::HashMap;
use std::sync::Arc;

use thiserror::Error;

use super::player_sockets::PlayerSockets;
use super::players::Players;
use crate::secret::{self, Entropy, ID_BYTES};
use crate::store::{
    Entry, LogPage, ModerationWrite, ReportCursor, ReportGroup, Standing, Store, StoreError,
};
use crate::wire::{
    Action, ActionRequest, AppealRequest, LobbyMessage, MAX_REASON, MAX_REFUND_DAYS,
    MAX_TIMEOUT_HOURS, ModeratorRequest, Told,
};

/// The most entries a page of the moderation log, or a player's own, lists.
pub(crate) const LOG_LISTED: usize = 100;

/// Why a request of the desk was refused.
#[derive(Debug, Error)]
pub(crate) enum ModerationError {
    /// The asker is not a moderator.
    #[error("only a moderator may do that")]
    NotModerator,
    /// No such player, action or page.
    #[error("{0}")]
    NotFound(&'static str),
    /// A request the desk does not take, naming what is wrong.
    #[error("{0}")]
    Bad(String),
    /// An action that does not apply to the player as it stands.
    #[error("{0}")]
    WrongPhase(&'static str),
    /// The action was appealed already.
    #[error("this action was appealed already: one appeal an action")]
    Appealed,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What its player is told of `entry`.
fn told(entry: &Entry) -> Told {
    Told {
        id: entry.id.clone(),
        at_ms: entry.at_ms,
        action: entry.action.clone(),
        reason: entry.reason.clone(),
        until_ms: entry.until_ms,
        days: entry.days,
        appeal: entry.appeal.clone(),
    }
}

/// A reason's or an appeal's text, trimmed, if it is 1 … 500 characters with no control.
fn text(what: &str, said: &str) -> Result<String, ModerationError> {
    let said = said.trim();
    if said.is_empty() || said.chars().count() > MAX_REASON || said.chars().any(char::is_control) {
        return Err(ModerationError::Bad(format!(
            "{what} is 1 to {MAX_REASON} characters, none a control"
        )));
    }
    Ok(said.to_owned())
}

/// The moderators' desk.
pub(crate) struct Moderation {
    store: Store,
    players: Arc<Players>,
    sockets: Arc<PlayerSockets>,
    entropy: Arc<dyn Entropy>,
}

impl Moderation {
    /// The desk over `store`, telling players through `sockets`.
    #[must_use]
    pub(crate) fn new(
        store: Store,
        players: Arc<Players>,
        sockets: Arc<PlayerSockets>,
        entropy: Arc<dyn Entropy>,
    ) -> Moderation {
        Moderation {
            store,
            players,
            sockets,
            entropy,
        }
    }

    fn moderator(&self, name: &str) -> Result<(), ModerationError> {
        match self.players.with_row(name, |row| row.moderator) {
            Some(true) => Ok(()),
            _ => Err(ModerationError::NotModerator),
        }
    }

    /// `GET /api/mod/reports` by `moderator`: the reported lines no action answered yet,
    /// oldest first reported first, and the next page's cursor.
    ///
    /// # Errors
    /// [`ModerationError::NotModerator`]; [`ModerationError::Bad`] for a bad query; the
    /// database's error.
    pub(crate) async fn queue(
        &self,
        moderator: &str,
        query: &HashMap<String, String>,
    ) -> Result<(Vec<ReportGroup>, Option<String>), ModerationError> {
        self.moderator(moderator)?;
        let page = super::desk::report_page(query, true).map_err(ModerationError::Bad)?;
        let limit = page.limit;
        let groups = self.store.reports(page).await?;
        let next = (groups.len() == limit)
            .then(|| groups.last().map(|g| ReportCursor::after(g).word()))
            .flatten();
        Ok((groups, next))
    }

    /// `POST /api/mod/actions` by `moderator`: the action written to the log (with the
    /// player's standing after it, the reported line it answers, a refund's changes) in one
    /// transaction, then the player told.
    ///
    /// # Errors
    /// [`ModerationError::NotModerator`]; [`ModerationError::NotFound`] for no such player;
    /// [`ModerationError::Bad`] for a request out of range; [`ModerationError::WrongPhase`]
    /// for a refund of an account not closed; the database's error (nothing changed).
    pub(crate) async fn act(
        &self,
        moderator: &str,
        request: ActionRequest,
    ) -> Result<Entry, ModerationError> {
        self.moderator(moderator)?;
        let reason = text("a reason", &request.reason)?;
        // The reported line it answers is the player's (a dismissal of an anonymous seat's
        // line names its seat).
        let said = match &request.line {
            Some(line) => Some(
                self.store
                    .reported_line(line.clone())
                    .await?
                    .ok_or(ModerationError::NotFound("no such reported line"))?,
            ),
            None => None,
        };
        let anonymous = said
            .as_ref()
            .and_then(|line| match (&line.name, line.side) {
                (None, Some(side)) => Some(format!("the {} seat", side.0.word())),
                (None, None) => Some("an anonymous speaker".to_owned()),
                _ => None,
            });
        if let Some(said) = &said
            && said
                .name
                .as_deref()
                .is_some_and(|name| !name.eq_ignore_ascii_case(&request.player))
        {
            return Err(ModerationError::Bad(
                "that line is not the player's: act on its speaker".into(),
            ));
        }
        let (player, before) = match anonymous {
            Some(seat) if request.action == Action::Dismiss => (seat, Standing::default()),
            Some(_) => {
                return Err(ModerationError::Bad(
                    "an anonymous seat has no account: its line is dismissed only".into(),
                ));
            }
            None => self
                .players
                .with_row(&request.player, |row| (row.name.clone(), row.standing))
                .ok_or(ModerationError::NotFound("no such player"))?,
        };
        let moderator = self
            .players
            .with_row(moderator, |row| row.name.clone())
            .ok_or(ModerationError::NotModerator)?;
        if player == moderator {
            return Err(ModerationError::Bad(
                "a moderator acts on others only".into(),
            ));
        }
        let at_ms = crate::clock::unix_ms();
        let (hours, days) = (request.hours, request.days);
        let mut standing = before;
        let mut until_ms = None;
        match request.action {
            Action::Timeout => match hours {
                Some(h) if (1..=MAX_TIMEOUT_HOURS).contains(&h) => {
                    let until = at_ms + h * 3_600_000;
                    until_ms = Some(until);
                    standing.chat_until_ms = Some(standing.chat_until_ms.unwrap_or(0).max(until));
                }
                _ => {
                    return Err(ModerationError::Bad(format!(
                        "a timeout needs hours, 1 to {MAX_TIMEOUT_HOURS}"
                    )));
                }
            },
            Action::Refund => {
                if !days.is_some_and(|d| (1..=MAX_REFUND_DAYS).contains(&d)) {
                    return Err(ModerationError::Bad(format!(
                        "a refund needs days, 1 to {MAX_REFUND_DAYS}"
                    )));
                }
                if !before.closed {
                    return Err(ModerationError::WrongPhase(
                        "a refund is of a closed account's games: close it first",
                    ));
                }
            }
            Action::Mute => standing.muted = true,
            Action::Unmute => (standing.muted, standing.chat_until_ms) = (false, None),
            Action::Close => standing.closed = true,
            Action::Reopen => standing.closed = false,
            Action::Dismiss if request.line.is_none() => {
                return Err(ModerationError::Bad(
                    "a dismissal answers a reported line: give its line".into(),
                ));
            }
            Action::Warn | Action::Dismiss => {}
        }
        if hours.is_some() && request.action != Action::Timeout {
            return Err(ModerationError::Bad("hours are a timeout's only".into()));
        }
        if days.is_some() && request.action != Action::Refund {
            return Err(ModerationError::Bad("days are a refund's only".into()));
        }
        let entry = Entry {
            id: secret::random_hex(&*self.entropy, ID_BYTES),
            at_ms,
            moderator,
            player: player.clone(),
            action: request.action.word().to_owned(),
            hours,
            days,
            until_ms,
            reason,
            detail: request
                .line
                .as_ref()
                .and_then(|line| serde_json::to_string(line).ok()),
            appeal: None,
            appeal_ms: None,
        };
        let write = ModerationWrite::Act {
            entry: Box::new(entry.clone()),
            standing: (standing != before).then_some(standing),
            line: request.line,
        };
        let committed = self.store.write(vec![write.into()]).await?;
        self.players.refresh(committed.players);
        let mut entry = entry;
        if request.action == Action::Refund {
            // The refund's changes, as the transaction wrote them.
            let page = LogPage {
                before: None,
                player: Some(player.clone()),
                limit: 1,
            };
            if let Some(written) = self.store.moderation_log(page).await?.pop() {
                entry = written;
            }
        }
        if request.action != Action::Dismiss {
            self.sockets
                .tell(&player, &LobbyMessage::Moderated(told(&entry)));
        }
        if request.action == Action::Close {
            self.sockets.close_player(&player);
        }
        Ok(entry)
    }

    /// `GET /api/mod/log` by `moderator`: newest first, with who took each action.
    ///
    /// # Errors
    /// [`ModerationError::NotModerator`]; [`ModerationError::Bad`] for a bad query;
    /// [`ModerationError::NotFound`] for a `before` that is no action; the database's error.
    pub(crate) async fn log(
        &self,
        moderator: &str,
        query: &HashMap<String, String>,
    ) -> Result<Vec<Entry>, ModerationError> {
        self.moderator(moderator)?;
        if let Some(other) = query
            .keys()
            .find(|k| !["before", "player", "limit"].contains(&k.as_str()))
        {
            return Err(ModerationError::Bad(format!(
                "no parameter {other:?}: before, player or limit"
            )));
        }
        let limit = match query.get("limit") {
            Some(word) => match word.parse::<usize>() {
                Ok(n) if (1..=LOG_LISTED).contains(&n) => n,
                _ => {
                    return Err(ModerationError::Bad(format!(
                        "limit must be 1 … {LOG_LISTED}, not {word:?}"
                    )));
                }
            },
            None => LOG_LISTED,
        };
        let page = LogPage {
            before: query.get("before").cloned(),
            player: query.get("player").cloned(),
            limit,
        };
        self.store.moderation_log(page).await.map_err(|e| match e {
            StoreError::Refused(_) => ModerationError::NotFound("no such action"),
            e => e.into(),
        })
    }

    /// `GET /api/moderation` by `player`: what moderators did to it, newest first (its
    /// newest [`LOG_LISTED`]), and why; never who.
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn mine(&self, player: &str) -> Result<Vec<Told>, ModerationError> {
        let page = LogPage {
            before: None,
            player: Some(player.to_owned()),
            limit: LOG_LISTED,
        };
        let entries = self.store.moderation_log(page).await?;
        Ok(entries
            .iter()
            .filter(|entry| entry.action != Action::Dismiss.word())
            .map(told)
            .collect())
    }

    /// `POST /api/moderation/{id}/appeal` by `player`: its appeal of its action `id`, once.
    ///
    /// # Errors
    /// [`ModerationError::Bad`] for an appeal's text out of range;
    /// [`ModerationError::NotFound`] for an action that is not the player's;
    /// [`ModerationError::Appealed`] for one appealed already; the database's error.
    pub(crate) async fn appeal(
        &self,
        player: &str,
        id: &str,
        request: AppealRequest,
    ) -> Result<Told, ModerationError> {
        let said = text("an appeal", &request.text)?;
        let mine = self.mine(player).await?;
        let Some(action) = mine.into_iter().find(|told| told.id == id) else {
            return Err(ModerationError::NotFound("no such action of yours"));
        };
        if action.appeal.is_some() {
            return Err(ModerationError::Appealed);
        }
        let name = self
            .players
            .with_row(player, |row| row.name.clone())
            .ok_or(ModerationError::NotFound("no such player"))?;
        let write = ModerationWrite::Appeal {
            id: id.to_owned(),
            player: name,
            text: said.clone(),
            at_ms: crate::clock::unix_ms(),
        };
        match self.store.write(vec![write.into()]).await {
            Ok(_) => Ok(Told {
                appeal: Some(said),
                ..action
            }),
            Err(StoreError::Refused(_)) => Err(ModerationError::Appealed),
            Err(e) => Err(e.into()),
        }
    }

    /// `POST /admin/moderators` (the operator): names `request.name` a moderator, or no
    /// longer one.
    ///
    /// # Errors
    /// [`ModerationError::NotFound`] for no such player (a server bot neither); the
    /// database's error.
    pub(crate) async fn name(&self, request: ModeratorRequest) -> Result<(), ModerationError> {
        let name = self
            .players
            .with_row(&request.name, |row| {
                row.key.is_some().then(|| row.name.clone())
            })
            .flatten()
            .ok_or(ModerationError::NotFound("no such player"))?;
        let write = ModerationWrite::Moderator {
            name,
            on: request.moderator,
        };
        let committed = self.store.write(vec![write.into()]).await?;
        self.players.refresh(committed.players);
        Ok(())
    }
}
