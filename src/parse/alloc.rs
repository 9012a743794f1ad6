//! The parser's memory, counted per thread, so a parse can be held to a
//! memory budget as well as a time budget (`parse::Budget`).
//!
//! tree-sitter allocates through four functions it lets us replace
//! ([`tree_sitter::set_allocator`]). Ours call the C library's own and add
//! the size of each block (`malloc_usable_size`, which needs no header, so a
//! block allocated before the switch is freed correctly too) to a counter of
//! the calling thread. A parse runs on one thread, so the counter's growth
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
            // SAFETY: the four functions are one family (the C library's
            // malloc, through thin wrappers), never return null for a
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
    use super::LIVE;
    use std::ffi::c_void;

    fn usable(p: *mut c_void) -> i64 {
        if p.is_null() {
            return 0;
        }
        // SAFETY: `p` is a live block from the C library's malloc family.
        unsafe { libc::malloc_usable_size(p) as i64 }
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
        // SAFETY: a plain call of the C library's malloc.
        let p = checked(unsafe { libc::malloc(size) }, size);
        add(usable(p));
        p
    }

    pub(super) unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
        // SAFETY: a plain call of the C library's calloc (which checks the
        // product for overflow).
        let p = checked(unsafe { libc::calloc(n, size) }, n.saturating_mul(size));
        add(usable(p));
        p
    }

    pub(super) unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
        let before = usable(p);
        // SAFETY: `p` is null or a live block of this family, as the
        // caller's contract with realloc says.
        let q = checked(unsafe { libc::realloc(p, size) }, size);
        if !q.is_null() || size == 0 {
            add(usable(q) - before);
        }
        q
    }

    pub(super) unsafe extern "C" fn free(p: *mut c_void) {
        add(-usable(p));
        // SAFETY: `p` is null or a live block of this family.
        unsafe { libc::free(p) }
    }
}

/// Gives back to the system the memory the C library holds free. Parsing
/// runs on worker threads, whose freed trees stay in their own arenas of
/// the C library's allocator, where the rest of the run (on another
/// thread) never reuses them: after 1 MB of hostile input, the report was
/// allocated on top of the 200 MB the tree had left.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator's own
    // arenas to the system; it takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}
