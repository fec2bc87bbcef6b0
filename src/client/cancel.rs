//! Calling off waits on engines from outside: a front end's own stop flag, or Ctrl-C.

use super::interrupt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A way to call off waits from outside: the match's own stop flag, or Ctrl-C. Clones share
/// the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Sets the flag: every wait on engines returns [`Failure::Cancelled`] soon after.
    ///
    /// [`Failure::Cancelled`]: super::Failure::Cancelled
    pub fn set(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the flag is set or an interrupt has arrived.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst) || interrupt::interrupted()
    }
}
