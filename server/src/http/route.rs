//! A route as each resource declares it: its path, its handlers, and what owns its requests
//! among several nodes (declared once, beside the path: the router forwards by it).

use std::sync::Arc;

use axum::routing::MethodRouter;

use crate::services::Services;

/// What owns the requests of a route, among several nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// Any node serves it.
    Any,
    /// The node that owns the game its path's `{id}` names.
    Game,
    /// The node that owns the lobby (its seeks, pools and players' sockets).
    Lobby,
}

/// A route: its path, its owner, its handlers.
pub(crate) struct Route {
    /// The path, as axum writes it (`/api/games/{id}`).
    pub path: &'static str,
    /// What owns its requests.
    pub owner: Owner,
    /// Its handlers, by method.
    pub handlers: MethodRouter<Arc<Services>>,
}

/// The route at `path`, owned by `owner`, served by `handlers`.
pub(crate) fn route(
    path: &'static str,
    owner: Owner,
    handlers: MethodRouter<Arc<Services>>,
) -> Route {
    Route {
        path,
        owner,
        handlers,
    }
}
