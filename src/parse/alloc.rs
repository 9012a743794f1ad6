//! The parser's memory, counted per thread, so a parse can be held to a
//! memory budget as well as a time budget (`parse::Budget`).
//!
//! tree-sitter allocates through four functions it lets us replace
//! ([`tree_sitter::set_allocator`]). Ours call mimalloc's (the binary's
//! global allocator too: `src/main.rs`) and add the size of each block
//! (`mi_usable_size`, which needs no header) to a counter of the calling
//! thread. A block the C library's allocator made before the switch is
//! known by its address (`mi_is_in_heap_region`) and goes back to the C
//! library. Under the fuzzer they call the C library's, which the
//! sanitizer watches. A parse runs on one thread, so the counter's growth
//! during an attempt is what that attempt holds; a block freed on another
//! thread (a discarded tree) is taken off that thread's counter, which only
//! ever compares its own differences.
//!
//! The count is deterministic for a given input, unlike time: the same text
//! stops at the same point however loaded the machine is.

use std::cell::Cell;

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

/// Bytes the parser holds that this thread allocated, less those it freed.
pub(super) fn live() -> i64 {
    LIVE.with(Cell::get)
}

/// Puts the counting functions in place, once, before any parser exists.
pub(super) fn install() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: the four functions are one family (mimalloc's, or
            // the C library's for its own blocks, through thin wrappers), never return null for a
            // non-zero size (they abort as tree-sitter's own do), and keep
            // malloc's alignment. `Once` runs this before the first parser of
            // any thread is made: every parser is made by `Parsers::new` or
            // after it, which calls this first.
            unsafe {
                tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                    malloc: counting::malloc,
                    calloc: counting::calloc,
                    realloc: counting::realloc,
                    free: counting::free,
                }))
            }
        });
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod counting {
    use super::{sys, LIVE};
    use std::ffi::c_void;

    fn usable(p: *mut c_void) -> i64 {
        if p.is_null() {
            return 0;
        }
        // SAFETY: `p` is a live block of this family.
        unsafe { sys::usable_size(p) as i64 }
    }

    fn add(n: i64) {
        LIVE.with(|c| c.set(c.get().wrapping_add(n)));
    }

    fn checked(p: *mut c_void, size: usize) -> *mut c_void {
        if p.is_null() && size != 0 {
            // What tree-sitter's own allocator does when memory runs out.
            std::process::abort();
        }
        p
    }

    pub(super) unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
        // SAFETY: a plain call of the allocator's malloc.
        let p = checked(unsafe { sys::malloc(size) }, size);
        add(usable(p));
        p
    }

    pub(super) unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
        // SAFETY: a plain call of the allocator's calloc (which checks the
        // product for overflow).
        let p = checked(unsafe { sys::calloc(n, size) }, n.saturating_mul(size));
        add(usable(p));
        p
    }

    pub(super) unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
        let before = usable(p);
        // SAFETY: `p` is null or a live block of this family, as the
        // caller's contract with realloc says.
        let q = checked(unsafe { sys::realloc(p, size) }, size);
        if !q.is_null() || size == 0 {
            add(usable(q) - before);
        }
        q
    }

    pub(super) unsafe extern "C" fn free(p: *mut c_void) {
        add(-usable(p));
        // SAFETY: `p` is null or a live block of this family.
        unsafe { sys::free(p) }
    }
}

/// The allocator behind the counting functions: mimalloc, whose small
/// blocks come from per-thread pages (a parse allocates millions of them:
/// with the C library's, a tenth of a pre-commit run was its arenas
/// growing a page at a time and faulting the pages in).
#[cfg(all(target_os = "linux", target_env = "gnu", not(fuzzing)))]
mod sys {
    use libmimalloc_sys as mi;
    use std::ffi::c_void;

    fn ours(p: *mut c_void) -> bool {
        // SAFETY: a lookup of the address in mimalloc's page map; it does
        // not read the block.
        unsafe { mi::mi_is_in_heap_region(p) }
    }

    pub(super) unsafe fn malloc(size: usize) -> *mut c_void {
        // SAFETY: a plain call.
        unsafe { mi::mi_malloc(size) }
    }

    pub(super) unsafe fn calloc(n: usize, size: usize) -> *mut c_void {
        // SAFETY: a plain call; it checks the product for overflow.
        unsafe { mi::mi_calloc(n, size) }
    }

    /// # Safety
    /// `p` is null or a live block of mimalloc or of the C library.
    pub(super) unsafe fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
        if p.is_null() || ours(p) {
            // SAFETY: `p` is null or mimalloc's.
            return unsafe { mi::mi_realloc(p, size) };
        }
        // SAFETY: `p` is the C library's.
        unsafe { libc::realloc(p, size) }
    }

    /// # Safety
    /// As `realloc`.
    pub(super) unsafe fn free(p: *mut c_void) {
        if p.is_null() || ours(p) {
            // SAFETY: `p` is null or mimalloc's.
            unsafe { mi::mi_free(p) }
        } else {
            // SAFETY: `p` is the C library's.
            unsafe { libc::free(p) }
        }
    }

    /// # Safety
    /// `p` is a live block of mimalloc or of the C library.
    pub(super) unsafe fn usable_size(p: *mut c_void) -> usize {
        if ours(p) {
            // SAFETY: `p` is mimalloc's.
            unsafe { mi::mi_usable_size(p) }
        } else {
            // SAFETY: `p` is the C library's.
            unsafe { libc::malloc_usable_size(p) }
        }
    }
}

/// Under the fuzzer: the C library's allocator, which the sanitizer
/// replaces and checks.
#[cfg(all(target_os = "linux", target_env = "gnu", fuzzing))]
mod sys {
    pub(super) use libc::{calloc, free, malloc, malloc_usable_size as usable_size, realloc};
}

/// Gives back to the system the memory the allocator holds free. Parsing
/// runs on worker threads, whose freed trees stay in their own pages, where
/// the rest of the run (on another thread) never reuses them: after 1 MB of
/// hostile input, the report was allocated on top of the 200 MB the tree
/// had left.
pub fn release_free_memory() {
    #[cfg(not(fuzzing))]
    // SAFETY: mi_collect only returns free memory to the system; it takes
    // no pointer.
    unsafe {
        libmimalloc_sys::mi_collect(true)
    }
    #[cfg(all(fuzzing, target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator's own
    // arenas to the system; it takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}
