//! The hot paths never touch the heap: legal moves, play on a position, perft, playouts and
//! the action mask. A counting global allocator proves it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use salpakan::{Game, Position, Rules, Side, SplitMix64};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to the system allocator unchanged; only counts them.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while running `f`.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let value = f();
    (ALLOCATIONS.with(Cell::get) - before, value)
}

fn midgame() -> Position {
    let rules = Rules::default();
    let game = Game::dealt(Side::White, rules, 3);
    let mut pos = *game.position();
    let mut rng = SplitMix64::new(5);
    for _ in 0..30 {
        let mv = pos.random_move(&mut rng).unwrap();
        let mut next = pos;
        next.play_unchecked(mv);
        if next.status().is_ongoing() {
            pos = next;
        }
    }
    pos
}

#[test]
fn the_counter_sees_an_allocation() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(v.len(), 10);
    assert!(n >= 1, "the counting allocator works");
}

#[test]
fn hot_paths_do_not_allocate() {
    let pos = midgame();
    let (n, moves) = allocations(|| pos.legal_moves());
    assert_eq!(n, 0, "legal_moves");
    assert!(!moves.is_empty());

    let (n, _) = allocations(|| {
        let mut total = 0;
        for mv in moves {
            let mut next = pos;
            next.play(mv).unwrap();
            total += next.count_legal_moves();
        }
        total
    });
    assert_eq!(n, 0, "play on a position");

    let (n, nodes) = allocations(|| pos.perft(3));
    assert_eq!(n, 0, "perft");
    assert!(nodes > 1000);

    let (n, playout) = allocations(|| pos.playout(&mut SplitMix64::new(1), 100_000));
    assert_eq!(n, 0, "playout");
    assert!(playout.plies > 0);

    let (n, mask) = allocations(|| pos.legal_action_mask());
    assert_eq!(n, 0, "legal_action_mask");
    assert_eq!(mask.len(), moves.len());

    let (n, hash) = allocations(|| pos.hash());
    assert_eq!(n, 0, "hash");
    assert_ne!(hash, 0);
}

#[test]
fn position_is_small_and_copy() {
    fn is_copy<T: Copy>() {}
    is_copy::<Position>();
    assert!(std::mem::size_of::<Position>() <= 192);
}

/// Counting the beliefs afresh (after a new fact) makes two allocations: the shared count and
/// the one buffer it keeps for sampling. The forward pass's buffers are per thread and reused.
#[test]
fn counting_beliefs_afresh_allocates_twice() {
    let rules = Rules::default();
    let mut game = Game::dealt(Side::White, rules, 11);
    let mut rng = SplitMix64::new(13);
    let mut challenges = 0;
    while game.status().is_ongoing() && challenges < 8 {
        let moves = game.legal_moves();
        let mv = moves[rng.below(moves.len() as u64) as usize];
        challenges += usize::from(game.play(mv).unwrap().outcome.is_some());
    }
    for side in Side::ALL {
        // The first count on this thread sizes its buffers; the second is the steady state.
        let warm = game.tracker(side).unwrap();
        warm.beliefs().unwrap();
        let fresh = game.tracker(side).unwrap();
        let (n, beliefs) = allocations(|| fresh.beliefs().unwrap());
        assert!(n <= 2, "{side}: {n} allocations");
        assert!(beliefs.assignments() > 0.0);
        // Asking again reads the kept count: no allocation at all.
        let (n, again) = allocations(|| fresh.beliefs().unwrap());
        assert_eq!(n, 0, "{side}: beliefs from the kept count");
        assert_eq!(again.pieces(), beliefs.pieces());
    }
}
