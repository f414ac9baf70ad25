//! The panic boundary, result codes, the thread's last error, and the checks that turn raw
//! pointers and integers from C into Rust values.

use std::cell::{Cell, RefCell};
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::movegen::Move;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;

use super::values::{SALPAKAN_NO_PIECE, SalpakanMove, SalpakanRules};

/// The result of a fallible C ABI call: `SALPAKAN_RESULT_OK` or an error code.
pub type SalpakanResult = u32;

/// Success.
pub const SALPAKAN_RESULT_OK: SalpakanResult = 0;
/// A required pointer was NULL.
pub const SALPAKAN_RESULT_NULL_ARGUMENT: SalpakanResult = 1;
/// A value was out of range (an unknown side, rank, square or rule option).
pub const SALPAKAN_RESULT_INVALID_ARGUMENT: SalpakanResult = 2;
/// A setup broke the rules (counts, zone, or two pieces on a square).
pub const SALPAKAN_RESULT_INVALID_SETUP: SalpakanResult = 3;
/// The move is not legal in this position.
pub const SALPAKAN_RESULT_ILLEGAL_MOVE: SalpakanResult = 4;
/// The game has ended.
pub const SALPAKAN_RESULT_GAME_OVER: SalpakanResult = 5;
/// The output buffer is too small; the needed count or length was written.
pub const SALPAKAN_RESULT_BUFFER_TOO_SMALL: SalpakanResult = 6;
/// Text could not be parsed.
pub const SALPAKAN_RESULT_PARSE: SalpakanResult = 7;
/// A panic was caught at the boundary (a bug in the library).
pub const SALPAKAN_RESULT_PANIC: SalpakanResult = 8;

/// The names of the result codes, NUL-terminated, indexed by code.
pub(crate) const RESULT_NAMES: [&str; 9] = [
    "SALPAKAN_RESULT_OK\0",
    "SALPAKAN_RESULT_NULL_ARGUMENT\0",
    "SALPAKAN_RESULT_INVALID_ARGUMENT\0",
    "SALPAKAN_RESULT_INVALID_SETUP\0",
    "SALPAKAN_RESULT_ILLEGAL_MOVE\0",
    "SALPAKAN_RESULT_GAME_OVER\0",
    "SALPAKAN_RESULT_BUFFER_TOO_SMALL\0",
    "SALPAKAN_RESULT_PARSE\0",
    "SALPAKAN_RESULT_PANIC\0",
];

/// A failed call: its code and the message `salpakan_last_error` will return.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: SalpakanResult,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(code: SalpakanResult, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(SALPAKAN_RESULT_INVALID_ARGUMENT, message)
    }
}

pub(crate) type FfiResult<T> = Result<T, Failure>;

thread_local! {
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
    /// Whether `LAST_ERROR` holds a message: the one check every successful call makes.
    static HAS_ERROR: Cell<bool> = const { Cell::new(false) };
}

/// Forgets the thread's last error: one flag check when there is none, the case of every call
/// after a successful one.
#[inline(always)]
fn clear_last_error() {
    if HAS_ERROR.get() {
        set_last_error(None);
    }
}

#[cold]
#[inline(never)]
fn set_last_error(message: Option<String>) {
    HAS_ERROR.set(message.is_some());
    let message =
        message.map(|m| CString::new(m.replace('\0', " ")).unwrap_or_else(|_| c"error".to_owned()));
    LAST_ERROR.with(|cell| *cell.borrow_mut() = message);
}

/// The current thread's last error message, or NULL.
pub(crate) fn last_error_ptr() -> *const c_char {
    LAST_ERROR.with(|cell| {
        cell.borrow()
            .as_ref()
            .map_or(std::ptr::null(), |message| message.as_ptr())
    })
}

/// Runs `body` at the boundary: clears the thread's last error, catches any panic, and turns
/// a failure into its code and message.
#[inline(always)]
pub(crate) fn guard(body: impl FnOnce() -> FfiResult<()>) -> SalpakanResult {
    clear_last_error();
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => SALPAKAN_RESULT_OK,
        failed => report(failed),
    }
}

/// The code of a failed or panicked call, its message kept as the thread's last error.
#[cold]
#[inline(never)]
fn report(failed: std::thread::Result<FfiResult<()>>) -> SalpakanResult {
    let failure = match failed {
        Ok(Ok(())) => return SALPAKAN_RESULT_OK,
        Ok(Err(failure)) => failure,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Failure::new(
                SALPAKAN_RESULT_PANIC,
                format!("internal error (panic): {what}"),
            )
        }
    };
    set_last_error(Some(failure.message));
    failure.code
}

/// A shared reference from a pointer the caller promises is NULL or valid.
///
/// # Safety
/// `ptr` is NULL or points to a live, properly aligned `T` not mutated during the call.
pub(crate) unsafe fn arg_ref<'a, T>(ptr: *const T, name: &str) -> FfiResult<&'a T> {
    // SAFETY: the caller promises `ptr` is NULL or valid; NULL is handled by `as_ref`.
    unsafe { ptr.as_ref() }.ok_or_else(|| null(name))
}

/// A mutable reference from a pointer the caller promises is NULL or valid.
///
/// # Safety
/// `ptr` is NULL or points to a live, properly aligned `T` used by nothing else during the call.
pub(crate) unsafe fn arg_mut<'a, T>(ptr: *mut T, name: &str) -> FfiResult<&'a mut T> {
    // SAFETY: as above.
    unsafe { ptr.as_mut() }.ok_or_else(|| null(name))
}

