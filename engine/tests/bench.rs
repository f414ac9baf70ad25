//! salpakan-bench v1 gives the same table for the same engine twice, pins its deals (the
//! opponent's formations and the colours do not depend on the engine), and reports every
//! game it played.

use salpakan::{AgentKind, Bot};
use salpakan_engine::bench::{self, Prior, Spec};
use salpakan_engine::host::Seat;

fn spec() -> Spec {
    Spec {
        opponents: vec![Bot::Agent(AgentKind::Random), Bot::Level(1), Bot::Level(2)],
        priors: Prior::ALL.to_vec(),
        games: 4,
        move_ms: 10_000,
    }
}

fn table(agent: &str) -> String {
    let engine = format!("{} --agent {agent}", env!("CARGO_BIN_EXE_salpakan-engine"));
    let mut seat = Seat::spawn(&engine).expect("the engine starts");
    let lines = bench::run(&mut seat, &spec(), |_| {});
    assert_eq!(lines.len(), 6);
    for line in &lines {
        assert_eq!(line.score.games(), 4, "{line:?}");
        assert_eq!(line.forfeits, 0);
    }
    seat.quit();
    bench::table("greedy", &spec(), &lines)
}

#[test]
fn the_same_engine_gives_the_same_table_twice() {
    let first = table("greedy");
    assert_eq!(first, table("greedy"));
    assert!(first.starts_with("salpakan-bench v1 (salpakan "), "{first}");
    assert!(first.contains("| level-2 | people |"), "{first}");
    // Another engine meets the same opponents: a different table.
    assert_ne!(first, table("random"));
}

#[test]
fn the_opponents_deals_are_pinned_whatever_the_engine() {
    let rules = salpakan::Rules::new(3, 200).unwrap();
    // The first game of a pairing: the engine White, White first; the opponent's formation
    // under each prior is the same in every run.
    let formation = |prior: Prior| {
        let mut engine = salpakan_engine::engine::AgentEngine::new("level-1", 1_000_003)
            .unwrap()
            .deploying_by(match prior {
                Prior::Uniform => salpakan::Formation::uniform(),
                Prior::People => salpakan::Formation::classic(),
            });
        use salpakan_engine::engine::Engine;
        use salpakan_engine::{EngineLine, HostLine};
        engine.answer(&HostLine::NewGame {
            side: salpakan::Side::Black,
            first: salpakan::Side::White,
            rules,
        });
        match engine.answer(&HostLine::Formation).pop() {
            Some(EngineLine::Formation(setup)) => setup,
            other => panic!("{other:?}"),
        }
    };
    for prior in Prior::ALL {
        assert_eq!(formation(prior), formation(prior));
    }
    assert_ne!(formation(Prior::Uniform), formation(Prior::People));
}
