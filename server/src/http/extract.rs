//! What a handler is given besides its state: the request's body read into its type, the
//! player its key names, the client's address as the per-address limits count it, and a
//! socket's upgrade with its slot of the address's sockets. Each refuses in the contract's
//! shape.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, MatchedPath, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::reply::ApiError;
use crate::services::Services;
use crate::services::players::PlayerError;
use crate::services::quotas::SocketSlot;
use crate::wire::Code;

/// A request body read as a JSON object into `T`, whatever its content type (the contract
/// asks for none); an empty body reads as `{}`, and anything but an object is refused. A body that cannot be read or is not a `T` is refused
/// in the contract's shape: 413 `too-large` over the limit, 400 `bad-message` otherwise,
/// naming what is wrong.
pub(crate) struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let bytes =
            Bytes::from_request(request, state)
                .await
                .map_err(|rejection: BytesRejection| {
                    let code = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                        Code::TooLarge
                    } else {
                        Code::BadMessage
                    };
                    ApiError::with_status(rejection.status(), code, rejection.body_text())
                })?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|e| ApiError::new(Code::BadMessage, format!("the body is not UTF-8: {e}")))?;
        let text = if text.trim().is_empty() { "{}" } else { text };
        crate::wire::object(text)
            .map(Body)
            .map_err(|message| ApiError::new(Code::BadMessage, message))
    }
}

/// The player a request is made as, if its `Authorization` header names one; a header that
/// is not a player's key or token is refused (401 `bad-key`), the same for every kind of
/// wrong key, and a token whose scopes do not open the route (403 `out-of-scope`, as
/// [`super::scopes`] says); a closed account's key opens only its moderation and appeals
/// (403 `account-closed`).
pub(crate) struct MaybePlayer(pub Option<String>);

impl FromRequestParts<Arc<Services>> for MaybePlayer {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        services: &Arc<Services>,
    ) -> Result<MaybePlayer, ApiError> {
        let header = parts
            .headers
            .get(header::AUTHORIZATION)
            .map(|value| value.to_str().unwrap_or(""));
        let Some(principal) = services.players.of_header(header)? else {
            return Ok(MaybePlayer(None));
        };
        let path = parts
            .extensions
            .get::<MatchedPath>()
            .map_or("", MatchedPath::as_str);
        let opens = super::scopes::needed(&parts.method, path);
        let name = principal.may(opens)?;
        if !super::scopes::OPEN_TO_CLOSED.contains(&path) {
            services.players.open_account(&name)?;
        }
        Ok(MaybePlayer(Some(name)))
    }
}

/// The player a request must be made as (401 `bad-key` without one).
pub(crate) struct Player(pub String);

impl FromRequestParts<Arc<Services>> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        services: &Arc<Services>,
    ) -> Result<Player, ApiError> {
        let MaybePlayer(player) = MaybePlayer::from_request_parts(parts, services).await?;
        player.map(Player).ok_or_else(|| PlayerError::BadKey.into())
    }
}

/// The client's address as the per-address limits count it: the connection's, or, for a
/// connection from a trusted proxy, the last `X-Forwarded-For` entry, or, for a request
/// another node forwarded (with the nodes' key), the client it names; an IPv6 address by
/// its prefix ([`crate::config::AddressKey`]).
pub(crate) struct Client(pub IpAddr);

impl FromRequestParts<Arc<Services>> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        services: &Arc<Services>,
    ) -> Result<Client, ApiError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| *peer)
            .ok_or_else(|| ApiError::new(Code::Internal, "the connection's address is unknown"))?;
        Ok(Client(client_ip(services, peer, &parts.headers)))
    }
}

/// A lobby or player socket's upgrade, holding one of the client address's socket slots
/// until the socket closes: a request that is not an upgrade is refused (400 `bad-message`),
/// and so is an address with all its sockets open (the quota's refusal).
pub(crate) struct AddressSocket(pub WebSocketUpgrade, pub SocketSlot);

impl FromRequestParts<Arc<Services>> for AddressSocket {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        services: &Arc<Services>,
    ) -> Result<AddressSocket, ApiError> {
        let Client(ip) = Client::from_request_parts(parts, services).await?;
        let upgrade = WebSocketUpgrade::from_request_parts(parts, services)
            .await
            .map_err(|rejection| ApiError::new(Code::BadMessage, rejection.body_text()))?;
        let slot = services.quotas.take_socket(ip)?;
        Ok(AddressSocket(crate::socket::upgrade(upgrade), slot))
    }
}

/// The header with the nodes' key.
pub(crate) const NODE_KEY: &str = "x-salpakan-node-key";
/// The header with the client's address, believed only with [`NODE_KEY`].
pub(crate) const CLIENT: &str = "x-salpakan-client";

/// Whether `headers` carry the nodes' `key` (compared in time that does not depend on where
/// they differ; an empty key is never carried).
#[must_use]
pub(crate) fn carries_key(headers: &axum::http::HeaderMap, key: &[u8]) -> bool {
    !key.is_empty()
        && headers
            .get(NODE_KEY)
            .is_some_and(|got| crate::secret::same(got.as_bytes(), key))
}

/// [`Client`]'s address of a request from `peer` with `headers`.
#[must_use]
pub(crate) fn client_ip(services: &Services, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    services
        .config
        .address_key
        .of(forwarded_for(services, peer, headers))
}

fn forwarded_for(services: &Services, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    // A request another node forwarded names its client, believed with the nodes' key.
    if let Some(key) = services.node_key()
        && carries_key(headers, key.as_bytes())
        && let Some(ip) = headers
            .get(CLIENT)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<IpAddr>().ok())
    {
        return ip.to_canonical();
    }
    if services.config.trusts_forwarded_for(peer.ip())
        && let Some(ip) = headers
            .get_all("x-forwarded-for")
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|v| v.trim().parse::<IpAddr>().ok())
    {
        return ip.to_canonical();
    }
    peer.ip().to_canonical()
}
