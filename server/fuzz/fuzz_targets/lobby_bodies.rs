//! The players' and the lobby's inputs: HTTP bodies (`POST /api/players`, `/api/seeks`,
//! `/api/pool`, `/api/games` with its new fields) and player-socket frames.
//!
//! Input: the first byte picks what the rest is read as; the rest is the body or frame.
//!
//! Checked: nothing panics; what reads writes back to what reads the same; a name is kept
//! only if it is 3 to 20 of the allowed characters; a setup time only within its range; a
//! pool's name is a function of its clock and rated flag; an open socket's answer to any
//! frame is one of the contract's frames.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_server::wire::{
    CreateRequest, LobbyMessage, MAX_SETUP_MS, PlayerClientMessage, PoolRequest, RegisterRequest,
    SeekRequest, setup_ms, valid_name,
};

/// Reads `text` as a `T`; if it reads, its JSON reads back as the same value.
fn round_trip<T>(text: &str) -> Option<T>
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + core::fmt::Debug,
{
    let value: T = serde_json::from_str(text).ok()?;
    let again: T = serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap();
    assert_eq!(again, value);
    Some(value)
}

fn check_setup(asked: Option<i64>) {
    if let Ok(ms) = setup_ms(asked, 10_000) {
        assert!((10_000..=MAX_SETUP_MS).contains(&ms));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which % 5 {
        0 => {
            if let Some(request) = round_trip::<RegisterRequest>(text) {
                let name = &request.name;
                let allowed = (3..=20).contains(&name.len())
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                assert_eq!(valid_name(name), allowed);
            }
        }
        1 => {
            if let Some(request) = round_trip::<SeekRequest>(text) {
                check_setup(request.setup_ms);
            }
        }
        2 => {
            if let Some(request) = round_trip::<PoolRequest>(text) {
                let rated = request.rated.unwrap_or(false);
                let name = salpakan_server::wire::pool_name(request.clock, rated);
                assert_eq!(name, salpakan_server::wire::pool_name(request.clock, rated));
                assert_eq!(name.ends_with(" rated"), rated);
            }
        }
        3 => {
            if let Some(request) = round_trip::<CreateRequest>(text) {
                check_setup(request.setup_ms);
            }
        }
        _ => {
            let _ = round_trip::<PlayerClientMessage>(text);
            let answer = salpakan_server::socket::lobby::answer(text);
            let frame: LobbyMessage = serde_json::from_str(&answer).expect("a contract frame");
            let ping = serde_json::from_str::<PlayerClientMessage>(text)
                .is_ok_and(|m| m == PlayerClientMessage::Ping);
            assert_eq!(frame == LobbyMessage::Pong, ping);
        }
    }
});
