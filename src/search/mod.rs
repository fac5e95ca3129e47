//! Search: iterative deepening with aspiration windows, principal-variation
//! alpha-beta with a staged move picker, histories, pruning and reductions,
//! quiescence, a lock-free transposition table and mate-distance scores; one
//! `Worker` per thread (Lazy SMP). The search knows nothing of the protocol
//! (it reports through `Event`s) and no variant by name: a game's results
//! come as values from [`crate::score`], its rules through the `Variant` hooks.
//!
//! - `params`: the named margins and constants;
//! - `history`: killers, counter moves, butterfly, capture, continuation and
//!   correction histories, kept per thread from one search of a game to the next;
//! - `movepick`: the staged move picker;
//! - `see`: static exchange evaluation, exact for every variant's rules;
//! - `worker`: the alpha-beta search of one thread (pruning, reductions, extensions);
//! - `qsearch`: quiescence (captures by SEE, evasions in check, the table);
//! - `root`: iterative deepening, aspiration windows, the root move loop;
//! - `threads`: the Lazy SMP driver (`run_search`) and `search_fixed`;
//! - `skill`: strength levels, the move chosen after a weakened search.

mod history;
pub mod movepick;
pub mod params;
mod qsearch;
mod root;
pub mod see;
pub mod skill;
mod threads;
mod worker;

pub use crate::score::{DECISIVE, INF, MATE, Score, outcome_value};
pub use history::Histories;
pub use params::MAX_PLY;
pub use threads::{SearchJob, run_search, search_fixed};
pub use worker::Worker;

use crate::moves::Move;
use crate::variant::Outcome;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

/// What a search tells its caller.
#[derive(Clone, Debug)]
pub enum Event {
    Info(Info),
    /// Exactly one per search. `best` is None when the game is already over
    /// (`over` says how).
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
        over: Option<Outcome>,
    },
}

/// What searches of one game share and keep from one to the next: the
/// transposition table, the evaluation and the histories.
#[derive(Clone, Copy)]
pub struct Memory<'a> {
    pub tt: &'a crate::tt::TranspositionTable,
    /// The evaluation the search plays with.
    pub eval: &'a crate::eval::Evaluation,
    /// The search threads' histories.
    pub histories: &'a Histories,
}

/// State shared by the threads of one search (and the protocol, which may stop it).
pub struct Shared {
    pub stop: AtomicBool,
    /// While set, the clock does not stop the search (`go ponder` before `ponderhit`).
    pub pondering: AtomicBool,
    pub nodes: AtomicU64,
    /// Set by the caller's `stop` (with `stop`): a `go infinite` or `go
    /// ponder` search that has stopped on its own (its node limit) answers
    /// only then.
    pub released: AtomicBool,
    /// The deepest iteration any thread has completed.
    pub depth_done: AtomicI32,
}

impl Shared {
    pub fn new(ponder: bool) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            nodes: AtomicU64::new(0),
            released: AtomicBool::new(false),
            depth_done: AtomicI32::new(0),
        }
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A root move with its last value and principal variation.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
    /// Nodes searched below this move, all iterations together.
    pub nodes: u64,
}
