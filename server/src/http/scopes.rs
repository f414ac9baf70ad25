//! What a token must hold to make each request as its player: one table, read by the
//! extractor that names the player ([`super::extract::Player`]). A route and method not in
//! it is the player's key's alone (a token of any scope is refused `out-of-scope`), so a
//! route added later is closed to tokens until it is written here.

use axum::http::Method;

use crate::wire::Scope;

/// Each route and method a token may use, and the scopes that open it (any one of them).
const OPEN: &[(&str, &str, &[Scope])] = &[
    (
        "GET",
        "/api/challenges",
        &[Scope::BotPlay, Scope::Challenge, Scope::Read],
    ),
    ("POST", "/api/challenges", &[Scope::Challenge]),
    ("DELETE", "/api/challenges/{cid}", &[Scope::Challenge]),
    (
        "POST",
        "/api/challenges/{cid}/accept",
        &[Scope::BotPlay, Scope::Challenge],
    ),
    (
        "POST",
        "/api/challenges/{cid}/decline",
        &[Scope::BotPlay, Scope::Challenge],
    ),
    ("POST", "/api/seeks", &[Scope::BotPlay]),
    ("DELETE", "/api/seeks/{sid}", &[Scope::BotPlay]),
    ("POST", "/api/seeks/{sid}/accept", &[Scope::BotPlay]),
    ("POST", "/api/pool", &[Scope::BotPlay]),
    ("DELETE", "/api/pool", &[Scope::BotPlay]),
    ("POST", "/api/games", &[Scope::BotPlay]),
    ("POST", "/api/games/{id}/join", &[Scope::BotPlay]),
    ("POST", "/api/games/{id}/seat", &[Scope::BotPlay]),
    (
        "GET",
        "/api/games/{id}/record",
        &[Scope::BotPlay, Scope::Read],
    ),
    (
        "GET",
        "/api/games/{id}/replay",
        &[Scope::BotPlay, Scope::Read],
    ),
    (
        "GET",
        "/api/games/{id}/chat",
        &[Scope::BotPlay, Scope::Read],
    ),
    (
        "GET",
        "/api/players/{name}/games",
        &[Scope::BotPlay, Scope::Read],
    ),
    ("GET", "/api/sharing", &[Scope::Read]),
];

/// The scopes that open `method` on the route `path` (as the router matched it) to a token;
/// empty for a request only the player's key may make.
#[must_use]
pub(crate) fn needed(method: &Method, path: &str) -> &'static [Scope] {
    OPEN.iter()
        .find(|(m, p, _)| *m == method.as_str() && *p == path)
        .map_or(&[], |(_, _, scopes)| scopes)
}

/// The paths a closed account's key still opens: its moderation, and its appeals.
pub(crate) const OPEN_TO_CLOSED: &[&str] = &["/api/moderation", "/api/moderation/{id}/appeal"];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route the table opens is one the server has, with that method; and the routes
    /// that change the account or speak as a person are in no row.
    #[test]
    fn the_table_names_real_routes_and_keeps_the_account_s_to_the_key() {
        let routes = super::super::routes();
        for (method, path, scopes) in OPEN {
            assert!(!scopes.is_empty(), "{method} {path}");
            assert!(
                routes.iter().any(|route| route.path == *path),
                "{method} {path} is no route"
            );
        }
        for (method, path) in [
            ("PUT", "/api/sharing"),
            ("POST", "/api/tokens"),
            ("GET", "/api/tokens"),
            ("DELETE", "/api/tokens/{id}"),
            ("POST", "/api/tournaments"),
            ("POST", "/api/tournaments/{tid}/register"),
            ("POST", "/api/tournaments/{tid}/decide"),
        ] {
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            assert!(needed(&method, path).is_empty(), "{method} {path}");
        }
        assert_eq!(needed(&Method::GET, "/api/sharing"), &[Scope::Read]);
    }
}
