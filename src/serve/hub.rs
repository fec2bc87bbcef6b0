//! A game's live events for its Server-Sent Events streams: the game's state after every
//! change and the engine's thinking after every completed iteration.
//!
//! The hub has a lock of its own, apart from the game's: the search reports from its worker
//! thread, and must never wait for the game, whose holder may be waiting for that very search
//! to end (stop, then wait). Publishing never waits either: each stream has a bounded queue
//! (tokio's channel, whose `try_send` needs no runtime), and a full queue drops the event.

use serde_json::Value;
use std::sync::{Mutex, MutexGuard};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::{Receiver, Sender, channel};

/// Events a slow stream may have waiting before newer ones are dropped for it (each state
/// event is whole, so the next one puts a page right).
pub const BACKLOG: usize = 64;

/// One event: its name (`state`, `info`, `gone`) and its data, one line of JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The event's name.
    pub event: String,
    /// The event's data.
    pub data: String,
}

/// The streams of one game, and the engine's latest iteration.
#[derive(Default)]
pub struct Hub {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    streams: Vec<Sender<Message>>,
    analysis: Option<Value>,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere while the lock was held leaves plain data behind: still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new stream of this game's events.
    pub fn subscribe(&self) -> Receiver<Message> {
        let (tx, rx) = channel(BACKLOG);
        self.lock().streams.push(tx);
        rx
    }

    /// Sends `event` with `data` to every stream, forgetting closed ones.
    pub fn publish(&self, event: &str, data: &Value) {
        let message = Message {
            event: event.to_string(),
            data: data.to_string(),
        };
        self.lock()
            .streams
            .retain(|s| !matches!(s.try_send(message.clone()), Err(TrySendError::Closed(_))));
    }

    /// Streams whose client is still there (a stream's receiver is dropped as soon as the
    /// server notices that its connection closed).
    pub fn watchers(&self) -> usize {
        let mut inner = self.lock();
        inner.streams.retain(|s| !s.is_closed());
        inner.streams.len()
    }

    /// Records and sends the engine's latest iteration.
    pub fn analysis(&self, info: Value) {
        self.publish("info", &info);
        self.lock().analysis = Some(info);
    }

    /// The engine's latest iteration, if any since [`Hub::clear_analysis`].
    pub fn last_analysis(&self) -> Option<Value> {
        self.lock().analysis.clone()
    }

    /// Forgets the latest iteration (a new search begins, or its position was taken back).
    pub fn clear_analysis(&self) {
        self.lock().analysis = None;
    }

    /// Tells every stream that the game is gone (an event `gone`) and ends it: with its
    /// sender dropped, the stream's response ends after the events already queued.
    pub fn close(&self) {
        self.publish("gone", &Value::Object(serde_json::Map::new()));
        self.lock().streams.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(event: &str, data: &str) -> Message {
        Message {
            event: event.into(),
            data: data.into(),
        }
    }

    #[test]
    fn events_reach_every_open_stream_in_order() {
        let hub = Hub::default();
        let mut a = hub.subscribe();
        let b = hub.subscribe();
        assert_eq!(hub.watchers(), 2);
        drop(b);
        assert_eq!(hub.watchers(), 1, "a closed stream is not a watcher");
        hub.publish("state", &json!({"v": 1}));
        hub.analysis(json!({"depth": 3}));
        assert_eq!(a.try_recv(), Ok(message("state", "{\"v\":1}")));
        assert_eq!(a.try_recv(), Ok(message("info", "{\"depth\":3}")));
        assert_eq!(hub.last_analysis(), Some(json!({"depth": 3})));
        hub.clear_analysis();
        assert_eq!(hub.last_analysis(), None);
        hub.close();
        assert_eq!(a.try_recv(), Ok(message("gone", "{}")));
        assert!(
            a.try_recv().is_err() && a.is_closed(),
            "a closed hub ends the stream"
        );
        assert_eq!(hub.watchers(), 0);
    }

    #[test]
    fn a_slow_stream_loses_events_not_memory() {
        let hub = Hub::default();
        let mut slow = hub.subscribe();
        for i in 0..BACKLOG + 10 {
            hub.publish("state", &json!(i));
        }
        let mut held = 0;
        while slow.try_recv().is_ok() {
            held += 1;
        }
        assert_eq!(held, BACKLOG);
        assert_eq!(hub.watchers(), 1, "a slow stream is still a watcher");
    }
}
