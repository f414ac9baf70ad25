//! Text formats: position text, view text and game records round-trip exactly; parsers name
//! the line and column of any fault and never panic; a position text no game can reach is
//! refused; serde forms round-trip through JSON.

use crate::common::{dealt, game, mv, play_all, rules4, sq, with_fields};
use salpakan::text::{PositionText, TEXT_FORMAT, TextCell};
use salpakan::{
    Game, Move, Outcome, PieceId, Position, Rank, RankSet, Report, Rules, Side, SplitMix64, Square,
    Status,
};

use proptest::prelude::*;

fn random_game(seed: u64, rules: Rules) -> Game {
    dealt(
        rules,
        seed,
        seed.wrapping_add(99),
        Side::ALL[(seed % 2) as usize],
    )
}

/// Random games at several stages, some finished, with every kind of ending.
fn games() -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..24u64 {
        let rules = Rules::new(3 + (seed % 2) as u8, if seed % 3 == 0 { 30 } else { 0 }).unwrap();
        let mut g = random_game(seed, rules);
        let mut rng = SplitMix64::new(seed);
        let stop = [0, 5, 40, 400][(seed % 4) as usize];
        while g.history().len() < stop {
            let Some(m) = g.position().random_move(&mut rng) else {
                break;
            };
            g.play(m).unwrap();
        }
        match seed % 6 {
            4 if g.status().is_ongoing() => {
                g.resign(Side::Black).unwrap();
            }
            5 if g.status().is_ongoing() => {
                g.agree_draw().unwrap();
            }
            _ => {}
        }
        g.set_tag("Event", &format!("test \"{seed}\" \\ done"));
        out.push(g);
    }
    out
}

#[test]
fn position_texts_round_trip_and_play_continues_the_same() {
    for g in games() {
        let pos = *g.position();
        let text = pos.to_string();
        let back: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, pos, "{text}");
        assert_eq!(back.to_string(), text);
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(back.perft(2), pos.perft(2));
        let (mut a, mut b) = (SplitMix64::new(1), SplitMix64::new(1));
        assert_eq!(back.playout(&mut a, 500), pos.playout(&mut b, 500));
        let parsed: PositionText = text.parse().unwrap();
        assert_eq!(parsed.to_string(), text);
    }
}

#[test]
fn a_waiting_flag_is_in_the_full_text_and_hidden_from_the_enemys_view() {
    let mut g = game(("FL:a4", ""), ("", "a5 a6 a7 a8"), Side::White, rules4());
    play_all(&mut g, "a4-a5 f6-f5 a5-a6 f5-f6 a6-a7 f6-f5 a7-a8");
    assert_eq!(g.position().waiting_flag(), Some(sq("a8")));
    let text = g.position().to_string();
    assert!(text.contains(" b a8 "), "{text}");
    let back: Position = text.parse().unwrap();
    let mut a = Game::from_position(back);
    let mut b = g.clone();
    assert_eq!(
        a.play(mv("f5-f6")).unwrap().status,
        b.play(mv("f5-f6")).unwrap().status
    );
    let black_view = g.view(Side::Black).to_text().to_string();
    assert!(black_view.contains(" b - "), "{black_view}");
    assert!(!black_view.contains("FL"), "{black_view}");
    let white_view = g.view(Side::White).to_text().to_string();
    assert!(
        white_view.contains(" b a8 "),
        "White sees its own Flag waiting: {white_view}"
    );
}

#[test]
fn view_texts_hide_every_enemy_rank() {
    for g in games() {
        for side in Side::ALL {
            let text = g.view(side).to_text().to_string();
            let parsed: PositionText = text.parse().unwrap();
            assert_eq!(parsed.to_string(), text);
            for square in Square::ALL {
                match (g.position().piece_at(square), parsed.cells[square.index()]) {
                    (None, TextCell::Empty) => {}
                    (
                        Some((owner, rank)),
                        TextCell::Piece {
                            side: s,
                            rank: shown,
                        },
                    ) => {
                        assert_eq!((owner, rank), (s, shown));
                        assert_eq!(owner, side, "only own ranks are shown");
                    }
                    (Some((owner, _)), TextCell::Hidden { side: s }) => {
                        assert_eq!(owner, s);
                        assert_ne!(owner, side, "enemy ranks are hidden");
                    }
                    other => panic!("{square}: {other:?}"),
                }
            }
            if parsed
                .cells
                .iter()
                .any(|c| matches!(c, TextCell::Hidden { .. }))
            {
                assert!(
                    text.parse::<Position>().is_err(),
                    "a view is not a full position"
                );
            }
        }
    }
}

