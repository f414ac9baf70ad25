//! Arguments from C: raw pointers checked into references and out-pointers, and integers
//! checked into the engine's values. Every check happens before anything is written.

use salpakan::bindings::ValueError;
use salpakan::{AgentKind, Move, Rank, Rules, Setup, Side, Square};

use crate::result::{Failure, FfiResult};
use crate::values::{SalpakanMove, SalpakanRules};

/// A shared reference from a pointer the caller promises is NULL or valid.
///
/// # Safety
/// `ptr` is NULL or points to a live, properly aligned `T` not mutated during the call.
pub(crate) unsafe fn arg_ref<'a, T>(ptr: *const T, name: &str) -> FfiResult<&'a T> {
    // SAFETY: the caller promises `ptr` is NULL or valid; NULL is handled by `as_ref`.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// A mutable reference from a pointer the caller promises is NULL or valid.
///
/// # Safety
/// `ptr` is NULL or points to a live, properly aligned `T` used by nothing else during the call.
pub(crate) unsafe fn arg_mut<'a, T>(ptr: *mut T, name: &str) -> FfiResult<&'a mut T> {
    // SAFETY: as above.
    unsafe { ptr.as_mut() }.ok_or_else(|| Failure::null(name))
}

/// An input array of `N` elements.
///
/// # Safety
/// `ptr` is NULL or points to `N` readable, initialized elements.
pub(crate) unsafe fn arg_array<'a, T, const N: usize>(
    ptr: *const T,
    name: &str,
) -> FfiResult<&'a [T; N]> {
    // SAFETY: the caller promises `N` readable elements at a non-null `ptr`, and `[T; N]` has
    // the alignment of `T`.
    unsafe { arg_ref(ptr.cast::<[T; N]>(), name) }
}

/// An output the caller promised is writable, checked non-null: writing it needs no further
/// promise.
pub(crate) struct OutPtr<T>(*mut T);

impl<T> OutPtr<T> {
    /// Writes the output.
    #[inline]
    pub(crate) fn write(self, value: T) {
        // SAFETY: non-null (checked by `out`), and writable for a `T` (the promise made to
        // `out`).
        unsafe { self.0.write(value) }
    }
}

/// Checks an output pointer without writing through it yet.
///
/// # Safety
/// `ptr` is NULL or points to memory writable for a `T` for the rest of the call.
#[inline]
pub(crate) unsafe fn out<T>(ptr: *mut T, name: &str) -> FfiResult<OutPtr<T>> {
    if ptr.is_null() {
        Err(Failure::null(name))
    } else {
        Ok(OutPtr(ptr))
    }
}

/// An optional output: `None` for NULL.
///
/// # Safety
/// As [`out`].
#[inline]
pub(crate) unsafe fn out_or_none<T>(ptr: *mut T) -> Option<OutPtr<T>> {
    (!ptr.is_null()).then_some(OutPtr(ptr))
}

/// Checks an output array of `N` elements without writing through it yet.
///
/// # Safety
/// `ptr` is NULL or points to `N` elements writable for the rest of the call.
#[inline]
pub(crate) unsafe fn out_array<T, const N: usize>(
    ptr: *mut T,
    name: &str,
) -> FfiResult<OutPtr<[T; N]>> {
    // SAFETY: forwarded; `[T; N]` has the alignment of `T`.
    unsafe { out(ptr.cast::<[T; N]>(), name) }
}

/// Writes `values` to the first elements of a caller's buffer.
///
/// # Safety
/// `ptr` is non-null and points to at least `values.len()` writable elements.
pub(crate) unsafe fn write_prefix<T: Copy>(ptr: *mut T, values: &[T]) {
    // SAFETY: the caller promises room for `values.len()` elements; the regions cannot
    // overlap because `values` is owned by the library.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), ptr, values.len()) }
}

/// A side from its C value.
pub(crate) fn side_arg(value: u8, name: &str) -> FfiResult<Side> {
    Side::from_number(value.into())
        .map_err(|e| argument(name, e, "SALPAKAN_WHITE or SALPAKAN_BLACK"))
}

/// A rank from its C value.
pub(crate) fn rank_arg(value: u8, name: &str) -> FfiResult<Rank> {
    Rank::from_number(value.into())
        .map_err(|e| argument(name, e, "SALPAKAN_RANK_FLAG .. SALPAKAN_RANK_SPY"))
}

/// An agent kind from its C value.
pub(crate) fn agent_kind_arg(value: u8, name: &str) -> FfiResult<AgentKind> {
    AgentKind::from_number(value.into()).map_err(|e| {
        argument(
            name,
            e,
            "SALPAKAN_AGENT_RANDOM, SALPAKAN_AGENT_GREEDY or SALPAKAN_AGENT_ISMCTS",
        )
    })
}

/// The failure for the argument `name`, refused by the engine with `error`; `constants` names
/// the header's constants for the accepted values.
#[cold]
#[inline(never)]
fn argument(name: &str, error: ValueError, constants: &str) -> Failure {
    Failure::of(
        error.kind(),
        format!("argument `{name}`: {error} ({constants})"),
    )
}

/// A move from its C value: both squares must be 0..71 (legality is checked by the game).
#[inline]
pub(crate) fn move_arg(mv: SalpakanMove) -> FfiResult<Move> {
    match (
        Square::try_index(usize::from(mv.from)),
        Square::try_index(usize::from(mv.to)),
    ) {
        (Some(from), Some(to)) => Ok(Move::new(from, to)),
        _ => Err(bad_move(mv)),
    }
}

/// Why `mv` names no squares: its first end that is not one.
#[cold]
#[inline(never)]
fn bad_move(mv: SalpakanMove) -> Failure {
    let (end, value) = if Square::try_index(usize::from(mv.from)).is_none() {
        ("from", mv.from)
    } else {
        ("to", mv.to)
    };
    let error = Square::from_number(value.into()).expect_err("not a square");
    Failure::of(
        error.kind(),
        format!("move.{end} is {value}: {error} (0 = a1 .. 71 = i8)"),
    )
}

/// Rules from their C value.
pub(crate) fn rules_arg(rules: &SalpakanRules) -> FfiResult<Rules> {
    Rules::new(rules.setup_rows, rules.move_limit)
        .map_err(|e| Failure::of(e.kind(), format!("rules.setup_rows: {e}")))
}

/// A setup from 72 cells of rank values or `SALPAKAN_NO_PIECE`.
///
/// # Safety
/// `cells` is NULL or points to 72 readable bytes.
pub(crate) unsafe fn setup_arg(
    cells: *const u8,
    side: Side,
    rules: Rules,
    name: &str,
) -> FfiResult<Setup> {
    // SAFETY: forwarded from the caller.
    let cells = unsafe { arg_array::<u8, { Square::NUM }>(cells, name) }?;
    Setup::from_cell_values(side, rules, cells)
        .map_err(|e| Failure::of(e.kind(), format!("`{name}`: {e}")))
}
