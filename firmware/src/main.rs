//! The firmware: the crate without `std` on a Cortex-M4F, playing the seeded game of
//! [`salpakan_firmware::play`] to its end and writing every ply through semihosting, then
//! what it used: the heap's peak (a counting allocator) and the stack's (a painted region).
//!
//! `cargo run --release --features device` in `firmware/` runs it on QEMU's mps2-an386;
//! `scripts/test-firmware` compares its game with the host's.

#![no_std]
#![no_main]

use core::alloc::{GlobalAlloc, Layout};
use core::fmt::{self, Write};
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicUsize, Ordering};

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hio};
use embedded_alloc::LlffHeap;

/// The heap's size: what a small microcontroller spares (the game's peak is well below).
const HEAP_SIZE: usize = 32 * 1024;

/// How far below the stack pointer at entry the stack is painted, to measure its peak.
const STACK_PAINTED: usize = 32 * 1024;

/// The word painted on the stack's unused memory.
const PAINT: u32 = 0x5a5a_a5a5;

/// The heap, with the bytes in use and their peak counted.
struct Counted {
    heap: LlffHeap,
    used: AtomicUsize,
    peak: AtomicUsize,
}

// SAFETY: every call goes to the heap's own allocator; the counters only add and subtract the
// sizes it was asked for.
unsafe impl GlobalAlloc for Counted {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's promises are passed on as they are.
        let block = unsafe { self.heap.alloc(layout) };
        if !block.is_null() {
            let used = self.used.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            self.peak.fetch_max(used, Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        self.used.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's promises are passed on as they are.
        unsafe { self.heap.dealloc(block, layout) }
    }
}

#[global_allocator]
static HEAP: Counted = Counted {
    heap: LlffHeap::empty(),
    used: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

/// Semihosting's standard output, a line at a time (each write to the host is a trap).
struct Lines {
    host: hio::HostStream,
    line: [u8; 160],
    len: usize,
}

impl Lines {
    fn flush(&mut self) -> fmt::Result {
        let written = self.host.write_all(&self.line[..self.len]);
        self.len = 0;
        written.map_err(|_| fmt::Error)
    }
}

impl Write for Lines {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &byte in s.as_bytes() {
            if self.len == self.line.len() {
                self.flush()?;
            }
            self.line[self.len] = byte;
            self.len += 1;
            if byte == b'\n' {
                self.flush()?;
            }
        }
        Ok(())
    }
}

#[entry]
fn main() -> ! {
    static mut MEMORY: [MaybeUninit<u8>; HEAP_SIZE] = [MaybeUninit::uninit(); HEAP_SIZE];
    // SAFETY: `MEMORY` is this heap's alone (`entry` makes it a `&'static mut` taken once),
    // given to it before the first allocation.
    unsafe { HEAP.heap.init(MEMORY.as_mut_ptr() as usize, HEAP_SIZE) };
    let painted = paint_stack();
    let Ok(host) = hio::hstdout() else {
        debug::exit(debug::EXIT_FAILURE);
        unreachable!("semihosting exits");
    };
    let mut out = Lines {
        host,
        line: [0; 160],
        len: 0,
    };
    let played = salpakan_firmware::play(salpakan_firmware::SEED, &mut out);
    let stack = stack_peak(painted);
    let said = writeln!(
        out,
        "device: heap peak {} bytes of {HEAP_SIZE}, stack peak {stack} bytes",
        HEAP.peak.load(Ordering::Relaxed)
    );
    let ok = played.is_ok() && said.is_ok();
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    unreachable!("semihosting exits");
}

unsafe extern "C" {
    /// The stack's start, the top of RAM (cortex-m-rt's linker script defines it).
    static _stack_start: u32;
}

/// Paints [`STACK_PAINTED`] bytes below the current stack pointer (less a margin for this
/// function's own frame) with [`PAINT`]; returns the painted region's lowest and highest
/// addresses.
#[inline(never)]
fn paint_stack() -> (usize, usize) {
    let top = cortex_m::register::msp::read() as usize - 256;
    let bottom = top - STACK_PAINTED;
    for at in (bottom..top).step_by(4) {
        // SAFETY: the region lies below the live stack, in RAM far above the statics and the
        // heap (the stack starts at the top of mps2-an386's 4 MiB of SRAM), and nothing lives
        // there yet.
        unsafe { core::ptr::write_volatile(at as *mut u32, PAINT) };
    }
    (bottom, top)
}

/// The stack's peak since reset: from its start down to the lowest painted word that was
/// overwritten (found from the bottom of the painted region up).
fn stack_peak((bottom, top): (usize, usize)) -> usize {
    let mut at = bottom;
    // SAFETY: the painted region of `paint_stack`, read back a word at a time.
    while at < top && unsafe { core::ptr::read_volatile(at as *const u32) } == PAINT {
        at += 4;
    }
    // Only the symbol's address is taken, never its value.
    let start = core::ptr::addr_of!(_stack_start) as usize;
    start - at
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