#[test]
fn records_round_trip_with_history_tags_and_result() {
    for g in games() {
        let record = g.record();
        let back = Game::from_record(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
        assert_eq!(back, g);
        assert_eq!(back.record(), record);
        assert_eq!(back.history(), g.history());
        if g.history().len() > 10 {
            for side in Side::ALL {
                assert_eq!(back.beliefs(side).unwrap(), g.beliefs(side).unwrap());
            }
        }
    }
}

#[test]
fn a_record_shows_challenges_with_x_and_the_outcome() {
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules4());
    play_all(&mut g, "e4xe5 a6-a5 e5-e4");
    let record = g.record();
    assert!(
        record.contains("\n1. e4xe5 win\n2. a6-a5\n3. e5-e4\n"),
        "{record}"
    );
    assert!(record.contains("[Result \"-\"]"));
    assert!(record.contains("[WhiteSetup \"") && record.contains("5G:e4"));
}

#[test]
fn a_record_that_contradicts_its_replay_names_the_first_disagreeing_move() {
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules4());
    play_all(&mut g, "e4xe5 a6-a5 e5-e4");
    let record = g.record();
    let lines: Vec<&str> = record.lines().collect();
    let line_of = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap() + 1;
    // The record with `from` replaced by `to`, read: its error.
    let refused = |from: &str, to: &str| Game::from_record(&record.replace(from, to)).unwrap_err();

    let err = refused("1. e4xe5 win", "1. e4xe5 lose");
    assert_eq!(err.line, line_of("1. e4xe5"));
    assert_eq!(err.column, 10);
    assert!(err.expected.contains("move 1 (e4xe5): win"), "{err}");

    let err = refused("1. e4xe5 win", "1. e4-e5");
    assert!(err.expected.contains("move 1"), "{err}");

    let err = refused("2. a6-a5", "2. a6xa5 win");
    assert_eq!(err.line, line_of("2. a6-a5"));
    assert!(
        err.expected.contains("move 2 (a6-a5): a plain move"),
        "{err}"
    );

    let err = refused("[Result \"-\"]", "[Result \"white:flag-captured\"]");
    assert_eq!(err.line, line_of("[Result"));
    assert!(err.expected.contains("the replay's result \"-\""), "{err}");

    let err = refused("3. e5-e4", "3. e5-e3");
    assert!(err.expected.starts_with("a legal move"), "{err}");

    let err = refused("3. e5-e4", "4. e5-e4");
    assert_eq!(err.expected, "the ply number \"3.\"");
}

#[test]
fn bad_setups_and_tags_in_a_record_are_named() {
    let g = random_game(3, Rules::default());
    let record = g.record();
    let wrong = record.replacen("FL:", "PV:", 1);
    let err = Game::from_record(&wrong).unwrap_err();
    assert!(
        err.found.contains("of rank FL") || err.found.contains("of rank PV"),
        "{err}"
    );
    assert_eq!(err.expected, "a valid White setup");
    let wrong = record.replacen("[First \"white\"]", "[First \"red\"]", 1);
    let wrong = wrong.replacen("[First \"black\"]", "[First \"red\"]", 1);
    let err = Game::from_record(&wrong).unwrap_err();
    assert_eq!(err.expected, "\"white\" or \"black\"");
    let wrong = record.replacen("[SetupRows \"3\"]", "[SetupRows 3]", 1);
    let err = Game::from_record(&wrong).unwrap_err();
    assert_eq!((err.line, err.column), (2, 12));
    let err = Game::from_record("").unwrap_err();
    assert!(err.expected.contains("Result"), "{err}");
}

