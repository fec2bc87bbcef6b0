//! A queue from a reader thread to the client, bounded in bytes: when it holds
//! [`LineQueue::new`]'s budget, the reader blocks, so the engine blocks on its own full pipe
//! (its problem) while the client's deadlines still run. A channel bounded in lines would not
//! do: a line may hold up to [`crate::io::MAX_LINE_BYTES`].

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// What is queued, and whether either end has gone.
struct State<T> {
    items: VecDeque<(T, usize)>,
    bytes: usize,
    sender_gone: bool,
    receiver_gone: bool,
}

struct Shared<T> {
    state: Mutex<State<T>>,
    changed: Condvar,
    budget: usize,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // Nothing panics while holding the lock; a poisoned one is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The reader's end.
pub struct QueueSender<T>(Arc<Shared<T>>);

/// The client's end.
pub struct QueueReceiver<T>(Arc<Shared<T>>);

/// A receive that found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Empty {
    /// Nothing arrived in time.
    Timeout,
    /// Nothing is queued and the sender is gone.
    Disconnected,
}

/// A new queue that holds at most `budget` bytes (as the sender counts them), or one item
/// of any size.
pub fn line_queue<T>(budget: usize) -> (QueueSender<T>, QueueReceiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            bytes: 0,
            sender_gone: false,
            receiver_gone: false,
        }),
        changed: Condvar::new(),
        budget,
    });
    (QueueSender(Arc::clone(&shared)), QueueReceiver(shared))
}

impl<T> QueueSender<T> {
    /// Queues `item`, counted as `bytes`, waiting while the queue is full.
    ///
    /// # Errors
    ///
    /// The item back if the receiver is gone.
    pub fn send(&self, item: T, bytes: usize) -> Result<(), T> {
        let shared = &self.0;
        let mut state = shared.lock();
        // An empty queue takes any item, so that no single line can block forever.
        while !state.receiver_gone
            && !state.items.is_empty()
            && state.bytes.saturating_add(bytes) > shared.budget
        {
            state = shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.receiver_gone {
            return Err(item);
        }
        state.bytes += bytes;
        state.items.push_back((item, bytes));
        shared.changed.notify_all();
        Ok(())
    }
}

impl<T> Drop for QueueSender<T> {
    fn drop(&mut self) {
        self.0.lock().sender_gone = true;
        self.0.changed.notify_all();
    }
}

impl<T> QueueReceiver<T> {
    /// The next item, waiting up to `timeout`.
    ///
    /// # Errors
    ///
    /// [`Empty::Timeout`] if nothing arrived, [`Empty::Disconnected`] if nothing will.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<T, Empty> {
        let shared = &self.0;
        let until = Instant::now() + timeout;
        let mut state = shared.lock();
        loop {
            if let Some((item, bytes)) = state.items.pop_front() {
                state.bytes -= bytes;
                shared.changed.notify_all();
                return Ok(item);
            }
            if state.sender_gone {
                return Err(Empty::Disconnected);
            }
            let now = Instant::now();
            if now >= until {
                return Err(Empty::Timeout);
            }
            state = shared
                .changed
                .wait_timeout(state, until - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Everything queued now, at once (a reader that keeps sending cannot make this last).
    pub fn take_all(&self) -> Vec<T> {
        let mut state = self.0.lock();
        state.bytes = 0;
        let items = state.items.drain(..).map(|(item, _)| item).collect();
        self.0.changed.notify_all();
        items
    }
}

impl<T> Drop for QueueReceiver<T> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.receiver_gone = true;
        state.items.clear();
        state.bytes = 0;
        self.0.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sender_waits_while_the_budget_is_spent() {
        let (tx, rx) = line_queue::<usize>(10);
        tx.send(1, 6).expect("room");
        // Over the budget: the sender blocks until the receiver takes something.
        let sender = std::thread::spawn(move || {
            tx.send(2, 6).expect("room after a receive");
            // An empty queue takes an item over the budget.
            tx.send(3, 100).is_ok()
        });
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(rx.0.lock().items.len(), 1, "the second item waits");
        assert_eq!(rx.recv_timeout(Duration::from_secs(5)), Ok(1));
        assert_eq!(rx.recv_timeout(Duration::from_secs(5)), Ok(2));
        assert_eq!(rx.recv_timeout(Duration::from_secs(5)), Ok(3));
        assert!(sender.join().expect("no panic"));
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(10)),
            Err(Empty::Disconnected)
        );
    }

    #[test]
    fn a_blocked_sender_is_released_when_the_receiver_goes() {
        let (tx, rx) = line_queue::<u8>(1);
        tx.send(0, 1).expect("room");
        let sender = std::thread::spawn(move || tx.send(1, 1));
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(rx.take_all(), vec![0]);
        drop(rx);
        // The second send went through after take_all, or fails now: either way it returns.
        let _ = sender.join().expect("no panic");
        let (tx, rx) = line_queue::<u8>(1);
        tx.send(0, 1).expect("room");
        let sender = std::thread::spawn(move || tx.send(1, 1));
        std::thread::sleep(Duration::from_millis(20));
        drop(rx);
        assert_eq!(sender.join().expect("no panic"), Err(1));
        let (_, rx) = line_queue::<u8>(1);
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(1)),
            Err(Empty::Disconnected)
        );
    }
}
