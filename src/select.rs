//! Finding the `k`-th set bit of a 64-bit word, the heart of a random move's choice: by
//! broadword arithmetic everywhere, or by the PDEP instruction where the CPU has a fast one.
//! A [`Select`] value picks the way; the fast one can only be had from a run-time check, so
//! code that holds one may use the instruction.

/// A way to find the `k`-th (0-based) set bit of a word. If `k` is not below
/// `x.count_ones()` the result is meaningless but in `0..=64`.
pub(crate) trait Select: Copy {
    /// The position of the `k`-th set bit of `x`.
    fn select64(self, x: u64, k: u32) -> u32;
}

/// Broadword arithmetic: portable, branch-free.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Broadword;

impl Select for Broadword {
    #[inline(always)]
    fn select64(self, x: u64, k: u32) -> u32 {
        broadword_select64(x, k)
    }
}

/// The PDEP instruction (BMI2) on a CPU where it is fast: a proof, made only by
/// [`FastPdep::detect`], that the CPU has it.
#[derive(Debug, Clone, Copy)]
// Only x86-64 has PDEP: elsewhere `detect` says no and none is ever made.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct FastPdep(());

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl FastPdep {
    /// A `FastPdep` if this CPU has BMI2 with a fast PDEP: every Intel CPU with BMI2, and AMD's
    /// from family 25 (Zen 3) on; Zen 1 and 2 run PDEP in microcode, slower than broadword.
    #[inline]
    pub(crate) fn detect() -> Option<FastPdep> {
        #[cfg(target_arch = "x86_64")]
        {
            use core::sync::atomic::{AtomicU8, Ordering};
            // 0: not checked yet, 1: no, 2: yes.
            static FAST: AtomicU8 = AtomicU8::new(0);
            let known = FAST.load(Ordering::Relaxed);
            if known != 0 {
                return (known == 2).then_some(FastPdep(()));
            }
            let fast = x86_has!("bmi2") && !slow_pdep();
            FAST.store(if fast { 2 } else { 1 }, Ordering::Relaxed);
            fast.then_some(FastPdep(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }
}

/// Whether this is an AMD CPU before family 25, whose PDEP is microcoded.
#[cfg(target_arch = "x86_64")]
fn slow_pdep() -> bool {
    use core::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    if !amd {
        return false;
    }
    let eax = __cpuid(1).eax;
    let family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
    family < 25
}

impl Select for FastPdep {
    #[inline(always)]
    fn select64(self, x: u64, k: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `FastPdep` exists only after `detect` found BMI2 on this CPU.
            unsafe { core::arch::x86_64::_pdep_u64(1u64 << (k & 63), x) }.trailing_zeros()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            broadword_select64(x, k)
        }
    }
}

/// `SELECT_IN_BYTE[byte][k]`: the position of the `k`-th set bit of `byte` (8 if none).
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `k`-th (0-based) set bit of `x`, by broadword arithmetic (Vigna,
/// "Broadword implementation of rank/select queries", 2008): byte-wise popcounts, their prefix
/// sums in one multiply, a parallel comparison with `k` to find the byte, then a table for the
/// bit inside that byte. No branches, no popcount instruction needed. If `k` is not below
/// `x.count_ones()` the result is meaningless but in `0..=64`.
#[inline(always)]
fn broadword_select64(x: u64, k: u32) -> u32 {
    const ONES_STEP_4: u64 = 0x1111_1111_1111_1111;
    const ONES_STEP_8: u64 = 0x0101_0101_0101_0101;
    const MSBS_STEP_8: u64 = 0x80 * ONES_STEP_8;
    let mut s = x - ((x & (0xa * ONES_STEP_4)) >> 1);
    s = (s & (0x3 * ONES_STEP_4)) + ((s >> 2) & (0x3 * ONES_STEP_4));
    s = (s + (s >> 4)) & (0xf * ONES_STEP_8);
    let byte_sums = s.wrapping_mul(ONES_STEP_8);
    let k_step = (k as u64 & 0x7f).wrapping_mul(ONES_STEP_8);
    // Bytes whose running count is still <= k: their number is the index of k's byte.
    let leq = ((k_step | MSBS_STEP_8).wrapping_sub(byte_sums)) & MSBS_STEP_8;
    let place = (((leq >> 7).wrapping_mul(ONES_STEP_8) >> 56) * 8).min(56) as u32;
    let below = ((byte_sums << 8) >> place) & 0xff;
    let rank_in_byte = (k as u64).wrapping_sub(below) as usize & 7;
    place + SELECT_IN_BYTE[((x >> place) & 0xff) as usize][rank_in_byte] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ways_find_every_set_bit_of_many_words() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut words = vec![0, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001, 0xff00];
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            words.push(state & state.rotate_left(17));
        }
        for x in words {
            let naive: Vec<u32> = (0..64).filter(|b| x >> b & 1 == 1).collect();
            for (k, bit) in naive.iter().enumerate() {
                assert_eq!(Broadword.select64(x, k as u32), *bit, "x={x:#x} k={k}");
                if let Some(pdep) = FastPdep::detect() {
                    assert_eq!(pdep.select64(x, k as u32), *bit, "pdep: x={x:#x} k={k}");
                }
            }
        }
    }
}
