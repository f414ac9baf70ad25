//! A round robin between the engine's agents, with an Elo estimate for each.
//!
//! ```text
//! cargo run --release -p salpakan-evaluation --example tournament -- [--games N] [--budget N] [--agents LIST]
//!     [--threads N] [--max-plies N] [--seed N] [--formation uniform|classic|own]
//! ```
//!
//! Every pair of agents plays `--games` games (default 20). Game `g` of a pairing uses setups
//! seeded from `--seed` and `g`, and games come in pairs that swap the agents' sides on the
//! same setups, so that a strong formation helps both agents equally; the first mover
//! alternates every other game. Each agent sees only its side's [`Tracker`], fed with the
//! arbiter's reports, exactly as a client of a game server would. A game that reaches
//! `--max-plies` plies (default 1000) is scored as a draw.
//!
//! `--agents` is a comma-separated list of `random`, `greedy` and `ismcts` (its budget from
//! `--budget`, 0 for the default; `ismcts@N` has its own budget of N), with parts joined by
//! `+`: `ismcts+rN` plays N random plies before scoring each new node, `ismcts+prior` believes
//! the enemy deployed by [`Formation::classic`], `ismcts+prior^P` by the classic formation
//! tempered by the power P ([`Formation::tempered`]), `ismcts+classic` deploys by the classic
//! formation (like the levels) instead of uniformly, e.g. `ismcts+prior^0.5+classic@10000`;
//! and the levels `level-1` … `level-8` ([`salpakan::Level`]). The default is
//! `random,greedy,ismcts`; `--agents ladder` is `random` and the eight levels.
//!
//! `--formation` says how the setups are drawn: `uniform` (the default, [`Setup::random`]),
//! `classic` (both from [`Formation::classic`]) or `own` (each agent's [`Agent::deploy`]: the
//! levels deploy by the classic formation, the other agents uniformly). The swapped game of a
//! pair draws with the same seeds.
//!
//! `--only NAME` plays only the pairings of that agent (one changed agent re-measured), and
//! `--with FILE` takes the other pairings' results from an earlier run's output saved in FILE
//! (its lines `A vs B  W D L ...`), so that the ratings are fitted over both; those pairings
//! are marked "(earlier)".
//!
//! It prints a progress line while it runs, then each pairing's wins, draws and losses and
//! score with its 95% interval (Wilson's, extended to draws; a verdict such as "ismcts beats
//! greedy" only for a pairing of at least 400 games whose interval is clear of 50%), each
//! agent's time per move, the slowest beliefs computation seen, and an Elo rating for each
//! agent with a 95% interval: a Bradley-Terry maximum-likelihood fit over every game (draws
//! count half), `random` (or the first agent) anchored at 0, with one virtual draw per pairing so
//! that a clean sweep has a finite rating; the interval is ±1.96 standard errors from the
//! fit's curvature. The statistics are the crate's [`salpakan::evaluation`], the same as the
//! Python package's `salpakan.evaluation`.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use salpakan::{
    Agent, Formation, Game, Greedy, Ismcts, Level, Random, Rules, Setup, Side, SplitMix64, Status,
    Tracker, WinReason,
};
use salpakan_evaluation::{Ratings, Score, bradley_terry};

/// One entrant: how to build it for a game.
#[derive(Clone, Debug)]
struct Entrant {
    name: String,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    Random,
    Greedy,
    Ismcts(Box<Search>),
    Level(i64),
}

/// An `ismcts…` entrant's settings.
#[derive(Clone, Debug)]
struct Search {
    budget: u32,
    rollout: u16,
    /// The formation it believes the enemy deployed by, if any: made once, not for each game
    /// (a formation's sums are a dynamic programme).
    prior: Option<Formation>,
    /// Whether it deploys by the classic formation, like the levels, instead of uniformly.
    deploys_classic: bool,
}

/// An agent that deploys like the levels (by [`Formation::classic`]) and otherwise plays as
/// its inner one.
struct DeploysClassic<A>(A);

impl<A: Agent> Agent for DeploysClassic<A> {
    fn choose(&mut self, tracker: &Tracker) -> Option<salpakan::Move> {
        self.0.choose(tracker)
    }

    fn deploy(&mut self, side: Side, rules: Rules, seed: u64) -> Setup {
        // Exactly as the levels deploy.
        let mut level = Level::new(1, seed).expect("level 1 exists");
        level.deploy(side, rules, seed)
    }
}

