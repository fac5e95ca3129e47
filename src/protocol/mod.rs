//! The protocol loop: a reader thread turns stdin into byte lines, and one
//! loop answers them and prints what the engine reports, so `isready`,
//! `stop` and `quit` are answered at once while a search or perft runs.
//!
//! The engine starts in UCI mode; `usi` switches to USI and `xboard` to CECP
//! (XBoard). All modes drive the same [`Engine`]. The dialect is specified
//! in `protocol/README.md`, with what each command does during a search
//! ("Commands during a search"): see [`Timing`].

pub mod cecp;
pub mod input;
pub mod options;
pub mod parse;
pub mod text;
pub mod uci;
pub mod usi;

use crate::engine::Engine;
use crate::search::Event;
use crate::timeman::Limits;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Uci,
    Usi,
    Cecp,
}

/// What a command does while a search, perft or bench runs (the session is
/// busy): see "Commands during a search" in `protocol/README.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Answered at once, busy or not (`isready`, `stop`, `quit`).
    Urgent,
    /// Touches neither the search nor the position (unknown commands, CECP's
    /// clock settings): at once, or in turn behind queued commands.
    Now,
    /// Reads the position and options: answered at once from the position
    /// being searched (`d`, `fen`, `moves`, `result`, `eval`), or in turn
    /// behind queued commands.
    ReadOnly,
    /// Changes the position or options: run at once when idle, queued for a
    /// search that ends on its own, refused when it has no end in sight.
    Change,
    /// Ends the running search first (its move is not played in CECP), then
    /// runs: CECP's `force`, `new`, `setboard`...
    Interrupt,
}

/// A line waiting for its turn.
enum Queued {
    Line(String),
    /// A line that is not UTF-8 (as text, for the error line).
    NotUtf8(String),
}

