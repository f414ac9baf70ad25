//! What one side may know: views and beliefs never depend on hidden enemy ranks, every public
//! fact is used, beliefs are exact, and samples are drawn from them.

use crate::common::{
    dealt, flag_forward_or_random, flag_race, game, mv, play_all, rules4, sq, start,
};
use salpakan::bindings::ErrorKind;
use salpakan::{
    Game, ObserveError, Outcome, PieceId, Rank, RankSet, Report, Rules, Setup, Side, SplitMix64,
    Square, Status, Tracker, WinReason,
};

use std::collections::HashSet;

fn random_game(seed: u64, rules: Rules) -> Game {
    dealt(rules, seed, seed ^ 0xabcdef, Side::White)
}

/// The report of `mv` with `outcome`, the game going on.
fn in_play(mv_text: &str, outcome: Option<Outcome>) -> Report {
    Report {
        mv: mv(mv_text),
        outcome,
        status: Status::Ongoing,
    }
}

/// Plays `plies` random moves, stopping before any move that would end the game.
fn advance(game: &mut Game, seed: u64, plies: usize) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..plies {
        let Some(m) = game.position().random_move(&mut rng) else {
            return;
        };
        let mut trial = game.clone();
        if trial.play(m).unwrap().status.is_ongoing() {
            *game = trial;
        }
    }
}

/// The same game with `side`'s ranks replaced by `ranks` (by piece number), replayed move by
/// move; `None` if the replay's public log differs.
fn with_ranks(game: &Game, side: Side, ranks: &[Rank]) -> Option<Game> {
    let squares = game.setup(side).unwrap().occupied();
    let setup = Setup::new(side, game.rules(), squares.zip(ranks.iter().copied())).ok()?;
    let (white, black) = match side {
        Side::White => (setup, game.setup(Side::Black).unwrap().clone()),
        Side::Black => (game.setup(Side::White).unwrap().clone(), setup),
    };
    let mut other = Game::new(white, black, game.first_mover(), game.rules()).ok()?;
    for report in game.history() {
        if other.play(report.mv).ok()? != *report {
            return None;
        }
    }
    Some(other)
}

fn ranks_of(game: &Game, side: Side) -> Vec<Rank> {
    game.setup(side).unwrap().pieces().map(|(_, r)| r).collect()
}

/// Enemy piece numbers (of `side`) never in a challenge and never on their far row.
fn untouched(game: &Game, side: Side) -> Vec<usize> {
    let mut ids = salpakan::Game::new(
        game.setup(Side::White).unwrap().clone(),
        game.setup(Side::Black).unwrap().clone(),
        game.first_mover(),
        game.rules(),
    )
    .unwrap();
    let mut touched = HashSet::new();
    for report in game.history() {
        let attacker = ids.piece_id_at(report.mv.from).unwrap();
        if let Some(defender) = ids.piece_id_at(report.mv.to) {
            touched.insert(attacker);
            touched.insert(defender);
        }
        if report.mv.to.row() == attacker.side().far_row() {
            touched.insert(attacker);
        }
        ids.play(report.mv).unwrap();
    }
    (0..21)
        .filter(|&n| !touched.contains(&PieceId::new(side, n).unwrap()))
        .collect()
}

