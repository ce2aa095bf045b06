//! The counting allocator of the allocation tests: a `GlobalAlloc` that forwards to `System`
//! and counts, per thread, the calls to `alloc` and `realloc` and the bytes they ask for.
//!
//! A test binary installs it with
//! `#[global_allocator] static A: stitch_tests::alloc::Counting = stitch_tests::alloc::Counting;`
//! and measures a closure with [`measure`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// A `GlobalAlloc` that counts what each thread asks for; see the module docs.
pub struct Counting;

/// What a thread asked the allocator for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Calls to `alloc` and `realloc`.
    pub allocations: usize,
    /// Bytes requested: the size of each `alloc`, the new size of each `realloc`.
    pub bytes: usize,
}

thread_local! {
    // `const` initializers: the counters themselves never allocate.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

/// Adds one call of `bytes` to this thread's counts (`try_with`: a thread being torn down
/// still allocates, and is not counted).
fn count(bytes: usize) {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    let _ = BYTES.try_with(|n| n.set(n.get() + bytes));
}

fn now() -> Counts {
    Counts {
        allocations: ALLOCATIONS.with(Cell::get),
        bytes: BYTES.with(Cell::get),
    }
}

// SAFETY: forwards to `System`; the counters are thread-local `Cell`s that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f`, returning its result and what it asked the allocator for on this thread.
///
/// # Panics
/// When [`Counting`] is not the global allocator: every count would then be zero, and a test
/// that asserts "nothing allocated" could not fail.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Counts) {
    let before = now();
    drop(std::hint::black_box(Box::new(0u64)));
    let probed = now();
    assert!(
        probed.allocations > before.allocations,
        "stitch_tests::alloc::Counting is not this binary's #[global_allocator]"
    );
    let r = f();
    let after = now();
    let counts = Counts {
        allocations: after.allocations - probed.allocations,
        bytes: after.bytes - probed.bytes,
    };
    (r, counts)
}