/// Output of background work other than the search (perft, bench).
enum Work {
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
/// (`side` to move): a reachable depth, node, move time or clock limit, and
/// neither `infinite` nor `ponder`.
pub fn ends_on_its_own(l: &Limits, side: usize) -> bool {
    let clock = if side == 0 { l.wtime } else { l.btime };
    !l.infinite
        && !l.ponder
        && (l.depth.is_some_and(|d| d <= REACHABLE_DEPTH)
            || l.nodes.is_some_and(|n| n <= REACHABLE_NODES)
            || l.movetime.is_some_and(|t| t <= REACHABLE_MS)
            || (l.movetime.is_none() && clock.is_some_and(|t| t <= REACHABLE_MS)))
}

/// One protocol session: the engine plus where output goes.
pub struct Session<W: Write> {
    pub engine: Engine,
    pub out: W,
    pub mode: Mode,
    /// Moves and `d` use the variant's native square names (option `ItaNotation`).
    pub native_notation: bool,
    /// Lines produced by background work other than search (perft, bench).
    work_tx: Sender<Work>,
    work_rx: Receiver<Work>,
    /// Background work (perft, bench) runs; its stop flag.
    work: Option<Arc<AtomicBool>>,
    /// A search was started whose `BestMove` has not been handled yet.
    awaiting_best: bool,
    /// Whether the running search ends on its own (see [`ends_on_its_own`]).
    search_ends: bool,
    /// Commands that arrived while busy, run in order when the work ends.
    queue: VecDeque<Queued>,
    /// Output can no longer be written (the GUI went away).
    pub out_closed: bool,
    /// The most nodes `go perft` may count (estimated before counting).
    pub perft_max_nodes: f64,
    /// The command being handled (for CECP's `Error (...): COMMAND`).
    pub command: String,
    /// CECP's own state (only used in CECP mode).
    pub cecp: cecp::Cecp,
}

impl<W: Write> Session<W> {
    pub fn new(out: W) -> Self {
        let (work_tx, work_rx) = unbounded();
        Session {
            engine: Engine::new(),
            out,
            mode: Mode::Uci,
            native_notation: false,
            work_tx,
            work_rx,
            work: None,
            awaiting_best: false,
            search_ends: true,
            queue: VecDeque::new(),
            out_closed: false,
            perft_max_nodes: PERFT_MAX_NODES,
            command: String::new(),
            cecp: cecp::Cecp::default(),
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

    /// Reports bad input: exactly one line, in the mode's form.
    pub fn error(&mut self, msg: impl std::fmt::Display) {
        let l = match self.mode {
            Mode::Cecp => format!("Error ({msg}): {}", self.command),
            _ => format!("info string error {msg}"),
        };
        self.say(&l);
    }

    /// Whether a search, perft or bench runs, or commands wait for one.
    pub fn busy(&self) -> bool {
        self.awaiting_best || self.work.is_some() || !self.queue.is_empty()
    }

    /// Whether a search runs that will not end on its own.
    pub fn endless(&self) -> bool {
        self.awaiting_best && !self.search_ends
    }

    /// Handles one raw input line; returns false on `quit`. A line that is
    /// not UTF-8 gets one error line and changes nothing.
    pub fn handle_bytes(&mut self, line: &[u8]) -> bool {
        match std::str::from_utf8(line) {
            Ok(l) => self.handle(l),
            Err(_) => {
                let text = String::from_utf8_lossy(line).trim().to_string();
                if self.queue.is_empty() {
                    self.not_utf8(text);
                } else {
                    self.queue.push_back(Queued::NotUtf8(text));
                }
                true
            }
        }
    }

    fn not_utf8(&mut self, text: String) {
        self.command = text;
        self.error("the line is not valid UTF-8");
    }

    /// Handles one input line by its [`Timing`]; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = split_command(line);
        let queued = !self.queue.is_empty();
        match self.timing(cmd, rest) {
            // A `stop` behind a queued `go` is that search's.
            Timing::Urgent if queued && matches!(cmd, "stop" | "ponderhit") && self.queued_search() => {
                self.enqueue(line)
            }
            Timing::Urgent => self.execute(line),
            // Commands run in order: behind queued ones, all but urgent
            // ones wait. The queue only waits for work that ends on its own.
            _ if queued => self.enqueue(line),
            Timing::Now | Timing::ReadOnly => self.execute(line),
            Timing::Change if !self.busy() => self.execute(line),
            Timing::Change if self.endless() => {
                self.refuse(line);
                true
            }
            Timing::Change => self.enqueue(line),
            Timing::Interrupt => {
                self.interrupt();
                self.execute(line)
            }
        }
    }

    /// One error line for a command that would wait for a search with no end in sight.
    fn refuse(&mut self, line: &str) {
        let cmd = split_command(line).0;
        self.command = line.to_string();
        self.error(format!("{cmd}: refused during a search with no end in sight (send stop first)"));
    }

    /// Whether a queued command starts a search.
    fn queued_search(&self) -> bool {
        self.queue
            .iter()
            .any(|q| matches!(q, Queued::Line(l) if matches!(split_command(l).0, "go" | "usermove" | "analyze")))
    }

    fn enqueue(&mut self, line: &str) -> bool {
        self.queue.push_back(Queued::Line(line.to_string()));
        true
    }

    fn timing(&self, cmd: &str, rest: &str) -> Timing {
        match self.mode {
            Mode::Cecp => self.cecp_timing(cmd, rest),
            Mode::Uci | Mode::Usi => uci::timing(cmd),
        }
    }

    /// Runs one command now, in the current mode; returns false on `quit`.
    fn execute(&mut self, line: &str) -> bool {
        match self.mode {
            Mode::Cecp => self.handle_cecp(line),
            Mode::Usi | Mode::Uci => self.handle_uci_like(line),
        }
    }

    /// Prints what the engine and background work have produced so far and
    /// runs queued commands once nothing runs. Never blocks.
    pub fn pump(&mut self) {
        loop {
            if let Ok(ev) = self.engine.events().try_recv() {
                self.on_event(ev);
            } else if let Ok(w) = self.work_rx.try_recv() {
                self.on_work(w);
            } else if !self.run_queued() {
                return;
            }
        }
    }

    /// Runs the next queued command if nothing runs; returns whether it did.
    fn run_queued(&mut self) -> bool {
        if self.awaiting_best || self.work.is_some() {
            return false;
        }
        let Some(q) = self.queue.pop_front() else {
            return false;
        };
        self.run_in_turn(q, false);
        // What waited for this search would wait for ever: refused, up to a
        // `stop` that gives it an end; the others run as they would now.
        while self.endless()
            && let Some(q) = self.queue.pop_front()
        {
            self.run_in_turn(q, true);
        }
        true
    }

    /// Runs a queued line; `refusing`: one that changes the state is refused.
    fn run_in_turn(&mut self, q: Queued, refusing: bool) {
        match q {
            Queued::NotUtf8(text) => self.not_utf8(text),
            Queued::Line(l) => {
                let (cmd, rest) = split_command(&l);
                match self.timing(cmd, rest) {
                    Timing::Change if refusing => self.refuse(&l),
                    Timing::Interrupt => {
                        self.end_search();
                        self.execute(&l);
                    }
                    _ => {
                        self.execute(&l);
                    }
                }
            }
        }
    }

    /// Waits for everything pending to end, as at the end of the input: a
    /// search that ends on its own, perft and bench run to their end, one
    /// with no end in sight is stopped (printing its `bestmove`), and queued
    /// commands run in order.
    pub fn settle(&mut self) {
        loop {
            self.finish();
            if !self.endless() || self.out_closed {
                return;
            }
            self.stop_search();
        }
    }

    /// Waits for a search that ends on its own, perft, bench and the queued
    /// commands, as [`Session::settle`], but leaves a search with no end in
    /// sight running.
    pub fn finish(&mut self) {
        while !self.out_closed {
            if self.awaiting_best && self.search_ends {
                if let Ok(ev) = self.engine.events().recv() {
                    self.on_event(ev);
                }
            } else if self.work.is_some() {
                match self.work_rx.recv() {
                    Ok(w) => self.on_work(w),
                    Err(_) => self.work = None,
                }
            } else if self.endless() || !self.run_queued() {
                return;
            }
        }
    }

    /// How many commands wait in the queue.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Ends the running search after the commands queued before; its
    /// `bestmove` is printed (UCI, USI) or its move abandoned (CECP).
    /// Background work goes on.
    pub fn interrupt(&mut self) {
        loop {
            if self.awaiting_best {
                self.end_search();
            } else if self.work.is_some() || !self.run_queued() {
                return;
            }
        }
    }

    /// Stops the running search and handles its `BestMove` (a CECP move is
    /// abandoned).
    fn end_search(&mut self) {
        while self.awaiting_best {
            self.cecp.thinking = false;
            self.stop_search();
            match self.engine.events().recv() {
                Ok(ev) => self.on_event(ev),
                Err(_) => self.awaiting_best = false,
            }
        }
    }

    /// `stop`: the search ends soon and commands may queue for it.
    pub fn stop_search(&mut self) {
        self.engine.stop();
        self.search_ends = true;
    }

    /// Starts a search; commands that change the state wait for it.
    pub fn start_search(&mut self, limits: Limits) {
        self.search_ends = ends_on_its_own(&limits, self.engine.game().side_to_move());
        self.awaiting_best = true;
        self.engine.go(limits);
    }

    /// Prints a search event in the mode's form.
    pub fn on_event(&mut self, ev: Event) {
        if matches!(ev, Event::BestMove { .. }) {
            self.awaiting_best = false;
        }
        match self.mode {
            Mode::Cecp => self.cecp_event(ev),
            Mode::Uci | Mode::Usi => self.uci_event(ev),
        }
    }

    fn on_work(&mut self, w: Work) {
        match w {
            Work::Line(l) => self.say(&l),
            Work::Error { msg, command } => {
                self.command = command;
                self.error(&msg);
            }
            Work::Done => self.work = None,
        }
    }

    /// Runs `f` in the background; its lines are printed as they come, and
    /// commands that change the state wait for it. `f` may end early when
    /// the flag it gets is set (at `quit`).
    fn start_work(&mut self, f: impl FnOnce(&dyn Fn(Work), &AtomicBool) + Send + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, flag) = (self.work_tx.clone(), stop.clone());
        self.work = Some(stop);
        std::thread::spawn(move || {
            let send = |w: Work| {
                let _ = tx.send(w);
            };
            f(&send, &flag);
            let _ = tx.send(Work::Done);
        });
    }

