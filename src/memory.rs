//! The binary's allocator: mimalloc, with a second heap on each thread for
//! what a run keeps to its end.
//!
//! A cold run builds each file's facts among the file's tree, its bytes
//! and the extractor's scratch values, which it frees as soon as the file
//! is done. The facts it keeps (read back compacted: `cache::compacted`)
//! were allocated in the same pages as all that, one small block here and
//! there, and a page with one live block is a page the process still
//! holds: the first 32 rows of the real corpus ended their reading 30 MB
//! above a warm run that had decoded the same facts into fresh pages.
//! [`kept`] sends a thread's allocations to its own second heap while the
//! closure runs, so what is kept packs into pages of its own.
//!
//! Freed pages go back to the system after 10 ms ([`init`]), not the
//! second that mimalloc 3 waits by default: a run frees a file's tree and
//! scratch values every few milliseconds on each thread, and with the
//! second's delay the peak held some 30 MB of pages no one used any more
//! (a cold run of the first 32 rows: 180 MB against 149, for about 2% more
//! CPU; with no delay at all, 146 MB for 15% more).
//!
//! Without this allocator (the library's tests, the fuzzer), [`kept`] only
//! runs its closure.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// mimalloc's `mi_option_purge_delay` (the same in its `mimalloc.h` of
/// versions 2 and 3; the crate names no constant for it).
const PURGE_DELAY: mi::mi_option_t = 15;

thread_local! {
    /// Whether this thread's allocations go to its heap of kept values.
    static KEEPING: Cell<bool> = const { Cell::new(false) };
    /// This thread's heap of kept values, made at its first use.
    static KEPT: Cell<*mut mi::mi_heap_t> = const { Cell::new(std::ptr::null_mut()) };
}

/// Runs `f` with this thread's allocations in its heap of kept values.
pub fn kept<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the thread's choice back, also when `f` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let _ = KEEPING.try_with(|k| k.set(self.0));
        }
    }
    let _restore = Restore(KEEPING.with(|k| k.replace(true)));
    f()
}

/// Sets the allocator's options, first thing in `main`; a
/// `MIMALLOC_PURGE_DELAY` in the environment is left to rule.
pub fn init() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets an option's value; it takes no pointer.
        unsafe { mi::mi_option_set(PURGE_DELAY, 10) }
    }
}

/// The heap this thread allocates in now: `None` for mimalloc's default.
fn heap() -> Option<*mut mi::mi_heap_t> {
    if !KEEPING.try_with(Cell::get).unwrap_or(false) {
        return None;
    }
    KEPT.try_with(|h| {
        if h.get().is_null() {
            // SAFETY: makes a heap owned by this thread; it takes no
            // pointer. A heap's blocks outlive it and its thread (mimalloc
            // gives them to the thread's own heap).
            h.set(unsafe { mi::mi_heap_new() });
        }
        h.get()
    })
    .ok()
    .filter(|h| !h.is_null())
}

/// mimalloc, with [`kept`]'s heap.
pub struct Allocator;

// SAFETY: every block comes from mimalloc with the layout's size and
// alignment, and goes back to it (`mi_free` takes a block of any heap and
// any thread); a heap is used only by the thread that made it.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match heap() {
            // SAFETY: the heap is this thread's ([`heap`]).
            Some(h) => unsafe { mi::mi_heap_malloc_aligned(h, layout.size(), layout.align()) },
            // SAFETY: as mimalloc's own `GlobalAlloc`.
            None => unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) },
        }
        .cast()
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match heap() {
            // SAFETY: the heap is this thread's ([`heap`]).
            Some(h) => unsafe { mi::mi_heap_zalloc_aligned(h, layout.size(), layout.align()) },
            // SAFETY: as mimalloc's own `GlobalAlloc`.
            None => unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()) },
        }
        .cast()
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` is a live block of mimalloc (the caller's contract).
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = ptr.cast::<c_void>();
        match heap() {
            // SAFETY: the heap is this thread's; `ptr` is a live block of
            // mimalloc of `layout` (the caller's contract).
            Some(h) => unsafe { mi::mi_heap_realloc_aligned(h, p, new_size, layout.align()) },
            // SAFETY: as mimalloc's own `GlobalAlloc`.
            None => unsafe { mi::mi_realloc_aligned(p, new_size, layout.align()) },
        }
        .cast()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of either heap are written, grown and freed through the one
    /// allocator, from the thread that made them or another.
    #[test]
    fn blocks_of_both_heaps_grow_and_free_anywhere() {
        let a = Allocator;
        let layout = Layout::from_size_align(24, 8).unwrap();
        let (outside, inside) = unsafe {
            let outside = a.alloc(layout);
            let inside = kept(|| a.alloc_zeroed(layout));
            (outside, inside)
        };
        assert!(!outside.is_null() && !inside.is_null());
        assert!(
            !KEEPING.with(Cell::get),
            "kept puts the thread's choice back"
        );
        unsafe {
            assert_eq!(*inside.add(23), 0);
            inside.write_bytes(7, 24);
            let grown = kept(|| a.realloc(inside, layout, 4096));
            assert_eq!(*grown.add(23), 7, "a grown block keeps its bytes");
            a.dealloc(outside, layout);
            let addr = grown as usize;
            std::thread::spawn(move || {
                Allocator.dealloc(addr as *mut u8, Layout::from_size_align(4096, 8).unwrap())
            })
            .join()
            .unwrap();
        }
    }

    #[test]
    fn kept_puts_the_choice_back_when_its_closure_unwinds() {
        let r = std::panic::catch_unwind(|| kept(|| panic!("decode failed")));
        assert!(r.is_err());
        assert!(!KEEPING.with(Cell::get));
        assert_eq!(kept(|| kept(|| 1) + 1), 2);
        assert!(!KEEPING.with(Cell::get));
    }
}
