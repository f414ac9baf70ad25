//! The committed header `include/salpakan.h` is exactly what cbindgen generates from the
//! source, and its version macros match `Cargo.toml`.

use std::path::PathBuf;

/// This crate's folder: cbindgen reads its `src/`.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's top: `cbindgen.toml` and the header in `include/`.
fn workspace() -> PathBuf {
    root().join("..")
}

fn generate() -> String {
    let config =
        cbindgen::Config::from_file(workspace().join("cbindgen.toml")).expect("cbindgen.toml");
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_crate(root())
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("utf-8 header")
}

/// Asserts that `header` has `line` (white space around it aside).
fn has_line(header: &str, line: &str) {
    assert!(header.lines().any(|l| l.trim() == line), "missing `{line}`");
}

#[test]
fn committed_header_matches_the_source() {
    let path = workspace().join("include/salpakan.h");
    let generated = generate();
    if std::env::var_os("SALPAKAN_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/salpakan.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || committed.lines().count().min(generated.lines().count()) + 1,
                |i| i + 1,
            );
        panic!(
            "include/salpakan.h differs from the source (first at line {line}).\n\
             Regenerate it with:\n    SALPAKAN_BLESS=1 cargo test -p salpakan-capi --test header\n\
             and commit the result."
        );
    }
}

#[test]
fn version_macros_match_cargo_toml() {
    let header = std::fs::read_to_string(workspace().join("include/salpakan.h")).unwrap();
    for (name, value) in [
        ("MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        has_line(&header, &format!("#define SALPAKAN_VERSION_{name} {value}"));
    }
}

#[test]
fn the_contract_names_and_numbers_are_in_the_header() {
    let header = std::fs::read_to_string(workspace().join("include/salpakan.h")).unwrap();
    let defines = [
        ("SALPAKAN_WHITE", "0"),
        ("SALPAKAN_BLACK", "1"),
        ("SALPAKAN_NO_SIDE", "255"),
        ("SALPAKAN_RANK_FLAG", "0"),
        ("SALPAKAN_RANK_PRIVATE", "1"),
        ("SALPAKAN_RANK_SERGEANT", "2"),
        ("SALPAKAN_RANK_SECOND_LIEUTENANT", "3"),
        ("SALPAKAN_RANK_FIRST_LIEUTENANT", "4"),
        ("SALPAKAN_RANK_CAPTAIN", "5"),
        ("SALPAKAN_RANK_MAJOR", "6"),
        ("SALPAKAN_RANK_LIEUTENANT_COLONEL", "7"),
        ("SALPAKAN_RANK_COLONEL", "8"),
        ("SALPAKAN_RANK_ONE_STAR_GENERAL", "9"),
        ("SALPAKAN_RANK_TWO_STAR_GENERAL", "10"),
        ("SALPAKAN_RANK_THREE_STAR_GENERAL", "11"),
        ("SALPAKAN_RANK_FOUR_STAR_GENERAL", "12"),
        ("SALPAKAN_RANK_FIVE_STAR_GENERAL", "13"),
        ("SALPAKAN_RANK_SPY", "14"),
        ("SALPAKAN_RANK_UNKNOWN", "15"),
        ("SALPAKAN_NO_PIECE", "255"),
        ("SALPAKAN_OUTCOME_WIN", "0"),
        ("SALPAKAN_OUTCOME_LOSE", "1"),
        ("SALPAKAN_OUTCOME_TIE", "2"),
        ("SALPAKAN_STATE_ONGOING", "0"),
        ("SALPAKAN_STATE_WON", "1"),
        ("SALPAKAN_STATE_DRAWN", "2"),
        ("SALPAKAN_REASON_NONE", "0"),
        ("SALPAKAN_REASON_FLAG_CAPTURED", "1"),
        ("SALPAKAN_REASON_FLAG_REACHED_END", "2"),
        ("SALPAKAN_REASON_RESIGNATION", "3"),
        ("SALPAKAN_REASON_AGREEMENT", "4"),
        ("SALPAKAN_REASON_MOVE_LIMIT", "5"),
        ("SALPAKAN_REASON_TIME", "6"),
        ("SALPAKAN_REASON_ABANDONED", "7"),
        ("SALPAKAN_MAX_MOVES", "84"),
        ("SALPAKAN_ISMCTS_DEFAULT_BUDGET", "10000"),
    ];
    for (name, value) in defines {
        has_line(&header, &format!("#define {name} {value}"));
    }
    // The result codes are the values of a 32-bit enum (rustls-ffi's `rustls_result` habit),
    // typedef'd to `uint32_t` in C before C23.
    let results = [
        ("SALPAKAN_RESULT_OK", "0"),
        ("SALPAKAN_RESULT_NULL_ARGUMENT", "1"),
        ("SALPAKAN_RESULT_INVALID_ARGUMENT", "2"),
        ("SALPAKAN_RESULT_INVALID_SETUP", "3"),
        ("SALPAKAN_RESULT_ILLEGAL_MOVE", "4"),
        ("SALPAKAN_RESULT_GAME_OVER", "5"),
        ("SALPAKAN_RESULT_BUFFER_TOO_SMALL", "6"),
        ("SALPAKAN_RESULT_PARSE", "7"),
        ("SALPAKAN_RESULT_PANIC", "8"),
    ];
    for (name, value) in results {
        has_line(&header, &format!("{name} = {value},"));
    }
    assert!(header.contains("enum SalpakanResult\n"));
    assert!(header.contains("typedef uint32_t SalpakanResult;"));
    assert!(header.contains("typedef struct SalpakanGame SalpakanGame;"));
}