    /// Runs `go perft` in the background: Stockfish's divide format. A
    /// depth the variant cannot count in reasonable time is refused.
    pub fn start_perft(&mut self, depth: u32) {
        let game = self.engine.game().clone_box();
        let conv = self.move_writer();
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

    /// Runs `bench` in the background (its own tables: the game is not touched).
    pub fn start_bench(&mut self, depth: Option<i32>) {
        self.start_work(move |send, _| {
            for l in crate::bench::run_bench(depth) {
                send(Work::Line(l));
            }
        });
    }

    /// `quit`: stops the search (printing its `bestmove`), runs the queued
    /// commands (stopping what they start), drops background work.
    pub fn quit(&mut self) {
        if let Some(w) = self.work.take() {
            w.store(true, Ordering::Relaxed);
        }
        self.interrupt();
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
}

/// The first word of a line and the rest, trimmed.
pub fn split_command(line: &str) -> (&str, &str) {
    match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
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

/// Runs the engine on stdin/stdout until `quit` or the end of input.
pub fn run() {
    let (tx, rx) = unbounded::<input::Line>();
    std::thread::spawn(move || input::read_lines(std::io::stdin().lock(), &tx));
    let stdout = std::io::stdout();
    let mut s = Session::new(stdout.lock());
    let events = s.engine.events().clone();
    let work = s.work_rx.clone();
    while !s.out_closed {
        select! {
            recv(rx) -> line => match line {
                Ok(input::Line::Bytes(l)) => {
                    if !s.handle_bytes(&l) {
                        s.quit();
                        return;
                    }
                }
                Ok(input::Line::TooLong) => {
                    s.command = "...".into();
                    s.error(format!("the line is longer than {} bytes", input::MAX_LINE));
                }
                Err(_) => {
                    s.settle();
                    return;
                }
            },
            recv(events) -> ev => if let Ok(ev) = ev { s.on_event(ev) },
            recv(work) -> w => if let Ok(w) = w { s.on_work(w) },
        }
        s.pump();
    }
    // The GUI went away: end quietly.
    s.engine.stop();
}