impl Entrant {
    fn parse(text: &str, budget: u32) -> Result<Entrant, String> {
        // `ismcts@N`, `ismcts+prior@N`, `ismcts+rK@N`: the search with its own budget.
        let (bare, budget) = match text.split_once('@') {
            Some((bare, own)) if bare.starts_with("ismcts") => (
                bare,
                own.parse().map_err(|_| format!("bad budget in {text:?}"))?,
            ),
            _ => (text, budget),
        };
        let kind = if let Some(parts) = bare.strip_prefix("ismcts") {
            Entrant::parse_ismcts(parts, budget).map_err(|e| format!("{e} in {text:?}"))?
        } else if let Some(level) = bare.strip_prefix("level-") {
            let level = level
                .parse()
                .map_err(|_| format!("bad level in {text:?}"))?;
            Level::new(level, 0).map_err(|e| e.to_string())?;
            Kind::Level(level)
        } else {
            match bare {
                "random" => Kind::Random,
                "greedy" => Kind::Greedy,
                other => return Err(format!("unknown agent {other:?}")),
            }
        };
        Ok(Entrant {
            name: text.to_string(),
            kind,
        })
    }

    /// The `+` parts after `ismcts`: `prior`, `prior^P`, `rK`, `classic`.
    fn parse_ismcts(parts: &str, budget: u32) -> Result<Kind, String> {
        let mut kind = Search {
            budget,
            rollout: 0,
            prior: None,
            deploys_classic: false,
        };
        if parts.is_empty() {
            return Ok(Kind::Ismcts(Box::new(kind)));
        }
        let Some(parts) = parts.strip_prefix('+') else {
            return Err("unknown agent".into());
        };
        for part in parts.split('+') {
            if let Some(power) = part
                .strip_prefix("prior")
                .filter(|p| p.is_empty() || p.starts_with('^'))
            {
                // `prior` or `prior^P`: the classic formation, tempered or not.
                let name = format!("classic{power}");
                kind.prior = Some(
                    name.parse()
                        .map_err(|e: salpakan::bindings::ValueError| e.to_string())?,
                );
            } else if part == "classic" {
                kind.deploys_classic = true;
            } else if let Some(plies) = part.strip_prefix('r') {
                kind.rollout = plies.parse().map_err(|_| "bad rollout")?;
            } else {
                return Err(format!("unknown part {part:?}"));
            }
        }
        Ok(Kind::Ismcts(Box::new(kind)))
    }

    fn build(&self, seed: u64) -> Box<dyn Agent> {
        match &self.kind {
            Kind::Random => Box::new(Random::new(seed)),
            Kind::Greedy => Box::new(Greedy::new(seed)),
            Kind::Ismcts(kind) => {
                let mut search = Ismcts::new(seed, kind.budget).with_rollout(kind.rollout);
                if let Some(prior) = &kind.prior {
                    search = search.with_prior(prior.clone());
                }
                if kind.deploys_classic {
                    Box::new(DeploysClassic(search))
                } else {
                    Box::new(search)
                }
            }
            Kind::Level(level) => Box::new(Level::new(*level, seed).expect("checked when parsed")),
        }
    }
}

struct Options {
    games: usize,
    budget: u32,
    entrants: Vec<Entrant>,
    threads: usize,
    max_plies: usize,
    seed: u64,
    formation: Deal,
    /// `--only`: the one entrant whose pairings are played.
    only: Option<String>,
    /// `--with`: pairings of an earlier run, as `(a, b, wins, draws, losses)` by name.
    earlier: Vec<(String, String, u32, u32, u32)>,
}

/// How a game's setups are drawn (`--formation`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Deal {
    Uniform,
    Classic,
    Own,
}

