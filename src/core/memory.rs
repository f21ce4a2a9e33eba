//! Giving memory back to the OS after a large answer: glibc's allocator keeps the pages of
//! freed blocks for reuse, so a console that showed 100,000 assets would otherwise hold their
//! memory long after the listing is closed.

/// A listing this long (some megabytes of answer) is worth giving its memory back for.
pub const BIG_LISTING: usize = 10_000;

/// Returns the allocator's free pages to the OS, on a thread of its own (trimming walks every
/// arena and must not stall the window). Elsewhere than glibc it does nothing: the Windows
/// heap and macOS' allocator give large freed blocks back on their own.
pub fn give_back_soon() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let spawned = std::thread::Builder::new()
            .name("license-desk-trim".into())
            .spawn(give_back);
        if let Err(e) = spawned {
            tracing::debug!("memory not given back: {e}");
        }
    }
}

/// Returns the allocator's free pages to the OS now.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory; it takes the allocator's own locks and is
    // safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
