//! What every protocol shares: the engine facade, the output, the running
//! search's state and background work (perft, bench). The protocols
//! ([`super::uci`], [`super::usi`], [`super::cecp`]) hold a [`Core`] and
//! format what it reports in their own words.

use super::Mode;
use super::text::MoveText;
use crate::engine::Engine;
use crate::timeman::Limits;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Output of background work other than the search (perft, bench).
pub(super) enum Work {
    Line(String),
    /// Bad input found by the work (an error line for the command).
    Error {
        msg: String,
        command: String,
    },
    Done,
}

/// A search past any of these ends on its own in no reasonable time: while
/// it runs, commands that change the state are refused instead of queued.
pub const REACHABLE_DEPTH: i32 = 64;
pub const REACHABLE_NODES: u64 = 100_000_000_000;
pub const REACHABLE_MS: u64 = 24 * 3_600_000;

/// Whether a search with these limits ends on its own in reasonable time
/// (`side` to move): a reachable depth, node or move time limit, or a
/// reachable clock (the byoyomi where the side has no clock), and neither
/// `infinite` nor `ponder`.
pub fn ends_on_its_own(l: &Limits, side: usize) -> bool {
    let clock = if side == 0 { l.wtime } else { l.btime };
    !l.infinite
        && !l.ponder
        && (l.depth.is_some_and(|d| d <= REACHABLE_DEPTH)
            || l.nodes.is_some_and(|n| n <= REACHABLE_NODES)
            || l.movetime.is_some_and(|t| t <= REACHABLE_MS)
            || (l.movetime.is_none() && clock.or(l.byoyomi).is_some_and(|t| t <= REACHABLE_MS)))
}

/// The engine plus where output goes, shared by the protocols.
pub struct Core<W: Write> {
    pub engine: Engine,
    pub out: W,
    /// Moves and `d` use the variant's native square names (option
    /// `ItaNotation`: a native notation of squares, see `options.rs`).
    pub native_notation: bool,
    /// `info` lines carry `wdl W D L` after the score (option `UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Lines produced by background work other than search (perft, bench).
    work_tx: Sender<Work>,
    pub(super) work_rx: Receiver<Work>,
    /// Background work (perft, bench) runs; its stop flag.
    pub(super) work: Option<Arc<AtomicBool>>,
    /// A search was started whose `BestMove` has not been handled yet.
    pub(super) awaiting_best: bool,
    /// Whether the running search ends on its own (see [`ends_on_its_own`]).
    pub(super) search_ends: bool,
    /// The limits of the running search and the side it moves (for `ponderhit`).
    search_limits: Option<(Limits, usize)>,
    /// Output can no longer be written (the GUI went away).
    pub out_closed: bool,
    /// The most nodes `go perft` may count (estimated before counting).
    pub perft_max_nodes: f64,
    /// The command being handled (for CECP's `Error (...): COMMAND`).
    pub command: String,
}

impl<W: Write> Core<W> {
    pub fn new(out: W) -> Self {
        let (work_tx, work_rx) = unbounded();
        Core {
            engine: Engine::new(),
            out,
            native_notation: false,
            show_wdl: false,
            work_tx,
            work_rx,
            work: None,
            awaiting_best: false,
            search_ends: true,
            search_limits: None,
            out_closed: false,
            perft_max_nodes: PERFT_MAX_NODES,
            command: String::new(),
        }
    }

    pub fn say(&mut self, line: &str) {
        if self.out_closed {
            return;
        }
        if writeln!(self.out, "{line}").and_then(|()| self.out.flush()).is_err() {
            self.out_closed = true;
        }
    }

    /// Whether a search, perft or bench runs.
    pub fn running(&self) -> bool {
        self.awaiting_best || self.work.is_some()
    }

    /// Whether a search runs that will not end on its own.
    pub fn endless(&self) -> bool {
        self.awaiting_best && !self.search_ends
    }

    /// `stop`: the search ends soon and commands may queue for it.
    pub fn stop_search(&mut self) {
        self.engine.stop();
        self.search_ends = true;
    }

    /// Starts a search; commands that change the state wait for it.
    pub fn start_search(&mut self, limits: Limits) {
        let side = self.engine.game().side_to_move();
        self.search_ends = ends_on_its_own(&limits, side);
        self.search_limits = Some((limits.clone(), side));
        self.awaiting_best = true;
        self.engine.go(limits);
    }

    /// Starts pondering on `predicted`, the opponent's expected move: a
    /// `go ponder` search of the position after it, the game left as it is
    /// (CECP's `hard`). `false` (nothing started) if the move is not legal.
    pub fn start_ponder(&mut self, predicted: &str, mut limits: Limits) -> bool {
        limits.ponder = true;
        let side = self.engine.game().side_to_move() ^ 1;
        if !self.engine.go_after(predicted, limits.clone()) {
            return false;
        }
        self.search_ends = false;
        self.search_limits = Some((limits, side));
        self.awaiting_best = true;
        true
    }

