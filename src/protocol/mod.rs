//! The protocol loop: a reader thread turns stdin into byte lines, and one
//! loop answers them and prints what the engine reports, so `isready`,
//! `stop` and `quit` are answered at once while a search or perft runs.
//!
//! Each protocol is its own type over the shared [`Core`] (the engine
//! facade, the output, the running search and background work): [`Uci`],
//! [`Usi`] (UCI's commands in USI's words) and [`Cecp`] (with its own
//! [`cecp::State`]); each handles its commands and reports the end of a
//! search in its own form ([`Protocol`]). The [`Session`] holds the core
//! and the protocol spoken now: input starts in UCI, `usi` switches to USI
//! and `xboard` to CECP. It also decides when a command runs while a search
//! runs: see "Commands during a search" in `protocol/README.md` and
//! [`Timing`].

pub mod cecp;
pub mod core;
pub mod input;
pub mod options;
pub mod parse;
pub mod text;
pub mod uci;
pub mod usi;

pub use self::core::{
    Core, PERFT_MAX_NODES, REACHABLE_DEPTH, REACHABLE_MS, REACHABLE_NODES, ends_on_its_own, perft_feasible,
};
pub use cecp::Cecp;
pub use uci::{Uci, UciLike};
pub use usi::Usi;

use self::core::Work;
use crate::search::Event;
use crossbeam_channel::{select, unbounded};
use std::collections::VecDeque;
use std::fmt::Display;
use std::io::Write;

/// Which protocol the session speaks (and so the form of moves and option names).
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

/// What the session does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// `quit`.
    Quit,
    /// `uci`, `usi`, `xboard`: the session speaks this protocol from now on.
    Switch(Mode),
}

/// One protocol: its commands, what they do during a search, and how it
/// reports. Implemented by [`Uci`], [`Usi`] and [`Cecp`], each holding the
/// session's [`Core`] while it handles a line or an event.
pub trait Protocol {
    /// What `cmd` does during a search (see [`Timing`]).
    fn timing(&self, cmd: &str, rest: &str) -> Timing;
    /// Runs one command now.
    fn execute(&mut self, line: &str) -> Flow;
    /// Prints a search event: info lines, and at the `BestMove` the end of
    /// the search in the protocol's form.
    fn on_event(&mut self, ev: Event);
    /// Reports bad input: exactly one line, in the protocol's form.
    fn error(&mut self, msg: &dyn Display);
    /// What the protocol prints when the session switches to it.
    fn enter(&mut self) {}
    /// The running search is being stopped and its move is not to be played.
    fn abandon_move(&mut self) {}
    /// Nothing runs and no command waits (CECP starts pondering here).
    fn idle(&mut self) {}
}

/// The protocol spoken now, with its own state.
enum Current {
    Uci,
    Usi,
    Cecp(Box<cecp::State>),
}

/// A line waiting for its turn.
enum Queued {
    Line(String),
    /// A line that is not UTF-8 (as text, for the error line).
    NotUtf8(String),
}

/// One protocol session: the shared core, the protocol spoken now and the
/// commands waiting for a search or background work.
pub struct Session<W: Write> {
    pub core: Core<W>,
    current: Current,
    /// Commands that arrived while busy, run in order when the work ends.
    queue: VecDeque<Queued>,
}

impl<W: Write> Session<W> {
    pub fn new(out: W) -> Self {
        Session { core: Core::new(out), current: Current::Uci, queue: VecDeque::new() }
    }

    /// The protocol spoken now.
    pub fn mode(&self) -> Mode {
        match self.current {
            Current::Uci => Mode::Uci,
            Current::Usi => Mode::Usi,
            Current::Cecp(_) => Mode::Cecp,
        }
    }

    /// Runs `f` on the protocol spoken now.
    fn with<R>(&mut self, f: impl FnOnce(&mut dyn Protocol) -> R) -> R {
        let core = &mut self.core;
        match &mut self.current {
            Current::Uci => f(&mut Uci { core, dialect: uci::UciDialect }),
            Current::Usi => f(&mut Usi { core, dialect: usi::UsiDialect }),
            Current::Cecp(state) => f(&mut Cecp { core, state: state.as_mut() }),
        }
    }

