//! The dataset export (`salpakan-server export --db PATH --out FILE`): every finished game
//! whose players agreed to share it, as JSON lines, each with its record and, at every ply,
//! each side's exact beliefs about the enemy's pieces and, for a challenge, the odds the
//! attacker saw. Never an aborted, unlisted or sealed game; a name only where its player
//! agreed (`PUT /api/sharing`). The data are dedicated to the public domain: `LICENCE`.

use std::io::{BufWriter, Write as _};
use std::path::Path;

use salpakan::{Replay, Side, Square, Tracker};
use serde_json::{Map, Value, json};

use crate::store::{Found, Shareable, shareable};
use crate::wire::{OutcomeWord, StatusWords};

/// The licence every exported game carries (`"licence"`): Creative Commons Zero 1.0, the
/// public-domain dedication (docs/SERVER.md, "The dataset export").
pub(crate) const LICENCE: &str = "CC0-1.0";

/// A probability as the export writes it: six decimals.
fn rounded(p: f64) -> Value {
    json!((p * 1e6).round() / 1e6)
}

/// `tracker`'s side's beliefs about each enemy piece, by the square it stands on: its 15
/// ranks' probabilities, Flag (0) to Spy (14). `null` where the tracker cannot say (a game
/// that ended in a way its side never saw).
fn beliefs(tracker: &Tracker) -> Value {
    let Ok(by_square) = tracker.beliefs_by_square() else {
        return Value::Null;
    };
    let enemy = tracker.occupied(tracker.side().other());
    let mut out = Map::new();
    for (square, probabilities) in Square::ALL.into_iter().zip(by_square) {
        if enemy.has(square) {
            let ranks: Vec<Value> = probabilities.iter().map(|&p| rounded(p)).collect();
            out.insert(square.to_string(), Value::Array(ranks));
        }
    }
    Value::Object(out)
}

/// One game's line.
///
/// # Errors
/// A record the engine does not replay.
pub fn line(game: &Shareable) -> Result<String, String> {
    let replay = Replay::from_record(&game.record).map_err(|e| format!("{}: {e}", game.game))?;
    // Each side's beliefs from the start, then after each ply.
    let mut by_side: [Vec<Value>; 2] = [Vec::new(), Vec::new()];
    for side in Side::ALL {
        let mut walk = replay
            .walk(side)
            .map_err(|e| format!("{}: {e}", game.game))?;
        by_side[side.index()].push(beliefs(walk.tracker()));
        while walk.advance().map_err(|e| format!("{}: {e}", game.game))? {
            by_side[side.index()].push(beliefs(walk.tracker()));
        }
    }
    let history = replay.game().history();
    let plies: Vec<Value> = history
        .iter()
        .enumerate()
        .map(|(i, report)| {
            let ply = i + 1;
            let odds = replay.odds(ply).map(|o| {
                json!({"attacker": o.attacker.word(), "rank": o.rank.index(),
                    "win": rounded(o.win), "tie": rounded(o.tie), "lose": rounded(o.lose)})
            });
            json!({
                "ply": ply,
                "move": report.mv.to_string(),
                "outcome": report.outcome.map(OutcomeWord),
                "odds": odds,
                "beliefs": {"white": by_side[0][ply], "black": by_side[1][ply]},
            })
        })
        .collect();
    let [white, black] = &game.names;
    let line = json!({
        "licence": LICENCE,
        "game": game.game,
        "ended_ms": game.ended_ms,
        "rated": game.rated,
        "names": {"white": white, "black": black},
        "bots": {"white": game.bots[0], "black": game.bots[1]},
        "status": StatusWords(replay.game().status()),
        "record": game.record,
        "start": {"white": by_side[0][0], "black": by_side[1][0]},
        "plies": plies,
    });
    Ok(line.to_string())
}

/// Writes every shareable game of the database at `db` to a new file `out`, one JSON line
/// each; returns how many games it holds and how many were left out.
///
/// # Errors
/// `out` exists or cannot be written, the database's error, or a record that does not
/// replay (the file is then removed).
pub fn export(db: &Path, out: &Path) -> Result<Found, String> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let mut writer = BufWriter::new(file);
    let found = shareable(db, |game| {
        let text = line(&game)?;
        writeln!(writer, "{text}").map_err(|e| e.to_string())
    })
    .map_err(|e| e.to_string())
    .and_then(|found| writer.flush().map(|()| found).map_err(|e| e.to_string()));
    if found.is_err() {
        let _ = std::fs::remove_file(out);
    }
    found
}
