//! The cross-binding table (`tests/data/bindings.txt`) run on the crate itself: the crate's
//! vocabulary decides what every binding accepts and refuses, and with which error kind; the
//! C ABI, the Python and the npm packages run the same rows against these answers.

use salpakan::bindings::{EngineError, ErrorKind};
use salpakan::commitment::Salt;
use salpakan::{
    Agent, AgentKind, CellsError, DeclaredEnd, Game, Move, Position, Rank, Replay, Rules, Setup,
    Side, Square, challenge,
};

use serde_json::Value;

fn fixture(first: Side, rules: Rules) -> Game {
    Game::new(
        Setup::random(Side::White, Rules::default(), 1),
        Setup::random(Side::Black, Rules::default(), 2),
        first,
        rules,
    )
    .expect("the fixture's setups are valid under both zones")
}

type Outcome = Result<(), ErrorKind>;

fn refused(e: impl EngineError) -> ErrorKind {
    e.kind()
}

fn side(value: &Value) -> Result<Side, ErrorKind> {
    match value {
        Value::String(word) => word.parse().map_err(refused),
        value => Side::from_number(value.as_i64().expect("an integer")).map_err(refused),
    }
}

fn square(value: &Value) -> Result<Square, ErrorKind> {
    match value {
        Value::String(name) => name.parse().map_err(refused),
        value => Square::from_number(value.as_i64().expect("an integer")).map_err(refused),
    }
}

fn number(value: &Value) -> i64 {
    value.as_i64().expect("an integer")
}

fn text(value: &Value, fixture: &str) -> String {
    match value.as_str().expect("a string") {
        "@fixture" => fixture.to_owned(),
        other => other.to_owned(),
    }
}

/// The table's salts of White and Black for `@committed`.
const SALTS: [&str; 2] = [
    "000102030405060708090a0b0c0d0e0f",
    "101112131415161718191a1b1c1d1e1f",
];

/// The record a `verify` row names.
fn committed(value: &Value, mut game: Game) -> String {
    let fixture = game.record();
    for side in Side::ALL {
        let salt: Salt = SALTS[side.index()].parse().expect("a salt");
        game.commit(side, &salt)
            .expect("the fixture has formations");
        game.open_commitment(side, &salt);
    }
    match value.as_str().expect("a string") {
        "@committed" => game.record(),
        "@forged" => game.record().replace("[BlackSalt \"10", "[BlackSalt \"00"),
        _ => text(value, &fixture),
    }
}

