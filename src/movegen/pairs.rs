//! The legal moves as `(from, to)` byte pairs: the bulk writer for bindings that hand moves to
//! another language (the C ABI's `SalpakanMove` is exactly such a pair).
//!
//! Two ways, one result: bit-scan loops everywhere, and on CPUs with AVX-512 (F, BW, VBMI2) a
//! branch-free writer that compresses a table of the 32 moves into each 32 target squares down
//! to the moves whose targets are set, with one instruction. Bit-scan loops end after a number of steps that changes with every
//! position, and the branch predictor misses most of those ends; the compressing writer has
//! no such branch, which is what makes a fresh position's list cheap.

use crate::bitboard::Bitboard;
use crate::square::Direction;

/// A buffer of move pairs, as many as a position can have.
pub(crate) type Pairs = [[u8; 2]; super::MoveList::CAPACITY];

/// Writes the moves of `own`'s pieces to `out` as `[from, to]` square indices, in the order of
/// [`super::generate`], and returns how many.
#[inline]
pub(crate) fn write(own: Bitboard, out: &mut Pairs) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx512) = avx512::Avx512::detect() {
        return avx512.write(super::all_targets(own), out);
    }
    write_portable(super::all_targets(own), out)
}

/// The bit-scan writer.
fn write_portable(targets: [Bitboard; 4], out: &mut Pairs) -> usize {
    let mut len = 0;
    for (direction, targets) in Direction::ALL.into_iter().zip(targets) {
        let back = direction.index_delta();
        let bits = targets.bits();
        for (mut word, base) in [(bits as u64, 0u8), ((bits >> 64) as u64, 64)] {
            while word != 0 {
                let to = base + word.trailing_zeros() as u8;
                if let Some(slot) = out.get_mut(len) {
                    *slot = [(to as i8 - back) as u8, to];
                }
                len += 1;
                word &= word - 1;
            }
        }
    }
    len.min(out.len())
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_storeu_epi16, _mm512_maskz_compress_epi16,
    };
    use std::sync::atomic::{AtomicU8, Ordering};

    use super::{Bitboard, Direction, Pairs};

    /// Proof that the CPU has AVX-512 F, BW and VBMI2: made only by [`Avx512::detect`].
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Avx512(());

    impl Avx512 {
        /// An `Avx512` if this CPU has the instructions the writer uses.
        #[inline]
        pub(crate) fn detect() -> Option<Avx512> {
            // 0: not checked yet, 1: no, 2: yes.
            static HAS: AtomicU8 = AtomicU8::new(0);
            let known = HAS.load(Ordering::Relaxed);
            if known != 0 {
                return (known == 2).then_some(Avx512(()));
            }
            let has = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vbmi2");
            HAS.store(if has { 2 } else { 1 }, Ordering::Relaxed);
            has.then_some(Avx512(()))
        }

        /// The compressing writer (see the module docs).
        #[inline]
        pub(crate) fn write(self, targets: [Bitboard; 4], out: &mut Pairs) -> usize {
            // SAFETY: an `Avx512` exists only after `detect` found every feature `write_avx512`
            // enables.
            unsafe { write_avx512(targets, out) }
        }
    }

    /// `MOVES[direction][square]`: the move that reaches target `square` in `direction`, as
    /// its `[from, to]` pair (squares 0..72, then padding to 96 pairs: three 32-pair vectors).
    /// Pairs whose start would be off the board are never selected (no own piece stands
    /// there), so their value does not matter.
    static MOVES: [[[u8; 2]; 96]; 4] = moves_table();

    const fn moves_table() -> [[[u8; 2]; 96]; 4] {
        let mut table = [[[0u8; 2]; 96]; 4];
        let mut d = 0;
        while d < 4 {
            let back = Direction::ALL[d].index_delta();
            let mut to = 0;
            while to < 72 {
                table[d][to] = [(to as i8 - back) as u8, to as u8];
                to += 1;
            }
            d += 1;
        }
        table
    }

    /// The mask of the first `pairs` 16-bit lanes (0 to 32) of a store.
    #[inline(always)]
    fn first_lanes(pairs: u32) -> u32 {
        if pairs >= 32 {
            u32::MAX
        } else {
            (1u32 << pairs) - 1
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
    fn write_avx512(targets: [Bitboard; 4], out: &mut Pairs) -> usize {
        let base = out.as_mut_ptr().cast::<i16>();
        let mut len = 0usize;
        for (d, targets) in targets.into_iter().enumerate() {
            let bits = targets.bits();
            // Squares 0..32, 32..64 and 64..72 (the last vector's other lanes are never set).
            for (part, mask) in [bits as u32, (bits >> 32) as u32, (bits >> 64) as u32]
                .into_iter()
                .enumerate()
            {
                // SAFETY: `MOVES[d]` holds 96 pairs, so each of its three 64-byte vectors is
                // in bounds. The store is masked to the `count` pairs it writes, which end
                // within `out`: `len` counts the moves written so far, and a position has at
                // most `out.len()` moves (`count` is clamped to the room left all the same).
                unsafe {
                    let moves =
                        _mm512_loadu_si512(MOVES[d][32 * part..].as_ptr().cast::<__m512i>());
                    let packed = _mm512_maskz_compress_epi16(mask, moves);
                    let count = mask
                        .count_ones()
                        .min((out.len() - len.min(out.len())) as u32);
                    _mm512_mask_storeu_epi16(base.add(len), first_lanes(count), packed);
                    len += count as usize;
                }
            }
        }
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Random sets of own pieces: both writers give the same pairs as the move list.
    #[test]
    fn every_writer_gives_the_move_list() {
        let mut rng = SplitMix64::new(17);
        for round in 0..3000 {
            let mut own = Bitboard::EMPTY;
            let pieces = 1 + rng.below(21);
            for _ in 0..pieces {
                own = own.with(crate::square::Square::clamped(rng.below(72) as u8));
            }
            if round == 0 {
                own = Bitboard::FULL; // no moves at all
            }
            let expected: Vec<[u8; 2]> = super::super::list(own)
                .iter()
                .map(|mv| [mv.from.index() as u8, mv.to.index() as u8])
                .collect();
            let mut out = [[0xEEu8; 2]; super::super::MoveList::CAPACITY];
            let n = write_portable(super::super::all_targets(own), &mut out);
            assert_eq!(&out[..n], expected.as_slice());
            assert!(out[n..].iter().all(|pair| *pair == [0xEE; 2]));
            // Only the moves are written: the rest of the buffer keeps what it held.
            let mut out = [[0xEEu8; 2]; super::super::MoveList::CAPACITY];
            let n = write(own, &mut out);
            assert_eq!(&out[..n], expected.as_slice(), "{own:?}");
            assert!(out[n..].iter().all(|pair| *pair == [0xEE; 2]), "{own:?}");
        }
    }
}
