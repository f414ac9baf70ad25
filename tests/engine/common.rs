//! Helpers shared by the test modules (and by the C ABI's tests, which use a few).
#![allow(dead_code)]

use salpakan::{
    Direction, Game, Move, Position, Rank, Rules, Setup, Side, SplitMix64, Square, Status,
};

pub fn sq(name: &str) -> Square {
    name.parse().expect("square")
}

pub fn mv(text: &str) -> Move {
    text.parse().expect("move")
}

/// Parses `RK:sq RK:sq ...` into pieces.
pub fn pieces(text: &str) -> Vec<(Square, Rank)> {
    text.split_whitespace()
        .map(|item| {
            let (rank, square) = item.split_once(':').expect("RK:sq");
            (sq(square), rank.parse().expect("rank"))
        })
        .collect()
}

/// A setup holding the pieces named in `fixed`, with the rest of the army (in rank order:
/// Flag, Privates, ..., Spies) filled onto the zone squares nearest the home row first, skipping
/// the squares named in `empty`.
pub fn setup_with(side: Side, rules: Rules, fixed: &str, empty: &str) -> Setup {
    let mut placed = pieces(fixed);
    let mut remaining: Vec<Rank> = Rank::ARMY.to_vec();
    for (_, rank) in &placed {
        let i = remaining
            .iter()
            .position(|r| r == rank)
            .expect("rank in army");
        remaining.remove(i);
    }
    let mut skip: Vec<Square> = placed.iter().map(|(s, _)| *s).collect();
    skip.extend(empty.split_whitespace().map(sq));
    let mut zone: Vec<Square> = rules.setup_zone(side).collect();
    if side == Side::Black {
        zone.sort_by_key(|s| (std::cmp::Reverse(s.row()), s.file()));
    }
    let mut free = zone.into_iter().filter(|s| !skip.contains(s));
    for rank in remaining {
        placed.push((free.next().expect("room in zone"), rank));
    }
    Setup::new(side, rules, placed).expect("valid setup")
}

/// A game from two partial setups (see [`setup_with`]), each `(fixed, empty)`.
pub fn game(white: (&str, &str), black: (&str, &str), first: Side, rules: Rules) -> Game {
    Game::new(
        setup_with(Side::White, rules, white.0, white.1),
        setup_with(Side::Black, rules, black.0, black.1),
        first,
        rules,
    )
    .expect("game")
}

/// Plays each move of a space-separated list, panicking on an illegal one.
pub fn play_all(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        game.play(mv(text))
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

pub fn rules4() -> Rules {
    Rules::new(4, 0).unwrap()
}

/// Status as the vector file writes it.
pub fn status_text(status: Status) -> String {
    match status {
        Status::Ongoing => "ongoing".into(),
        Status::Won { winner, reason } => {
            format!("{} wins, {}", winner.name().to_lowercase(), reason.name())
        }
        Status::Drawn { reason } => format!("draw, {}", reason.name()),
    }
}

/// A move generator written without bitboards: every own piece, every direction, one square
/// at a time.
pub fn naive_moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    if !pos.status().is_ongoing() {
        return out;
    }
    let us = pos.side_to_move();
    for from in Square::ALL {
        if let Some((side, _)) = pos.piece_at(from) {
            if side != us {
                continue;
            }
            let (f, r) = (from.file() as i32, from.row() as i32);
            for (df, dr) in [(0, 1), (0, -1), (-1, 0), (1, 0)] {
                let (nf, nr) = (f + df, r + dr);
                if !(0..9).contains(&nf) || !(0..8).contains(&nr) {
                    continue;
                }
                let to = Square::try_index((nr * 9 + nf) as usize).unwrap();
                match pos.piece_at(to) {
                    Some((s, _)) if s == us => {}
                    _ => out.push(Move::new(from, to)),
                }
            }
        }
    }
    out.sort();
    out
}

