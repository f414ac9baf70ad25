//! The guide's maps stay true: `docs/SERVER.md`'s "Inside" names every file of the server
//! (and names none that is gone), the crate's and the services' module lists name every
//! module, and every `--flag` the guide names is one a program it documents takes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of `## Inside` in the guide, up to the next section.
fn inside() -> String {
    let guide = read("docs/SERVER.md");
    let start = guide.find("\n## Inside").expect("an Inside section");
    let rest = &guide[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_owned()
}

/// Every `` `code` `` span of `text`.
fn spans(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every `.rs` file under `dir`, as its path from `dir`.
fn sources(dir: &Path, under: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, under, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(under).unwrap();
            found.insert(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn the_guides_map_names_every_file_of_the_server_and_none_that_is_gone() {
    let map = spans(&inside());
    let src = root().join("server/src");
    let mut files = BTreeSet::new();
    sources(&src, &src, &mut files);
    let missing: Vec<&String> = files.iter().filter(|f| !map.contains(*f)).collect();
    assert!(
        missing.is_empty(),
        "docs/SERVER.md's Inside does not name {missing:?}"
    );
    let tests = root().join("server/tests/server");
    let mut suites = BTreeSet::new();
    sources(&tests, &tests, &mut suites);
    let unnamed: Vec<&String> = suites.iter().filter(|f| !map.contains(*f)).collect();
    assert!(
        unnamed.is_empty(),
        "docs/SERVER.md's Inside does not name the test files {unnamed:?}"
    );
    // A path it names is there (a module renamed or gone is said, not left behind).
    for named in map.iter().filter(|s| s.ends_with(".rs") && s.contains('/')) {
        let there = src.join(named).exists() || root().join(named).exists();
        assert!(
            there,
            "docs/SERVER.md's Inside names {named}, which is gone"
        );
    }
}

/// The modules a file declares with `mod NAME;` (at any visibility).
fn declared(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub(crate) mod ")
                .or_else(|| line.strip_prefix("pub mod "))
                .or_else(|| line.strip_prefix("mod "))?;
            rest.strip_suffix(';').map(str::to_owned)
        })
        .collect()
}

/// The doc comment (`//!` lines) of a file.
fn module_doc(text: &str) -> String {
    text.lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn each_module_list_names_every_module_it_declares() {
    for file in [
        "server/src/lib.rs",
        "server/src/services/mod.rs",
        "server/src/services/games/mod.rs",
        "server/src/chat/mod.rs",
    ] {
        let text = read(file);
        let doc = module_doc(&text);
        let listed = spans(&doc);
        for module in declared(&text) {
            if module == "tests" {
                continue;
            }
            assert!(
                listed.contains(&module) || doc.contains(&format!("[`{module}`]")),
                "{file}'s module list does not name {module}"
            );
        }
    }
}

/// Every `--flag` `program` says it takes (in its `--help`, or in the usage it prints when
/// given no arguments).
fn flags_of(program: &str, args: &[&str]) -> BTreeSet<String> {
    let output = Command::new(program).args(args).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    dashed(&text)
}

fn dashed(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices("--") {
        let before = i.checked_sub(1).map(|b| bytes[b]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-') {
            continue;
        }
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            found.insert(format!("--{name}"));
        }
    }
    found
}

/// The repository's other programs the guide runs, whose flags are read from their sources
/// (each flag is written there as `"--flag"`, or as a shell `case`'s `--flag)`).
const OTHER_SOURCES: &[&str] = &[
    "python/examples/online_bot.py",
    "examples/verify.rs",
    "scripts/nodes-load",
];

/// Flags of other programs the guide shows in its commands (Cargo's and the test harness's,
/// Docker's, Git's, systemd's).
const OTHER_PROGRAMS: &[&str] = &[
    "--release",
    "--test",
    "--nocapture",
    "--bin",
    "--example",
    "--features",
    "--no-default-features",
    "--build-arg",
    "--short",
    "--now",
];

/// The flags `text` (a program's source) writes as `"--flag"` or `--flag)`.
fn written(text: &str) -> BTreeSet<String> {
    dashed(text)
        .into_iter()
        .filter(|flag| text.contains(&format!("\"{flag}")) || text.contains(&format!("{flag})")))
        .collect()
}

#[test]
fn every_flag_the_guide_names_is_one_its_programs_take() {
    let mut known = flags_of(env!("CARGO_BIN_EXE_salpakan-server"), &["--help"]);
    known.extend(flags_of(
        env!("CARGO_BIN_EXE_salpakan-loadgen"),
        &["--help"],
    ));
    known.extend(flags_of(env!("CARGO_BIN_EXE_salpakan-bridge"), &[]));
    for source in OTHER_SOURCES {
        known.extend(written(&read(source)));
    }
    known.extend(OTHER_PROGRAMS.iter().map(|f| (*f).to_owned()));
    assert!(known.contains("--pool-bot-secs") && known.contains("--out"));
    let guide = read("docs/SERVER.md");
    let named: BTreeSet<String> = spans(&guide).iter().flat_map(|s| dashed(s)).collect();
    let unknown: Vec<&String> = named.iter().filter(|f| !known.contains(*f)).collect();
    assert!(
        unknown.is_empty(),
        "docs/SERVER.md names flags no program of it takes: {unknown:?}"
    );
}