    /// `ponderhit`: the pondering search goes on under its clock, and so
    /// ends on its own if its limits say so (also when the input ends).
    pub fn ponderhit(&mut self) {
        if !self.awaiting_best {
            return;
        }
        self.engine.ponderhit();
        if let Some((l, side)) = &mut self.search_limits
            && l.ponder
        {
            l.ponder = false;
            self.search_ends = self.search_ends || ends_on_its_own(l, *side);
        }
    }

    /// Runs `f` in the background; its lines are printed as they come, and
    /// commands that change the state wait for it. `f` may end early when
    /// the flag it gets is set (when output is closed). If `f` panics (a
    /// bug), an error line says so and the work still ends: the engine
    /// neither hangs waiting for it nor loses its state.
    pub(super) fn start_work(&mut self, f: impl FnOnce(&dyn Fn(Work), &AtomicBool) + Send + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, flag) = (self.work_tx.clone(), stop.clone());
        let command = self.command.clone();
        self.work = Some(stop);
        std::thread::spawn(move || {
            let send = |w: Work| {
                let _ = tx.send(w);
            };
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&send, &flag))).is_err() {
                send(Work::Error { msg: "internal error: the work stopped on a bug".into(), command });
            }
            let _ = tx.send(Work::Done);
        });
    }

    /// Asks background work to end (when output is closed); its lines are dropped.
    pub fn drop_work(&mut self) {
        if let Some(w) = self.work.take() {
            w.store(true, Ordering::Relaxed);
        }
    }

    /// Runs `go perft` in the background: Stockfish's divide format, moves
    /// written by `conv`. A depth the variant cannot count in reasonable
    /// time is refused.
    pub fn start_perft(&mut self, depth: u32, conv: MoveText) {
        let game = self.engine.game().clone_box();
        let (most, command) = (self.perft_max_nodes, self.command.clone());
        self.start_work(move |send, stop| {
            if let Err(msg) = perft_feasible(game.as_ref(), depth, most) {
                return send(Work::Error { msg, command });
            }
            let say = |l: String| send(Work::Line(l));
            let mut total = 0;
            for (m, n) in game.divide(depth) {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                say(format!("{}: {n}", conv.write(&m)));
                total += n;
            }
            say(String::new());
            say(format!("Nodes searched: {total}"));
        });
    }

    /// Runs `bench` in the background (its own tables: the game is not
    /// touched) with the evaluations the engine holds.
    pub fn start_bench(&mut self, depth: Option<i32>) {
        use crate::registry::{RuleOptions, VariantId};
        let evals: std::collections::HashMap<_, _> = VariantId::ALL
            .iter()
            .map(|id| {
                let g = id.engine_game(&RuleOptions::default());
                (g.eval_slot(), self.engine.evaluation_of(g.as_ref()))
            })
            .collect();
        self.start_work(move |send, _| {
            let eval_of = |g: &dyn crate::engine_game::EngineGame| {
                evals.get(&g.eval_slot()).cloned().unwrap_or_else(|| g.builtin_evaluation())
            };
            for l in crate::bench::run_bench(depth, eval_of) {
                send(Work::Line(l));
            }
        });
    }

    /// The move converter for `mode`, the current variant and options.
    pub fn move_text(&self, mode: Mode) -> MoveText {
        // The one place a native notation of squares is applied (a notation
        // the position writes comes written: `NativeWriter::Position`).
        let native = self
            .engine
            .game()
            .native_notation()
            .filter(|_| self.native_notation && mode != Mode::Cecp)
            .and_then(|n| Some((n.option, n.squares()?)));
        MoveText { mode, native, zero_based_ranks: mode == Mode::Cecp && self.engine.game().describe().ranks == 10 }
    }
}

/// The game's result for `result` and game-over lines: the PGN result,
/// the score pair where the variant keeps scores, and the reason.
pub fn result_words(o: &crate::variant::Outcome) -> String {
    let r = match o.winner {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
    match o.scores {
        Some(s) => format!("{r} score {}:{} reason {}", s[0], s[1], o.reason),
        None => format!("{r} reason {}", o.reason),
    }
}

/// The most nodes `go perft` counts by default (some minutes).
pub const PERFT_MAX_NODES: f64 = 2e10;

/// Whether a perft of `depth` counts at most `most` nodes here, estimated
/// from the growth of the counts of the first plies (counted up to about a
/// million nodes).
pub fn perft_feasible(game: &dyn crate::game::AnyGame, depth: u32, most: f64) -> Result<(), String> {
    let (mut prev, mut k) = (1.0f64, 0);
    let mut count = 1.0f64;
    while k < depth && count < 1e6 {
        prev = count;
        k += 1;
        count = game.perft(k) as f64;
    }
    if k == depth || count == 0.0 {
        return Ok(());
    }
    let growth = (count / prev).max(1.0);
    let estimate = |d: u32| count * growth.powi((d - k) as i32);
    if estimate(depth) <= most {
        return Ok(());
    }
    let deepest = (k..depth).take_while(|&d| estimate(d) <= most).last().unwrap_or(k);
    Err(format!(
        "go perft {depth}: about {:.0e} nodes here, too many to count in reasonable time (at most depth {deepest})",
        estimate(depth)
    ))
}
