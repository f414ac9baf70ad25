//! The status as the position text and the game record write it:
//!
//! ```text
//! status      = "-" | ("white" | "black") ":" win-reason | "draw:" draw-reason
//! win-reason  = "flag-captured" | "flag-reached-end" | "resignation" | "time" | "abandoned"
//! draw-reason = "agreement" | "move-limit"
//! ```
//!
//! `-` is a game that goes on. (`Status`'s `Display` is English for people: "White wins: flag
//! captured"; it is never read back.)

use core::str::FromStr;

use crate::parse::ParseError;
use crate::side::Side;
use crate::status::{DrawReason, Status, WinReason};

impl WinReason {
    /// The reason's word in the status text: `flag-captured`, `flag-reached-end`,
    /// `resignation`.
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            WinReason::FlagCaptured => "flag-captured",
            WinReason::FlagReachedEnd => "flag-reached-end",
            WinReason::Resignation => "resignation",
            WinReason::Time => "time",
            WinReason::Abandoned => "abandoned",
        }
    }
}

impl DrawReason {
    /// The reason's word in the status text: `agreement`, `move-limit`.
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            DrawReason::Agreement => "agreement",
            DrawReason::MoveLimit => "move-limit",
        }
    }
}

impl Status {
    /// The status as the position text and the record write it (see the grammar above):
    /// `-`, `white:flag-captured`, `draw:move-limit`, ….
    ///
    /// ```
    /// use salpakan::{DrawReason, Side, Status, WinReason};
    /// let won = Status::Won { winner: Side::Black, reason: WinReason::FlagReachedEnd };
    /// assert_eq!(won.token(), "black:flag-reached-end");
    /// assert_eq!("black:flag-reached-end".parse::<Status>()?, won);
    /// assert_eq!(Status::Ongoing.token(), "-");
    /// assert_eq!(Status::Drawn { reason: DrawReason::MoveLimit }.token(), "draw:move-limit");
    /// # Ok::<_, salpakan::ParseError>(())
    /// ```
    #[must_use]
    pub fn token(self) -> String {
        match self {
            Status::Ongoing => "-".into(),
            Status::Won { winner, reason } => format!("{}:{}", winner.word(), reason.token()),
            Status::Drawn { reason } => format!("draw:{}", reason.token()),
        }
    }
}

impl FromStr for Status {
    type Err = ParseError;

    /// Reads a status token (see [`Status::token`]).
    fn from_str(text: &str) -> Result<Status, ParseError> {
        let fail = || ParseError::Status(text.to_owned());
        if text == "-" {
            return Ok(Status::Ongoing);
        }
        let (who, why) = text.split_once(':').ok_or_else(fail)?;
        if who == "draw" {
            let reason = DrawReason::ALL
                .into_iter()
                .find(|r| r.token() == why)
                .ok_or_else(fail)?;
            return Ok(Status::Drawn { reason });
        }
        let winner = match who {
            "white" => Side::White,
            "black" => Side::Black,
            _ => return Err(fail()),
        };
        let reason = WinReason::ALL
            .into_iter()
            .find(|r| r.token() == why)
            .ok_or_else(fail)?;
        Ok(Status::Won { winner, reason })
    }
}
