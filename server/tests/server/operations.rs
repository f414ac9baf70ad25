//! Operating the server: its log holds no secret, its metrics count what happened, the
//! operator's routes, readiness and draining, the environment, the open-file limit, the
//! schema's version, and a live backup restored.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use salpakan::Side;
use salpakan_server::client::{request, request_with};
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{
    Killed, Server, Table, cells, database, exec, player_socket, postgres_host, query_int,
    random_game, register_all, scratch, socket, spawn_binary, stored_text,
};

const BINARY: &str = env!("CARGO_BIN_EXE_salpakan-server");

/// The binary serving `db` with `args`, its log (JSON, `RUST_LOG=debug`) written to `log`.
fn spawn_logged(db: &Path, log: &Path, args: &[&str]) -> (Killed, Server) {
    let file = std::fs::File::create(log).expect("a log file");
    let (child, server) = spawn_binary(
        Command::new(BINARY)
            .args(["--addr", "127.0.0.1:0", "--log-format", "json", "--db"])
            .arg(db)
            .args(args)
            .env("RUST_LOG", "debug")
            .stderr(Stdio::from(file)),
    );
    (Killed(child), server)
}

/// Every line of the log, each a JSON object.
fn log_lines(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .expect("the log")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The operator's address, as the `listening` line gives it.
fn metrics_addr(log: &Path) -> std::net::SocketAddr {
    let line = log_lines(log)
        .into_iter()
        .find(|l| l["message"] == "listening")
        .expect("the listening line");
    line["metrics"]
        .as_str()
        .unwrap()
        .parse()
        .expect("an address")
}

/// Sends SIGTERM and waits for a clean exit.
fn terminate(child: &mut Killed) {
    let status = Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let exit = child.0.wait().expect("the server exits");
    assert!(exit.success(), "{exit}");
}

/// One sample of the Prometheus text: its name, labels and value.
#[derive(Debug, Clone, PartialEq)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// Reads Prometheus text format 0.0.4 strictly: every sample's family has a `# TYPE` line
/// before it, names and labels are well formed, values are numbers, each histogram's
/// buckets grow and end with `+Inf` equal to its `_count`.
fn parse_prometheus(text: &str) -> Vec<Sample> {
    let mut types: BTreeMap<String, String> = BTreeMap::new();
    let mut samples = Vec::new();
    let name_ok = |n: &str| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            && !n.starts_with(|c: char| c.is_ascii_digit())
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(rest) = line.strip_prefix("# ") {
            let mut words = rest.splitn(3, ' ');
            match (words.next(), words.next(), words.next()) {
                (Some("TYPE"), Some(name), Some(kind)) => {
                    assert!(name_ok(name), "{line}");
                    assert!(
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                        "{line}"
                    );
                    types.insert(name.to_owned(), kind.to_owned());
                }
                (Some("HELP"), Some(name), _) => assert!(name_ok(name), "{line}"),
                _ => panic!("not a comment of the format: {line}"),
            }
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect(line);
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            "-Inf" => f64::NEG_INFINITY,
            v => v.parse().unwrap_or_else(|_| panic!("not a value: {line}")),
        };
        let (name, labels) = match series.split_once('{') {
            None => (series, BTreeMap::new()),
            Some((name, rest)) => {
                let body = rest.strip_suffix('}').expect(line);
                let mut labels = BTreeMap::new();
                for pair in body.split("\",").filter(|p| !p.is_empty()) {
                    let (key, value) = pair.split_once("=\"").expect(line);
                    assert!(name_ok(key), "{line}");
                    labels.insert(key.to_owned(), value.trim_end_matches('"').to_owned());
                }
                (name, labels)
            }
        };
        assert!(name_ok(name), "{line}");
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s).filter(|f| types.contains_key(*f)))
            .unwrap_or(name);
        assert!(types.contains_key(family), "no # TYPE before {line}");
        samples.push(Sample {
            name: name.to_owned(),
            labels,
            value,
        });
    }
    for (family, kind) in &types {
        if kind != "histogram" {
            continue;
        }
        let buckets: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.name == format!("{family}_bucket"))
            .collect();
        assert!(
            buckets.windows(2).all(|w| w[0].value <= w[1].value),
            "{family}"
        );
        let last = buckets.last().expect(family);
        assert_eq!(last.labels["le"], "+Inf");
        let count = samples
            .iter()
            .find(|s| s.name == format!("{family}_count"))
            .expect(family);
        assert_eq!(last.value, count.value, "{family}");
    }
    samples
}

