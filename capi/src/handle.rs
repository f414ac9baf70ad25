//! Opaque handles: a Rust value boxed for C, handed out through an out-pointer, borrowed back
//! for a call, and freed once. The one place that turns boxes into pointers and back.

use crate::args::{OutPtr, arg_mut, arg_ref};
use crate::result::FfiResult;

/// A type C holds only by pointer (`SalpakanGame`, `SalpakanAgent`).
pub(crate) trait Handle: Sized {
    /// Boxes `self` and writes the new handle to `out` (checked non-null earlier).
    fn hand_out(self, out: OutPtr<*mut Self>) {
        out.write(Box::into_raw(Box::new(self)));
    }

    /// The handle as a new raw pointer, for the few calls that return it directly.
    fn into_raw(self) -> *mut Self {
        Box::into_raw(Box::new(self))
    }

    /// The value behind a handle C passed in, or `NULL_ARGUMENT` naming `name`.
    ///
    /// # Safety
    /// `ptr` is NULL or a live handle of this type, not mutated during the call.
    unsafe fn borrow<'a>(ptr: *const Self, name: &str) -> FfiResult<&'a Self> {
        // SAFETY: forwarded from the caller.
        unsafe { arg_ref(ptr, name) }
    }

    /// As [`Handle::borrow`], mutably.
    ///
    /// # Safety
    /// `ptr` is NULL or a live handle of this type, used by nothing else during the call.
    unsafe fn borrow_mut<'a>(ptr: *mut Self, name: &str) -> FfiResult<&'a mut Self> {
        // SAFETY: forwarded from the caller.
        unsafe { arg_mut(ptr, name) }
    }

    /// Frees a handle; NULL is a no-op.
    ///
    /// # Safety
    /// `ptr` is NULL or a handle made by [`Handle::hand_out`] or [`Handle::into_raw`], not yet
    /// freed and not used afterwards.
    unsafe fn free(ptr: *mut Self) {
        if !ptr.is_null() {
            // SAFETY: the caller hands back ownership of a pointer made by `Box::into_raw`.
            drop(unsafe { Box::from_raw(ptr) });
        }
    }
}
