//! A game's live events for its Server-Sent Events streams: the game's state after every
//! change and the engine's thinking after every completed iteration.
//!
//! The hub has a lock of its own, apart from the game's: the search reports from its worker
//! thread, and must never wait for the game, whose holder may be waiting for that very search
//! to end (stop, then wait).

use serde_json::Value;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Events a slow stream may have waiting before newer ones are dropped for it (each state
/// event is whole, so the next one puts a page right).
const BACKLOG: usize = 64;

/// How often an idle stream sends a comment, so that a closed connection is noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// The streams of one game, and the engine's latest iteration.
#[derive(Default)]
pub struct Hub {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    streams: Vec<SyncSender<String>>,
    analysis: Option<Value>,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere while the lock was held leaves plain data behind: still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new stream of this game's events.
    pub fn subscribe(&self) -> Receiver<String> {
        let (tx, rx) = sync_channel(BACKLOG);
        self.lock().streams.push(tx);
        rx
    }

    /// Sends `event` with `data` (one line of JSON) to every stream, forgetting closed ones.
    pub fn publish(&self, event: &str, data: &Value) {
        let message = format!("event: {event}\ndata: {data}\n\n");
        self.lock().streams.retain(|s| {
            !matches!(
                s.try_send(message.clone()),
                Err(TrySendError::Disconnected(_))
            )
        });
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

    /// Tells every stream that the game is gone (an event `gone`) and closes it. The
    /// connection itself stays until the client closes it, as the HTTP crate keeps it for
    /// the client's next request.
    pub fn close(&self) {
        self.publish("gone", &Value::Object(serde_json::Map::new()));
        self.lock().streams.clear();
    }
}

/// Writes the events of `events` to `out` until the hub closes the stream or the client goes
/// away. `out` is the raw connection after the response head.
pub fn pump(events: &Receiver<String>, out: &mut dyn Write) {
    loop {
        let chunk = match events.recv_timeout(KEEPALIVE) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => ": keepalive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if out
            .write_all(chunk.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_reach_every_open_stream_in_order() {
        let hub = Hub::default();
        let a = hub.subscribe();
        let b = hub.subscribe();
        drop(b);
        hub.publish("state", &json!({"v": 1}));
        hub.analysis(json!({"depth": 3}));
        assert_eq!(
            hub.lock().streams.len(),
            1,
            "the closed stream is forgotten"
        );
        assert_eq!(
            a.recv().expect("state"),
            "event: state\ndata: {\"v\":1}\n\n"
        );
        assert_eq!(
            a.recv().expect("info"),
            "event: info\ndata: {\"depth\":3}\n\n"
        );
        assert_eq!(hub.last_analysis(), Some(json!({"depth": 3})));
        hub.clear_analysis();
        assert_eq!(hub.last_analysis(), None);
        hub.close();
        let mut out = Vec::new();
        pump(&a, &mut out);
        assert_eq!(
            out, b"event: gone\ndata: {}\n\n",
            "a closed hub ends the stream"
        );
    }

    #[test]
    fn a_slow_stream_loses_events_not_memory() {
        let hub = Hub::default();
        let slow = hub.subscribe();
        for i in 0..BACKLOG + 10 {
            hub.publish("state", &json!(i));
        }
        assert_eq!(slow.try_iter().count(), BACKLOG);
    }
}
