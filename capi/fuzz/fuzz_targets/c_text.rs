//! The C ABI's text functions on arbitrary bytes: never a panic and never a crash.
#![no_main]

use std::ffi::CString;

use libfuzzer_sys::fuzz_target;
use salpakan_capi::{
    SalpakanResult, salpakan_game_free, salpakan_game_from_record, salpakan_game_from_text,
    salpakan_game_record, salpakan_game_to_text,
};

fuzz_target!(|data: &[u8]| {
    let text: Vec<u8> = data.iter().copied().filter(|&b| b != 0).collect();
    let text = CString::new(text).expect("no NUL inside");
    let mut buf = vec![0 as std::ffi::c_char; 1 << 16];
    let mut len = 0;
    // SAFETY: a NUL-terminated string, valid out-pointers and a buffer of the size passed.
    unsafe {
        for from in [salpakan_game_from_text, salpakan_game_from_record] {
            let mut game = std::ptr::null_mut();
            if from(text.as_ptr(), &mut game) == SalpakanResult::Ok {
                assert_eq!(
                    salpakan_game_to_text(game, buf.as_mut_ptr(), buf.len(), &mut len),
                    SalpakanResult::Ok
                );
                let _ = salpakan_game_record(game, buf.as_mut_ptr(), buf.len(), &mut len);
                salpakan_game_free(game);
            }
        }
    }
});
