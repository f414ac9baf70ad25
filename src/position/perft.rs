//! Perft: counting move sequences to cross-check move generation ([rulebook](crate::rulebook)).

use super::Position;

impl Position {
    /// The deepest perft computed: a `depth` above it is taken as this. Perft grows about
    /// 30-fold a ply (from the start: depth 6 takes about 0.1 s, 7 about 2.5 s, 8 about a
    /// minute, 9 about half an hour), so no depth near it ever finishes; the cap bounds the
    /// recursion, and so the stack, whatever the caller passes.
    pub const MAX_PERFT_DEPTH: u32 = 32;

    /// Perft: the number of move sequences of length `depth` from this position
    /// ([rulebook](crate::rulebook)). `perft(0)` is 1; a finished game contributes 0 at depth 1
    /// or more. The last ply is counted from the bitboards without being played (bulk
    /// counting). A `depth` above [`Position::MAX_PERFT_DEPTH`] is taken as that depth.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        let depth = depth.min(Position::MAX_PERFT_DEPTH);
        #[cfg(target_arch = "x86_64")]
        if x86_has!("popcnt") {
            // SAFETY: the CPU has the popcnt instruction, as checked just above.
            return unsafe { self.perft_popcnt(depth) };
        }
        self.perft_portable(depth)
    }

    /// [`Position::perft`] compiled for CPUs with the popcnt instruction (bulk counting is
    /// all population counts).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn perft_popcnt(&self, depth: u32) -> u64 {
        self.perft_step(depth, |next, depth| next.perft_popcnt(depth))
    }

    fn perft_portable(&self, depth: u32) -> u64 {
        self.perft_step(depth, Position::perft_portable)
    }

    /// One level of perft; `recurse` continues in the same compiled variant.
    #[inline(always)]
    fn perft_step(&self, depth: u32, recurse: impl Fn(&Position, u32) -> u64) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(self.count_legal_moves()),
            _ => {
                let mut nodes = 0;
                self.generate_moves(|mv| {
                    let mut next = *self;
                    next.make::<false>(mv);
                    nodes += recurse(&next, depth - 1);
                    false
                });
                nodes
            }
        }
    }
}
