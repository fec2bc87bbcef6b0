//! The tests that hold an engine's replies to tight time limits (a bound within a few times
//! of what the engine aims at) take turns: the suite runs tests side by side on a machine of
//! two cores, and two such tests at once would each measure the other's engine as much as
//! their own. Tests that only compute, or that wait, run beside them.

use std::sync::{Mutex, MutexGuard};

/// Held for the whole of a test whose assertions are tight reply times.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    // A failed test poisons the lock; the others should still run.
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}
