//! Side-by-side speed comparison with cozy-chess 0.3, the reference chess move generator, in
//! one run on one machine. Prints each figure and the ratio against its target.
//!
//! ```text
//! cargo bench --bench compare
//! ```
//!
//! Three rounds each measure every figure; within a round a figure is the best of its runs
//! (the least disturbed by other work), and each ratio printed is the median of the rounds'
//! ratios.

use std::hint::black_box;

mod ffi;
use std::time::{Duration, Instant};

use salpakan::{Game, Position, Rules, Setup, Side, SplitMix64};
use salpakan_capi::salpakan_game_free;

/// Runs `work` (which returns how many units it did) `runs` times; the best rate in units/s.
fn best_rate(runs: usize, mut work: impl FnMut() -> u64) -> f64 {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let units = black_box(work());
            units as f64 / start.elapsed().max(Duration::from_nanos(1)).as_secs_f64()
        })
        .fold(0.0, f64::max)
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if bulk && depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut next = board.clone();
                next.play_unchecked(mv);
                nodes += cozy_perft(&next, depth - 1, bulk);
            }
        }
        false
    });
    nodes
}

/// Perft that makes every leaf (no bulk counting), through the public API.
fn full_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    pos.generate_moves(|mv| {
        let mut next = *pos;
        next.play_unchecked(mv);
        nodes += full_perft(&next, depth - 1);
        false
    });
    nodes
}

fn start(seed: u64) -> Game {
    let rules = Rules::default();
    Game::new(
        Setup::random(Side::White, rules, seed),
        Setup::random(Side::Black, rules, seed ^ 0x5eed),
        Side::White,
        rules,
    )
    .expect("random setups are valid")
}

/// Mid-game positions: random games stopped after `plies` plies, still going on.
pub fn midgames(count: usize, plies: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        seed += 1;
        let mut game = start(seed);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..plies {
            let Some(mv) = game.position().random_move(&mut rng) else {
                break;
            };
            game.play(mv).expect("a random legal move");
        }
        if game.status().is_ongoing() {
            out.push(*game.position());
        }
    }
    out
}

fn ffi_plies(game: &Game, seed: u64) -> u64 {
    // The same setups, handed to the C ABI; then play through the C functions only.
    let handle = ffi::c_game(game);
    // SAFETY: the handle made above, freed once after its game.
    unsafe {
        let plies = ffi::random_plies(handle, seed);
        salpakan_game_free(handle);
        plies
    }
}

/// Plays through the C ABI alone for about five seconds, for a profiler:
/// `perf record -g -- cargo bench --bench compare -- --only-c-abi`.
fn only_c_abi(starts: &[Game]) {
    let begin = Instant::now();
    let (mut plies, mut seed) = (0u64, 0u64);
    while begin.elapsed() < Duration::from_secs(5) {
        for (i, g) in starts.iter().enumerate() {
            plies += ffi_plies(g, seed << 8 | i as u64);
        }
        seed += 1;
    }
    let rate = plies as f64 / begin.elapsed().as_secs_f64();
    println!(
        "salpakan C ABI legal_moves + play: {:.1} M plies/s, {:.2} ns a ply ({plies} plies)",
        rate / 1e6,
        1e9 / rate
    );
}

fn main() {
    // Criterion passes its own flags to every bench target: they are ignored. One flag of
    // this bench's own, `--only-c-abi`, runs the C ABI's loop alone (for a profiler).
    let starts: Vec<Game> = (0..64).map(start).collect();
    if std::env::args().any(|arg| arg == "--only-c-abi") {
        only_c_abi(&starts);
        return;
    }
    println!("salpakan vs cozy-chess 0.3, best of several runs each\n");

    let chess = cozy_chess::Board::default();
    assert_eq!(cozy_perft(&chess, 4, true), 197_281);
    let positions = midgames(4, 40);

    // Rounds that measure every figure one after the other, so that a change in the machine's
    // speed during the run touches both sides of each ratio alike; each ratio is the median of
    // its rounds' ratios, each figure the best of its runs within a round.
    const ROUNDS: usize = 3;
    let mut rounds = Vec::new();
    for _ in 0..ROUNDS {
        let cozy_bulk = best_rate(2, || cozy_perft(&chess, 6, true));
        let cozy_full = best_rate(3, || cozy_perft(&chess, 5, false));
        let bulk = best_rate(2, || positions.iter().map(|p| p.perft(5)).sum());
        let full = best_rate(2, || positions.iter().map(|p| full_perft(p, 4)).sum());
        // Each of these runs for tens of milliseconds (like the perfts), so that a figure is
        // the steady rate rather than that of a few cold games.
        let playouts = best_rate(2, || {
            let mut plies = 0;
            for seed in 0..100u64 {
                for (i, g) in starts.iter().enumerate() {
                    let mut rng = SplitMix64::new(seed << 8 | i as u64);
                    plies += u64::from(g.position().playout(&mut rng, 100_000).plies);
                }
            }
            plies
        });
        let ffi = best_rate(2, || {
            let mut plies = 0;
            for seed in 0..32u64 {
                for (i, g) in starts.iter().enumerate() {
                    plies += ffi_plies(g, seed << 8 | i as u64);
                }
            }
            plies
        });
        rounds.push([cozy_bulk, cozy_full, bulk, full, playouts, ffi]);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let figure = |i: usize| median(&mut rounds.iter().map(|r| r[i]).collect());
    let ratio = |i: usize, of: usize| median(&mut rounds.iter().map(|r| r[i] / r[of]).collect());

    let m = 1e6;
    println!("{:<58} {:>12}", "measure (median of 3 rounds)", "M per s");
    let names = [
        "cozy-chess perft, bulk, start position depth 6 (leaves)",
        "cozy-chess perft, every leaf made, depth 5 (leaves)",
        "salpakan perft, bulk, 4 mid-game positions depth 5 (leaves)",
        "salpakan perft, every leaf made, depth 4 (leaves)",
        "salpakan random playouts (plies)",
        "salpakan C ABI legal_moves + play (plies)",
    ];
    for (i, name) in names.iter().enumerate() {
        println!("{name:<58} {:>12.1}", figure(i) / m);
    }
    println!();
    println!(
        "{:<44} {:>8} {:>8}  verdict",
        "target (median ratio)", "ratio", "needed"
    );
    let rows = [
        ("bulk perft leaves/s vs cozy bulk", ratio(2, 0), 8.0),
        ("full perft leaves/s vs cozy non-bulk", ratio(3, 1), 2.0),
        ("playout plies/s vs cozy non-bulk", ratio(4, 1), 1.2),
        ("C ABI plies/s vs cozy non-bulk", ratio(5, 1), 0.5),
    ];
    for (name, ratio, needed) in rows {
        let verdict = if ratio >= needed { "met" } else { "MISSED" };
        println!("{name:<44} {ratio:>8.2} {needed:>8.1}  {verdict}");
    }
    println!(
        "\nsize_of::<Position>() = {} bytes (target <= 192)",
        std::mem::size_of::<Position>()
    );
}