fn run(row: &crate::table::Row) -> Outcome {
    let mut game = fixture(Side::White, Rules::default());
    match row.op.as_str() {
        "first" => fixture(side(&row.arg(0))?, Rules::default())
            .status()
            .is_ongoing()
            .then_some(())
            .ok_or(ErrorKind::Argument),
        "move" => {
            let mv = Move::new(square(&row.arg(0))?, square(&row.arg(1))?);
            game.play(mv).map(drop).map_err(refused)
        }
        "notation" => {
            let mv: Move = row
                .arg(0)
                .as_str()
                .expect("a string")
                .parse()
                .map_err(refused)?;
            game.play(mv).map(drop).map_err(refused)
        }
        "action" => {
            let mv = Move::from_action_number(number(&row.arg(0))).map_err(refused)?;
            game.play(mv).map(drop).map_err(refused)
        }
        "cells" | "typed-cells" => {
            let white = game.setup(Side::White).expect("setups").cell_values();
            let cells = crate::table::edited_cells(row, white);
            // What every binding does with a number that is not an integer.
            let mut values = Vec::new();
            for (i, cell) in cells.iter().enumerate() {
                match cell.as_i64() {
                    Some(v) => values.push(v),
                    None => {
                        return Err(CellsError::Cell {
                            square: Square::ALL[i],
                            value: cell.to_string(),
                        }
                        .kind());
                    }
                }
            }
            let white =
                Setup::from_cell_values(Side::White, Rules::default(), &values).map_err(refused)?;
            let black = game.setup(Side::Black).expect("setups").clone();
            Game::new(white, black, Side::White, Rules::default())
                .map(drop)
                .map_err(refused)
        }
        "rules" => {
            let rules =
                Rules::from_numbers(number(&row.arg(0)), number(&row.arg(1))).map_err(refused)?;
            fixture(Side::White, rules);
            Ok(())
        }
        "challenge" => {
            let attacker = Rank::from_number(number(&row.arg(0))).map_err(refused)?;
            let defender = Rank::from_number(number(&row.arg(1))).map_err(refused)?;
            let _ = challenge(attacker, defender);
            Ok(())
        }
        "agent" => {
            let kind: AgentKind = row
                .arg(0)
                .as_str()
                .expect("a kind")
                .parse()
                .map_err(refused)?;
            let mut agent: Box<dyn Agent + Send> = kind.build(1, 100);
            match row.arg(1).as_str().expect("a moment") {
                "turn" => agent.choose_in(&game, Side::White),
                "other" => agent.choose_in(&game, Side::Black),
                "over" => {
                    game.resign(Side::White).expect("resign");
                    agent.choose_in(&game, Side::Black)
                }
                "from-text" => agent.choose_in(&Game::from_position(*game.position()), Side::White),
                other => panic!("line {}: {other}", row.line),
            }
            .map(drop)
            .map_err(refused)
        }
        "after-end" => {
            game.resign(Side::White).expect("resign");
            match row.arg(0).as_str().expect("an operation") {
                "play" => game.play("e3-e4".parse().expect("a move")).map(drop),
                "resign" => game.resign(Side::Black).map(drop),
                "draw" => game.agree_draw().map(drop),
                "time" => game
                    .declare(DeclaredEnd::Time { loser: Side::Black })
                    .map(drop),
                "abandoned" => game
                    .declare(DeclaredEnd::Abandoned { loser: Side::Black })
                    .map(drop),
                "both-left" => game.declare(DeclaredEnd::AbandonedByBoth).map(drop),
                other => panic!("line {}: {other}", row.line),
            }
            .map_err(refused)
        }
        "end" => {
            let loser = side(&row.arg(1))?;
            let end = match row.arg(0).as_str().expect("an end") {
                "time" => DeclaredEnd::Time { loser },
                "abandoned" => DeclaredEnd::Abandoned { loser },
                other => panic!("line {}: {other}", row.line),
            };
            let status = game.declare(end).map_err(refused)?;
            assert_eq!(status.winner(), Some(loser.other()), "line {}", row.line);
            Ok(())
        }
        "both-left" => {
            let status = game
                .declare(DeclaredEnd::AbandonedByBoth)
                .map_err(refused)?;
            assert_eq!(
                (status.state_word(), status.reason_token()),
                ("drawn", Some("abandoned")),
                "line {}",
                row.line
            );
            Ok(())
        }
        "commit" => {
            let salt: Salt = row
                .arg(1)
                .as_str()
                .expect("a string")
                .parse()
                .map_err(refused)?;
            game.commit(side(&row.arg(0))?, &salt)
                .map(drop)
                .map_err(refused)
        }
        "verify" => Game::from_record(&committed(&row.arg(0), game))
            .map_err(refused)?
            .verify_commitments()
            .map_err(refused),
        "record" => Game::from_record(&text(&row.arg(0), &game.record()))
            .map(drop)
            .map_err(refused),
        "position" => text(&row.arg(0), &game.position().to_string())
            .parse::<Position>()
            .map(drop)
            .map_err(refused),
        "beliefs" => {
            let game = match row.arg(0) {
                Value::String(s) if s == "from-text" => Game::from_position(*game.position()),
                _ => game,
            };
            let side = match row.arg(0) {
                Value::String(_) => Side::White,
                value => side(&value)?,
            };
            game.tracker(side)
                .and_then(|tracker| tracker.beliefs_by_square())
                .map(drop)
                .map_err(refused)
        }
        "replay" => {
            let record = match row.arg(0).as_str().expect("a string") {
                "@position" => Game::from_position(*game.position()).record(),
                _ => text(&row.arg(0), &game.record()),
            };
            Replay::from_record(&record).map(drop).map_err(refused)
        }
        "replay-beliefs" | "replay-odds" => {
            game.play("e3-e4".parse().expect("a move")).expect("legal");
            let replay = Replay::new(&game).expect("a replay");
            // A ply is a count: a negative one is refused as any value out of range.
            let ply = usize::try_from(number(&row.arg(0))).map_err(|_| ErrorKind::Argument)?;
            if row.op == "replay-odds" {
                return replay.challenge(ply).map(drop).map_err(refused);
            }
            replay
                .beliefs_by_square(ply, side(&row.arg(1))?)
                .map(drop)
                .map_err(refused)
        }
        other => panic!("line {}: unknown operation {other}", row.line),
    }
}

#[test]
fn the_crate_decides_every_row_of_the_table_as_it_says() {
    let rows = crate::table::rows();
    assert!(rows.len() >= 80, "{} rows", rows.len());
    let mut wrong = Vec::new();
    for row in &rows {
        let got = match run(row) {
            Ok(()) => "ok".to_owned(),
            Err(kind) => kind.name().to_owned(),
        };
        if got != row.expect {
            wrong.push(format!(
                "line {}: {} {:?}: expected {}, got {got}",
                row.line, row.op, row.words, row.expect
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every kind the bindings can be given is in the table.
    for kind in ErrorKind::ALL {
        assert!(
            rows.iter().any(|r| r.expect == kind.name()),
            "no row of kind {kind}"
        );
    }
}
