//! The games the server holds, at most a set number, and the driver thread that hears of
//! finished searches and due computer moves and hands them to their games.

use super::game::{Context, Game, Slots, Wake};
use super::setup::Setup;
use crate::engine::Engine;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The server's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Games held at once; a new game beyond it replaces the one least recently used.
    pub games: usize,
    /// Searches running at once, over all games.
    pub searches: usize,
    /// The longest an engine may think about one move, in ms.
    pub movetime_ms: u64,
    /// Each game's table, in MB.
    pub hash_mb: usize,
    /// How long a game may go unwatched (no event stream, no request) before its engine
    /// stops ([`super::game::Game::rest_if_unwatched`]).
    pub unwatched: Duration,
}

/// How often the driver looks for unwatched games, at most.
const UNWATCHED_CHECK: Duration = Duration::from_secs(5);

/// A game shared between the request handlers and the driver.
pub type Shared = Arc<Mutex<Game>>;

/// Locks a game. A handler that panicked while holding it left a game whose every method
/// keeps it consistent between calls, so it is still usable.
pub fn lock(game: &Shared) -> MutexGuard<'_, Game> {
    game.lock().unwrap_or_else(|e| e.into_inner())
}

/// The games by id.
pub struct Store {
    bounds: Bounds,
    context: Context,
    games: Mutex<Games>,
}

#[derive(Default)]
struct Games {
    by_id: HashMap<u64, Shared>,
    next_id: u64,
}

/// Why a game could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The table could not be allocated.
    #[error("the server cannot allocate the engine's table: {0}")]
    Memory(#[from] crate::search::TableSizeError),
}

impl Store {
    /// An empty store, and its driver thread.
    pub fn start(bounds: Bounds) -> std::io::Result<Arc<Store>> {
        let (driver, inbox) = channel();
        let store = Arc::new(Store {
            bounds,
            context: Context {
                driver,
                slots: Slots::new(bounds.searches),
                max_movetime_ms: bounds.movetime_ms,
            },
            games: Mutex::new(Games::default()),
        });
        let weak = Arc::downgrade(&store);
        let every = Arc::downgrade(&store);
        let check = UNWATCHED_CHECK.min(bounds.unwatched / 2);
        std::thread::Builder::new()
            .name("kinrow-serve-driver".into())
            .spawn(move || {
                drive(
                    &inbox,
                    check,
                    |id| weak.upgrade()?.get(id),
                    || {
                        if let Some(store) = every.upgrade() {
                            store.rest_unwatched();
                        }
                    },
                );
            })?;
        Ok(store)
    }

    /// The bounds.
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    fn games(&self) -> MutexGuard<'_, Games> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new game of `setup`, its computer players started.
    pub fn create(&self, setup: Setup) -> Result<Shared, CreateError> {
        let engine = Engine::new(self.bounds.hash_mb)?;
        let evicted;
        let game = {
            let mut games = self.games();
            evicted = if games.by_id.len() >= self.bounds.games {
                self.least_recently_used(&games)
                    .and_then(|id| games.by_id.remove(&id))
            } else {
                None
            };
            games.next_id += 1;
            let id = games.next_id;
            let game = Arc::new(Mutex::new(Game::new(
                id,
                setup,
                engine,
                self.context.clone(),
            )));
            games.by_id.insert(id, Arc::clone(&game));
            game
        };
        if let Some(old) = evicted {
            log::info!("the oldest game gives way to a new one");
            lock(&old).close();
        }
        lock(&game).advance();
        Ok(game)
    }

    fn least_recently_used(&self, games: &Games) -> Option<u64> {
        games
            .by_id
            .iter()
            .min_by_key(|(_, g)| lock(g).touched)
            .map(|(&id, _)| id)
    }

    /// The game `id`, if the store holds it.
    pub fn get(&self, id: u64) -> Option<Shared> {
        self.games().by_id.get(&id).cloned()
    }

    /// Forgets game `id` and stops its search; `false` if there was none.
    pub fn remove(&self, id: u64) -> bool {
        let removed = self.games().by_id.remove(&id);
        removed.map(|g| lock(&g).close()).is_some()
    }

    /// Lets every game that no one watches rest (its engine stopped).
    fn rest_unwatched(&self) {
        let all: Vec<Shared> = self.games().by_id.values().cloned().collect();
        for game in all {
            lock(&game).rest_if_unwatched(self.bounds.unwatched);
        }
    }

    /// Games held.
    pub fn len(&self) -> usize {
        self.games().by_id.len()
    }

    /// Whether no game is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stops every search and forgets every game (the server is stopping).
    pub fn close(&self) {
        let all: Vec<Shared> = self.games().by_id.drain().map(|(_, g)| g).collect();
        for game in all {
            lock(&game).close();
        }
    }
}

/// The driver: hands finished searches to their games, wakes games whose computer move
/// is due, and every `check` calls `rest`, until the store is gone.
fn drive(
    inbox: &Receiver<Wake>,
    check: Duration,
    find: impl Fn(u64) -> Option<Shared>,
    rest: impl Fn(),
) {
    let mut due: BinaryHeap<Reverse<(Instant, u64)>> = BinaryHeap::new();
    let mut next_check = Instant::now() + check;
    loop {
        let now = Instant::now();
        if now >= next_check {
            rest();
            next_check = now + check;
        }
        while let Some(&Reverse((when, id))) = due.peek() {
            if when > now {
                break;
            }
            due.pop();
            if let Some(game) = find(id) {
                lock(&game).advance();
            }
        }
        let wait = due
            .peek()
            .map_or(check, |Reverse((when, _))| {
                when.saturating_duration_since(now)
            })
            .min(next_check.saturating_duration_since(now));
        match inbox.recv_timeout(wait) {
            Ok(Wake::Finished {
                id,
                generation,
                result,
            }) => {
                if let Some(game) = find(id) {
                    lock(&game).finish(generation, result);
                }
            }
            Ok(Wake::At { id, when }) => due.push(Reverse((when, id))),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}
