//! A game's settings: the rules, the clock, the setup time, whether it is rated and listed,
//! as a request asks for them and as checked against the server's limits. The one check of
//! every way a game is asked for (a game made, a seek, a pool, a challenge, a tournament).
//! No I/O.

use salpakan::Rules;

use super::error::GameError;
use crate::clock::ClockSettings;
use crate::config::Limits;
use crate::wire::{Code, RulesRequest, SettingsRequest};

/// A game's settings, as asked for and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The rules.
    pub rules: Rules,
    /// The clock, for a timed game.
    pub clock: Option<ClockSettings>,
    /// The setup time, in milliseconds.
    pub setup_ms: u64,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether the game is listed.
    pub listed: bool,
    /// Whether the game is sealed (a tournament's: see [`Spec::sealed`]).
    pub sealed: bool,
}

impl Settings {
    /// The rules a game is asked for: the official ones, with this server's move limit
    /// unless another is asked for, and never a longer one than the server allows (a move
    /// limit bounds a game's length: see [`crate::wire::RulesWords::max_plies`]).
    fn rules(asked: RulesRequest, limits: &Limits) -> Result<Rules, GameError> {
        let move_limit = asked
            .move_limit
            .unwrap_or(i64::from(limits.default_move_limit));
        let longest = i64::from(limits.max_move_limit);
        if limits.max_move_limit > 0 && !(1..=longest).contains(&move_limit) {
            return Err(GameError::invalid(
                Code::BadRules,
                format!(
                    "move_limit must be 1 … {longest} on this server (plies without a challenge \
                     before a draw), not {move_limit}"
                ),
            ));
        }
        Rules::from_numbers(asked.setup_rows.unwrap_or(3), move_limit)
            .map_err(|e| GameError::invalid(Code::BadRules, e.to_string()))
    }

    /// A game's settings as asked for, checked against this server's `limits`: the rules, the
    /// clock, the setup time, whether it is rated and whether it is listed.
    ///
    /// # Errors
    /// [`GameError::Invalid`] naming the value out of range.
    pub(crate) fn check(asked: SettingsRequest, limits: &Limits) -> Result<Settings, GameError> {
        let SettingsRequest {
            rules,
            clock,
            rated,
            setup_ms,
            listed,
        } = asked;
        let rules = Settings::rules(rules.unwrap_or_default(), limits)?;
        let clock = clock
            .map(ClockSettings::check)
            .transpose()
            .map_err(|e| GameError::invalid(Code::BadClock, e.to_string()))?;
        let min_setup = u64::try_from(limits.min_setup.as_millis()).unwrap_or(0);
        let setup_ms = crate::wire::setup_ms(setup_ms, min_setup)
            .map_err(|e| GameError::invalid(Code::BadMessage, e))?;
        Ok(Settings {
            rules,
            clock,
            setup_ms,
            rated: rated.unwrap_or(false),
            listed: listed.unwrap_or(true),
            sealed: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::SETUP_MS;

    fn refused(asked: SettingsRequest, limits: &Limits) -> (Code, String) {
        match Settings::check(asked, limits) {
            Err(GameError::Invalid(refusal)) => (refusal.code, refusal.message),
            other => panic!("{asked:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn nothing_asked_is_the_servers_defaults() {
        let limits = Limits::default();
        let settings = Settings::check(SettingsRequest::default(), &limits).unwrap();
        let rules = Rules::from_numbers(3, i64::from(limits.default_move_limit)).unwrap();
        assert_eq!(
            settings,
            Settings {
                rules,
                clock: None,
                setup_ms: SETUP_MS,
                rated: false,
                listed: true,
                sealed: false,
            }
        );
    }

    #[test]
    fn a_move_limit_past_the_servers_is_refused_and_none_only_where_allowed() {
        let mut limits = Limits {
            max_move_limit: 400,
            ..Limits::default()
        };
        let asking = |move_limit| SettingsRequest {
            rules: Some(RulesRequest {
                setup_rows: Some(4),
                move_limit: Some(move_limit),
            }),
            ..SettingsRequest::default()
        };
        let settings = Settings::check(asking(400), &limits).unwrap();
        assert_eq!(settings.rules, Rules::from_numbers(4, 400).unwrap());
        for past in [401, 0, -1] {
            let (code, message) = refused(asking(past), &limits);
            assert_eq!(code, Code::BadRules);
            assert!(
                message.contains("1 … 400") && message.contains(&past.to_string()),
                "{message}"
            );
        }
        limits.max_move_limit = 0;
        let settings = Settings::check(asking(0), &limits).unwrap();
        assert_eq!(settings.rules, Rules::from_numbers(4, 0).unwrap());
        assert_eq!(refused(asking(9_999_999), &limits).0, Code::BadRules);
    }

    #[test]
    fn setup_rows_and_a_setup_time_out_of_range_are_refused_by_their_codes() {
        let limits = Limits::default();
        let rows = SettingsRequest {
            rules: Some(RulesRequest {
                setup_rows: Some(5),
                move_limit: None,
            }),
            ..SettingsRequest::default()
        };
        assert_eq!(refused(rows, &limits).0, Code::BadRules);
        let setup = SettingsRequest {
            setup_ms: Some(-1),
            ..SettingsRequest::default()
        };
        let (code, message) = refused(setup, &limits);
        assert_eq!(code, Code::BadMessage);
        assert!(message.starts_with("setup_ms must be"), "{message}");
    }
}
