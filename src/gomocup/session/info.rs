//! `INFO`: the time and memory limits and the rules, and the table sized to the memory.

use super::Session;
use crate::gomocup::budget;
use crate::gomocup::command::Info;
use crate::gomocup::game::Rules;
use crate::rules::{MAX_SIDE, Tables};
use crate::search::{MAX_THREADS, Searcher};
use std::io::Write;

impl<W: Write> Session<W> {
    pub(super) fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => {
                self.time.timeout_turn = ms;
                self.turn_limit_given = true;
            }
            Info::TimeoutMatch(ms) => self.time.timeout_match = ms,
            Info::TimeLeft(ms) => self.time.time_left = Some(ms),
            Info::MaxMemory(bytes) => {
                self.max_memory = bytes;
                if budget::too_little_memory(bytes) {
                    self.notice(format!(
                        "INFO max_memory {bytes}: kinrow needs about {} MB; it will use a 1 MB table and may exceed the limit",
                        budget::RESERVED_MB + 1
                    ));
                }
                self.fit_table_soon();
                self.tell_thread_cap();
            }
            Info::Rule(rule) => {
                self.set_rules(Rules { rule, ..self.rules }, format!("INFO rule {rule}"))
            }
            Info::K(k) => {
                if (1..=MAX_SIDE).contains(&k) {
                    self.set_rules(Rules { k, ..self.rules }, format!("INFO kinrow_k {k}"));
                } else {
                    self.notice(format!(
                        "INFO kinrow_k {k}: k must be 1 to {MAX_SIDE}; it stays {}",
                        self.rules.k
                    ));
                }
            }
            Info::ThreadNum(n) => {
                let most = MAX_THREADS as u32;
                let threads = n.clamp(1, most);
                if threads != n {
                    self.notice(format!(
                        "INFO thread_num {n}: kinrow uses 1 to {most} threads; it uses {threads}"
                    ));
                }
                self.threads = threads as usize;
                self.fit_table_soon();
                self.tell_thread_cap();
            }
            // kinrow plays people and programs alike, keeps no files and has no debug window.
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) => {}
            Info::Other { key } => log::debug!("INFO {key} is not a key kinrow uses; ignored"),
        }
    }

    /// New rules: the current game takes them at once if no stone has been played (managers
    /// send `INFO rule` after `START`), otherwise the next game does.
    fn set_rules(&mut self, rules: Rules, command: String) {
        if let Some(why) = rules.unsupported()
            && rules.rule != self.rules.rule
        {
            self.notice(why);
        }
        let old = self.rules;
        self.rules = rules;
        let Some(game) = &mut self.game else {
            return;
        };
        let (width, height) = (game.board.width(), game.board.height());
        let wanted = rules.geometry(width, height);
        if wanted.as_ref().ok() == Some(&game.tables.geometry) {
            return;
        }
        if !game.board.is_empty() {
            self.notice(format!(
                "{command}: the game in progress keeps its rules ({}); the new ones apply from the next game",
                old.describe()
            ));
            return;
        }
        match wanted {
            Ok(geometry) => {
                game.tables = Tables::new(geometry);
                self.prepare();
            }
            Err(why) => self.notice(format!(
                "{command}: {why}; this game keeps its rules ({})",
                old.describe()
            )),
        }
    }

    /// Tells (as a notice) that `max_memory` leaves room for fewer threads than asked for.
    fn tell_thread_cap(&mut self) {
        if self.search_threads < self.threads {
            self.notice(format!(
                "INFO thread_num {}: max_memory {} leaves room for {} thread(s); kinrow uses that many",
                self.threads, self.max_memory, self.search_threads
            ));
        }
    }

    /// [`Session::fit_table`] for a table no larger than today's; a larger one is made when
    /// the next game starts (`START`, `RESTART`), which the protocol does not time. Making
    /// one takes hundreds of ms for hundreds of MB on a loaded machine: at the `INFO` that
    /// would hold back the move that managers ask for right after it, and after the move is
    /// sent it would hold back the next one wherever the opponent answers at once (seen at
    /// 1.0 to 1.6 s for a 1 s turn with four matches on two cores). Made in the background
    /// instead, the table a move is searched with would depend on when the making ended,
    /// and a game replayed would not be searched the same way. A smaller table is made at
    /// once, so that memory stays within the limit.
    fn fit_table_soon(&mut self) {
        let (threads, wanted) = self.table_wanted();
        if wanted > self.table_mb && self.game.is_some() {
            self.search_threads = threads;
        } else {
            self.fit_table();
        }
    }

    /// The threads `max_memory` leaves room for, and the table (MB) it allows them.
    fn table_wanted(&self) -> (usize, usize) {
        let threads = budget::threads_within(self.max_memory, self.threads);
        (threads, budget::table_mb(self.max_memory, threads))
    }

    /// Sizes the table for `max_memory` and the threads it leaves room for (between moves
    /// only).
    pub(super) fn fit_table(&mut self) {
        let (threads, wanted) = self.table_wanted();
        self.search_threads = threads;
        if wanted == self.table_mb {
            return;
        }
        let Some(searcher) = self.engine.searcher_mut() else {
            return;
        };
        // The old table goes first, so that the old and the new never count against the
        // limit together.
        let problem = match Searcher::new(1) {
            Ok(small) => {
                *searcher = small;
                match searcher.resize(wanted) {
                    Ok(()) => {
                        self.table_mb = wanted;
                        None
                    }
                    Err(e) => {
                        self.table_mb = 1;
                        Some(format!("{e}; kinrow uses a 1 MB table"))
                    }
                }
            }
            Err(e) => Some(format!("{e}; the table stays {} MB", self.table_mb)),
        };
        if let Some(problem) = problem {
            self.notice(problem);
        }
        // A new searcher has no gomoku search made yet.
        self.prepare();
    }
}