/// The value of `name` with `labels` (0 when it was never counted).
fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|s| s.name == name)
        .filter(|s| {
            labels
                .iter()
                .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(v))
        })
        .map(|s| s.value)
        .sum()
}

async fn scrape(addr: std::net::SocketAddr) -> Vec<Sample> {
    let (status, text) = request(addr, "GET", "/metrics", "").await.expect("a reply");
    assert_eq!(status, 200, "{text}");
    parse_prometheus(&text)
}

/// The metrics, scraped again (every 10 ms, for up to 5 s) until `settled` holds of them; the
/// last scrape if it never does, for the assertions to name what differs.
async fn scrape_until(
    addr: std::net::SocketAddr,
    settled: impl Fn(&[Sample]) -> bool,
) -> Vec<Sample> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let samples = scrape(addr).await;
        if settled(&samples) || tokio::time::Instant::now() >= deadline {
            return samples;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A server just started shows every counter at 0, before anything happened: a scrape after
/// a restart sees each series fall to 0, not go missing until its first event.
#[tokio::test]
async fn a_fresh_server_shows_its_counters_at_zero() {
    let log = scratch("ops-fresh").join("server.log");
    let db = database("ops-fresh");
    let (_child, _server) = spawn_logged(&db, &log, &["--metrics-addr", "127.0.0.1:0"]);
    let samples = scrape(metrics_addr(&log)).await;
    for name in [
        "salpakan_games_created_total",
        "salpakan_plies_total",
        "salpakan_commit_failures_total",
        "salpakan_games_taken_over_total",
    ] {
        let found: Vec<f64> = samples
            .iter()
            .filter(|s| s.name == name)
            .map(|s| s.value)
            .collect();
        assert_eq!(found, vec![0.0], "{name}");
    }
    for code in ["1001", "1008", "1009", "1011", "1012", "4401", "4410"] {
        assert!(
            samples
                .iter()
                .any(|s| s.name == "salpakan_socket_closes_total"
                    && s.labels.get("code").map(String::as_str) == Some(code)),
            "closes with {code}"
        );
    }
}

#[tokio::test]
async fn a_whole_runs_log_holds_no_secret_and_its_metrics_count_what_it_did() {
    let log = scratch("ops-log").join("server.log");
    let db = database("ops-log");
    let (mut child, server) = spawn_logged(&db, &log, &["--metrics-addr", "127.0.0.1:0"]);
    let operator = metrics_addr(&log);
    let mut secrets: Vec<String> = Vec::new();

    // Two players; a seek accepted: a game in its setup, its tokens sent on player sockets.
    let [rosa, tomas] = register_all(&server, ["rosa", "tomas"]).await;
    secrets.extend([rosa.clone(), tomas.clone()]);
    let mut sockets = [
        player_socket(&server, &rosa).await,
        player_socket(&server, &tomas).await,
    ];
    let (status, seek) = post_as(&server, &rosa, "/api/seeks", &json!({})).await;
    assert_eq!(status, 201, "{seek}");
    let accept = format!("/api/seeks/{}/accept", seek["seek"].as_str().unwrap());
    let (status, seat) = call(&server, Some(&tomas), "POST", &accept).await;
    assert_eq!(status, 200, "{seat}");
    secrets.push(seat["token"].as_str().unwrap().to_owned());
    let paired = sockets[0].until("paired").await;
    secrets.push(paired["token"].as_str().unwrap().to_owned());

    // A game by invite, played 10 plies and resigned, watched by a spectator.
    let played = random_game(31, 10);
    let first = played.first_mover().word();
    let (created, joined) = server
        .create_and_join(json!({"side": "white", "first": first}))
        .await;
    secrets.extend(["token", "invite"].map(|k| created[k].as_str().unwrap().to_owned()));
    let game = created["game"].as_str().unwrap().to_owned();
    secrets.push(joined["token"].as_str().unwrap().to_owned());
    let tokens = [
        secrets[secrets.len() - 3].clone(),
        secrets[secrets.len() - 1].clone(),
    ];
    let mut table = Table {
        id: game.clone(),
        tokens: tokens.clone(),
        seats: [
            server.seat(&game, Some(&tokens[0])).await,
            server.seat(&game, Some(&tokens[1])).await,
        ],
        v: 0,
    };
    for side in Side::ALL {
        let setup = played.setup(side).unwrap();
        secrets.push(cells(setup).to_string());
        secrets.push(setup.to_string());
    }
    let mut spectator = socket(&server, &format!("/api/games/{game}/socket")).await;
    spectator.until("state").await;
    table.set_up(&played).await;
    table.replay(&played, 0, 10).await;
    // Refusals: an illegal move (a stale ply), an unknown game, a wrong invite.
    table.seats[0]
        .send(&json!({"t": "move", "move": "a1-a2", "ply": 0}))
        .await;
    let refused = table.seats[0].until("error").await;
    let socket_code = refused["code"].as_str().unwrap().to_owned();
    let (status, _) = server.http("GET", "/api/games/0000000000000000", "").await;
    assert_eq!(status, 404);
    let (status, _) = server.join(&game, &json!("not-the-invite")).await;
    assert!(status >= 400);
    // A side may resign on either turn.
    table.act(Side::White, json!({"t": "resign"}), 1).await;
    // A player socket with a wrong key is closed with 4401.
    let mut wrong = socket(&server, "/api/players/socket").await;
    wrong
        .send(&json!({"t": "auth", "key": "k".repeat(43)}))
        .await;
    assert_eq!(wrong.until_close().await, 4401);
    drop(spectator);

    // A socket's gauge falls when the server has finished with it, a moment after its
    // client saw the close: scraped until the wrong key's socket is no longer counted.
    let samples = scrape_until(operator, |samples| {
        value(samples, "salpakan_sockets_open", &[("kind", "player")]) == 2.0
    })
    .await;
    let resigned = value(
        &samples,
        "salpakan_games_ended_total",
        &[("reason", "resignation")],
    );
    assert_eq!(value(&samples, "salpakan_games_created_total", &[]), 2.0);
    assert_eq!(resigned, 1.0);
    assert_eq!(value(&samples, "salpakan_games_ended_total", &[]), 1.0);
    assert_eq!(value(&samples, "salpakan_plies_total", &[]), 10.0);
    assert_eq!(
        value(
            &samples,
            "salpakan_refusals_total",
            &[("code", &socket_code)]
        ),
        1.0,
        "{socket_code}"
    );
    let refusals: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.name == "salpakan_refusals_total")
        .collect();
    assert_eq!(
        value(
            &samples,
            "salpakan_refusals_total",
            &[("code", "not-found")]
        ),
        2.0,
        "an unknown game, and a wrong invite (answered as for an unknown game): {refusals:?}"
    );
    assert_eq!(value(&samples, "salpakan_refusals_total", &[]), 3.0);
    for (name, label, expected) in [
        ("salpakan_socket_closes_total", ("code", "4401"), 1.0),
        ("salpakan_sockets_open", ("kind", "seat"), 2.0),
        ("salpakan_sockets_open", ("kind", "player"), 2.0),
        ("salpakan_games_live", ("phase", "setup"), 1.0),
        ("salpakan_games_live", ("phase", "playing"), 0.0),
    ] {
        assert_eq!(
            value(&samples, name, &[label]),
            expected,
            "{name} {label:?}"
        );
    }
    assert_eq!(value(&samples, "salpakan_build_info", &[]), 1.0);
    assert!(value(&samples, "salpakan_commit_seconds_count", &[]) >= 1.0);
    // The group sizes add up to every write made.
    assert!(
        value(&samples, "salpakan_commit_writes_sum", &[])
            >= value(&samples, "salpakan_commit_seconds_count", &[])
    );

    // The operator's list: both games, their phases, never a formation or a token.
    let (status, listed) = request(operator, "GET", "/admin/games", "").await.unwrap();
    assert_eq!(status, 200);
    let listed: Value = serde_json::from_str(&listed).unwrap();
    let games = listed["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{listed}");
    let ours = games.iter().find(|g| g["id"] == game.as_str()).unwrap();
    assert_eq!(
        (ours["phase"].as_str(), ours["plies"].as_u64()),
        (Some("over"), Some(10))
    );
    let named = games.iter().find(|g| g["id"] != game.as_str()).unwrap();
    assert_eq!(named["phase"], "setup");
    let names = [&named["white"]["name"], &named["black"]["name"]];
    assert!(names.contains(&&json!("rosa")) && names.contains(&&json!("tomas")));
    let text = listed.to_string();
    for secret in &secrets {
        assert!(!text.contains(secret.as_str()), "the list holds a secret");
    }
    // Not on the players' address (which answers any other path with its note on the page).
    for path in ["/admin/games", "/metrics"] {
        let (_, body) = server.http("GET", path, "").await;
        assert!(
            body.starts_with("salpakan-server: the API is at /api"),
            "{path}: {body}"
        );
    }
    server.http("POST", "/admin/drain", "").await;

    // Readiness, the health command, draining.
    let health = |addr: std::net::SocketAddr| {
        Command::new(BINARY)
            .args(["health", "--addr", &addr.to_string()])
            .output()
            .unwrap()
            .status
            .success()
    };
    assert_eq!(
        server.http("GET", "/api/ready", "").await,
        (200, r#"{"ready":true}"#.into())
    );
    assert!(health(server.addr));
    // A form a web page posts (no X-Salpakan-Admin), or a page's name rebound to the
    // listener's address: refused, and nothing drains.
    let (status, _) = request(operator, "POST", "/admin/drain", "").await.unwrap();
    assert_eq!(status, 403);
    let admin = [("X-Salpakan-Admin", "1")];
    let rebound = [("X-Salpakan-Admin", "1"), ("Host", "evil.example:9090")];
    let drain = ("POST", "/admin/drain", "");
    let (status, _) = request_with(None, operator, drain, &rebound).await.unwrap();
    assert_eq!(status, 421);
    assert!(health(server.addr), "nothing drained");
    let (status, _) = request_with(None, operator, drain, &admin).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        server.http("GET", "/api/ready", "").await,
        (503, r#"{"ready":false}"#.into())
    );
    assert!(!health(server.addr));
    let (status, refused) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!((status, &refused["error"]), (503, &json!("draining")));
    // The games held go on: the seek's game takes its formations.
    drop(table);
    drop(sockets);
    terminate(&mut child);

    let lines = log_lines(&log);
    let said = |message: &str| lines.iter().filter(|l| l["message"] == message).count();
    assert_eq!(said("starting"), 1);
    assert_eq!(said("listening"), 1);
    assert_eq!(said("game created"), 2);
    assert_eq!(said("game started"), 1);
    assert_eq!(said("game ended"), 1);
    assert_eq!(said("draining: no new games"), 1);
    assert_eq!(said("shutting down"), 1);
    assert_eq!(said("stopped: every accepted write is committed"), 1);
    assert!(said("socket closed") >= 3);
    let start = lines.iter().find(|l| l["message"] == "starting").unwrap();
    assert_eq!(start["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(said("configured"), 1);
    let configured = lines.iter().find(|l| l["message"] == "configured").unwrap();
    let config = configured["config"].as_str().unwrap();
    assert!(config.contains("metrics-addr=127.0.0.1:0"), "{config}");
    assert!(config.contains(" lease-secs=10 "), "{config}");
    let ended = lines.iter().find(|l| l["message"] == "game ended").unwrap();
    assert_eq!(
        (ended["game"].as_str(), ended["reason"].as_str()),
        (Some(game.as_str()), Some("resignation"))
    );
    let whole = std::fs::read_to_string(&log).unwrap();
    assert!(secrets.len() >= 11);
    for secret in &secrets {
        assert!(
            !whole.contains(secret.as_str()),
            "the log holds a secret: {secret}"
        );
    }
    // No request's URL (a PostgreSQL database's URL, in the configuration, may have a query).
    let requests = whole.replace(&db.display().to_string(), "");
    assert!(!requests.contains('?'), "a query string in the log");
}

#[tokio::test]
async fn the_environment_sets_every_flag_and_a_bad_variable_is_named() {
    let db = database("ops-env");
    let (mut child, server) = {
        let (child, server) = spawn_binary(
            Command::new(BINARY)
                .env("SALPAKAN_ADDR", "127.0.0.1:0")
                .env("SALPAKAN_DB", &db)
                .env("SALPAKAN_GAMES_PER_IP", "1")
                .stderr(Stdio::null()),
        );
        (Killed(child), server)
    };
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let (status, refused) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!((status, &refused["error"]), (429, &json!("too-many-games")));
    terminate(&mut child);
    let output = Command::new(BINARY)
        .env("SALPAKAN_DB", &db)
        .env("SALPAKAN_SEEKS_PER_IP", "twelve")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("SALPAKAN_SEEKS_PER_IP"), "{said}");
}

#[test]
fn the_open_file_soft_limit_is_raised_to_the_hard_limit() {
    let dir = scratch("ops-nofile");
    let log = dir.join("server.log");
    // 1,024 files (a systemd service's default) under a hard limit of 4,096.
    let (child, _server) = spawn_binary(
        Command::new("prlimit")
            .args(["--nofile=1024:4096", BINARY])
            .args(["--addr", "127.0.0.1:0", "--log-format", "json", "--db"])
            .arg(dir.join("games.db"))
            .env("RUST_LOG", "info")
            .stderr(Stdio::from(std::fs::File::create(&log).unwrap())),
    );
    let mut child = Killed(child);
    let lines = log_lines(&log);
    let raised = lines
        .iter()
        .find(|l| l["message"] == "open-file limit")
        .expect("the limit is logged");
    assert_eq!(
        (raised["before"].as_u64(), raised["after"].as_u64()),
        (Some(1024), Some(4096))
    );
    let listening = lines.iter().find(|l| l["message"] == "listening").unwrap();
    assert_eq!(listening["max_connections"].as_u64(), Some(4096 - 64));
    child.kill();
}

#[test]
fn a_database_newer_than_the_binary_is_refused_and_left_untouched() {
    let db = database("ops-schema");
    let migrate = |db: &Path| {
        Command::new(BINARY)
            .arg("migrate")
            .arg("--db")
            .arg(db)
            .output()
            .unwrap()
    };
    let first = migrate(&db);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    // A newer binary's database: SQLite's user_version, PostgreSQL's version row.
    let postgres = postgres_host().is_some();
    let known = if postgres {
        salpakan_server::store::PG_VERSION
    } else {
        salpakan_server::store::VERSION
    };
    let said = String::from_utf8_lossy(&first.stdout).into_owned();
    assert!(
        said.contains(&format!("schema version 0 -> {known}")),
        "{said}"
    );
    let again = migrate(&db);
    assert!(
        String::from_utf8_lossy(&again.stdout)
            .contains(&format!("schema version {known}, up to date"))
    );
    let newer = known + 1;
    if postgres {
        exec(
            &db,
            &format!("UPDATE salpakan_schema SET version = {newer}"),
        );
    } else {
        exec(
            &db,
            &format!("PRAGMA user_version = {newer}; PRAGMA journal_mode = DELETE;"),
        );
    }
    let snapshot = |db: &Path| {
        if postgres {
            stored_text(db).into_bytes()
        } else {
            std::fs::read(db).unwrap()
        }
    };
    let before = snapshot(&db);
    let serve = Command::new(BINARY)
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(serve.status.code(), Some(1));
    let said = String::from_utf8_lossy(&serve.stderr);
    assert!(
        said.contains(&format!(
            "schema version {newer}, newer than this binary's {known}"
        )),
        "{said}"
    );
    let refused = migrate(&db);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains(&format!("newer than this binary's {known}"))
    );
    assert!(snapshot(&db) == before, "the database was changed");
    if postgres {
        assert_eq!(
            query_int(&db, "SELECT version FROM salpakan_schema"),
            i64::from(newer)
        );
        // Its backups are PostgreSQL's own tools' work.
        let backup = Command::new(BINARY)
            .args(["backup", "--db"])
            .arg(&db)
            .args(["--to", "copy.db"])
            .output()
            .unwrap();
        assert_eq!(backup.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&backup.stderr).contains("pg_dump"));
    }
}

