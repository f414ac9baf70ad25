//! Compiles the C and C++ programs against the library cargo builds, runs them, and checks
//! what they print: the C test program (`tests/c/api_test.c`), the C and C++ self-play
//! examples, and the C++ wrapper in two translation units.
//!
//! Needs a C and a C++ compiler (`cc`/`c++`, or `CC`/`CXX`). Two variables serve CI:
//! `SALPAKAN_TEST_CFLAGS` adds compiler flags (e.g. sanitizers) and `SALPAKAN_TEST_RUNNER`
//! runs each program under a command (e.g. valgrind).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use salpakan::{Game, Rules, Side, Status};

const C_FLAGS: [&str; 4] = ["-Wall", "-Wextra", "-Werror", "-pedantic"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's top: the header is in its `include/`.
fn workspace() -> PathBuf {
    root().join("..")
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_api");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Libraries {
    static_lib: PathBuf,
    shared_lib: PathBuf,
}

/// Builds the library with cargo and finds its files from cargo's own JSON messages, so the
/// test does not depend on the layout of the target directory. It builds into a target
/// directory of its own: the workspace's `cargo test` unifies the crate's features across
/// every member, `-p salpakan-capi` alone does not, and sharing one directory would rebuild
/// the library at every run (about 10 s).
fn libraries() -> &'static Libraries {
    static LIBS: OnceLock<Libraries> = OnceLock::new();
    LIBS.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let output = Command::new(cargo)
            .args([
                "build",
                "--lib",
                "-p",
                "salpakan-capi",
                "--message-format=json-render-diagnostics",
            ])
            .current_dir(root())
            .env(
                "CARGO_TARGET_DIR",
                PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_api-target"),
            )
            .output()
            .expect("run cargo build");
        assert!(
            output.status.success(),
            "cargo build --lib -p salpakan-capi failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let mut found = (None, None);
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if message["reason"] != "compiler-artifact"
                || message["target"]["name"] != "salpakan_capi"
            {
                continue;
            }
            for file in message["filenames"].as_array().into_iter().flatten() {
                let path = PathBuf::from(file.as_str().unwrap_or_default());
                match path.extension().and_then(|e| e.to_str()) {
                    Some("a") => found.0 = Some(path),
                    Some("so") | Some("dylib") => found.1 = Some(path),
                    _ => {}
                }
            }
        }
        Libraries {
            static_lib: found
                .0
                .expect("cargo reported no static library (libsalpakan_capi.a)"),
            shared_lib: found
                .1
                .expect("cargo reported no shared library (libsalpakan_capi.so)"),
        }
    })
}

fn compiler(var: &str, default: &str) -> String {
    let name = std::env::var(var).unwrap_or_else(|_| default.into());
    match Command::new(&name).arg("--version").output() {
        Ok(out) if out.status.success() => name,
        _ => panic!(
            "no {} compiler found (tried `{name}`): install one (Debian: apt-get install gcc g++) \
             or set {var}",
            if var == "CC" { "C" } else { "C++" }
        ),
    }
}