fn options() -> Result<Options, String> {
    let mut games = 20;
    let mut budget = 0;
    let mut agents = "random,greedy,ismcts".to_string();
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut max_plies = 1000;
    let mut seed = 2026;
    let mut formation = Deal::Uniform;
    let mut only = None;
    let mut earlier = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let number = |text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{arg}: not a number: {text:?}"))
        };
        match arg.as_str() {
            "--games" => games = number(value()?)? as usize,
            "--budget" => {
                budget = u32::try_from(number(value()?)?).map_err(|_| "budget too large")?;
            }
            "--agents" => agents = value()?,
            "--threads" => threads = (number(value()?)? as usize).max(1),
            "--max-plies" => max_plies = number(value()?)? as usize,
            "--seed" => seed = number(value()?)?,
            "--formation" => {
                formation = match value()?.as_str() {
                    "uniform" => Deal::Uniform,
                    "classic" => Deal::Classic,
                    "own" => Deal::Own,
                    other => {
                        return Err(format!(
                            "--formation: not uniform, classic or own: {other:?}"
                        ));
                    }
                }
            }
            "--only" => only = Some(value()?),
            "--with" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("--with: cannot read {path}: {e}"))?;
                earlier = earlier_pairings(&text);
                if earlier.is_empty() {
                    return Err(format!("--with: no pairing lines in {path}"));
                }
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    if agents == "ladder" {
        agents = "random,level-1,level-2,level-3,level-4,level-5,level-6,level-7,level-8".into();
    }
    let entrants = agents
        .split(',')
        .map(|text| Entrant::parse(text.trim(), budget))
        .collect::<Result<Vec<_>, _>>()?;
    if entrants.len() < 2 {
        return Err("a tournament needs two agents or more".into());
    }
    if let Some(only) = &only
        && !entrants.iter().any(|e| &e.name == only)
    {
        return Err(format!("--only: {only:?} is not among the agents"));
    }
    Ok(Options {
        games,
        budget,
        entrants,
        threads,
        max_plies,
        seed,
        formation,
        only,
        earlier,
    })
}

/// The pairing lines of an earlier run's output (`A vs B  W D L ...`), in any text.
fn earlier_pairings(text: &str) -> Vec<(String, String, u32, u32, u32)> {
    text.lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [a, "vs", b, wins, draws, losses, ..] => Some((
                    (*a).to_string(),
                    (*b).to_string(),
                    wins.parse().ok()?,
                    draws.parse().ok()?,
                    losses.parse().ok()?,
                )),
                _ => None,
            }
        })
        .collect()
}

/// One game to play: the pairing, its number within the pairing.
#[derive(Clone, Copy)]
struct Fixture {
    a: usize,
    b: usize,
    number: usize,
}

/// What one game gave: `a`'s score (1, ½, 0), plies, and time spent per agent.
struct Played {
    fixture: Fixture,
    score_a: f64,
    /// How the game ended (`Ongoing` if it reached the ply cap).
    status: Status,
    plies: usize,
    /// Per side of the fixture (`a`, `b`): total thinking time and moves made.
    thinking: [(Duration, u32); 2],
    slowest_move: [Duration; 2],
    slowest_beliefs: Duration,
    beliefs_calls: u64,
}

