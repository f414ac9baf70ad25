//! The legal moves as `(from, to)` byte pairs: the bulk writer for bindings that hand moves to
//! another language (the C ABI's `SalpakanMove` is exactly such a pair).
//!
//! Two ways, one result: bit-scan loops everywhere, and on CPUs with AVX-512 (F, BW, VBMI2) a
//! branch-free writer. It lays the 288 candidate moves (4 directions × 72 target squares) out
//! as nine vectors of 32 pairs and compresses each down to the moves whose targets are set,
//! with one instruction. Bit-scan loops end after a number of steps that changes with every
//! position, and the branch predictor misses most of those ends; the compressing writer has
//! no such branch, which is what makes a fresh position's list cheap.
//!
//! The compressing writer stores whole vectors where the buffer has room for them, so pairs
//! past the count may be overwritten: a later read of a move is then served straight from the
//! store, where a masked store would make it wait.

use crate::bitboard::Bitboard;
use crate::square::Direction;

/// A buffer of move pairs, as many as a position can have.
pub(crate) type Pairs = [[u8; 2]; super::MoveList::CAPACITY];

/// Writes the moves of `own`'s pieces to `out` as `[from, to]` square indices, in the order of
/// [`super::generate`], and returns how many. The pairs past that count are unspecified.
#[inline(always)]
pub(crate) fn write(own: Bitboard, out: &mut Pairs) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx512) = avx512::Avx512::detect() {
        return avx512.write(own, out);
    }
    write_portable(super::all_targets(own), out)
}

/// The bit-scan writer.
#[inline(never)]
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
    use core::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_storeu_epi16, _mm512_maskz_compress_epi16,
        _mm512_storeu_si512,
    };
    use core::sync::atomic::{AtomicU8, Ordering};

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
            let has = x86_has!("avx512f", "avx512bw", "avx512vbmi2");
            HAS.store(if has { 2 } else { 1 }, Ordering::Relaxed);
            has.then_some(Avx512(()))
        }

        /// The compressing writer (see the module docs).
        #[inline]
        pub(crate) fn write(self, own: Bitboard, out: &mut Pairs) -> usize {
            // SAFETY: an `Avx512` exists only after `detect` found every feature `write_avx512`
            // enables.
            unsafe { write_avx512(own, out) }
        }
    }

    /// The 288 candidate moves, direction by direction (up, down, left, right) and by target
    /// square within each: entry `72 * direction + square` is the move that reaches target
    /// `square` in `direction`, as its `[from, to]` pair. Nine 32-pair vectors. Pairs whose
    /// start would be off the board are never selected (no own piece stands there), so their
    /// value does not matter.
    static MOVES: [[u8; 2]; 288] = moves_table();

    const fn moves_table() -> [[u8; 2]; 288] {
        let mut table = [[0u8; 2]; 288];
        let mut d = 0;
        while d < 4 {
            let back = Direction::ALL[d].index_delta();
            let mut to = 0;
            while to < 72 {
                table[72 * d + to] = [(to as i8 - back) as u8, to as u8];
                to += 1;
            }
            d += 1;
        }
        table
    }

    /// The four 72-bit target sets one after the other, in the order of `MOVES`, cut into
    /// nine 32-bit selection masks.
    #[inline(always)]
    fn stream(targets: [Bitboard; 4]) -> [u32; 9] {
        let mut words = [0u64; 5];
        for (d, targets) in targets.into_iter().enumerate() {
            // Direction d starts at bit 72d of the stream: bit 72d % 64 of word 72d / 64. Its
            // 72 bits shifted by less than 64 fit in 128, and spill into one more word.
            let (word, shift) = (72 * d / 64, 72 * d % 64);
            let bits = targets.bits() << shift;
            words[word] |= bits as u64;
            words[word + 1] |= (bits >> 64) as u64;
        }
        core::array::from_fn(|k| (words[k / 2] >> (32 * (k % 2))) as u32)
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
    fn write_avx512(own: Bitboard, out: &mut Pairs) -> usize {
        // The targets are computed here, in registers, rather than handed over in memory; each
        // vector's count is taken again where it is used, which is cheaper than keeping nine
        // counts alive across the stores.
        let masks = stream(super::super::all_targets(own));
        let total: u32 = masks.iter().map(|mask| mask.count_ones()).sum();
        if total as usize > out.len() {
            // Never for a position (21 pieces make at most 84 moves), kept for soundness.
            return too_many(own, out);
        }
        let base = out.as_mut_ptr().cast::<i16>();
        let mut len = 0usize;
        for (k, mask) in masks.into_iter().enumerate() {
            // SAFETY: `MOVES` holds nine 64-byte vectors, so vector `k` is in bounds. The
            // store is masked to the pairs this vector selects, written from pair `len` on;
            // the counts sum to `total <= out.len()`, so every lane stored is in `out`.
            unsafe {
                let moves = _mm512_loadu_si512(MOVES[32 * k..].as_ptr().cast::<__m512i>());
                let packed = _mm512_maskz_compress_epi16(mask, moves);
                if len + 32 <= out.len() {
                    _mm512_storeu_si512(base.add(len).cast::<__m512i>(), packed);
                } else {
                    let lanes = ((1u64 << mask.count_ones()) - 1) as u32;
                    _mm512_mask_storeu_epi16(base.add(len), lanes, packed);
                }
            }
            len += mask.count_ones() as usize;
        }
        len
    }

    /// The bit-scan writer for a set of pieces with more moves than a list holds, out of the
    /// way of the writer's registers.
    #[cold]
    #[inline(never)]
    fn too_many(own: Bitboard, out: &mut Pairs) -> usize {
        super::write_portable(super::super::all_targets(own), out)
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
        // Lists longer than 52 moves end in a vector with no room for a whole store.
        let mut long_lists = 0;
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
            // The pairs past the count may be overwritten; the moves are exact.
            // Nothing is written past the buffer: a canary right behind it stays as it was.
            #[repr(C)]
            struct Guarded {
                out: Pairs,
                canary: [u8; 128],
            }
            let mut guarded = Guarded {
                out: [[0xEE; 2]; super::super::MoveList::CAPACITY],
                canary: [0x5A; 128],
            };
            let n = write(own, &mut guarded.out);
            assert_eq!(&guarded.out[..n], expected.as_slice(), "{own:?}");
            assert!(guarded.canary.iter().all(|&b| b == 0x5A), "{own:?}");
            long_lists += usize::from(n > 52);
        }
        assert!(long_lists > 50, "{long_lists}");
    }
}