fn extra_flags() -> Vec<String> {
    std::env::var("SALPAKAN_TEST_CFLAGS")
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// Compiles `sources` with `std` into an executable named `name`, linked statically.
fn build(cxx: bool, std: &str, sources: &[&str], name: &str) -> PathBuf {
    let exe = out_dir().join(name);
    let mut cmd = Command::new(if cxx {
        compiler("CXX", "c++")
    } else {
        compiler("CC", "cc")
    });
    cmd.arg(format!("-std={std}"))
        .args(C_FLAGS)
        .args(extra_flags())
        .arg("-I")
        .arg(workspace().join("include"));
    for source in sources {
        cmd.arg(root().join(source));
    }
    cmd.arg(&libraries().static_lib)
        .args(["-lpthread", "-ldl", "-lm"])
        .arg("-o")
        .arg(&exe);
    compile(cmd, name);
    exe
}

fn compile(mut cmd: Command, name: &str) {
    let out = cmd.output().expect("run the compiler");
    assert!(
        out.status.success(),
        "compiling {name} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs a program (under `SALPAKAN_TEST_RUNNER` if set) and returns its standard output.
fn run(exe: &Path, args: &[&str]) -> String {
    let runner: Vec<String> = std::env::var("SALPAKAN_TEST_RUNNER")
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let mut cmd = match runner.split_first() {
        Some((program, rest)) => {
            let mut c = Command::new(program);
            c.args(rest).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    let out = cmd.args(args).output().expect("run the program");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}\n{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Reads the closing "N passed, M failed" line.
fn tally(output: &str) -> (u32, u32) {
    let line = output.lines().last().unwrap_or_default();
    let mut words = line.split([' ', ',']).filter(|w| !w.is_empty());
    let passed = words.next().and_then(|w| w.parse().ok());
    let failed = words.nth(1).and_then(|w| w.parse().ok());
    match (passed, failed) {
        (Some(p), Some(f)) => (p, f),
        _ => panic!("no tally line in:\n{output}"),
    }
}

#[test]
fn the_c_test_program_passes_as_c99_and_c11() {
    for std in ["c99", "c11"] {
        let exe = build(
            false,
            std,
            &["tests/c/api_test.c"],
            &format!("api_test_{std}"),
        );
        let output = run(&exe, &[]);
        let (passed, failed) = tally(&output);
        assert_eq!(failed, 0, "{std}:\n{output}");
        assert!(passed >= 600, "{std}: only {passed} checks ran");
    }
}

#[test]
fn the_header_compiles_as_cpp17() {
    let source = out_dir().join("header_only.cpp");
    std::fs::write(
        &source,
        "#include \"salpakan.h\"\nint main() { return SALPAKAN_RESULT_OK; }\n",
    )
    .unwrap();
    let mut cmd = Command::new(compiler("CXX", "c++"));
    cmd.args(["-std=c++17", "-fsyntax-only"])
        .args(C_FLAGS)
        .arg("-I")
        .arg(workspace().join("include"))
        .arg(&source);
    compile(cmd, "header_only.cpp");
}

#[test]
fn the_cpp_wrapper_links_from_two_translation_units() {
    let exe = build(
        true,
        "c++17",
        &["tests/cpp/wrapper_a.cpp", "tests/cpp/wrapper_b.cpp"],
        "wrapper_test",
    );
    let output = run(&exe, &[]);
    let (passed, failed) = tally(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 15, "{output}");
}

/// The C example's random choices, replayed through the Rust API: its result line must be
/// exactly the one the Rust engine predicts.
fn predicted_c_result(seed: u64) -> String {
    let rules = Rules::default();
    let mut game = Game::dealt(Side::White, rules, seed);
    let mut state = seed;
    let mut challenges = 0;
    while game.status().is_ongoing() {
        if game.history().len() >= 5000 {
            game.agree_draw().unwrap();
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let moves = game.legal_moves();
        let mv = moves[(state >> 33) as usize % moves.len()];
        challenges += usize::from(game.play(mv).unwrap().outcome.is_some());
    }
    let result = match game.status() {
        Status::Won { winner, reason } => format!("{winner} wins: {}", reason.name()),
        Status::Drawn { reason } => format!("Draw: {}", reason.name()),
        Status::Ongoing => unreachable!(),
    };
    format!(
        "Result after {} plies and {challenges} challenges: {result}",
        game.history().len()
    )
}

#[test]
fn the_c_selfplay_example_plays_the_game_the_rust_engine_predicts() {
    let exe = build(false, "c99", &["examples/c/selfplay.c"], "selfplay_c");
    for seed in ["1", "2026", "99"] {
        let output = run(&exe, &[seed]);
        let last = output.lines().last().unwrap_or_default();
        assert_eq!(
            last,
            predicted_c_result(seed.parse().unwrap()),
            "seed {seed}"
        );
        assert!(
            output.contains(" attacker "),
            "challenges are announced:\n{output}"
        );
    }
}

#[test]
fn the_c_example_runs_against_the_shared_library() {
    let libs = libraries();
    // Laid out as an installed C library is: the file named by its SONAME
    // (`libsalpakan.so.MAJOR`, what the program records and loads) and the link-time name.
    let dir = out_dir().join("lib");
    std::fs::create_dir_all(&dir).unwrap();
    let soname = format!("libsalpakan.so.{}", env!("CARGO_PKG_VERSION_MAJOR"));
    let _ = std::fs::remove_file(dir.join(&soname));
    let _ = std::fs::remove_file(dir.join("libsalpakan.so"));
    std::fs::copy(&libs.shared_lib, dir.join(&soname)).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&soname, dir.join("libsalpakan.so")).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(&libs.shared_lib, dir.join("libsalpakan.so")).unwrap();
    let dir = dir.as_path();
    let exe = out_dir().join("selfplay_c_shared");
    let mut cmd = Command::new(compiler("CC", "cc"));
    cmd.arg("-std=c99")
        .args(C_FLAGS)
        .arg("-I")
        .arg(workspace().join("include"))
        .arg(root().join("examples/c/selfplay.c"))
        .arg("-L")
        .arg(dir)
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .arg("-lsalpakan")
        .arg("-o")
        .arg(&exe);
    compile(cmd, "selfplay_c_shared");
    let output = run(&exe, &["5"]);
    assert_eq!(output.lines().last().unwrap(), predicted_c_result(5));
}

#[test]
fn the_cpp_selfplay_example_finishes_a_game() {
    let exe = build(
        true,
        "c++17",
        &["examples/cpp/selfplay.cpp"],
        "selfplay_cpp",
    );
    let first = run(&exe, &["3"]);
    assert_eq!(
        first,
        run(&exe, &["3"]),
        "the same seed plays the same game"
    );
    let last = first.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("Result after ") && (last.contains(" wins: ") || last.contains("Draw: ")),
        "{first}"
    );
}

/// Every C and C++ block of the README and of docs/C.md compiles as shown (with the warnings
/// flags) and runs.
#[test]
fn the_documented_snippets_compile_and_run() {
    let mut compiled = 0;
    for doc in ["README.md", "docs/C.md"] {
        let text = std::fs::read_to_string(root().join("..").join(doc)).unwrap();
        for (fence, cxx, std) in [("```c\n", false, "c99"), ("```cpp\n", true, "c++17")] {
            for (k, block) in text.split(fence).skip(1).enumerate() {
                let code = &block[..block.find("```").expect("a closed block")];
                let name = format!(
                    "{}_{k}.{}",
                    doc.replace(['/', '.'], "_"),
                    if cxx { "cpp" } else { "c" }
                );
                let path = out_dir().join(&name);
                std::fs::write(&path, code).unwrap();
                let exe = build(cxx, std, &[path.to_str().unwrap()], &format!("{name}.exe"));
                let output = run(&exe, &[]);
                if cxx {
                    assert!(output.contains("SALPAKAN_RESULT_ILLEGAL_MOVE"), "{output}");
                } else if doc == "README.md" {
                    // The README's example says what it did, the squares by name.
                    let played = output.split(" legal moves; White played ").nth(1);
                    assert!(
                        played.is_some_and(|mv| {
                            let mv = mv.trim_end();
                            mv.len() == 5
                                && mv.as_bytes()[2] == b'-'
                                && mv.parse::<salpakan::Move>().is_ok()
                        }),
                        "{output}"
                    );
                }
                compiled += 1;
            }
        }
    }
    assert!(compiled >= 3, "{compiled} blocks");
}
