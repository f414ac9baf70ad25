//! The challenge table of docs/RULES.md, checked pair by pair against a table written out by hand.

use salpakan::{Outcome, Rank, challenge};

/// Rows: attacker; columns: defender; both in the order
/// FL PV SG 2L 1L CP MJ LC CO 1G 2G 3G 4G 5G SP. W = attacker wins, L = loses, T = tie.
const EXPECTED: [(&str, &str); 15] = [
    ("FL", "WLLLLLLLLLLLLLL"),
    ("PV", "WTLLLLLLLLLLLLW"),
    ("SG", "WWTLLLLLLLLLLLL"),
    ("2L", "WWWTLLLLLLLLLLL"),
    ("1L", "WWWWTLLLLLLLLLL"),
    ("CP", "WWWWWTLLLLLLLLL"),
    ("MJ", "WWWWWWTLLLLLLLL"),
    ("LC", "WWWWWWWTLLLLLLL"),
    ("CO", "WWWWWWWWTLLLLLL"),
    ("1G", "WWWWWWWWWTLLLLL"),
    ("2G", "WWWWWWWWWWTLLLL"),
    ("3G", "WWWWWWWWWWWTLLL"),
    ("4G", "WWWWWWWWWWWWTLL"),
    ("5G", "WWWWWWWWWWWWWTL"),
    ("SP", "WLWWWWWWWWWWWWT"),
];

const ORDER: [&str; 15] = [
    "FL", "PV", "SG", "2L", "1L", "CP", "MJ", "LC", "CO", "1G", "2G", "3G", "4G", "5G", "SP",
];

#[test]
fn all_225_pairs_match_the_hand_written_table() {
    let mut checked = 0;
    for (attacker_code, row) in EXPECTED {
        let attacker: Rank = attacker_code.parse().unwrap();
        for (defender_code, cell) in ORDER.iter().zip(row.chars()) {
            let defender: Rank = defender_code.parse().unwrap();
            let expected = match cell {
                'W' => Outcome::Win,
                'L' => Outcome::Lose,
                'T' => Outcome::Tie,
                _ => unreachable!(),
            };
            assert_eq!(
                challenge(attacker, defender),
                expected,
                "{attacker_code} attacks {defender_code}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 225);
}

#[test]
fn flag_attacking_flag_wins() {
    assert_eq!(challenge(Rank::Flag, Rank::Flag), Outcome::Win);
}

#[test]
fn same_rank_ties_including_spies_and_privates() {
    for rank in Rank::ALL.into_iter().filter(|r| *r != Rank::Flag) {
        assert_eq!(challenge(rank, rank), Outcome::Tie, "{rank}");
    }
}

#[test]
fn flag_loses_every_challenge_except_against_the_flag() {
    for rank in Rank::ALL.into_iter().filter(|r| *r != Rank::Flag) {
        assert_eq!(
            challenge(rank, Rank::Flag),
            Outcome::Win,
            "{rank} takes the Flag"
        );
        assert_eq!(
            challenge(Rank::Flag, rank),
            Outcome::Lose,
            "Flag attacks {rank}"
        );
    }
}

#[test]
fn private_beats_spy_either_way_round() {
    assert_eq!(challenge(Rank::Private, Rank::Spy), Outcome::Win);
    assert_eq!(challenge(Rank::Spy, Rank::Private), Outcome::Lose);
}

#[test]
fn spy_beats_every_officer_either_way_round() {
    let officers: Vec<Rank> = Rank::ALL.into_iter().filter(|r| r.is_officer()).collect();
    assert_eq!(officers.len(), 12, "Sergeant to 5-Star General");
    for officer in officers {
        assert_eq!(
            challenge(Rank::Spy, officer),
            Outcome::Win,
            "Spy attacks {officer}"
        );
        assert_eq!(
            challenge(officer, Rank::Spy),
            Outcome::Lose,
            "{officer} attacks Spy"
        );
    }
}

#[test]
fn who_attacked_changes_nothing_except_flag_against_flag() {
    for a in Rank::ALL {
        for d in Rank::ALL {
            if a == Rank::Flag && d == Rank::Flag {
                continue;
            }
            let mirrored = match challenge(d, a) {
                Outcome::Win => Outcome::Lose,
                Outcome::Lose => Outcome::Win,
                Outcome::Tie => Outcome::Tie,
            };
            assert_eq!(challenge(a, d), mirrored, "{a} vs {d}");
        }
    }
}

#[test]
fn higher_rank_wins_among_private_to_five_star() {
    let ladder = &Rank::ALL[1..=13];
    for (i, &low) in ladder.iter().enumerate() {
        for &high in &ladder[i + 1..] {
            assert_eq!(challenge(high, low), Outcome::Win, "{high} attacks {low}");
            assert_eq!(challenge(low, high), Outcome::Lose, "{low} attacks {high}");
        }
    }
}

/// `captures_flag` is the game's own end rule: for every pair, a challenge on the board ends
/// the game by a captured Flag exactly when it says so.
#[test]
fn captures_flag_agrees_with_the_game_for_all_225_pairs() {
    use crate::common::{game, mv, rules4};
    use salpakan::{Side, Status, WinReason, captures_flag};
    for attacker in Rank::ALL {
        for defender in Rank::ALL {
            let (a, d) = (attacker.code(), defender.code());
            let mut g = game(
                (&format!("{a}:e4"), ""),
                (&format!("{d}:e5"), ""),
                Side::White,
                rules4(),
            );
            let report = g.play(mv("e4-e5")).unwrap();
            let captured = matches!(
                report.status,
                Status::Won {
                    reason: WinReason::FlagCaptured,
                    ..
                }
            );
            assert_eq!(
                captures_flag(attacker, defender),
                captured,
                "{a} attacks {d}"
            );
        }
    }
}
