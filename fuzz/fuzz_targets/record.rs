//! The game record parser: never a panic, and a record that parses writes back to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = Game::from_record(text) {
        let again = Game::from_record(&game.record()).expect("a written record reads back");
        assert_eq!(again, game);
    }
});