/// Games played on while `salpakan-server backup` copies the live database; the copy put in
/// place of the database (the documented restore: stop, replace, start); every game in it
/// resumes and finishes.
#[tokio::test]
async fn a_backup_under_load_restores_to_a_server_whose_games_all_finish() {
    let dir = scratch("ops-backup");
    let db = dir.join("games.db");
    let copy = dir.join("copy.db");
    let spawn = |db: &Path| {
        let (child, server) = spawn_binary(
            Command::new(BINARY)
                .args(["--addr", "127.0.0.1:0", "--db"])
                .arg(db)
                .stderr(Stdio::null()),
        );
        (Killed(child), server)
    };
    let (mut child, server) = spawn(&db);
    let mut tables = Vec::new();
    let mut games = Vec::new();
    for seed in 0..6 {
        let game = random_game(100 + seed, 40);
        let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
        table.set_up(&game).await;
        tables.push(table);
        games.push(game);
    }
    let backup = {
        let (db, copy) = (db.clone(), copy.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            Command::new(BINARY)
                .arg("backup")
                .arg("--db")
                .arg(&db)
                .arg("--to")
                .arg(&copy)
                .output()
                .unwrap()
        })
    };
    // Plies go on while the copy is made.
    for ply in 0..20 {
        for (table, game) in tables.iter_mut().zip(&games) {
            if ply < game.history().len() && game.history()[ply].status.is_ongoing() {
                table.replay(game, ply, ply + 1).await;
            }
        }
    }
    let made = backup.join().unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let said = String::from_utf8_lossy(&made.stdout);
    assert!(
        said.contains("6 games") && said.contains("integrity ok"),
        "{said}"
    );
    // A second backup to the same place is refused: a backup never overwrites.
    let again = Command::new(BINARY)
        .args(["backup", "--db"])
        .arg(&db)
        .arg("--to")
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    let tokens: Vec<[String; 2]> = tables.iter().map(|t| t.tokens.clone()).collect();
    let ids: Vec<String> = tables.iter().map(|t| t.id.clone()).collect();
    drop(tables);
    terminate(&mut child);
    // Restore: the copy in the database's place (its WAL files gone with the old one).
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(PathBuf::from(format!("{}{suffix}", db.display())));
    }
    std::fs::copy(&copy, &db).unwrap();
    let (_child, server) = spawn(&db);
    for (id, [white, black]) in ids.iter().zip(&tokens) {
        let mut seats = [
            server.seat(id, Some(white)).await,
            server.seat(id, Some(black)).await,
        ];
        let state = seats[0].until("state").await;
        assert_eq!(state["phase"], "playing", "{state}");
        // Both attached before the resignation (else Black's state already shows the end).
        seats[1].until("state").await;
        seats[0].send(&json!({"t": "resign"})).await;
        let over = seats[1].until("over").await;
        assert_eq!(over["status"]["reason"], "resignation");
        let (status, summary) = server.summary(id).await;
        assert_eq!((status, summary["phase"].as_str()), (200, Some("over")));
    }
}