#[test]
fn a_record_says_its_format_and_a_newer_one_is_refused_as_newer() {
    let mut g = random_game(5, Rules::default());
    g.set_tag("Event", "club night");
    let record = g.record();
    let format_line = format!("[Format \"{TEXT_FORMAT}\"]\n");
    assert_eq!(TEXT_FORMAT, 1);
    assert!(record.starts_with(&format_line), "{record}");
    // A record written before the tag existed is of format 1: the same game.
    let older = record.replacen(&format_line, "", 1);
    assert_eq!(Game::from_record(&older).unwrap(), g);
    // The tag is the record's own, never an extra tag.
    assert!(!g.clone().set_tag("Format", "2"));
    assert_eq!(Game::from_record(&record).unwrap().tag("Format"), None);
    // Anywhere among the tags, format 1 reads.
    let moved = older.replacen("[Result", &format!("{}[Result", format_line), 1);
    assert_eq!(Game::from_record(&moved).unwrap(), g);
    // A later format is refused as such, at its tag, before anything it may have changed.
    for (format, newer) in [
        ("2", true),
        ("17", true),
        ("99999999999999999999", true),
        ("0", false),
        ("01", false),
        ("one", false),
        ("", false),
    ] {
        let text = record
            .replacen("[Format \"1\"]", &format!("[Format \"{format}\"]"), 1)
            .replacen("[SetupRows \"3\"]", "[SetupRows \"three\"]", 1);
        let err = Game::from_record(&text).unwrap_err();
        assert_eq!((err.line, err.column), (1, 10), "{err}");
        assert_eq!(
            err.found.contains("from a later release"),
            newer,
            "{format}: {err}"
        );
        assert!(err.expected.contains("text format 1"), "{err}");
    }
    let twice = format!("{format_line}{record}");
    let err = Game::from_record(&twice).unwrap_err();
    assert_eq!(err.line, 2, "{err}");
}

#[test]
fn a_position_text_of_a_later_format_is_refused_as_newer() {
    let g = random_game(6, Rules::default());
    let text = g.position().to_string();
    assert!(!text.starts_with('v'));
    // Format 1 texts have no mark: a `v1` is not a board.
    let err = format!("v1 {text}").parse::<Position>().unwrap_err();
    assert_eq!((err.line, err.column), (1, 1));
    assert!(err.expected.contains("no format mark"), "{err}");
    for number in ["2", "10"] {
        let err = format!("v{number} {text}").parse::<Position>().unwrap_err();
        assert_eq!((err.line, err.column), (1, 2), "{err}");
        assert_eq!(
            err.found,
            format!("format {number}, from a later release of salpakan")
        );
        let view = format!("v{number} {}", g.view(Side::White).to_text());
        assert_eq!(view.parse::<PositionText>().unwrap_err(), err);
    }
    // Inside a record, a later position text is refused the same way, at its column.
    let start = g.start().to_string();
    let record = Game::from_position(*g.start()).record();
    let newer = record.replacen(&start, &format!("v2 {start}"), 1);
    let err = Game::from_record(&newer).unwrap_err();
    assert!(err.found.contains("format 2"), "{err}");
}

#[test]
fn position_text_errors_name_the_column_and_what_was_expected() {
    let g = random_game(2, Rules::default());
    assert_eq!(g.side_to_move(), Side::White);
    let text = g.position().to_string();
    let err = text.replacen('.', "?", 1).parse::<Position>().unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.expected.starts_with("a cell"), "{err}");
    let at = text
        .find('?')
        .unwrap_or(text.replacen('.', "?", 1).find('?').unwrap());
    assert_eq!(err.column, at + 1);
    let err = text.replace(" w ", " x ").parse::<Position>().unwrap_err();
    assert_eq!(err.expected, "the side to move, 'w' or 'b'");
    assert_eq!(err.found, "\"x\"");
    let err = format!("{text} extra").parse::<Position>().unwrap_err();
    assert_eq!(err.expected, "the end of the line");
    let err = text
        .replace(" 3 0 -", " 5 0 -")
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(err.expected, "the setup rows, 3 or 4");
    let hidden = g.view(Side::White).to_text().to_string();
    let err = hidden.parse::<Position>().unwrap_err();
    assert!(err.found.starts_with("a hidden piece"), "{err}");
    let err = text
        .replacen("fl", "pv", 1)
        .replacen("FL", "PV", 1)
        .parse::<Position>();
    assert!(err.is_err());
    let err = text
        .replace(" - 0 0 3", " e5 0 0 3")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.found.contains("e5"), "{err}");
}

