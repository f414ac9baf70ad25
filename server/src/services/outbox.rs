//! What a service hands a socket: frames on their way to one client, in order, through the
//! socket's bounded queue (a socket that falls behind is dropped, never waited for).

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
}

impl Out {
    /// A close with a fixed reason.
    #[must_use]
    pub const fn close(code: CloseCode, reason: &'static str) -> Out {
        Out::Close(code, Cow::Borrowed(reason))
    }
}
