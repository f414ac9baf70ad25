//! The position text parsers: never a panic, and what parses prints back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan::Position;
use salpakan::text::PositionText;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(parsed) = text.parse::<PositionText>() {
        let again: PositionText = parsed.to_string().parse().expect("printed text parses");
        assert_eq!(again, parsed);
    }
    if let Ok(position) = text.parse::<Position>() {
        let again: Position = position.to_string().parse().expect("printed text parses");
        assert_eq!(again, position);
        let _ = position.legal_moves();
    }
});