#[cfg(feature = "serde")]
fn json_round_trip<T>(value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug,
{
    let json = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(&back, value, "{json}");
}

#[cfg(feature = "serde")]
#[test]
fn value_types_round_trip_through_json() {
    let g = games()
        .into_iter()
        .find(|g| g.history().len() > 30)
        .unwrap();
    json_round_trip(&Side::Black);
    json_round_trip(&sq("e4"));
    json_round_trip(&Rank::Spy);
    json_round_trip(&mv("e3-e4"));
    json_round_trip(&Outcome::Tie);
    json_round_trip(&g.status());
    json_round_trip(&Status::Won {
        winner: Side::White,
        reason: salpakan::WinReason::Resignation,
    });
    json_round_trip(&Rules::new(4, 200).unwrap());
    json_round_trip(&g.history()[3]);
    json_round_trip::<Vec<Report>>(&g.history().to_vec());
    json_round_trip(g.position());
    json_round_trip(g.setup(Side::Black).unwrap());
    json_round_trip(&g);
    json_round_trip(&g.view(Side::White));
    json_round_trip(&PieceId::new(Side::Black, 4).unwrap());
    json_round_trip(&(RankSet::FLAG | RankSet::SPY));
    assert_eq!(serde_json::to_string(&sq("e4")).unwrap(), "31");
    assert!(serde_json::from_str::<Square>("72").is_err());
    assert!(serde_json::from_str::<Rules>("{\"setup_rows\":5,\"move_limit\":0}").is_err());
    let game_json = serde_json::to_string(&g).unwrap();
    assert!(
        game_json.starts_with("\"[Format \\\"1\\\"]\\n[SetupRows"),
        "a game serializes as its record"
    );
}

fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, kind, byte) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = at % bytes.len();
        match kind % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_arbitrary_text(text in ".{0,300}") {
        let _ = text.parse::<Position>();
        let _ = text.parse::<PositionText>();
        let _ = Game::from_record(&text);
        let _ = text.parse::<Move>();
        let _ = text.parse::<Square>();
        let _ = text.parse::<Rank>();
    }

    #[test]
    fn parsers_never_panic_on_mutated_texts(
        seed in 0u64..24,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 32u8..127), 1..6),
    ) {
        let games = games();
        let g = &games[seed as usize];
        let position = mutate(&g.position().to_string(), &edits);
        if let Ok(p) = position.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        }
        let view = mutate(&g.view(Side::White).to_text().to_string(), &edits);
        if let Ok(v) = view.parse::<PositionText>() {
            prop_assert_eq!(v.to_string().parse::<PositionText>().unwrap(), v);
        }
        let record = mutate(&g.record(), &edits);
        if let Ok(back) = Game::from_record(&record) {
            prop_assert_eq!(Game::from_record(&back.record()).unwrap(), back);
        }
    }
}

#[test]
fn a_text_whose_counters_no_game_reaches_is_refused() {
    // Ongoing, with the plies since the last challenge at the move limit: the last move would
    // have drawn the game.
    let err = with_fields("w - 5 5 3 5 -")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("draw:move-limit"), "{err}");
    // One below the limit goes on.
    assert!(with_fields("w - 4 5 3 5 -").parse::<Position>().is_ok());
    // Over the limit, or more quiet plies than plies: never.
    let err = with_fields("w - 6 9 3 5 -")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("move limit"), "{err}");
    let err = with_fields("w - 5 0 3 0 -")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("plies played"), "{err}");
    // A draw by the limit needs the limit reached.
    let err = with_fields("w - 3 5 3 5 draw:move-limit")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("draw:move-limit"), "{err}");
    assert!(
        with_fields("w - 5 5 3 5 draw:move-limit")
            .parse::<Position>()
            .is_ok()
    );
}

