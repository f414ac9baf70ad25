//! Zobrist keys: fixed pseudo-random 64-bit numbers, one per (side, rank, square), one for
//! Black to move and one per square of a waiting Flag. Generated at compile time from
//! SplitMix64 with a fixed seed, so hashes are the same on every platform and every run.

use crate::rank::Rank;
use crate::rng::{GOLDEN_GAMMA, mix};
use crate::side::Side;
use crate::square::Square;

const SEED: u64 = 0x5a1_9a4a_2026;

/// Key of a piece: `PIECES[side][rank][square]`.
static PIECES: [[[u64; Square::NUM]; Rank::NUM]; 2] = {
    let mut keys = [[[0; Square::NUM]; Rank::NUM]; 2];
    let mut state = SEED;
    let mut side = 0;
    while side < 2 {
        let mut rank = 0;
        while rank < Rank::NUM {
            let mut square = 0;
            while square < Square::NUM {
                state = state.wrapping_add(GOLDEN_GAMMA);
                keys[side][rank][square] = mix(state);
                square += 1;
            }
            rank += 1;
        }
        side += 1;
    }
    keys
};

/// Key xored in while Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = mix(SEED.wrapping_sub(GOLDEN_GAMMA));

/// Key of a waiting Flag on each square.
pub(crate) const WAITING_FLAG: [u64; Square::NUM] = {
    let mut keys = [0; Square::NUM];
    let mut state = SEED ^ 0xffff_0000_ffff_0000;
    let mut square = 0;
    while square < Square::NUM {
        state = state.wrapping_add(GOLDEN_GAMMA);
        keys[square] = mix(state);
        square += 1;
    }
    keys
};

/// The key of one piece.
#[inline]
pub(crate) fn piece(side: Side, rank: Rank, square: Square) -> u64 {
    PIECES[side.index()][rank.index()][square.index()]
}