fn play(options: &Options, fixture: Fixture) -> Played {
    let rules = Rules::default();
    let game_seed = options
        .seed
        .wrapping_mul(1_000_003)
        .wrapping_add((fixture.number / 2) as u64);
    // Even games: `a` plays White; odd games: the same setups with the sides swapped.
    let a_side = Side::ALL[fixture.number % 2];
    let entrant = |side: Side| {
        if side == a_side { fixture.a } else { fixture.b }
    };
    let mut agents: Vec<Box<dyn Agent>> = Side::ALL
        .iter()
        .map(|&side| options.entrants[entrant(side)].build(game_seed ^ side.index() as u64))
        .collect();
    let seeds = [game_seed, game_seed ^ 0x5A5A_5A5A];
    let [white, black] = [Side::White, Side::Black].map(|side| match options.formation {
        Deal::Uniform => Setup::random(side, rules, seeds[side.index()]),
        Deal::Classic => Setup::sample_with(
            side,
            rules,
            &Formation::classic(),
            &mut SplitMix64::new(seeds[side.index()]),
        ),
        Deal::Own => agents[side.index()].deploy(side, rules, seeds[side.index()]),
    });
    let first = Side::ALL[(fixture.number / 2) % 2];
    let mut game = Game::new(white, black, first, rules).expect("setups are valid");
    let mut trackers: Vec<Tracker> = Side::ALL
        .iter()
        .map(|&side| game.tracker(side).expect("a fresh game"))
        .collect();
    let mut thinking = [(Duration::ZERO, 0u32); 2];
    let mut slowest_move = [Duration::ZERO; 2];
    let mut slowest_beliefs = Duration::ZERO;
    let mut beliefs_calls = 0;
    while game.status().is_ongoing() && game.history().len() < options.max_plies {
        let side = game.side_to_move();
        let tracker = &trackers[side.index()];
        let started = Instant::now();
        let beliefs = tracker.beliefs();
        let mut spent = started.elapsed();
        assert!(beliefs.is_ok(), "beliefs fit a real game");
        if spent > Duration::from_micros(100) {
            // A slow call may be the thread being preempted: count again (best of 3) on fresh
            // copies of the tracker, which have not counted yet.
            let fresh = game.tracker(side).expect("a game from setups");
            for _ in 0..3 {
                let copy = fresh.clone();
                let started = Instant::now();
                let _ = copy.beliefs();
                spent = spent.min(started.elapsed());
            }
        }
        slowest_beliefs = slowest_beliefs.max(spent);
        beliefs_calls += 1;
        let started = Instant::now();
        let mv = agents[side.index()]
            .choose(tracker)
            .expect("an agent moves while the game goes on");
        let spent = started.elapsed();
        let who = usize::from(side != a_side);
        thinking[who].0 += spent;
        thinking[who].1 += 1;
        slowest_move[who] = slowest_move[who].max(spent);
        let report = game.play(mv).expect("agents play legal moves");
        for tracker in &mut trackers {
            tracker.observe(&report).expect("reports of a real game");
        }
    }
    let score_a = match game.status() {
        Status::Won { winner, .. } if winner == a_side => 1.0,
        Status::Won { .. } => 0.0,
        _ => 0.5,
    };
    Played {
        fixture,
        score_a,
        status: game.status(),
        plies: game.history().len(),
        thinking,
        slowest_move,
        slowest_beliefs,
        beliefs_calls,
    }
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("tournament: {message}");
            std::process::exit(2);
        }
    };
    // Random (if present) is the anchor: put it first.
    let mut entrants = options.entrants.clone();
    if let Some(i) = entrants.iter().position(|e| e.name == "random") {
        let anchor = entrants.remove(i);
        entrants.insert(0, anchor);
    }
    let options = Options {
        entrants,
        ..options
    };
    let k = options.entrants.len();
    let mut fixtures = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let name = |i: usize| options.entrants[i].name.as_str();
            if options
                .only
                .as_deref()
                .is_some_and(|only| only != name(a) && only != name(b))
            {
                continue;
            }
            fixtures.extend((0..options.games).map(|number| Fixture { a, b, number }));
        }
    }
    let budget = if options.budget == 0 {
        Ismcts::DEFAULT_BUDGET
    } else {
        options.budget
    };
    println!(
        "Round robin: {} agents, {} games per pairing, {} games, Ismcts budget {budget} \
         iterations, {} threads, seed {}, draw at {} plies, formations {:?}",
        k,
        options.games,
        fixtures.len(),
        options.threads,
        options.seed,
        options.max_plies,
        options.formation,
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(fixtures.len()));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..options.threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&fixture) = fixtures.get(i) else {
                        break;
                    };
                    let played = play(&options, fixture);
                    let mut results = results.lock().expect("no thread panics holding it");
                    results.push(played);
                    let done = results.len();
                    let f = fixtures[done.min(fixtures.len()) - 1];
                    eprint!(
                        "\r{done}/{} games, {:.0} s, now {} vs {}   ",
                        fixtures.len(),
                        started.elapsed().as_secs_f64(),
                        options.entrants[f.a].name,
                        options.entrants[f.b].name,
                    );
                    let _ = std::io::stderr().flush();
                }
            });
        }
    });
    eprintln!();
    let mut results = results.into_inner().expect("no thread panicked");
    results.sort_by_key(|p| (p.fixture.a, p.fixture.b, p.fixture.number));
    report(&options, &results, started.elapsed());
}

