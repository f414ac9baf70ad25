//! The status as the position text and the game record write it:
//!
//! ```text
//! status      = "-" | ("white" | "black") ":" win-reason | "draw:" draw-reason
//! win-reason  = "flag-captured" | "flag-reached-end" | "resignation" | "time" | "abandoned"
//! draw-reason = "agreement" | "move-limit" | "abandoned"
//! ```
//!
//! `-` is a game that goes on. (`Status`'s `Display` is English for people: "White wins: flag
//! captured"; it is never read back.)

use crate::prelude::*;
use core::str::FromStr;

use crate::parse::ParseError;
use crate::side::Side;
use crate::status::{DrawReason, Status, WinReason};

impl WinReason {
    /// The reason whose [`token`](WinReason::token) is `token`.
    fn from_token(token: &str) -> Option<WinReason> {
        WinReason::ALL.into_iter().find(|r| r.token() == token)
    }

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
    /// The reason whose [`token`](DrawReason::token) is `token`.
    fn from_token(token: &str) -> Option<DrawReason> {
        DrawReason::ALL.into_iter().find(|r| r.token() == token)
    }

    /// The reason's word in the status text: `agreement`, `move-limit`, `abandoned` (both
    /// sides left).
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            DrawReason::Agreement => "agreement",
            DrawReason::MoveLimit => "move-limit",
            DrawReason::AbandonedByBoth => "abandoned",
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
    /// # Ok::<_, salpakan::text::ParseError>(())
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
            let reason = DrawReason::from_token(why).ok_or_else(fail)?;
            return Ok(Status::Drawn { reason });
        }
        let winner = match who {
            "white" => Side::White,
            "black" => Side::Black,
            _ => return Err(fail()),
        };
        let reason = WinReason::from_token(why).ok_or_else(fail)?;
        Ok(Status::Won { winner, reason })
    }
}

impl Status {
    /// The state's word: `"ongoing"`, `"won"` or `"drawn"`.
    #[must_use]
    pub const fn state_word(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won { .. } => "won",
            Status::Drawn { .. } => "drawn",
        }
    }

    /// Why the game ended, as a token (`"flag-captured"`, `"flag-reached-end"`,
    /// `"resignation"`, `"time"`, `"abandoned"`, `"agreement"`, `"move-limit"`), or `None` while
    /// it goes on.
    #[must_use]
    pub const fn reason_token(self) -> Option<&'static str> {
        match self {
            Status::Ongoing => None,
            Status::Won { reason, .. } => Some(reason.token()),
            Status::Drawn { reason } => Some(reason.token()),
        }
    }

    /// The status its three words describe: [`Status::state_word`], the winner's
    /// [`Side::word`] and [`Status::reason_token`], as the server's JSON and the bindings
    /// give them (the inverse of those three).
    ///
    /// # Errors
    /// [`ParseError::Status`] for words that are no status.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Side, Status, WinReason};
    ///
    /// let status = Status::Won { winner: Side::Black, reason: WinReason::Time };
    /// let words = (status.state_word(), status.winner().map(Side::word), status.reason_token());
    /// assert_eq!(Status::from_words(words.0, words.1, words.2)?, status);
    /// assert_eq!(Status::from_words("ongoing", None, None)?, Status::Ongoing);
    /// assert!(Status::from_words("won", None, Some("time")).is_err());
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    pub fn from_words(
        state: &str,
        winner: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Status, ParseError> {
        let found = match (state, winner, reason) {
            ("ongoing", None, None) => Some(Status::Ongoing),
            ("won", Some(winner), Some(reason)) => Side::ALL
                .into_iter()
                .find(|side| side.word() == winner)
                .zip(WinReason::from_token(reason))
                .map(|(winner, reason)| Status::Won { winner, reason }),
            ("drawn", None, Some(reason)) => {
                DrawReason::from_token(reason).map(|reason| Status::Drawn { reason })
            }
            _ => None,
        };
        found.ok_or_else(|| {
            let words = [Some(state), winner, reason].map(|w| w.unwrap_or("-"));
            ParseError::Status(words.join(" "))
        })
    }
}
