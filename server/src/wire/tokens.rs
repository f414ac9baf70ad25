//! A player's scoped tokens: what `POST /api/tokens` takes and gives, what `GET /api/tokens`
//! lists, and the scopes' words.

use serde::{Deserialize, Serialize};

/// What a token lets its holder do; the player's key may do everything, a token only what
/// its scopes name (`docs/SERVER.md`, "Tokens", lists each route's scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Scope {
    /// Play as a bot does: the player socket, the pool, seeks, a game's seat, and the
    /// challenges made to the player (list, accept, decline).
    #[serde(rename = "bot:play")]
    BotPlay,
    /// Challenge players, and answer or cancel challenges.
    #[serde(rename = "challenge")]
    Challenge,
    /// Read what only the player may read: its challenges, its unlisted games, its sealed
    /// tournament games, what it shares.
    #[serde(rename = "read")]
    Read,
    /// Everything the key may do: a device linked to the player by a one-time code (made
    /// only by linking, never minted).
    #[serde(rename = "device")]
    Device,
}

impl Scope {
    /// Every scope, in the order a token's list gives them.
    pub const ALL: [Scope; 4] = [Scope::BotPlay, Scope::Challenge, Scope::Read, Scope::Device];

    /// The scope's word, as the contract writes it.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Scope::BotPlay => "bot:play",
            Scope::Challenge => "challenge",
            Scope::Read => "read",
            Scope::Device => "device",
        }
    }
}

/// The scopes that open the player socket (its `auth` frame) to a token: it carries the seat
/// tokens of the games the lobby pairs.
pub(crate) const PLAYER_SOCKET_SCOPES: &[Scope] = &[Scope::BotPlay];

/// The longest label of a token, in characters.
pub(crate) const MAX_LABEL: usize = 40;

/// `POST /api/link/redeem`: a code another device of the player made, and what to call
/// this device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RedeemRequest {
    /// The code, as shown (its dashes and case do not matter).
    pub code: String,
    /// This device's label in the player's list of tokens.
    #[serde(default)]
    pub label: Option<String>,
}

/// `POST /api/link/redeem`'s reply: the player, and this device's token (a key's power).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Linked {
    /// The player's name.
    pub name: String,
    /// This device's token, presented where a key is.
    pub key: String,
    /// The token's id (the other devices may revoke it).
    pub id: String,
}

/// `POST /api/link`'s reply: a one-time code for another device, and when it lapses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LinkCode {
    /// The code: 13 letters and digits (65 bits), in groups for reading aloud.
    pub code: String,
    /// When it lapses, in milliseconds since the Unix epoch.
    pub expires_ms: u64,
}

/// The most tokens a player holds at once.
pub(crate) const MAX_TOKENS: usize = 20;

/// `POST /api/tokens`: the scopes (at least one; each once), and a label to know it by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenRequest {
    /// What the token may do.
    pub scopes: Vec<Scope>,
    /// What the player calls it (at most [`MAX_LABEL`] characters; default none).
    #[serde(default)]
    pub label: Option<String>,
}

/// One token as `GET /api/tokens` lists it: never its secret, which only its minting reply
/// carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TokenEntry {
    /// Its id (public: the route that revokes it names it).
    pub id: String,
    /// What it may do, in [`Scope::ALL`]'s order.
    pub scopes: Vec<Scope>,
    /// Its label.
    pub label: Option<String>,
    /// When it was minted, in milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// `POST /api/tokens`'s reply: the entry, and the token itself (shown this once).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TokenReply {
    /// The token, presented where a player's key is.
    pub token: String,
    /// Its entry.
    #[serde(flatten)]
    pub entry: TokenEntry,
}

/// `GET /api/tokens`: the player's tokens, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TokenList {
    /// Each token's entry.
    pub tokens: Vec<TokenEntry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_read_and_write_as_the_contract_spells_them() {
        for scope in Scope::ALL {
            let json = serde_json::to_string(&scope).unwrap();
            assert_eq!(json, format!("\"{}\"", scope.word()));
            assert_eq!(serde_json::from_str::<Scope>(&json).unwrap(), scope);
        }
        let refused = serde_json::from_str::<TokenRequest>(r#"{"scopes": ["admin"]}"#);
        assert!(refused.unwrap_err().to_string().contains("admin"));
    }
}