/// Perft with the naive generator and no bulk counting.
pub fn naive_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    naive_moves(pos)
        .into_iter()
        .map(|m| {
            let mut next = *pos;
            next.play(m).expect("naive move is legal");
            naive_perft(&next, depth - 1)
        })
        .sum()
}

/// The game with two of `enemy`'s pieces of different ranks, neither ever moved or challenged,
/// swapped in the setup and replayed; `None` if none can be swapped.
pub fn with_swapped_enemy_ranks(game: &Game, enemy: Side) -> Option<Game> {
    let touched: Vec<Square> = game
        .history()
        .iter()
        .flat_map(|r| [r.mv.from, r.mv.to])
        .collect();
    let pieces: Vec<(Square, Rank)> = game.setup(enemy)?.pieces().collect();
    let quiet: Vec<usize> = (0..pieces.len())
        .filter(|&i| !touched.contains(&pieces[i].0) && pieces[i].1 != Rank::Flag)
        .collect();
    let (a, b) = quiet
        .iter()
        .flat_map(|&a| quiet.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| pieces[a].1 != pieces[b].1)?;
    let mut swapped = pieces.clone();
    swapped.swap(a, b);
    swapped[a].0 = pieces[a].0;
    swapped[b].0 = pieces[b].0;
    let setup = Setup::new(enemy, game.rules(), swapped).ok()?;
    let (white, black) = match enemy {
        Side::White => (setup, game.setup(Side::Black)?.clone()),
        Side::Black => (game.setup(Side::White)?.clone(), setup),
    };
    let mut other = Game::new(white, black, game.first_mover(), game.rules()).ok()?;
    for report in game.history() {
        if other.play(report.mv).ok()? != *report {
            return None;
        }
    }
    Some(other)
}

/// The fixture most tests start from: random setups from seeds 1 and 2, White first.
pub fn start() -> Game {
    let rules = Rules::default();
    Game::dealt(Side::White, rules, 1)
}

/// The start position's text with its last seven fields (side to move onwards) replaced.
pub fn with_fields(fields: &str) -> String {
    let text = start().position().to_string();
    let board = text.split(' ').next().unwrap();
    format!("{board} {fields}")
}

/// A game of two random setups (each from its own seed) with `first` to move.
pub fn dealt(rules: Rules, white_seed: u64, black_seed: u64, first: Side) -> Game {
    Game::new(
        Setup::random(Side::White, rules, white_seed),
        Setup::random(Side::Black, rules, black_seed),
        first,
        rules,
    )
    .expect("two random setups make a game")
}

/// A race of Flags: each Flag in front of a lane the enemy left open (White's h1 and Black's
/// b8 emptied too when asked), `first` to move.
pub fn flag_race(white_h1_empty: bool, black_b8_empty: bool, first: Side, rules: Rules) -> Game {
    let white_empty = if white_h1_empty {
        "i1 i2 i3 i4 h1"
    } else {
        "i1 i2 i3 i4"
    };
    let black_empty = if black_b8_empty {
        "a5 a6 a7 a8 b8"
    } else {
        "a5 a6 a7 a8"
    };
    game(("FL:a4", white_empty), ("FL:i5", black_empty), first, rules)
}

/// The side to move's Flag one row forward where that is legal, but for one time in `odds`;
/// otherwise a random move.
pub fn flag_forward_or_random(game: &Game, rng: &mut SplitMix64, odds: u64) -> Move {
    let side = game.side_to_move();
    let forward = Square::ALL
        .into_iter()
        .find(|&s| game.position().piece_at(s) == Some((side, Rank::Flag)))
        .and_then(|s| {
            let up = if side == Side::White {
                Direction::Up
            } else {
                Direction::Down
            };
            Move::step(s, up).filter(|m| game.position().is_legal(*m))
        });
    match forward {
        Some(mv) if rng.below(odds) > 0 => mv,
        _ => game
            .position()
            .random_move(rng)
            .expect("a game in play has a move"),
    }
}