/// An input array of `len` elements.
///
/// # Safety
/// `ptr` is NULL or points to `len` readable, initialized elements.
pub(crate) unsafe fn arg_slice<'a, T>(ptr: *const T, len: usize, name: &str) -> FfiResult<&'a [T]> {
    if ptr.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-null, and the caller promises `len` readable elements.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Checks an output pointer without writing through it yet.
pub(crate) fn out_ptr<T>(ptr: *mut T, name: &str) -> FfiResult<*mut T> {
    if ptr.is_null() {
        Err(null(name))
    } else {
        Ok(ptr)
    }
}

/// Writes an output value.
///
/// # Safety
/// `ptr` was checked by [`out_ptr`] and points to writable memory for a `T`.
pub(crate) unsafe fn write_out<T>(ptr: *mut T, value: T) {
    // SAFETY: the caller promises a valid, writable pointer.
    unsafe { ptr.write(value) }
}

/// Writes a slice of output values to an array.
///
/// # Safety
/// `ptr` is non-null and points to at least `values.len()` writable elements.
pub(crate) unsafe fn write_array<T: Copy>(ptr: *mut T, values: &[T]) {
    // SAFETY: the caller promises room for `values.len()` elements; the regions cannot
    // overlap because `values` is owned by the library.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), ptr, values.len()) }
}

pub(crate) fn null(name: &str) -> Failure {
    Failure::new(
        SALPAKAN_RESULT_NULL_ARGUMENT,
        format!("argument `{name}` is NULL"),
    )
}

/// A side from its C value.
pub(crate) fn side_arg(value: u8, name: &str) -> FfiResult<Side> {
    Side::try_index(usize::from(value)).ok_or_else(|| {
        Failure::invalid(format!(
            "argument `{name}` is {value}, which is not a side (0 = SALPAKAN_WHITE, 1 = SALPAKAN_BLACK)"
        ))
    })
}

/// A rank from its C value.
pub(crate) fn rank_arg(value: u8, name: &str) -> FfiResult<Rank> {
    Rank::try_index(usize::from(value)).ok_or_else(|| {
        Failure::invalid(format!(
            "argument `{name}` is {value}, which is not a rank (0 = SALPAKAN_RANK_FLAG .. 14 = SALPAKAN_RANK_SPY)"
        ))
    })
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
    Failure::invalid(format!(
        "move.{end} is {value}, which is not a square (0 = a1 .. 71 = i8)"
    ))
}

/// Rules from their C value.
pub(crate) fn rules_arg(rules: &SalpakanRules) -> FfiResult<Rules> {
    Rules::new(rules.setup_rows, rules.move_limit)
        .map_err(|e| Failure::invalid(format!("rules.setup_rows: {e}")))
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
    let cells = unsafe { arg_slice(cells, Square::NUM, name) }?;
    // Checked first, then converted without a branch per cell (a random formation's empty
    // cells are a coin toss for the branch predictor).
    let valid = |value: u8| usize::from(value) < Rank::NUM || value == SALPAKAN_NO_PIECE;
    if let Some((index, &value)) = cells.iter().enumerate().find(|(_, value)| !valid(**value)) {
        return Err(Failure::invalid(format!(
            "`{name}`[{index}] (square {}) is {value}, which is neither a rank (0..14) nor SALPAKAN_NO_PIECE (255)",
            Square::ALL[index]
        )));
    }
    let ranks: [Option<Rank>; Square::NUM] =
        std::array::from_fn(|i| Rank::try_index(usize::from(cells[i])));
    Setup::from_cells(side, rules, &ranks)
        .map_err(|e| Failure::new(SALPAKAN_RESULT_INVALID_SETUP, format!("`{name}`: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last_error() -> Option<String> {
        let ptr = last_error_ptr();
        // SAFETY: the pointer is NULL or the thread's live, NUL-terminated message.
        (!ptr.is_null()).then(|| {
            unsafe { CStr::from_ptr(ptr) }
                .to_string_lossy()
                .into_owned()
        })
    }

    #[test]
    fn a_panic_is_caught_and_reported() {
        let code = guard(|| panic!("boom at e4"));
        assert_eq!(code, SALPAKAN_RESULT_PANIC);
        assert_eq!(
            last_error().as_deref(),
            Some("internal error (panic): boom at e4")
        );
    }

    #[test]
    fn a_failure_sets_the_message_and_a_success_clears_it() {
        let code = guard(|| Err(Failure::invalid("argument `side` is 7")));
        assert_eq!(code, SALPAKAN_RESULT_INVALID_ARGUMENT);
        assert_eq!(last_error().as_deref(), Some("argument `side` is 7"));
        assert_eq!(guard(|| Ok(())), SALPAKAN_RESULT_OK);
        assert_eq!(last_error(), None);
    }

    #[test]
    fn a_message_with_a_nul_byte_is_still_delivered() {
        guard(|| Err(Failure::invalid("bad\0byte")));
        assert_eq!(last_error().as_deref(), Some("bad byte"));
    }

    #[test]
    fn every_result_code_has_its_name() {
        for (code, name) in RESULT_NAMES.iter().enumerate() {
            assert!(
                name.ends_with('\0') && name.starts_with("SALPAKAN_RESULT_"),
                "{code}"
            );
        }
        assert_eq!(RESULT_NAMES.len(), SALPAKAN_RESULT_PANIC as usize + 1);
    }
}
