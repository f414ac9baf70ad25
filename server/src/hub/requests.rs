//! The HTTP requests: creating and joining games, their summaries and records, and who a
//! socket is for.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::{Rules, Side};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{HttpError, Hub, Live, SocketSlot, events_write, lock};
use crate::clock::ClockSettings;
use crate::room::{Player, Recipient, Room, Spec};
use crate::secret::{self, Entropy, ID_BYTES, INVITE_BYTES, TOKEN_BYTES};
use crate::store::Write;

/// `POST /api/games`: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CreateRequest {
    side: Option<String>,
    opponent: Option<String>,
    rules: Option<RulesRequest>,
    first: Option<String>,
    clock: Option<ClockSettings>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RulesRequest {
    setup_rows: Option<i64>,
    move_limit: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct JoinRequest {
    invite: String,
}

fn side_choice(word: Option<&str>, what: &str, entropy: &dyn Entropy) -> Result<Side, String> {
    match word {
        None | Some("random") => Ok(if secret::random_u64(entropy) & 1 == 0 {
            Side::White
        } else {
            Side::Black
        }),
        Some("white") => Ok(Side::White),
        Some("black") => Ok(Side::Black),
        Some(other) => Err(format!(
            "{what} must be white, black or random, not {other:?}"
        )),
    }
}

fn parse_body<'a, T: Deserialize<'a>>(body: &'a str) -> Result<T, HttpError> {
    serde_json::from_str(body).map_err(|e| HttpError::new(400, "bad-message", e.to_string()))
}

impl Hub {
    /// `POST /api/games` from `ip` with `body`: the reply's JSON.
    ///
    /// # Errors
    /// 400 for a body that is not the contract's, 429 past the games per client.
    pub async fn create(self: &Arc<Hub>, body: &str, ip: IpAddr) -> Result<Value, HttpError> {
        let body = if body.trim().is_empty() { "{}" } else { body };
        let request: CreateRequest = parse_body(body)?;
        let bad = |code, message: String| HttpError::new(400, code, message);
        let entropy = &*self.entropy;
        let side = side_choice(request.side.as_deref(), "side", entropy)
            .map_err(|e| bad("bad-message", e))?;
        let first = side_choice(request.first.as_deref(), "first", entropy)
            .map_err(|e| bad("bad-message", e))?;
        let opponent = Player::from_word(request.opponent.as_deref().unwrap_or("human"))
            .map_err(|e| bad("bad-message", e))?;
        let rules = match request.rules {
            None => Rules::default(),
            Some(r) => Rules::from_numbers(r.setup_rows.unwrap_or(3), r.move_limit.unwrap_or(0))
                .map_err(|e| bad("bad-rules", e.to_string()))?,
        };
        let clock = request
            .clock
            .map(ClockSettings::check)
            .transpose()
            .map_err(|e| bad("bad-clock", e))?;
        {
            let mut clients = lock(&self.clients);
            let count = clients.entry(ip).or_default();
            if count.games >= self.config.limits.games_per_ip {
                return Err(HttpError::new(
                    429,
                    "too-many-games",
                    format!(
                        "at most {} unfinished games per client",
                        self.config.limits.games_per_ip
                    ),
                ));
            }
            count.games += 1;
        }
        let id = secret::random_hex(entropy, ID_BYTES);
        let token = secret::random_hex(entropy, TOKEN_BYTES);
        let invite = (opponent == Player::Human).then(|| secret::random_hex(entropy, INVITE_BYTES));
        let mut players = [Player::Human; 2];
        players[side.other().index()] = opponent;
        let mut tokens = [None, None];
        tokens[side.index()] = Some(secret::digest(&token));
        let spec = Spec {
            id: id.clone(),
            rules,
            first,
            players,
            clock,
            tokens,
            invite: invite.as_deref().map(secret::digest),
            bot_seed: secret::random_u64(entropy),
            created_ms: crate::clock::unix_ms(),
        };
        let room = Room::new(
            spec.clone(),
            self.config.limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        );
        let mut writes = vec![Write::Create {
            spec,
            creator: Some(ip),
        }];
        writes.extend(events_write(&room, 0));
        if let Err(e) = self.store.write(writes).await {
            self.release_game(Some(ip));
            return Err(HttpError::internal(e));
        }
        self.admit(room, Some(ip));
        Ok(json!({"game": id, "side": side.word(), "token": token, "invite": invite}))
    }

    /// `POST /api/games/{id}/join` with `body`.
    ///
    /// # Errors
    /// 404 for an unknown game or a wrong invite (the same reply), 409 once the seat is
    /// taken, 400 for a body that is not `{"invite": CODE}`.
    pub async fn join(self: &Arc<Hub>, id: &str, body: &str) -> Result<Value, HttpError> {
        let request: JoinRequest = parse_body(body)?;
        let live = self.live(id).await?.ok_or_else(HttpError::not_found)?;
        let mut state = live.state.lock().await;
        if state.gone {
            return Err(HttpError::not_found());
        }
        let spec = state.room.spec();
        let Some(invite) = spec.invite.as_deref() else {
            return Err(HttpError::not_found());
        };
        if !secret::matches(&request.invite, invite) {
            return Err(HttpError::not_found());
        }
        let side = Side::ALL
            .into_iter()
            .find(|&s| spec.players[s.index()] == Player::Human && spec.tokens[s.index()].is_none())
            .ok_or_else(|| HttpError::new(409, "seat-taken", "the seat is taken"))?;
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        let write = Write::Join {
            game: live.id.clone(),
            side,
            token: digest.clone(),
        };
        self.store
            .write(vec![write])
            .await
            .map_err(HttpError::internal)?;
        state.room.take_seat(side, digest);
        Ok(json!({"game": live.id, "side": side.word(), "token": token}))
    }

    /// `GET /api/games/{id}`.
    ///
    /// # Errors
    /// 404 for an unknown game.
    pub async fn summary(self: &Arc<Hub>, id: &str) -> Result<Value, HttpError> {
        let live = self.live(id).await?.ok_or_else(HttpError::not_found)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(HttpError::not_found());
        }
        let summary = state.room.summary(Instant::now());
        self.evict_if_done(&live, &state);
        Ok(summary)
    }

    /// `GET /api/games/{id}/record`.
    ///
    /// # Errors
    /// 404 for an unknown game, 409 while it is not over.
    pub async fn record(self: &Arc<Hub>, id: &str) -> Result<String, HttpError> {
        let live = self.live(id).await?.ok_or_else(HttpError::not_found)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(HttpError::not_found());
        }
        let record = state.room.record();
        self.evict_if_done(&live, &state);
        record.ok_or_else(|| HttpError::new(409, "not-over", "the game is not over"))
    }

    /// A socket slot for `ip`.
    ///
    /// # Errors
    /// 429 past the connections per client.
    pub fn socket_slot(self: &Arc<Hub>, ip: IpAddr) -> Result<SocketSlot, HttpError> {
        let mut clients = lock(&self.clients);
        let count = clients.entry(ip).or_default();
        if count.sockets >= self.config.limits.connections_per_ip {
            return Err(HttpError::new(
                429,
                "too-many-connections",
                format!(
                    "at most {} sockets per client",
                    self.config.limits.connections_per_ip
                ),
            ));
        }
        count.sockets += 1;
        Ok(SocketSlot {
            hub: Arc::clone(self),
            ip,
        })
    }

    /// Who a socket to game `id` with `token` is for.
    ///
    /// # Errors
    /// 401, the same reply for an unknown game, a wrong token and another game's token.
    pub async fn authorize(
        self: &Arc<Hub>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<Live>, Recipient), HttpError> {
        let refused = || HttpError::new(401, "unauthorized", "no such game or seat");
        let live = self
            .live(id)
            .await
            .map_err(|_| refused())?
            .ok_or_else(refused)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(refused());
        }
        let Some(token) = token else {
            drop(state);
            return Ok((live, Recipient::Spectator));
        };
        let tokens = &state.room.spec().tokens;
        // Both seats are compared, each in constant time, whatever the first gives.
        let found = Side::ALL.map(|side| {
            tokens[side.index()]
                .as_deref()
                .is_some_and(|stored| secret::matches(token, stored))
        });
        drop(state);
        match found {
            [true, _] => Ok((live, Recipient::Seat(Side::White))),
            [_, true] => Ok((live, Recipient::Seat(Side::Black))),
            _ => Err(refused()),
        }
    }
}
