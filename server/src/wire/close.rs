//! The close codes a game socket may end with, in one place (RFC 6455 and the contract's).

/// Why the server closed a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CloseCode {
    /// 1001: no frame (not even a pong) for the idle timeout.
    Idle,
    /// 1008: over the message budget, or too slow to read what it is sent.
    Policy,
    /// 1009: a frame over the size limit.
    TooBig,
    /// 1011: the game could not be written, and is reloaded; connect again.
    Reloading,
    /// 1012: the server stops or restarts; connect again.
    Restart,
    /// 4410: the game expired before it started and was deleted.
    Expired,
    /// 4401: a player socket whose first frame was not a good key within 10 s.
    BadKey,
}

impl CloseCode {
    /// The code's number.
    #[must_use]
    pub fn number(self) -> u16 {
        match self {
            CloseCode::Idle => 1001,
            CloseCode::Policy => 1008,
            CloseCode::TooBig => 1009,
            CloseCode::Reloading => 1011,
            CloseCode::Restart => 1012,
            CloseCode::Expired => 4410,
            CloseCode::BadKey => 4401,
        }
    }
}