    /// The move converter of the protocol spoken now.
    pub fn move_writer(&self) -> text::MoveText {
        self.core.move_text(self.mode())
    }

    /// Reports bad input: exactly one line, in the protocol's form.
    pub fn error(&mut self, msg: &dyn Display) {
        self.with(|p| p.error(msg));
    }

    /// Whether a search, perft or bench runs, or commands wait for one.
    pub fn busy(&self) -> bool {
        self.core.running() || !self.queue.is_empty()
    }

    /// How many commands wait in the queue.
    pub fn queued(&self) -> usize {
        self.queue.len()
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
        self.core.command = text;
        self.error(&"the line is not valid UTF-8");
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
            Timing::Change if self.core.endless() => {
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
        self.core.command = line.to_string();
        self.error(&format!("{cmd}: refused during a search with no end in sight (send stop first)"));
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

    fn timing(&mut self, cmd: &str, rest: &str) -> Timing {
        self.with(|p| p.timing(cmd, rest))
    }

    /// Runs one command now in the protocol spoken now, switching protocols
    /// where it says so; returns false on `quit`.
    fn execute(&mut self, line: &str) -> bool {
        match self.with(|p| p.execute(line)) {
            Flow::Continue => true,
            Flow::Quit => false,
            Flow::Switch(mode) => {
                self.current = match mode {
                    Mode::Uci => Current::Uci,
                    Mode::Usi => Current::Usi,
                    Mode::Cecp => Current::Cecp(Box::new(cecp::State::new())),
                };
                self.with(|p| p.enter());
                true
            }
        }
    }

    /// Prints what the engine and background work have produced so far and
    /// runs queued commands once nothing runs. Never blocks.
    pub fn pump(&mut self) {
        loop {
            if let Ok(ev) = self.core.engine.events().try_recv() {
                self.on_event(ev);
            } else if let Ok(w) = self.core.work_rx.try_recv() {
                self.on_work(w);
            } else if !self.run_queued() {
                if self.busy() {
                    return;
                }
                self.with(|p| p.idle());
                if !self.busy() {
                    return;
                }
            }
        }
    }

    /// Runs the next queued command if nothing runs; returns whether it did.
    fn run_queued(&mut self) -> bool {
        if self.core.running() {
            return false;
        }
        let Some(q) = self.queue.pop_front() else {
            return false;
        };
        self.run_in_turn(q, false);
        // What waited for this search would wait for ever: refused, up to a
        // `stop` that gives it an end; the others run as they would now.
        while self.core.endless()
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
            if !self.core.endless() || self.core.out_closed {
                return;
            }
            self.core.stop_search();
        }
    }

    /// Waits for a search that ends on its own, perft, bench and the queued
    /// commands, as [`Session::settle`], but leaves a search with no end in
    /// sight running.
    pub fn finish(&mut self) {
        while !self.core.out_closed {
            if self.core.awaiting_best && self.core.search_ends {
                if let Ok(ev) = self.core.engine.events().recv() {
                    self.on_event(ev);
                }
            } else if self.core.work.is_some() {
                match self.core.work_rx.recv() {
                    Ok(w) => self.on_work(w),
                    Err(_) => self.core.work = None,
                }
            } else if self.core.endless() || !self.run_queued() {
                return;
            }
        }
    }

    /// Ends the running search after the commands queued before; its
    /// `bestmove` is printed (UCI, USI) or its move abandoned (CECP).
    /// Background work goes on.
    pub fn interrupt(&mut self) {
        loop {
            if self.core.awaiting_best {
                self.end_search();
            } else if self.core.work.is_some() || !self.run_queued() {
                return;
            }
        }
    }

    /// Stops the running search and handles its `BestMove` (a CECP move is
    /// abandoned).
    fn end_search(&mut self) {
        while self.core.awaiting_best {
            self.with(|p| p.abandon_move());
            self.core.stop_search();
            match self.core.engine.events().recv() {
                Ok(ev) => self.on_event(ev),
                Err(_) => self.core.awaiting_best = false,
            }
        }
    }

    /// Prints a search event in the protocol's form.
    pub fn on_event(&mut self, ev: Event) {
        if matches!(ev, Event::BestMove { .. }) {
            self.core.awaiting_best = false;
        }
        self.with(|p| p.on_event(ev));
    }

    fn on_work(&mut self, w: Work) {
        match w {
            Work::Line(l) => self.core.say(&l),
            Work::Error { msg, command } => {
                self.core.command = command;
                self.error(&msg);
            }
            Work::Done => self.core.work = None,
        }
    }

    /// `quit`: a perft or bench runs to its end and prints its count (as
    /// Stockfish's, which finish before `quit` is read); the search is
    /// stopped at once (printing its `bestmove`); the queued commands run in
    /// order, what they start treated the same way.
    pub fn quit(&mut self) {
        while !self.core.out_closed {
            if self.core.awaiting_best {
                self.end_search();
            } else if self.core.work.is_some() {
                match self.core.work_rx.recv() {
                    Ok(w) => self.on_work(w),
                    Err(_) => self.core.work = None,
                }
            } else if !self.run_queued() {
                return;
            }
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

/// Runs one command given as the program's arguments (`calvin bench`,
/// `calvin go perft 5`), waits for everything it starts, and returns, as
/// Stockfish does; stdin is not read.
pub fn run_command(line: &str) {
    let stdout = std::io::stdout();
    let mut s = Session::new(stdout.lock());
    s.core.say(&uci::banner());
    if s.handle(line) {
        s.settle();
    } else {
        s.quit();
    }
}

/// Runs the engine on stdin/stdout until `quit` or the end of input.
pub fn run() {
    let (tx, rx) = unbounded::<input::Line>();
    std::thread::spawn(move || input::read_lines(std::io::stdin().lock(), &tx));
    let stdout = std::io::stdout();
    let mut s = Session::new(stdout.lock());
    s.core.say(&uci::banner());
    let events = s.core.engine.events().clone();
    let work = s.core.work_rx.clone();
    while !s.core.out_closed {
        select! {
            recv(rx) -> line => match line {
                Ok(input::Line::Bytes(l)) => {
                    if !s.handle_bytes(&l) {
                        s.quit();
                        return;
                    }
                }
                Ok(input::Line::TooLong) => {
                    s.core.command = "...".into();
                    s.error(&format!("the line is longer than {} bytes", input::MAX_LINE));
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
    s.core.drop_work();
    s.core.engine.stop();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `line` prints once everything it started has ended.
    fn answer(s: &mut Session<Vec<u8>>, line: &str) -> Vec<String> {
        let before = s.core.out.len();
        assert!(s.handle(line), "{line}: quit");
        s.settle();
        String::from_utf8_lossy(&s.core.out[before..]).lines().map(String::from).collect()
    }

    /// The CECP state of a session speaking CECP.
    fn cecp(s: &Session<Vec<u8>>) -> &cecp::State {
        match &s.current {
            Current::Cecp(st) => st,
            _ => panic!("not in CECP"),
        }
    }

    /// Lines printed since `before`.
    fn since(s: &Session<Vec<u8>>, before: usize) -> Vec<String> {
        String::from_utf8_lossy(&s.core.out[before..]).lines().map(String::from).collect()
    }

    /// Plays `usermove` and waits for the engine's move; then, as the
    /// protocol loop does once nothing runs, the engine may start pondering.
    fn engine_reply(s: &mut Session<Vec<u8>>, mv: &str) -> Vec<String> {
        let before = s.core.out.len();
        assert!(s.handle(&format!("usermove {mv}")));
        s.finish();
        s.pump();
        since(s, before)
    }

    /// CECP `hard`: after its move the engine ponders on the expected reply
    /// (the game itself stays where it is); the expected move goes on with
    /// that search, another move ends it and is searched anew; `easy` ends
    /// pondering; at the end of the input an unanswered ponder prints nothing.
    #[test]
    fn cecp_ponders_after_hard() {
        let mut s = Session::new(Vec::new());
        for l in ["xboard", "protover 2", "new", "sd 3"] {
            assert!(s.handle(l));
        }
        // Without `hard` the engine does not ponder.
        let out = engine_reply(&mut s, "e2e4");
        assert!(out.last().is_some_and(|l| l.starts_with("move ")), "{out:?}");
        assert!(!s.core.running() && cecp(&s).pondering.is_none());
        assert!(s.handle("hard"));
        assert!(s.handle("usermove d2d4"));
        s.finish();
        let fen = s.core.engine.game().fen();
        s.pump();
        let expected = cecp(&s).pondering.clone().expect("pondering");
        assert!(s.core.endless(), "a ponder search has no end in sight");
        // The game is not touched by pondering: `fen` and `lift` read it.
        assert_eq!(s.core.engine.game().fen(), fen);
        assert_eq!(cecp(&s).moves.len(), 4);
        // The hit: no new search, the pondering one ends under its depth.
        let out = engine_reply(&mut s, &expected);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("move "), "{out:?}");
        assert_eq!(cecp(&s).moves.len(), 6);
        assert_eq!(cecp(&s).moves[4], expected);
        assert_eq!(s.core.engine.game().moves_played(), 6);
        // A miss: a legal move other than the expected one.
        let expected = cecp(&s).pondering.clone().expect("pondering again");
        let other = s.core.engine.game().legal_moves().into_iter().find(|m| *m != expected).expect("another move");
        let out = engine_reply(&mut s, &other);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("move "), "{out:?}");
        assert_eq!(cecp(&s).moves[6], other);
        assert_eq!(s.core.engine.game().moves_played(), 8);
        // `easy` ends pondering at once, printing nothing.
        assert!(cecp(&s).pondering.is_some());
        assert!(answer(&mut s, "easy").is_empty());
        assert!(!s.core.running() && cecp(&s).pondering.is_none());
        // Pondering again, then the input ends: nothing is printed.
        assert!(s.handle("hard"));
        let expected = s.core.engine.game().legal_moves()[0].clone();
        let _ = engine_reply(&mut s, &expected);
        assert!(cecp(&s).pondering.is_some());
        let before = s.core.out.len();
        s.settle();
        assert!(since(&s, before).is_empty());
        assert_eq!(s.core.engine.game().moves_played(), 10);
        assert!(!s.core.running() && cecp(&s).pondering.is_none());
    }

    /// UCI `ponderhit` makes a `go ponder` search end on its own: commands
    /// after it wait for it instead of being refused.
    #[test]
    fn ponderhit_gives_the_search_its_end() {
        let mut s = Session::new(Vec::new());
        assert!(s.handle("position startpos"));
        assert!(s.handle("go ponder depth 3"));
        assert!(s.core.endless());
        assert!(s.handle("ponderhit"));
        assert!(!s.core.endless() && s.core.running());
        let before = s.core.out.len();
        assert!(s.handle("position startpos moves e2e4"));
        s.finish();
        let out = since(&s, before);
        assert_eq!(out.iter().filter(|l| l.starts_with("info depth")).count(), 3, "{out:?}");
        assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")), "{out:?}");
        assert_eq!(s.core.engine.game().moves_played(), 1);
    }

    /// The `info` lines of a search as (depth, multipv, score cp, nodes, first move).
    fn infos(out: &[String]) -> Vec<(i32, usize, i32, u64, String)> {
        out.iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let after = |k: &str| w.iter().position(|x| *x == k).map(|i| w[i + 1]).expect("field");
                let num = |k: &str| after(k).parse::<i64>().expect("number");
                (
                    num("depth") as i32,
                    num("multipv") as usize,
                    num("cp") as i32,
                    num("nodes") as u64,
                    after("pv").into(),
                )
            })
            .collect()
    }

    /// A level's search: `Skill Level` 0 searches its table's node budget
    /// (stopping at it: the count may pass it by the few nodes entered as
    /// the search unwinds) in the level's number of lines, under a clock or
    /// with no limit, and plays a line within the level's margin of the
    /// best, the same one for the same seed.
    #[test]
    fn a_level_searches_its_budget_and_plays_a_near_best_move() {
        use crate::search::skill::Skill;
        let skill = Skill::level(0).expect("level 0");
        assert_eq!((skill.nodes, skill.lines, skill.margin), (1024, 6, 260));
        let mut s = Session::new(Vec::new());
        assert!(answer(&mut s, "setoption name Skill Level value 0").is_empty());
        let fen = "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let mut played = Vec::new();
        for go in ["go wtime 600000 btime 600000", "go wtime 600000 btime 600000", "go infinite"] {
            assert!(answer(&mut s, "ucinewgame").is_empty());
            assert!(answer(&mut s, fen).is_empty());
            s.core.engine.set_skill_seed(42);
            let before = s.core.out.len();
            assert!(s.handle(go));
            s.finish();
            if go == "go infinite" {
                // Stopped at its budget, the search answers only at `stop`.
                while !s.core.engine.search_halted() {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                s.pump();
                assert!(!since(&s, before).iter().any(|l| l.starts_with("bestmove")));
                assert!(s.core.endless());
                s.settle();
            }
            let out = since(&s, before);
            let info = infos(&out);
            let nodes = info.last().unwrap_or_else(|| panic!("{go}: {out:?}")).3;
            assert!((1024..1024 + 64).contains(&nodes), "{nodes} nodes: {out:?}");
            // The last iteration with all six lines.
            let depth = info.iter().filter(|i| i.1 == 6).map(|i| i.0).max().expect("six lines");
            let lines: Vec<_> = info.iter().filter(|i| i.0 == depth).take(6).collect();
            assert_eq!(lines.len(), 6, "{out:?}");
            let top = lines.iter().map(|i| i.2).max().expect("lines");
            let best = out.last().expect("bestmove").split_whitespace().nth(1).expect("move").to_string();
            let line = lines.iter().find(|i| i.4 == best).unwrap_or_else(|| panic!("{best} not searched: {out:?}"));
            assert!(line.2 >= top - skill.margin, "{best}: {out:?}");
            played.push(best);
        }
        assert_eq!(played[0], played[1], "the same seed, the same choice");
        // Full strength again: no budget, one line.
        assert!(answer(&mut s, "setoption name Skill Level value 20").is_empty());
        let out = answer(&mut s, "go depth 3");
        assert!(infos(&out).iter().all(|i| i.1 == 1), "{out:?}");
    }

    /// `UCI_LimitStrength` plays at `UCI_Elo` rather than `Skill Level`;
    /// values out of range or not numbers are refused with one line and
    /// the old value kept.
    #[test]
    fn strength_options_check_their_values() {
        use crate::search::skill::{LEVELS, Skill};
        let mut s = Session::new(Vec::new());
        assert_eq!(s.core.engine.skill(), None);
        assert_eq!(
            answer(&mut s, "setoption name Skill Level value 21"),
            ["info string error Skill Level must be -10..20"]
        );
        assert_eq!(
            answer(&mut s, "setoption name Skill Level value -11"),
            ["info string error Skill Level must be -10..20"]
        );
        assert_eq!(
            answer(&mut s, "setoption name Skill Level value weak"),
            ["info string error option Skill Level: 'weak' is not a number"]
        );
        assert_eq!(s.core.engine.skill(), None);
        assert!(answer(&mut s, "setoption name Skill Level value -10").is_empty());
        assert_eq!(s.core.engine.skill(), Skill::level(-10));
        assert!(answer(&mut s, "setoption name UCI_Elo value 1480").is_empty());
        assert_eq!(s.core.engine.skill(), Skill::level(-10), "UCI_Elo waits for UCI_LimitStrength");
        assert!(answer(&mut s, "setoption name UCI_LimitStrength value true").is_empty());
        assert_eq!(s.core.engine.skill(), Skill::level(4));
        assert_eq!(LEVELS[14].elo, 1480);
        assert_eq!(
            answer(&mut s, "setoption name UCI_Elo value 2441"),
            ["info string error UCI_Elo must be 540..2440"]
        );
        assert_eq!(answer(&mut s, "setoption name UCI_Elo value 539"), ["info string error UCI_Elo must be 540..2440"]);
        assert_eq!(
            answer(&mut s, "setoption name UCI_LimitStrength value yes"),
            ["info string error UCI_LimitStrength is true or false"]
        );
        assert_eq!(s.core.engine.skill(), Skill::level(4));
        assert!(answer(&mut s, "setoption name UCI_Elo value 2440").is_empty());
        assert_eq!(s.core.engine.skill(), None);
        assert!(answer(&mut s, "setoption name UCI_LimitStrength value false").is_empty());
        assert_eq!(s.core.engine.skill(), Skill::level(-10));
        // CECP sets them as engine options.
        assert!(answer(&mut s, "xboard").is_empty());
        assert!(answer(&mut s, "option Skill Level=7").is_empty());
        assert_eq!(s.core.engine.skill(), Skill::level(7));
        assert_eq!(
            answer(&mut s, "option Skill Level=99"),
            ["Error (Skill Level must be -10..20): option Skill Level=99"]
        );
        assert!(answer(&mut s, "option UCI_LimitStrength=1").is_empty());
        assert!(answer(&mut s, "option UCI_Elo=1090").is_empty());
        assert_eq!(s.core.engine.skill(), Skill::level(0));
    }

    #[test]
    fn switching_protocols_keeps_the_game() {
        let mut s = Session::new(Vec::new());
        assert_eq!(s.mode(), Mode::Uci);
        assert!(answer(&mut s, "position startpos moves e2e4").is_empty());
        let fen = s.core.engine.game().fen();
        assert_eq!(answer(&mut s, "usi").last().map(String::as_str), Some("usiok"));
        assert_eq!(s.mode(), Mode::Usi);
        assert!(answer(&mut s, "xboard").is_empty());
        assert_eq!(s.mode(), Mode::Cecp);
        assert_eq!(answer(&mut s, "frob"), ["Error (unknown command): frob"]);
        assert!(answer(&mut s, "xboard").is_empty());
        assert_eq!(s.mode(), Mode::Cecp);
        assert_eq!(s.core.engine.game().fen(), fen);
        assert_eq!(answer(&mut s, "uci").last().map(String::as_str), Some("uciok"));
        assert_eq!(s.mode(), Mode::Uci);
        assert_eq!(answer(&mut s, "frob"), ["info string error unknown command 'frob'"]);
        assert_eq!(s.core.engine.game().fen(), fen);
        assert!(!s.handle("quit"));
    }

    /// Background work (perft, bench) that panics on a bug ends with one
    /// error line: the engine does not wait for it for ever, keeps its
    /// game and answers the next command.
    #[test]
    fn work_that_panics_ends_with_an_error_line() {
        let mut s = Session::new(Vec::new());
        assert!(answer(&mut s, "position startpos moves e2e4").is_empty());
        let fen = s.core.engine.game().fen();
        let before = s.core.out.len();
        s.core.command = "bench".into();
        s.core.start_work(|send, _| {
            send(Work::Line("info string first".into()));
            panic!("a bug in the work");
        });
        s.settle();
        assert_eq!(
            since(&s, before),
            ["info string first", "info string error internal error: the work stopped on a bug"]
        );
        assert!(!s.core.running());
        assert_eq!(answer(&mut s, "isready"), ["readyok"]);
        assert_eq!(s.core.engine.game().fen(), fen);
    }
}
