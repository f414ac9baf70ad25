//! What a service hands a socket: frames on their way to one client, in order, through the
//! socket's bounded queue (a socket that falls behind is dropped, never waited for); and the
//! versions of a list many sockets watch (the lobby, the live list), each rendered once.

use std::borrow::Cow;
use std::sync::Arc;

use crate::wire::CloseCode;

/// A frame on its way to one socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Out {
    /// A text frame.
    Text(Arc<str>),
    /// Frames to write in order, as one item (a replay: however long, it takes one place in
    /// the socket's queue).
    Frames(Vec<Arc<str>>),
    /// Close the socket with this code and reason.
    Close(CloseCode, Cow<'static, str>),
    /// A frame rendered once for many sockets (a watched list's): every socket sends these
    /// same bytes, with no copy of its own.
    Shared(Shared),
}

/// A frame's bytes, shared by every socket that sends it (cloning counts a reference).
pub type Shared = axum::extract::ws::Utf8Bytes;

impl Out {
    /// A close with a fixed reason.
    #[must_use]
    pub const fn close(code: CloseCode, reason: &'static str) -> Out {
        Out::Close(code, Cow::Borrowed(reason))
    }
}

/// One version of a list many sockets watch, rendered once for all of them: the whole list,
/// and what changed since the version before. A socket sends the delta when it sent the
/// version before, the whole list otherwise.
#[derive(Debug)]
pub struct Versioned {
    /// The version.
    pub v: u64,
    /// The whole list.
    pub full: Shared,
    /// What changed since version `v - 1`.
    pub delta: Shared,
}
