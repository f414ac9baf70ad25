//! Formation commitments through the real stack: published at the start to both seats, the
//! spectators and the summary; opened in the record at the end, which then verifies; never
//! opened for an aborted game; each salt 128 bits of the server's entropy.

use std::path::Path;
use std::sync::{Arc, Mutex};

use salpakan::commitment::{Commitment, CommitmentError, Salt};
use salpakan::{Game, Side};
use salpakan_server::secret::{Entropy, SeededEntropy};
use serde_json::{Value, json};

use crate::common::{Table, database, query_text, random_game, start_on, start_with};

/// The two salts game `id`'s row holds, as hexadecimal text (SQLite or PostgreSQL).
fn stored_salts(db: &Path, id: &str) -> [String; 2] {
    assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "an id: {id}");
    ["white", "black"].map(|side| {
        query_text(
            db,
            &format!("SELECT {side}_salt FROM games WHERE id = '{id}'"),
        )
        .expect("the game's salt")
    })
}

/// A commitment's words: 64 lower-case hexadecimal digits.
fn digest(value: &Value) -> &str {
    let text = value.as_str().expect("a commitment is a string");
    assert_eq!(text.len(), 64, "{text}");
    assert!(
        text.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')),
        "{text}"
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_opens_what_its_start_committed() {
    let db = database("commitments");
    let server = start_on(db.clone(), 61, |_| {}).await;
    let game = random_game(61, 300);
    let first = game.first_mover().word();
    let mut table = Table::open(&server, json!({"first": first})).await;
    let starts = table.set_up(&game).await;
    let committed = starts[0]["commitments"].clone();
    assert_eq!(
        starts[1]["commitments"], committed,
        "both seats are told the same"
    );
    let (white, black) = (digest(&committed["white"]), digest(&committed["black"]));
    assert_ne!(white, black);
    let (_, summary) = server.summary(&table.id).await;
    assert_eq!(
        summary["commitments"], committed,
        "the summary carries them"
    );
    let mut spectator = server.seat(&table.id, None).await;
    assert_eq!(spectator.until("state").await["commitments"], committed);

    let plies = game.history().len();
    let mut over = table.replay(&game, 0, plies).await;
    if game.status().is_ongoing() {
        over = table
            .act(game.side_to_move(), json!({"t": "resign"}), 1)
            .await;
    }
    assert_eq!(over[0]["t"], "over");
    let record = over[0]["record"].as_str().expect("the record").to_owned();
    let (status, stored_record) = server
        .http("GET", &format!("/api/games/{}/record", table.id), "")
        .await;
    assert_eq!((status, stored_record.as_str()), (200, record.as_str()));

    let opened = Game::from_record(&record).expect("the record replays");
    assert_eq!(opened.verify_commitments(), Ok(()));
    assert_eq!(opened.tag("WhiteCommitment"), Some(white));
    assert_eq!(opened.tag("BlackCommitment"), Some(black));
    let salts = stored_salts(&db, &table.id);
    assert_eq!(opened.tag("WhiteSalt"), Some(salts[0].as_str()));
    assert_eq!(opened.tag("BlackSalt"), Some(salts[1].as_str()));

    // Another salt, or a formation the start did not commit, does not verify.
    let forged = record.replace(&salts[1], &"0".repeat(32));
    let forged = Game::from_record(&forged).expect("still a record");
    assert_eq!(
        forged.verify_commitments(),
        Err(CommitmentError::Mismatch { side: Side::Black })
    );
    let mut other = Game::from_record(&record).expect("the record replays");
    other.set_commitment(
        Side::White,
        &Commitment::of(
            game.setup(Side::Black).expect("dealt"),
            &salts[0].parse().expect("a salt"),
        ),
    );
    assert_eq!(
        other.verify_commitments(),
        Err(CommitmentError::Mismatch { side: Side::White })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_game_never_releases_its_salts() {
    let db = database("commitments-abort");
    let server = start_on(db.clone(), 62, |_| {}).await;
    let game = random_game(62, 0);
    let mut table = Table::open(&server, json!({})).await;
    let starts = table.set_up(&game).await;
    let mut spectator = server.seat(&table.id, None).await;
    let mut seen: Vec<String> = starts.iter().map(Value::to_string).collect();
    seen.push(spectator.until("state").await.to_string());
    let aborted = table.act(Side::Black, json!({"t": "abort"}), 1).await;
    assert_eq!(aborted[0]["t"], "aborted");
    seen.extend(aborted.iter().map(Value::to_string));
    seen.push(spectator.until("aborted").await.to_string());
    for side in Side::ALL {
        let mut again = server
            .seat(&table.id, Some(&table.tokens[side.index()]))
            .await;
        seen.push(again.until("state").await.to_string());
    }
    for route in ["", "/record", "/replay", "/chat"] {
        let (status, reply) = server
            .http("GET", &format!("/api/games/{}{route}", table.id), "")
            .await;
        seen.push(format!("{route} {status} {reply}"));
    }
    let (_, live) = server.http("GET", "/api/live", "").await;
    seen.push(live);

    let salts = stored_salts(&db, &table.id);
    for side in Side::ALL {
        // The stored salt is the one the start committed with ...
        let salt: Salt = salts[side.index()].parse().expect("a stored salt");
        let commitment = Commitment::of(game.setup(side).expect("dealt"), &salt);
        assert_eq!(
            starts[0]["commitments"][side.word()],
            commitment.to_string(),
            "{side}"
        );
        // ... and nothing anyone was sent holds it.
        for text in &seen {
            assert!(
                !text.contains(&salts[side.index()]),
                "{side}'s salt in {text}"
            );
            assert!(!text.contains("Salt"), "a salt tag in {text}");
        }
    }
    server.stop().await;
}

/// Entropy that gives a seeded stream and keeps every draw, so that a test sees where each
/// secret came from.
struct Observed {
    inner: SeededEntropy,
    draws: Mutex<Vec<Vec<u8>>>,
}

impl Entropy for Observed {
    fn fill(&self, out: &mut [u8]) {
        self.inner.fill(out);
        self.draws.lock().expect("unpoisoned").push(out.to_vec());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_salt_is_128_bits_drawn_from_the_servers_entropy() {
    let entropy = Arc::new(Observed {
        inner: SeededEntropy::new(63),
        draws: Mutex::new(Vec::new()),
    });
    let db = database("commitments-entropy");
    let server = start_with(db.clone(), entropy.clone(), |_| {}).await;
    let body = json!({"side": "white", "opponent": "random"});
    let (status, created) = server.json("POST", "/api/games", &body).await;
    assert_eq!(status, 201, "{created}");
    let salts = stored_salts(&db, created["game"].as_str().expect("an id"));
    let draws = entropy.draws.lock().expect("unpoisoned").clone();
    for salt in &salts {
        let bytes: Salt = salt.parse().expect("a stored salt");
        assert!(
            draws.iter().any(|d| d.as_slice() == bytes.as_bytes()),
            "the salt {salt} is a whole draw of 16 bytes from the entropy"
        );
    }
    assert_ne!(salts[0], salts[1]);
    server.stop().await;
}
