//! The close codes a game socket may end with, in one place (RFC 6455 and the contract's).

/// Why the server closed a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CloseCode {
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
    /// Every close code.
    pub const ALL: [CloseCode; 7] = [
        CloseCode::Idle,
        CloseCode::Policy,
        CloseCode::TooBig,
        CloseCode::Reloading,
        CloseCode::Restart,
        CloseCode::Expired,
        CloseCode::BadKey,
    ];

    /// The close code numbered `number`, if it is one of the contract's.
    #[must_use]
    #[cfg(any(test, feature = "nodes"))]
    pub(crate) fn from_number(number: u16) -> Option<CloseCode> {
        CloseCode::ALL.into_iter().find(|c| c.number() == number)
    }

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

#[cfg(test)]
mod tests {
    use super::CloseCode;

    #[test]
    fn every_close_code_reads_back_from_its_number() {
        for code in CloseCode::ALL {
            assert_eq!(CloseCode::from_number(code.number()), Some(code));
        }
        assert_eq!(CloseCode::from_number(1000), None);
    }
}