#[test]
fn views_and_beliefs_do_not_change_when_unobserved_enemy_ranks_are_swapped() {
    let mut checked = 0;
    for seed in 0..30 {
        let mut g = random_game(seed, Rules::default());
        advance(&mut g, seed, 20 + (seed as usize % 5) * 20);
        for viewer in Side::ALL {
            let enemy = viewer.other();
            let free = untouched(&g, enemy);
            let ranks = ranks_of(&g, enemy);
            // Swap the first two untouched pieces of different ranks.
            let Some((a, b)) = free
                .iter()
                .flat_map(|&a| free.iter().map(move |&b| (a, b)))
                .find(|&(a, b)| ranks[a] != ranks[b])
            else {
                continue;
            };
            let mut swapped = ranks.clone();
            swapped.swap(a, b);
            let other = with_ranks(&g, enemy, &swapped).expect("an unobserved swap replays alike");
            assert_ne!(other.setup(enemy), g.setup(enemy));
            let (v1, v2) = (g.view(viewer), other.view(viewer));
            assert_eq!(v1, v2, "seed {seed}");
            assert_eq!(v1.to_string(), v2.to_string());
            assert_eq!(format!("{v1:?}"), format!("{v2:?}"));
            #[cfg(feature = "serde")]
            {
                let (j1, j2) = (
                    serde_json::to_string(&v1).unwrap(),
                    serde_json::to_string(&v2).unwrap(),
                );
                assert_eq!(j1, j2, "the serialized view");
            }
            assert_eq!(g.beliefs(viewer).unwrap(), other.beliefs(viewer).unwrap());
            assert_eq!(g.tracker(viewer).unwrap(), other.tracker(viewer).unwrap());
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} cases checked");
}

#[test]
fn a_permuted_enemy_setup_before_any_challenge_changes_nothing_the_side_sees() {
    let rules = Rules::default();
    let g = random_game(7, rules);
    let mut ranks = ranks_of(&g, Side::Black);
    ranks.rotate_left(5);
    let mut a = g.clone();
    let mut b = with_ranks(&g, Side::Black, &ranks).unwrap();
    play_all(&mut a, "a3-a4 a6-a5");
    play_all(&mut b, "a3-a4 a6-a5");
    assert_eq!(a.view(Side::White), b.view(Side::White));
    assert_eq!(
        a.beliefs(Side::White).unwrap(),
        b.beliefs(Side::White).unwrap()
    );
    assert_ne!(
        a.view(Side::Black),
        b.view(Side::Black),
        "Black sees its own ranks"
    );
}

#[test]
fn a_client_tracker_gets_the_servers_beliefs() {
    for seed in 0..10 {
        let mut g = random_game(seed, rules4());
        let mut clients = Side::ALL.map(|side| {
            Tracker::new(
                g.setup(side).unwrap(),
                g.setup(side.other()).unwrap().occupied(),
                Side::White,
                rules4(),
            )
            .unwrap()
        });
        let mut rng = SplitMix64::new(seed);
        while let Some(m) = g.position().random_move(&mut rng) {
            let report = g.play(m).unwrap();
            for client in &mut clients {
                client.observe(&report).unwrap();
            }
        }
        for (side, client) in Side::ALL.into_iter().zip(&clients) {
            assert_eq!(
                client.beliefs().unwrap(),
                g.beliefs(side).unwrap(),
                "seed {seed}"
            );
            assert_eq!(client.history(), g.history());
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Arbitrary event streams: a tracker refuses what cannot be and never panics, and its
    /// beliefs (when it has any) are probabilities.
    #[test]
    fn a_tracker_never_panics_on_arbitrary_events(
        seed in 0u64..1000,
        events in proptest::collection::vec((0usize..72, 0usize..4, 0u8..4, 0u8..9), 0..80),
    ) {
        let g = random_game(seed, Rules::new(3 + (seed % 2) as u8, (seed % 5) as u16 * 3).unwrap());
        let mut t = g.tracker(Side::ALL[(seed % 2) as usize]).unwrap();
        let statuses = [
            Status::Ongoing,
            Status::Won { winner: Side::White, reason: salpakan::WinReason::FlagCaptured },
            Status::Won { winner: Side::Black, reason: salpakan::WinReason::FlagCaptured },
            Status::Won { winner: Side::White, reason: salpakan::WinReason::FlagReachedEnd },
            Status::Won { winner: Side::Black, reason: salpakan::WinReason::FlagReachedEnd },
            Status::Won { winner: Side::Black, reason: salpakan::WinReason::Resignation },
            Status::Drawn { reason: salpakan::DrawReason::MoveLimit },
            Status::Drawn { reason: salpakan::DrawReason::Agreement },
            Status::Ongoing,
        ];
        for (from, dir, outcome, status) in events {
            let from = salpakan::Square::try_index(from).unwrap();
            let Some(m) = salpakan::Move::step(from, salpakan::Direction::ALL[dir]) else { continue };
            let report = salpakan::Report {
                mv: m,
                outcome: [None, Some(Outcome::Win), Some(Outcome::Lose), Some(Outcome::Tie)][outcome as usize],
                status: statuses[status as usize],
            };
            let before = t.clone();
            if t.observe(&report).is_err() {
                proptest::prop_assert_eq!(&t, &before);
            }
        }
        if let Ok(beliefs) = t.beliefs() {
            for piece in beliefs.pieces() {
                let sum: f64 = piece.probabilities.iter().sum();
                proptest::prop_assert!((sum - 1.0).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn a_tracker_refuses_events_that_cannot_have_happened() {
    let g = random_game(1, Rules::default());
    let mut t = g.tracker(Side::White).unwrap();
    let before = t.clone();
    let fake = in_play("a3-a5", None);
    assert!(t.observe(&fake).is_err());
    let fake = in_play("a3-a4", Some(Outcome::Win));
    assert!(t.observe(&fake).is_err());
    assert_eq!(t, before);
}

/// White's 5G on e4 takes Black's piece on e5: a win for the attacker, and the game goes on.
#[test]
fn a_won_challenge_bounds_the_defenders_rank_and_rules_out_the_flag() {
    let mut g = game(("5G:e4", ""), ("CO:e5", ""), Side::White, rules4());
    let id = g.piece_id_at(sq("e5")).unwrap();
    play_all(&mut g, "e4xe5");
    let beliefs = g.beliefs(Side::White).unwrap();
    let piece = beliefs.pieces()[id.number()];
    assert_eq!(piece.square, None, "removed");
    // Beaten by a 5-Star General: Private to 4-Star General; not the Flag, since the game went on.
    let expected =
        RankSet::filter(|r| r != Rank::Flag && r != Rank::Spy && r != Rank::FiveStarGeneral);
    assert_eq!(piece.possible, expected);
    // Each rank in proportion to its count: 17 pieces of the army are Private to 4-Star.
    let total: f64 = piece.probabilities.iter().sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!((piece.probability(Rank::Private) - 6.0 / 17.0).abs() < 1e-12);
    assert!((piece.probability(Rank::Colonel) - 1.0 / 17.0).abs() < 1e-12);
    // The 5-Star General's side learns nothing new about the others but the counts.
    let other = beliefs.at(sq("a8")).unwrap();
    assert!(other.probability(Rank::FiveStarGeneral) > 0.0);
}

#[test]
fn a_lost_challenge_says_the_defender_beats_the_attacker() {
    let mut g = game(("SG:e4", ""), ("CO:e5", ""), Side::White, rules4());
    play_all(&mut g, "e4xe5");
    let b = g.beliefs(Side::White).unwrap();
    let piece = b.at(sq("e5")).unwrap();
    // Beats a Sergeant as defender: 2L and up, or the Spy.
    let expected = RankSet::filter(|r| r as u8 >= Rank::SecondLieutenant as u8);
    assert_eq!(piece.possible, expected);
    assert_eq!(g.history()[0].outcome, Some(Outcome::Lose));
}

#[test]
fn a_tie_names_the_rank_and_the_counts_include_removed_pieces() {
    let mut g = game(("PV:e4", ""), ("PV:e5", ""), Side::White, rules4());
    let id = g.piece_id_at(sq("e5")).unwrap();
    play_all(&mut g, "e4xe5");
    let b = g.beliefs(Side::White).unwrap();
    assert_eq!(b.pieces()[id.number()].possible, RankSet::PRIVATE);
    // Five Privates left among the other 20 pieces.
    let other = b.at(sq("a8")).unwrap();
    assert!((other.probability(Rank::Private) - 5.0 / 20.0).abs() < 1e-12);
    assert!((other.probability(Rank::Flag) - 1.0 / 20.0).abs() < 1e-12);
}

#[test]
fn capturing_the_flag_reveals_it() {
    let mut g = game(("PV:e4", ""), ("FL:e5", ""), Side::White, rules4());
    let id = g.piece_id_at(sq("e5")).unwrap();
    play_all(&mut g, "e4xe5");
    let b = g.beliefs(Side::White).unwrap();
    assert_eq!(b.pieces()[id.number()].possible, RankSet::FLAG);
    assert!(b.at(sq("a8")).unwrap().probability(Rank::Flag) == 0.0);
}

#[test]
fn an_enemy_piece_reaching_the_far_row_unguarded_is_not_the_flag_if_the_game_goes_on() {
    // Black's Major walks to row 1 through an empty i-file; no White piece beside i1.
    let mut g = game(("", "i1 i2 i3 i4 h1"), ("MJ:i5", ""), Side::Black, rules4());
    play_all(&mut g, "i5-i4 a3-a4 i4-i3 a4-a3 i3-i2 a3-a4 i2-i1");
    assert_eq!(g.status(), Status::Ongoing);
    let b = g.beliefs(Side::White).unwrap();
    let piece = b.at(sq("i1")).unwrap();
    assert!(!piece.possible.has(Rank::Flag));
    assert!(piece.possible.has(Rank::Major));
}

#[test]
fn an_enemy_piece_waiting_beside_ours_is_not_the_flag_once_our_reply_is_done() {
    let mut g = game(("", "i1 i2 i3 i4"), ("MJ:i5", ""), Side::Black, rules4());
    play_all(&mut g, "i5-i4 a3-a4 i4-i3 a4-a3 i3-i2 a3-a4 i2-i1");
    // h1 holds a White piece: a Flag would be waiting now, so nothing is known yet.
    let before = g.beliefs(Side::White).unwrap();
    assert!(before.at(sq("i1")).unwrap().probability(Rank::Flag) > 0.0);
    play_all(&mut g, "a4-a3");
    let after = g.beliefs(Side::White).unwrap();
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(after.at(sq("i1")).unwrap().probability(Rank::Flag), 0.0);
}

#[test]
fn a_waiting_piece_that_holds_off_the_move_limit_is_the_flag() {
    // Limit 7: Black's piece arrives beside h1 on ply 7 and the game is not drawn.
    let rules = Rules::new(4, 7).unwrap();
    let mut g = game(("", "i1 i2 i3 i4"), ("FL:i5", ""), Side::Black, rules);
    play_all(&mut g, "i5-i4 a3-a4 i4-i3 a4-a3 i3-i2 a3-a4 i2-i1");
    assert_eq!(g.status(), Status::Ongoing);
    let b = g.beliefs(Side::White).unwrap();
    assert_eq!(b.at(sq("i1")).unwrap().possible, RankSet::FLAG);
    // And with a Major instead, the same ply is drawn: not the Flag.
    let mut g = game(("", "i1 i2 i3 i4"), ("MJ:i5", ""), Side::Black, rules);
    play_all(&mut g, "i5-i4 a3-a4 i4-i3 a4-a3 i3-i2 a3-a4 i2-i1");
    assert!(!g.status().is_ongoing());
    let b = g.beliefs(Side::White).unwrap();
    assert!(!b.at(sq("i1")).unwrap().possible.has(Rank::Flag));
}

#[test]
fn a_sample_of_a_waiting_flag_position_has_the_flag_waiting_exactly_when_drawn_as_flag() {
    let mut g = game(("", "i1 i2 i3 i4"), ("FL:i5", ""), Side::Black, rules4());
    play_all(&mut g, "i5-i4 a3-a4 i4-i3 a4-a3 i3-i2 a3-a4 i2-i1");
    assert_eq!(g.position().waiting_flag(), Some(sq("i1")));
    let beliefs = g.beliefs(Side::White).unwrap();
    let mut rng = SplitMix64::new(3);
    let (mut flag, mut other) = (0, 0);
    for _ in 0..300 {
        let s = g.sample_from(&beliefs, &mut rng).unwrap();
        let is_flag = s.position().piece_at(sq("i1")) == Some((Side::Black, Rank::Flag));
        assert_eq!(s.position().waiting_flag().is_some(), is_flag);
        if is_flag { flag += 1 } else { other += 1 }
    }
    assert!(flag > 0 && other > 0);
}

#[test]
fn samples_fit_the_facts_and_keep_the_beliefs() {
    for seed in 0..12 {
        let mut g = random_game(seed, Rules::default());
        advance(&mut g, seed, 80);
        for side in Side::ALL {
            let beliefs = g.beliefs(side).unwrap();
            let sample = g.sample(side, seed).unwrap();
            assert_eq!(sample.setup(side), g.setup(side));
            assert_eq!(sample.history(), g.history());
            assert_eq!(sample.view(side), g.view(side));
            assert_eq!(sample.beliefs(side).unwrap(), beliefs);
            assert_eq!(
                g.sample(side, seed).unwrap(),
                sample,
                "same seed, same sample"
            );
        }
    }
}

#[test]
fn the_true_ranks_and_every_unobservable_permutation_are_possible() {
    // No over-constraint: any reassignment of enemy ranks that replays to the same public log
    // must be allowed by the beliefs.
    let mut rng = SplitMix64::new(99);
    let mut replayed = 0;
    for seed in 0..15 {
        let mut g = random_game(seed, rules4());
        advance(&mut g, seed, 60);
        for side in Side::ALL {
            let enemy = side.other();
            let beliefs = g.beliefs(side).unwrap();
            let truth = ranks_of(&g, enemy);
            for (n, rank) in truth.iter().enumerate() {
                assert!(
                    beliefs.pieces()[n].possible.has(*rank),
                    "the truth is possible"
                );
            }
            for _ in 0..40 {
                let mut ranks = truth.clone();
                rng.shuffle(&mut ranks);
                if with_ranks(&g, enemy, &ranks).is_some() {
                    replayed += 1;
                    for (n, rank) in ranks.iter().enumerate() {
                        assert!(
                            beliefs.pieces()[n].possible.has(*rank),
                            "seed {seed} piece {n}"
                        );
                    }
                }
            }
        }
    }
    assert!(replayed > 20, "only {replayed} permutations replayed alike");
}

#[test]
fn sample_frequencies_match_the_beliefs() {
    let mut g = random_game(5, Rules::default());
    advance(&mut g, 5, 120);
    let side = Side::White;
    let beliefs = g.beliefs(side).unwrap();
    let mut rng = SplitMix64::new(17);
    let draws = 4000;
    let mut counts = [[0u32; Rank::NUM]; 21];
    for _ in 0..draws {
        for (n, rank) in beliefs.sample(&mut rng).iter().enumerate() {
            counts[n][rank.index()] += 1;
        }
    }
    let mut worst: f64 = 0.0;
    for (n, piece) in beliefs.pieces().iter().enumerate() {
        for rank in Rank::ALL {
            let p = piece.probability(rank);
            let observed = f64::from(counts[n][rank.index()]);
            if p == 0.0 {
                assert_eq!(observed, 0.0, "piece {n} drew impossible {rank}");
                continue;
            }
            let mean = p * f64::from(draws);
            let sd = (mean * (1.0 - p)).sqrt().max(1e-9);
            worst = worst.max(((observed - mean) / sd).abs());
        }
    }
    // 21 x 15 z-scores: the largest stays below 4.5 unless sampling is biased.
    assert!(worst < 4.5, "largest z-score {worst}");
}

#[cfg(feature = "serde")]
#[test]
fn a_view_round_trips_through_json_and_never_names_a_hidden_rank() {
    let mut g = random_game(11, Rules::default());
    advance(&mut g, 11, 60);
    let view = g.view(Side::White);
    let json = serde_json::to_string(&view).unwrap();
    let back: salpakan::View = serde_json::from_str(&json).unwrap();
    assert_eq!(back, view);
    // Enemy cells carry an id only.
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let enemy_cells: Vec<&serde_json::Value> = value["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.get("Enemy").is_some())
        .collect();
    assert!(!enemy_cells.is_empty());
    for cell in enemy_cells {
        assert_eq!(cell["Enemy"].as_object().unwrap().len(), 1, "{cell}");
    }
    let beliefs = g.beliefs(Side::White).unwrap();
    let json = serde_json::to_string(beliefs.pieces()).unwrap();
    let back: Vec<salpakan::PieceBelief> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, beliefs.pieces());
}

/// Games in which both sides run their Flags forward, under short move limits: far-row
/// arrivals, waiting Flags, races and limit draws are common. The truth is always possible,
/// every sample replays the public history exactly, and samples keep the beliefs.
#[test]
fn flag_races_under_move_limits_keep_beliefs_exact() {
    let mut arrivals = 0;
    let mut waits = 0;
    for seed in 0..120u64 {
        let limit = [0, 8, 12, 20][(seed % 4) as usize];
        let rules = Rules::new(4, limit).unwrap();
        let mut g = flag_race(
            seed % 3 == 0,
            seed % 5 == 0,
            Side::ALL[(seed % 2) as usize],
            rules,
        );
        let mut rng = SplitMix64::new(seed);
        while g.status().is_ongoing() && g.history().len() < 300 {
            let side = g.side_to_move();
            let m = flag_forward_or_random(&g, &mut rng, 8);
            let report = g.play(m).unwrap();
            arrivals += usize::from(report.outcome.is_none() && m.to.row() == side.far_row());
            waits += usize::from(g.position().waiting_flag().is_some());
            // Check often, and whenever something happens at a far row.
            if g.history().len().is_multiple_of(7)
                || m.to.row() == side.far_row()
                || !report.status.is_ongoing()
            {
                for viewer in Side::ALL {
                    let beliefs = g.beliefs(viewer).unwrap();
                    let truth = ranks_of(&g, viewer.other());
                    for (n, rank) in truth.iter().enumerate() {
                        assert!(
                            beliefs.pieces()[n].possible.has(*rank),
                            "seed {seed} piece {n}"
                        );
                    }
                    let mut srng = SplitMix64::new(seed ^ 77);
                    for _ in 0..3 {
                        let sample = g.sample_from(&beliefs, &mut srng).unwrap();
                        assert_eq!(sample.history(), g.history());
                        assert_eq!(sample.status(), g.status());
                        assert_eq!(sample.beliefs(viewer).unwrap(), beliefs);
                    }
                }
            }
        }
    }
    assert!(
        arrivals > 50 && waits > 5,
        "arrivals {arrivals}, waits {waits}"
    );
}

#[test]
fn beliefs_by_square_lay_out_own_ranks_enemy_posteriors_and_empty_squares() {
    let mut enemies_seen = 0;
    for seed in 0..12u64 {
        let mut game = random_game(seed, Rules::default());
        advance(&mut game, seed, 40 + 5 * seed as usize);
        for side in Side::ALL {
            let tracker = game.tracker(side).unwrap();
            let rows = tracker.beliefs_by_square().unwrap();
            let beliefs = tracker.beliefs().unwrap();
            for square in Square::ALL {
                let row = rows[square.index()];
                match game.position().piece_at(square) {
                    None => assert_eq!(row, [0.0; Rank::NUM], "{square} is empty"),
                    Some((owner, rank)) if owner == side => {
                        let mut one_hot = [0.0; Rank::NUM];
                        one_hot[rank.index()] = 1.0;
                        assert_eq!(row, one_hot, "own piece on {square}");
                    }
                    Some(_) => {
                        assert_eq!(row, beliefs.at(square).unwrap().probabilities);
                        enemies_seen += 1;
                    }
                }
            }
        }
    }
    assert!(enemies_seen > 200, "{enemies_seen}");
}

#[test]
fn a_tracker_knows_its_pieces() {
    let rules = rules4();
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules);
    let white = g.setup(Side::White).unwrap().clone();
    let black_squares = g.setup(Side::Black).unwrap().occupied();
    let mut tracker = Tracker::new(&white, black_squares, Side::White, rules).unwrap();
    // Own pieces: their ranks; enemy pieces: their starts.
    let own = tracker.piece_at(sq("e4")).unwrap();
    assert_eq!(own.side(), Side::White);
    assert_eq!(tracker.own_rank(sq("e4")), Some(Rank::FiveStarGeneral));
    let enemy = tracker.piece_at(sq("e5")).unwrap();
    assert_eq!(enemy.side(), Side::Black);
    assert_eq!(tracker.enemy_start(enemy.number()), Some(sq("e5")));
    assert_eq!(tracker.enemy_square(enemy.number()), Some(sq("e5")));
    // No rank for an enemy piece (hidden) or an empty square.
    assert_eq!(tracker.own_rank(sq("e5")), None);
    let empty = Square::ALL
        .into_iter()
        .find(|&s| tracker.piece_at(s).is_none())
        .unwrap();
    assert_eq!(tracker.own_rank(empty), None);
    assert_eq!(tracker.enemy_start(21), None);
    // After the 5G takes the Private, the piece on e5 is ours; the enemy piece is gone.
    let report = g.play(mv("e4-e5")).unwrap();
    tracker.observe(&report).unwrap();
    assert_eq!(tracker.piece_at(sq("e5")), Some(own));
    assert_eq!(tracker.enemy_square(enemy.number()), None);
    assert_eq!(tracker.enemy_start(enemy.number()), Some(sq("e5")));
    assert_eq!(PieceId::new(Side::Black, enemy.number()), Some(enemy));
}

#[test]
fn a_tracker_names_the_ply_of_a_bad_report_and_ends_only_by_an_end() {
    let rules = rules4();
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules);
    let white = g.setup(Side::White).unwrap().clone();
    let black_squares = g.setup(Side::Black).unwrap().occupied();
    let mut tracker = Tracker::new(&white, black_squares, Side::White, rules).unwrap();
    for _ in 0..2 {
        let quiet = g
            .legal_moves()
            .into_iter()
            .find(|m| {
                m.from != sq("e4") && m.from != sq("e5") && m.to != sq("e4") && m.to != sq("e5")
            })
            .unwrap();
        g.play(quiet).unwrap();
    }
    for report in g.history() {
        tracker.observe(report).unwrap();
    }
    // Ply 3: a move from an empty square.
    let bad = tracker.observe(&in_play("a1-a2", None));
    assert!(
        matches!(bad, Err(ObserveError::IllegalMove { ply: 3, .. })),
        "{bad:?}"
    );
    let bad = tracker.observe(&in_play("e4-e5", None));
    assert!(
        matches!(bad, Err(ObserveError::Inconsistent { ply: 3, .. })),
        "{bad:?}"
    );
    // A status that is not a resignation or an agreement is no end.
    let won = Status::Won {
        winner: Side::White,
        reason: WinReason::FlagCaptured,
    };
    assert_eq!(
        tracker.observe_end(won),
        Err(ObserveError::NotAnEnd { status: won })
    );
    assert!(tracker.status().is_ongoing());
    // A resignation ends it; nothing is taken in after that.
    let resigned = g.resign(Side::Black).unwrap();
    tracker.observe_end(resigned).unwrap();
    assert_eq!(tracker.status(), resigned);
    assert!(matches!(
        tracker.observe_end(resigned),
        Err(ObserveError::GameOver { .. })
    ));
    let next = in_play("e4-e5", Some(Outcome::Win));
    let late = tracker.observe(&next).unwrap_err();
    assert!(matches!(late, ObserveError::GameOver { .. }));
    assert_eq!(late.kind(), ErrorKind::GameOver, "a report after the end");
    // An agreed draw ends a tracker too.
    let mut g2 = start();
    let mut t2 = g2.tracker(Side::Black).unwrap();
    let drawn = g2.agree_draw().unwrap();
    t2.observe_end(drawn).unwrap();
    assert_eq!(t2.status(), drawn);
    assert_eq!(g2.tracker(Side::Black).unwrap(), t2);
}

/// A spectator's view is a function of the public history only: twins of the game with
/// either side's hidden ranks drawn again (`Game::sample`) give the very same public view, in
/// every form (value, `Debug`, `Display`, text, serde), at every point of many games, the
/// ended ones included; and it shows every piece's side and square and no rank.
#[test]
fn the_public_view_does_not_change_when_either_sides_hidden_ranks_do() {
    let mut compared = 0;
    for seed in 0..12u64 {
        let rules = if seed % 3 == 0 {
            rules4()
        } else {
            Rules::default()
        };
        let mut game = random_game(seed, rules);
        let mut rng = SplitMix64::new(seed);
        for ply in 0..400 {
            if ply % 25 == 0 || !game.status().is_ongoing() {
                let public = game.public_view();
                let forms = |v: &salpakan::PublicView| {
                    (
                        format!("{v:?}"),
                        v.to_string(),
                        v.to_text().to_string(),
                        serde_json::to_string(v).unwrap(),
                    )
                };
                for side in Side::ALL {
                    for k in 0..2 {
                        let Ok(twin) = game.sample(side, seed * 10 + k) else {
                            continue;
                        };
                        assert_eq!(twin.public_view(), public, "seed {seed} ply {ply}");
                        assert_eq!(forms(&twin.public_view()), forms(&public));
                        compared += 1;
                    }
                }
                let position = game.position();
                for square in Square::ALL {
                    let seen = public.cell(square).map(|id| id.side());
                    let real = position.piece_at(square).map(|(side, _)| side);
                    assert_eq!(seen, real, "{square}");
                    assert_eq!(public.cells()[square.index()], game.piece_id_at(square));
                }
                // The public facts, as the arbiter holds them.
                assert_eq!(public.status(), game.status());
                assert_eq!(public.history(), game.history());
                assert_eq!(public.side_to_move(), position.side_to_move());
                assert_eq!(public.ply(), position.ply());
                assert_eq!(
                    public.plies_since_challenge(),
                    position.plies_since_challenge()
                );
                assert_eq!(public.rules(), rules);
                let drawn = public.to_string();
                assert_eq!(
                    drawn.matches("XX").count(),
                    position.occupied(Side::White).len() as usize
                );
                assert_eq!(
                    drawn.matches("xx").count(),
                    position.occupied(Side::Black).len() as usize
                );
                assert!(
                    drawn.ends_with(&format!("{}; seen by a spectator", game.status())),
                    "{drawn}"
                );
                // Nobody is to move once the game is over.
                assert_eq!(
                    drawn.contains(" to move; "),
                    game.status().is_ongoing(),
                    "{drawn}"
                );
                let json = serde_json::to_string(&public).unwrap();
                assert_eq!(
                    serde_json::from_str::<salpakan::PublicView>(&json).unwrap(),
                    public
                );
                let text = public.to_text();
                assert_eq!(
                    text.to_string().parse::<salpakan::text::PositionText>(),
                    Ok(text.clone())
                );
                assert!(
                    !text
                        .to_string()
                        .split(' ')
                        .next()
                        .unwrap()
                        .chars()
                        .any(|c| "FPSCLMG".contains(c)),
                    "no rank code in {text}"
                );
                assert!(text.waiting_flag.is_none());
            }
            if !game.status().is_ongoing() {
                break;
            }
            let mv = game.position().random_move(&mut rng).unwrap();
            game.play(mv).unwrap();
        }
    }
    assert!(compared > 200, "{compared} twins compared");
}

/// A loss on time or an abandonment says nothing of ranks: a tracker takes it in as it takes
/// a resignation (its beliefs unchanged), refuses a move-made end given as one, and a sample
/// of the game ends the same way.
#[test]
fn a_tracker_takes_in_a_loss_on_time_or_an_abandonment() {
    use salpakan::DeclaredEnd;
    for end in [
        DeclaredEnd::Time { loser: Side::White },
        DeclaredEnd::Abandoned { loser: Side::Black },
    ] {
        let mut game = random_game(5, Rules::default());
        advance(&mut game, 5, 60);
        let mut tracker = game.tracker(Side::White).unwrap();
        let beliefs = tracker.beliefs().unwrap();
        let status = game.declare(end).unwrap();
        tracker.observe_end(status).unwrap();
        assert_eq!(tracker.status(), status);
        assert_eq!(tracker.beliefs().unwrap().pieces(), beliefs.pieces());
        assert_eq!(game.tracker(Side::White).unwrap().status(), status);
        for seed in 0..3 {
            assert_eq!(game.sample(Side::Black, seed).unwrap().status(), status);
        }
    }
    let mut tracker = random_game(6, Rules::default())
        .tracker(Side::Black)
        .unwrap();
    let captured = Status::Won {
        winner: Side::White,
        reason: WinReason::FlagCaptured,
    };
    assert_eq!(
        tracker.observe_end(captured),
        Err(ObserveError::NotAnEnd { status: captured })
    );
}
