//! The game record parser: never a panic, and a record that parses writes back to the same game
//! and replays as each side knew it (a game from its setups; one from a position is refused).
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan::{Game, Replay, Side};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = Game::from_record(text) {
        let again = Game::from_record(&game.record()).expect("a written record reads back");
        assert_eq!(again, game);
        match Replay::new(&game) {
            Ok(replay) => {
                assert_eq!(replay.plies(), game.history().len());
                for ply in 1..=replay.plies() {
                    if let Some(o) = replay.odds(ply) {
                        assert!((o.win + o.tie + o.lose - 1.0).abs() < 1e-9, "{o:?}");
                    }
                }
                for side in Side::ALL {
                    let end = replay
                        .beliefs(replay.plies(), side)
                        .expect("the end's beliefs");
                    assert_eq!(end, game.beliefs(side).expect("the game's beliefs"));
                }
            }
            Err(_) => assert!(
                game.setup(Side::White).is_none(),
                "a game with setups replays"
            ),
        }
    }
});
