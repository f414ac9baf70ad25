use salpakan::*;
use std::time::Instant;
struct E {
    p: Position,
    tr: [Tracker; 2],
}
fn mk(rules: Rules, s: u64) -> E {
    let w = Setup::random(Side::White, rules, s);
    let b = Setup::random(Side::Black, rules, s ^ 77);
    E {
        p: Position::new(&w, &b, Side::White, rules).unwrap(),
        tr: [
            Tracker::new(&w, b.occupied(), Side::White, rules).unwrap(),
            Tracker::new(&b, w.occupied(), Side::White, rules).unwrap(),
        ],
    }
}
fn run(envs: &mut [E], obs: &mut [f32], rng: &mut SplitMix64, rules: Rules, write: bool) {
    for (i, e) in envs.iter_mut().enumerate() {
        let mv = e.p.random_move(rng).unwrap();
        let r = e.p.play_unchecked(mv);
        for t in e.tr.iter_mut() {
            t.observe(&r).unwrap();
        }
        if !r.status.is_ongoing() {
            *e = mk(rules, rng.next_u64());
        }
        let t = &e.tr[e.p.side_to_move().index()];
        if write {
            let slot: &mut [f32; Observation::LEN] = (&mut obs
                [i * Observation::LEN..(i + 1) * Observation::LEN])
                .try_into()
                .unwrap();
            t.write_observation(Orientation::ViewerUp, slot).unwrap();
        } else {
            std::hint::black_box(t.beliefs().unwrap());
        }
    }
}
fn bench(threads: usize, write: bool) -> f64 {
    let rules = Rules::default();
    let n = 256 / threads;
    let steps = 400;
    let s = Instant::now();
    std::thread::scope(|sc| {
        for th in 0..threads {
            sc.spawn(move || {
                let mut envs: Vec<E> = (0..n).map(|i| mk(rules, (i + th * 1000) as u64)).collect();
                let mut bufs: Vec<Vec<f32>> =
                    (0..2).map(|_| vec![0f32; n * Observation::LEN]).collect();
                let mut rng = SplitMix64::new(th as u64);
                for k in 0..steps {
                    run(&mut envs, &mut bufs[k % 2], &mut rng, rules, write);
                }
            });
        }
    });
    (steps * 256) as f64 / s.elapsed().as_secs_f64() / 1e3
}
fn main() {
    for write in [true, false] {
        for threads in [1, 2] {
            println!(
                "write {write} threads {threads}: {:.0} k/s",
                bench(threads, write)
            );
        }
    }
}
