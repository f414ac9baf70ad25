//! What a service hands a socket: frames on their way to one client, in order, through the
//! socket's bounded queue ([`Outlet`]: a socket that falls behind is dropped, never waited
//! for); and the
//! versions of a list many sockets watch (the lobby, the live list), each rendered once.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::mpsc;

use crate::wire::CloseCode;

/// A frame on its way to one socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Out {
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
pub(crate) type Shared = axum::extract::ws::Utf8Bytes;

impl Out {
    /// A close with a fixed reason.
    #[must_use]
    pub(crate) const fn close(code: CloseCode, reason: &'static str) -> Out {
        Out::Close(code, Cow::Borrowed(reason))
    }
}

/// One socket's queue of frames as the services that send to it hold it (the games service
/// its game's frames, the chat service its chat's lines): each holds a clone, and the first
/// send that finds the queue full cuts the socket off for all of them. The socket then sends
/// what is queued and closes (1008, too slow to read), whoever else still holds a clone.
#[derive(Clone)]
pub(crate) struct Outlet {
    tx: mpsc::Sender<Out>,
    cut: Arc<AtomicBool>,
}

/// The socket's end of its [`Outlet`]s.
pub(crate) struct Inbox {
    rx: mpsc::Receiver<Out>,
    cut: Arc<AtomicBool>,
}

/// A socket's queue of at most `capacity` frames: the services' end and the socket's.
#[must_use]
pub(crate) fn outlet(capacity: usize) -> (Outlet, Inbox) {
    let (tx, rx) = mpsc::channel(capacity);
    let cut = Arc::new(AtomicBool::new(false));
    (
        Outlet {
            tx,
            cut: Arc::clone(&cut),
        },
        Inbox { rx, cut },
    )
}

impl Outlet {
    /// Queues `out`; `false` (and the socket cut off) if the queue is full, or the socket
    /// was cut off or has gone.
    pub(crate) fn send(&self, out: Out) -> bool {
        if self.cut.load(Ordering::Acquire) {
            return false;
        }
        if self.tx.try_send(out).is_ok() {
            return true;
        }
        self.cut_off();
        false
    }

    /// Cuts the socket off: it sends what is queued, then closes as too slow. A socket
    /// waiting on an empty queue is woken by the close frame queued here; one whose queue is
    /// full finds the cut once it has drained it.
    pub(crate) fn cut_off(&self) {
        self.cut.store(true, Ordering::Release);
        let _ = self
            .tx
            .try_send(Out::close(CloseCode::Policy, "too slow to read"));
    }
}

impl Inbox {
    /// The next frame; `None` once the socket was cut off (or every outlet dropped) and its
    /// queue is empty.
    pub(crate) async fn recv(&mut self) -> Option<Out> {
        if self.cut.load(Ordering::Acquire) {
            return self.rx.try_recv().ok();
        }
        self.rx.recv().await
    }

    /// A frame already queued, if any.
    pub(crate) fn try_recv(&mut self) -> Option<Out> {
        self.rx.try_recv().ok()
    }
}

/// One version of a list many sockets watch, rendered once for all of them: the whole list,
/// and what changed since the version before. A socket sends the delta when it sent the
/// version before, the whole list otherwise.
#[derive(Debug)]
pub(crate) struct Versioned {
    /// The version.
    pub v: u64,
    /// The whole list.
    pub full: Shared,
    /// What changed since version `v - 1`.
    pub delta: Shared,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Out {
        Out::Text(Arc::from(s))
    }

    #[tokio::test]
    async fn a_full_queue_cuts_the_socket_off_for_every_sender_after_what_is_queued() {
        let (games, mut inbox) = outlet(2);
        let chat = games.clone();
        assert!(games.send(text("a")));
        assert!(chat.send(text("b")));
        // The queue is full: the chat's send cuts the socket off; the game's next is refused
        // too, though its own clone is alive.
        assert!(!chat.send(text("c")));
        assert!(!games.send(text("d")));
        assert_eq!(inbox.recv().await, Some(text("a")));
        assert_eq!(inbox.recv().await, Some(text("b")));
        assert_eq!(inbox.recv().await, None);
        assert!(!games.send(text("e")), "a socket cut off stays cut off");
    }

    #[tokio::test]
    async fn a_waiting_socket_hears_the_cut() {
        let (games, mut inbox) = outlet(1);
        let waiting = tokio::spawn(async move { inbox.recv().await });
        tokio::task::yield_now().await;
        games.cut_off();
        assert_eq!(
            waiting.await.unwrap(),
            Some(Out::close(CloseCode::Policy, "too slow to read"))
        );
        let (games, mut inbox) = outlet(1);
        assert!(games.send(text("a")));
        drop(games);
        assert_eq!(inbox.recv().await, Some(text("a")));
        assert_eq!(inbox.recv().await, None);
    }
}