#[test]
fn a_text_whose_status_does_not_fit_the_flags_is_refused() {
    // The start position has both Flags on their home sides.
    for status in ["white:flag-reached-end", "black:flag-reached-end"] {
        let err = with_fields(&format!("w - 0 9 3 0 {status}"))
            .parse::<Position>()
            .unwrap_err();
        assert!(err.expected.contains("far row"), "{status}: {err}");
    }
    for status in ["white:flag-captured", "black:flag-captured"] {
        let err = with_fields(&format!("w - 0 9 3 0 {status}"))
            .parse::<Position>()
            .unwrap_err();
        assert!(err.expected.contains("Flag gone"), "{status}: {err}");
    }
    for status in ["white:resignation", "draw:agreement", "-"] {
        assert!(
            with_fields(&format!("w - 0 9 3 0 {status}"))
                .parse::<Position>()
                .is_ok(),
            "{status}"
        );
    }
}

#[test]
fn every_reachable_end_still_parses() {
    // Random games to their end, with and without a move limit: the end position's text (and
    // every text before it) reads back, so the new checks refuse nothing a game reaches.
    let mut ends = std::collections::BTreeSet::new();
    for seed in 0..200u64 {
        let rules = Rules::new(3 + (seed % 2) as u8, if seed % 3 == 0 { 30 } else { 0 }).unwrap();
        let mut g = dealt(rules, seed, seed + 500, Side::ALL[(seed % 2) as usize]);
        let mut rng = SplitMix64::new(seed);
        while g.status().is_ongoing() {
            let mv = g.position().random_move(&mut rng).unwrap();
            g.play(mv).unwrap();
            let text = g.position().to_string();
            assert_eq!(text.parse::<Position>().unwrap(), *g.position(), "{text}");
        }
        ends.insert(g.status().token());
    }
    assert!(ends.len() >= 4, "several kinds of end: {ends:?}");
}

/// A waiting Flag is only the side not to move's own Flag on its far row, while the game goes
/// on: each of those conditions is checked on its own.
#[test]
fn a_waiting_flag_is_checked_condition_by_condition() {
    // White's Flag waits on c8, Black to move (one of the fuzz seeds).
    let board = "2l.FL3g4glcpv.sp/.sp...sg5g1gpv/2g...cppvpvmj./..copvpv1l.fl./.SP.2GCOSP..PV/.1G3G.PV.LC.PV/..1LPVCPPVSG../5G4G..2L.PV.MJ";
    let good = format!("{board} b c8 7 7 4 0 -");
    assert!(good.parse::<Position>().is_ok(), "{good}");
    let refused = |text: String, why: &str| {
        let err = text.parse::<Position>().unwrap_err();
        assert!(err.expected.contains("a waiting Flag only"), "{why}: {err}");
    };
    // Black's Flag on White's far row is not White's waiting Flag.
    let black_flag = board
        .replacen("2l.FL", "fl.FL", 1)
        .replacen("1l.fl.", "1l.2l.", 1);
    refused(
        format!("{black_flag} b a8 7 7 4 0 -"),
        "the other side's Flag",
    );
    // A White piece on the far row that is not its Flag waits for nothing.
    let white_private = board
        .replacen("2l.FL", "2lPVFL", 1)
        .replacen("2L.PV.MJ", "2L...MJ", 1);
    refused(format!("{white_private} b b8 7 7 4 0 -"), "not a Flag");
    // A game that has ended has no waiting Flag.
    refused(
        format!("{board} b c8 7 7 4 0 white:flag-reached-end"),
        "an ended game",
    );
}

/// A position text may end by a loss on time, an abandonment or both sides leaving, with both
/// Flags on the board, as after a resignation.
#[test]
fn a_text_may_end_on_time_or_by_abandonment() {
    for status in ["white:time", "black:abandoned", "draw:abandoned"] {
        let text = with_fields(&format!("w - 0 0 3 0 {status}"));
        let position: Position = text.parse().unwrap();
        assert_eq!(position.status().token(), status);
        assert_eq!(position.to_string(), text);
    }
}
