//! The protocol loop: a reader thread turns stdin into lines, and one loop
//! answers them and prints what the engine reports, so `isready`, `stop` and
//! `quit` are answered at once while a search or perft runs.

pub mod parse;
pub mod uci;

use crate::engine::Engine;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use std::io::{BufRead, Write};

/// One protocol session: the engine plus where output goes.
pub struct Session<W: Write> {
    pub engine: Engine,
    pub out: W,
    /// Lines produced by background work other than search (perft).
    text_tx: Sender<String>,
    text_rx: Receiver<String>,
    /// A background perft, if one runs.
    perft: Option<std::thread::JoinHandle<()>>,
    /// Whether the running search ends by itself (depth, nodes, time).
    search_is_finite: bool,
}

impl<W: Write> Session<W> {
    pub fn new(out: W) -> Self {
        let (text_tx, text_rx) = unbounded();
        Session { engine: Engine::new(), out, text_tx, text_rx, perft: None, search_is_finite: false }
    }

    pub fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    pub fn error(&mut self, msg: &str) {
        self.say(&format!("info string error {msg}"));
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
                        s.engine.stop();
                        s.engine.join();
                        s.drain();
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
