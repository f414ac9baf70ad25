//! The panic boundary and the thread's last error: every exported function's body runs inside
//! [`guard`], which clears the last error, catches any panic, and turns a failure into its
//! code and message.

use std::cell::{Cell, RefCell};
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::result::{Failure, FfiResult, SalpakanResult};

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
        Ok(Ok(())) => SalpakanResult::Ok,
        failed => report(failed),
    }
}

/// The code of a failed or panicked call, its message kept as the thread's last error.
#[cold]
#[inline(never)]
fn report(failed: std::thread::Result<FfiResult<()>>) -> SalpakanResult {
    let failure = match failed {
        Ok(Ok(())) => return SalpakanResult::Ok,
        Ok(Err(failure)) => failure,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Failure::new(
                SalpakanResult::Panic,
                format!("internal error (panic): {what}"),
            )
        }
    };
    set_last_error(Some(failure.message));
    failure.code
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
        assert_eq!(code, SalpakanResult::Panic);
        assert_eq!(
            last_error().as_deref(),
            Some("internal error (panic): boom at e4")
        );
    }

    #[test]
    fn a_failure_sets_the_message_and_a_success_clears_it() {
        let code = guard(|| Err(Failure::invalid("argument `side` is 7")));
        assert_eq!(code, SalpakanResult::InvalidArgument);
        assert_eq!(last_error().as_deref(), Some("argument `side` is 7"));
        assert_eq!(guard(|| Ok(())), SalpakanResult::Ok);
        assert_eq!(last_error(), None);
    }

    #[test]
    fn a_message_with_a_nul_byte_is_still_delivered() {
        guard(|| Err(Failure::invalid("bad\0byte")));
        assert_eq!(last_error().as_deref(), Some("bad byte"));
    }
}
