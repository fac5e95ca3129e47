//! The protocol loop: a reader thread turns stdin into lines, and one loop
//! answers them and prints what the engine reports, so `isready`, `stop` and
//! `quit` are answered at once while a search or perft runs.
//!
//! The engine starts in UCI mode; `usi` switches to USI and `xboard` to CECP
//! (XBoard). All modes drive the same [`Engine`]. The dialect is specified
//! in `protocol/README.md`.

pub mod cecp;
pub mod options;
pub mod parse;
pub mod text;
pub mod uci;
pub mod usi;

use crate::engine::Engine;
use crate::search::Event;
use crate::timeman::Limits;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use std::io::{BufRead, Write};

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Uci,
    Usi,
    Cecp,
}

/// One protocol session: the engine plus where output goes.
pub struct Session<W: Write> {
    pub engine: Engine,
    pub out: W,
    pub mode: Mode,
    /// Ita squares in moves and `d` use the native file names (option `ItaNotation`).
    pub ita_native: bool,
    /// Lines produced by background work other than search (perft).
    text_tx: Sender<String>,
    text_rx: Receiver<String>,
    /// A background perft, if one runs.
    perft: Option<std::thread::JoinHandle<()>>,
    /// Whether the running search ends by itself (depth, nodes, time).
    search_is_finite: bool,
    /// CECP state (only used in CECP mode).
    pub cecp: cecp::State,
}

/// Whether a search with these limits ends by itself: a depth, node, time or
/// clock limit, and neither `infinite` nor `ponder`.
pub fn limits_finite(l: &Limits) -> bool {
    !l.infinite && !l.ponder && (l.depth.is_some() || l.nodes.is_some() || l.movetime.is_some() || l.timed())
}

impl<W: Write> Session<W> {
    pub fn new(out: W) -> Self {
        let (text_tx, text_rx) = unbounded();
        Session {
            engine: Engine::new(),
            out,
            mode: Mode::Uci,
            ita_native: false,
            text_tx,
            text_rx,
            perft: None,
            search_is_finite: false,
            cecp: cecp::State::default(),
        }
    }

    pub fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Reports bad input: exactly one line, in the mode's form.
    pub fn error(&mut self, msg: &str) {
        let l = match self.mode {
            Mode::Cecp => format!("Error ({msg}): {}", self.cecp.current_command),
            _ => format!("info string error {msg}"),
        };
        self.say(&l);
    }

    /// Prints everything the engine and background work have produced so far.
    pub fn drain(&mut self) {
        while let Ok(ev) = self.engine.events.try_recv() {
            self.on_event(ev);
        }
        while let Ok(t) = self.text_rx.try_recv() {
            self.say(&t);
        }
    }

    /// Lets background work end before a command that changes the engine's
    /// state: a search with a limit (depth, nodes, time) or a perft runs to
    /// its end (as in Stockfish); an infinite or pondering search is stopped.
    /// Its output is printed first.
    pub fn settle(&mut self) {
        if self.engine.searching() && !self.search_is_finite {
            self.engine.stop();
        }
        self.engine.join();
        if let Some(h) = self.perft.take() {
            let _ = h.join();
        }
        self.drain();
    }

    /// Stops whatever runs and prints what it produced.
    pub fn stop_all(&mut self) {
        self.engine.stop();
        self.engine.join();
        if let Some(h) = self.perft.take() {
            let _ = h.join();
        }
        self.drain();
    }

    /// Starts a search; `finite` says whether commands should wait for it.
    pub fn start_search(&mut self, limits: Limits) {
        self.search_is_finite = limits_finite(&limits);
        self.engine.go(limits);
    }

    /// Prints a search event in the mode's form.
    pub fn on_event(&mut self, ev: Event) {
        match self.mode {
            Mode::Cecp => self.cecp_event(ev),
            Mode::Uci | Mode::Usi => self.uci_event(ev),
        }
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        match self.mode {
            Mode::Cecp => self.handle_cecp(line),
            Mode::Usi => self.handle_usi(line),
            Mode::Uci => self.handle_uci(line),
        }
    }

    /// Runs `go perft` in the background: Stockfish's divide format.
    pub fn start_perft(&mut self, depth: u32) {
        let game = self.engine.game.clone_box();
        let tx = self.text_tx.clone();
        let conv = self.move_writer();
        self.perft = Some(std::thread::spawn(move || {
            let mut total = 0;
            for (m, n) in game.divide(depth) {
                let _ = tx.send(format!("{}: {n}", conv.write(&m)));
                total += n;
            }
            let _ = tx.send(String::new());
            let _ = tx.send(format!("Nodes searched: {total}"));
        }));
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

/// Runs the engine on stdin/stdout until `quit` or the end of input.
pub fn run() {
    let (tx, rx) = unbounded::<String>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    let stdout = std::io::stdout();
    let mut s = Session::new(stdout.lock());
    let events = s.engine.events.clone();
    let text = s.text_rx.clone();
    loop {
        select! {
            recv(rx) -> line => match line {
                Ok(l) => {
                    if !s.handle(&l) {
                        s.stop_all();
                        return;
                    }
                }
                Err(_) => {
                    s.settle();
                    return;
                }
            },
            recv(events) -> ev => if let Ok(ev) = ev { s.on_event(ev) },
            recv(text) -> t => if let Ok(t) = t { s.say(&t) },
        }
    }
}