/// One server writes a database: a second one started on it is refused (on SQLite after
/// waiting `--db-lock-wait-ms` for a stopping server to let go; on PostgreSQL at once, the
/// node's lock being held), and starts once the first has stopped.
#[tokio::test]
async fn a_second_server_on_one_database_is_refused() {
    let db = database("ops-two");
    let serve = |db: &Path| {
        let mut command = Command::new(BINARY);
        command
            .args(["--addr", "127.0.0.1:0", "--db-lock-wait-ms", "300", "--db"])
            .arg(db)
            .env("RUST_LOG", "warn");
        command
    };
    let (child, server) = spawn_binary(&mut serve(&db));
    let mut first = Killed(child);
    let started = std::time::Instant::now();
    let second = serve(&db).output().unwrap();
    if postgres_host().is_none() {
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "it waited for the first"
        );
    }
    assert_eq!(second.status.code(), Some(1));
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains("another salpakan-server writes this database"),
        "{said}"
    );
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201, "the first serves on");
    terminate(&mut first);
    let (child, server) = spawn_binary(&mut serve(&db));
    let _second = Killed(child);
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn the_operators_listener_holds_few_connections_and_closes_idle_ones() {
    let server = crate::common::start_on(crate::common::database("operator-bounds"), 65, |c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        c.limits.header_timeout = Duration::from_millis(600);
    })
    .await;
    let operator = server.running.as_ref().unwrap().metrics_addr().unwrap();
    // 300 idle connections from one address: all but 8 closed at once, the rest after the
    // header timeout; another address is served meanwhile.
    let mut idle = Vec::new();
    for _ in 0..300 {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
        if let Ok(stream) = socket.connect(operator).await {
            idle.push(stream);
        }
    }
    let closed_within = async |streams: &mut Vec<tokio::net::TcpStream>, wait: Duration| {
        use tokio::io::AsyncReadExt;
        let mut closed = 0;
        for stream in streams.iter_mut() {
            let mut byte = [0u8; 1];
            if matches!(
                tokio::time::timeout(wait, stream.read(&mut byte)).await,
                Ok(Ok(0) | Err(_))
            ) {
                closed += 1;
            }
        }
        closed
    };
    assert_eq!(
        closed_within(&mut idle, Duration::from_millis(20)).await,
        292
    );
    let (status, _) = request(operator, "GET", "/admin/games", "").await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(closed_within(&mut idle, Duration::from_secs(3)).await, 300);
    server.stop().await;
}
