//! The result of every fallible call, and the failure a call reports on its way out.

use salpakan::bindings::ErrorKind;

/// The result of a fallible C ABI call: `SALPAKAN_RESULT_OK` or an error code. The thread's
/// `salpakan_last_error()` says what went wrong.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SalpakanResult {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL.
    NullArgument = 1,
    /// A value was out of range (an unknown side, rank, square or rule option), a side asked
    /// to move out of turn, or a game with no history to follow (one made from a position text).
    InvalidArgument = 2,
    /// A setup broke the rules (counts, zone, or two pieces on a square).
    InvalidSetup = 3,
    /// The move is not legal in this position.
    IllegalMove = 4,
    /// The game has ended.
    GameOver = 5,
    /// The output buffer is too small; the needed count or length was written.
    BufferTooSmall = 6,
    /// Text could not be parsed.
    Parse = 7,
    /// A panic was caught at the boundary (a bug in the library).
    Panic = 8,
    /// A record's formations and salts do not give its formation commitments, or it has
    /// none to check (`salpakan_game_verify_commitments`).
    NotVerified = 9,
}

impl SalpakanResult {
    /// Every result, by code.
    ///
    /// cbindgen:ignore
    pub const ALL: [SalpakanResult; 10] = [
        SalpakanResult::Ok,
        SalpakanResult::NullArgument,
        SalpakanResult::InvalidArgument,
        SalpakanResult::InvalidSetup,
        SalpakanResult::IllegalMove,
        SalpakanResult::GameOver,
        SalpakanResult::BufferTooSmall,
        SalpakanResult::Parse,
        SalpakanResult::Panic,
        SalpakanResult::NotVerified,
    ];

    /// The result with code `code`, if there is one.
    #[must_use]
    pub fn from_code(code: u32) -> Option<SalpakanResult> {
        SalpakanResult::ALL.get(code as usize).copied()
    }

    /// Its name as the header spells it, NUL-terminated (`"SALPAKAN_RESULT_OK\0"`).
    #[must_use]
    pub const fn name_with_nul(self) -> &'static str {
        match self {
            SalpakanResult::Ok => "SALPAKAN_RESULT_OK\0",
            SalpakanResult::NullArgument => "SALPAKAN_RESULT_NULL_ARGUMENT\0",
            SalpakanResult::InvalidArgument => "SALPAKAN_RESULT_INVALID_ARGUMENT\0",
            SalpakanResult::InvalidSetup => "SALPAKAN_RESULT_INVALID_SETUP\0",
            SalpakanResult::IllegalMove => "SALPAKAN_RESULT_ILLEGAL_MOVE\0",
            SalpakanResult::GameOver => "SALPAKAN_RESULT_GAME_OVER\0",
            SalpakanResult::BufferTooSmall => "SALPAKAN_RESULT_BUFFER_TOO_SMALL\0",
            SalpakanResult::Parse => "SALPAKAN_RESULT_PARSE\0",
            SalpakanResult::Panic => "SALPAKAN_RESULT_PANIC\0",
            SalpakanResult::NotVerified => "SALPAKAN_RESULT_NOT_VERIFIED\0",
        }
    }

    /// Its name as the header spells it (`"SALPAKAN_RESULT_OK"`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.name_with_nul().trim_end_matches('\0')
    }
}

impl From<ErrorKind> for SalpakanResult {
    /// The code of an engine error of this kind (the crate's `ErrorKind` table): both
    /// `Argument` and `Observe` are `INVALID_ARGUMENT`, `Text` is `PARSE`.
    fn from(kind: ErrorKind) -> SalpakanResult {
        match kind {
            ErrorKind::Argument | ErrorKind::Observe => SalpakanResult::InvalidArgument,
            ErrorKind::Setup => SalpakanResult::InvalidSetup,
            ErrorKind::IllegalMove => SalpakanResult::IllegalMove,
            ErrorKind::GameOver => SalpakanResult::GameOver,
            ErrorKind::Text => SalpakanResult::Parse,
            ErrorKind::Commitment => SalpakanResult::NotVerified,
        }
    }
}

/// A failed call: its code and the message `salpakan_last_error` will return.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: SalpakanResult,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(code: SalpakanResult, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// An engine error of `kind`, with `message`.
    pub(crate) fn of(kind: ErrorKind, message: impl Into<String>) -> Failure {
        Failure::new(kind.into(), message)
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(SalpakanResult::InvalidArgument, message)
    }

    /// A NULL where the argument `name` is required.
    pub(crate) fn null(name: &str) -> Failure {
        Failure::new(
            SalpakanResult::NullArgument,
            format!("argument `{name}` is NULL"),
        )
    }
}

/// What a call's body returns: a value, or the failure to report.
pub(crate) type FfiResult<T> = Result<T, Failure>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_has_its_code_and_name() {
        for (code, result) in SalpakanResult::ALL.iter().enumerate() {
            assert_eq!(*result as u32, code as u32);
            assert_eq!(SalpakanResult::from_code(code as u32), Some(*result));
            assert!(result.name().starts_with("SALPAKAN_RESULT_"), "{code}");
            assert_eq!(result.name_with_nul(), format!("{}\0", result.name()));
        }
        assert_eq!(SalpakanResult::from_code(10), None);
    }
}
