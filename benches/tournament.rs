//! The tournaments' own costs, as the server pays them while it holds a tournament: pairing
//! a Swiss round, the standings, and writing the whole tournament as the JSON its row holds
//! (after every change), for events of 16, 64 and 256 entrants.
//!
//! ```text
//! cargo bench --bench tournament
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use salpakan_server::tournament::event::{Eligibility, Kind, ResultWords, Settings, Tournament};

/// A Swiss of `entrants` with `rounds` rounds, its first `played` rounds paired and decided
/// (a fixed spread of wins, losses and draws).
fn swiss(entrants: usize, rounds: u32, played: usize) -> Tournament {
    let settings = Settings {
        name: "Bench".into(),
        kind: Kind::Swiss,
        rounds,
        target: 4,
        minutes: 60,
        round_ms: 3_600_000,
        clock: None,
        setup_rows: None,
        move_limit: None,
        rated: false,
        eligibility: Eligibility::default(),
        max_entrants: 256,
        watching: false,
    };
    let mut t = Tournament::new("bench".into(), settings, "td", &[], 1).expect("settings");
    for i in 0..entrants {
        let rating = 1200.0 + (i * 37 % 800) as f64;
        t.register(&format!("player{i:03}"), (rating, "Recruit"), 2)
            .expect("registered");
    }
    t.start("td", 3).expect("started");
    for r in 0..played {
        for made in t.pair(10 + r as u64) {
            t.made(
                (made.round, made.board),
                format!("{:016x}", r * 1000 + made.board),
            );
        }
        for b in 0..t.rounds[r].boards.len() {
            let result = match (r * 7 + b * 3) % 5 {
                0 => ResultWords::Draw,
                1 | 2 => ResultWords::WhiteWon,
                _ => ResultWords::BlackWon,
            };
            t.game_ended((r, b), result, 20);
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);
    for (entrants, rounds, played) in [(16, 4, 3), (64, 6, 5), (256, 20, 10)] {
        let before = swiss(entrants, rounds, played);
        let label = format!("{entrants} entrants, round {}", played + 1);
        group.bench_with_input(BenchmarkId::new("swiss round", &label), &before, |b, t| {
            b.iter(|| {
                let mut t = t.clone();
                black_box(t.pair(1_000))
            });
        });
        group.bench_with_input(BenchmarkId::new("standings", &label), &before, |b, t| {
            b.iter(|| black_box(t.standings()));
        });
        group.bench_with_input(BenchmarkId::new("row JSON", &label), &before, |b, t| {
            b.iter(|| black_box(serde_json::to_string(t).expect("JSON").len()));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