fn report(options: &Options, results: &[Played], elapsed: Duration) {
    let k = options.entrants.len();
    let name = |i: usize| options.entrants[i].name.as_str();
    let mut score = vec![vec![0.0; k]; k];
    let mut games = vec![vec![0.0; k]; k];
    let mut think = vec![(Duration::ZERO, 0u32, Duration::ZERO); k];
    let mut slowest_beliefs = Duration::ZERO;
    let mut beliefs_calls = 0;
    let mut plies = 0;
    let mut verdicts = Vec::new();
    println!(
        "\nPairing                     W    D    L   score (95% interval)   plies/game  wins by capture+arrival"
    );
    for a in 0..k {
        for b in a + 1..k {
            let games_ab: Vec<&Played> = results
                .iter()
                .filter(|p| p.fixture.a == a && p.fixture.b == b)
                .collect();
            if games_ab.is_empty() {
                // Not played now: an earlier run's result, if `--with` has one.
                let Some((w, d, l)) = options.earlier.iter().find_map(|(x, y, w, d, l)| {
                    if x == name(a) && y == name(b) {
                        Some((*w, *d, *l))
                    } else if x == name(b) && y == name(a) {
                        Some((*l, *d, *w))
                    } else {
                        None
                    }
                }) else {
                    continue;
                };
                let n = f64::from(w + d + l);
                let points = f64::from(w) + f64::from(d) / 2.0;
                println!(
                    "{:<26} {w:>4} {d:>4} {l:>4}  (earlier)",
                    format!("{} vs {}", name(a), name(b))
                );
                score[a][b] = points;
                score[b][a] = n - points;
                games[a][b] = n;
                games[b][a] = n;
                continue;
            }
            let wins = games_ab.iter().filter(|p| p.score_a == 1.0).count();
            let draws = games_ab.iter().filter(|p| p.score_a == 0.5).count();
            let losses = games_ab.len() - wins - draws;
            let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            let points: f64 = games_ab.iter().map(|p| p.score_a).sum();
            let n = games_ab.len() as f64;
            let mean_plies = games_ab.iter().map(|p| p.plies).sum::<usize>() as f64 / n.max(1.0);
            let ends = |a_wins: bool| {
                let mut captured = 0;
                let mut arrived = 0;
                for p in games_ab.iter().filter(|p| (p.score_a == 1.0) == a_wins) {
                    match p.status {
                        Status::Won {
                            reason: WinReason::FlagCaptured,
                            ..
                        } => captured += 1,
                        Status::Won {
                            reason: WinReason::FlagReachedEnd,
                            ..
                        } => arrived += 1,
                        _ => {}
                    }
                }
                format!("{captured}+{arrived}")
            };
            let result = Score::new(count(wins), count(draws), count(losses));
            let (low, high) = result.interval();
            println!(
                "{:<26} {wins:>4} {draws:>4} {losses:>4}  {:>5.1}% [{:>4.1}, {:>5.1}]      {mean_plies:>8.0}    {} / {}",
                format!("{} vs {}", name(a), name(b)),
                100.0 * result.mean(),
                100.0 * low,
                100.0 * high,
                ends(true),
                ends(false),
            );
            verdicts.push(result.verdict_words(name(a), name(b)));
            score[a][b] = points;
            score[b][a] = n - points;
            games[a][b] = n;
            games[b][a] = n;
        }
    }
    println!();
    for line in verdicts {
        println!("{line}");
    }
    for p in results {
        for (who, entrant) in [p.fixture.a, p.fixture.b].into_iter().enumerate() {
            think[entrant].0 += p.thinking[who].0;
            think[entrant].1 += p.thinking[who].1;
            think[entrant].2 = think[entrant].2.max(p.slowest_move[who]);
        }
        slowest_beliefs = slowest_beliefs.max(p.slowest_beliefs);
        beliefs_calls += p.beliefs_calls;
        plies += p.plies;
    }
    let Some(Ratings {
        elo: ratings,
        errors,
    }) = bradley_terry(&score, &games)
    else {
        return;
    };
    println!("\nAgent            Elo (95% interval)        ms/move (mean, max)");
    for i in 0..k {
        let (total, moves, slowest) = think[i];
        let mean = total.as_secs_f64() * 1000.0 / f64::from(moves.max(1));
        let interval = if i == 0 {
            "(anchor)".to_string()
        } else {
            format!(
                "[{:.0}, {:.0}]",
                ratings[i] - 1.96 * errors[i],
                ratings[i] + 1.96 * errors[i]
            )
        };
        println!(
            "{:<14} {:>6.0} {:<20} {mean:>8.3} {:>9.3}",
            name(i),
            ratings[i],
            interval,
            slowest.as_secs_f64() * 1000.0
        );
    }
    println!(
        "\nBeliefs: {beliefs_calls} calls (counted again only after a new fact), the slowest \
         {:.1} µs. {plies} plies in {:.1} s.",
        slowest_beliefs.as_secs_f64() * 1e6,
        elapsed.as_secs_f64()
    );
}
