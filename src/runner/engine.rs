//! One UCI engine in a match, over the shared client
//! ([`calvin_uci_client::Process`]: lines with deadlines, a reader and a
//! writer thread). Whatever goes wrong is a [`Fault`]: the game is lost and
//! the process is killed, to be started afresh for the next game.

use calvin_uci_client::{Error, Process};
use std::time::{Duration, Instant};

pub use calvin_uci_client::split_command;

/// What an engine is to be started with (`--engine` / `--each` settings
/// that concern the process).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCmd {
    /// The command line, split like a shell would (quotes, backslashes).
    pub cmd: String,
    /// Working directory.
    pub dir: Option<String>,
    /// `setoption` pairs, sent in order after `uciok`.
    pub options: Vec<(String, String)>,
    /// `UCI_Variant` value this engine uses for the match variant.
    pub variant: String,
    /// A variant's clock mode to set if the engine has its option: (option, mode).
    pub clock_mode: Option<(String, String)>,
}

/// How an engine failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// Exited, or could not be started.
    Crash,
    /// Did not answer in time (no `uciok`, `readyok` or untimed `bestmove`).
    Stall,
    /// Sent something that is not UCI text or not a move.
    Garbage,
}

impl FaultKind {
    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Stall => "stall",
            FaultKind::Garbage => "garbage",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// What happened, as a phrase that follows the engine's name.
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault { kind, detail: detail.into() }
    }
    /// `"crash: Name exited (exit status: 3) while thinking"`.
    pub fn describe(&self, name: &str) -> String {
        format!("{}: {name} {}", self.kind.label(), self.detail)
    }
}

/// A bestmove with the time it took from `go`.
#[derive(Debug)]
pub enum GoReply {
    Move {
        text: String,
        elapsed: Duration,
    },
    /// No bestmove within the time given.
    Timeout,
    Fault(Fault),
}

/// A running engine.
pub struct Engine {
    /// `id name` the engine gave, if any.
    pub id_name: Option<String>,
    /// Option names the engine listed.
    pub options: Vec<String>,
    proc: Process,
}

impl Engine {
    /// Starts the process, runs the `uci` handshake, sets the options and the
    /// variant, and waits for `readyok`; each answer within `timeout`.
    pub fn start(cfg: &EngineCmd, timeout: Duration, log: Option<String>) -> Result<Engine, Fault> {
        let words = split_command(&cfg.cmd).map_err(|e| Fault::new(FaultKind::Crash, e))?;
        let proc = Process::spawn(&words, cfg.dir.as_deref(), log)
            .map_err(|e| Fault::new(FaultKind::Crash, format!("could not be started ('{}': {e})", cfg.cmd)))?;
        let mut e = Engine { id_name: None, options: Vec::new(), proc };
        let uci = e.proc.handshake(timeout);
        let uci = uci.map_err(|err| e.fault(err, timeout, "uciok", "starting"))?;
        e.id_name = uci.id_name;
        e.options =
            uci.options.iter().filter_map(|l| calvin_uci_client::Uci::option_name(l)).map(String::from).collect();
        for (name, value) in &cfg.options {
            e.send(&format!("setoption name {name} value {value}"));
        }
        if cfg.variant != "chess" || e.has_option("UCI_Variant") {
            e.send(&format!("setoption name UCI_Variant value {}", cfg.variant));
        }
        if let Some((option, m)) = &cfg.clock_mode
            && e.has_option(option)
        {
            e.send(&format!("setoption name {option} value {m}"));
        }
        e.ready(timeout)?;
        Ok(e)
    }

    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends one line (a dead engine is noticed when it is read from).
    pub fn send(&self, line: &str) {
        let _ = self.proc.send(line);
    }

    /// The fault for a failed wait: `waiting` names the answer awaited (for
    /// a stall) and `doing` what the engine was doing (for a crash).
    fn fault(&mut self, err: Error, timeout: Duration, waiting: &str, doing: &str) -> Fault {
        match err {
            Error::Garbage(what) => Fault::new(FaultKind::Garbage, what),
            // Only sending refuses a line break, and the runner sends its own lines.
            Error::LineBreak => Fault::new(FaultKind::Garbage, "was sent a command with a line break"),
            Error::Exited => {
                let st = self.proc.exit_status();
                Fault::new(FaultKind::Crash, format!("{st} while {doing}"))
            }
            Error::Timeout => {
                Fault::new(FaultKind::Stall, format!("sent no {waiting} within {:.1} s", timeout.as_secs_f64()))
            }
        }
    }

    /// The next output line read before `deadline` (so an engine that never
    /// stops writing cannot keep the runner waiting).
    fn next_line(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        waiting: &str,
        doing: &str,
    ) -> Result<(Instant, String), Fault> {
        let got = self.proc.recv_until(deadline);
        got.map_err(|err| self.fault(err, timeout, waiting, doing))
    }

    /// `isready` and the wait for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), Fault> {
        let r = self.proc.ready(timeout);
        r.map_err(|err| self.fault(err, timeout, "readyok", "getting ready"))
    }

    /// `ucinewgame` and `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("ucinewgame");
        self.ready(timeout)
    }

    /// Sends `position` and `go` and waits for `bestmove` up to `limit`.
    /// The time is measured from sending `go` to reading the answer.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> GoReply {
        // Output left from before (a late bestmove, info lines) is dropped;
        // a crash or garbage in it still counts.
        if let Err(err) = self.proc.drain() {
            return GoReply::Fault(self.fault(err, limit, "bestmove", "waiting"));
        }
        self.send(position);
        self.send(go);
        let start = Instant::now();
        let deadline = start + limit;
        loop {
            match self.next_line(deadline, limit, "bestmove", "thinking") {
                Ok((t, line)) => {
                    let mut words = line.split_whitespace();
                    if words.next() != Some("bestmove") {
                        continue;
                    }
                    let elapsed = t.saturating_duration_since(start);
                    return match words.next() {
                        Some(m) => GoReply::Move { text: m.to_string(), elapsed },
                        None => GoReply::Fault(Fault::new(FaultKind::Garbage, "sent 'bestmove' without a move")),
                    };
                }
                Err(f) if f.kind == FaultKind::Stall => return GoReply::Timeout,
                Err(f) => return GoReply::Fault(f),
            }
        }
    }

    /// After a timeout: `stop`, and whether a bestmove came within `grace`.
    pub fn stop(&mut self, grace: Duration) -> bool {
        self.send("stop");
        let deadline = Instant::now() + grace;
        while let Ok((_, line)) = self.proc.recv_until(deadline) {
            if line.split_whitespace().next() == Some("bestmove") {
                return true;
            }
        }
        false
    }

    /// `quit`, then the process is killed if it has not ended within `wait`.
    pub fn quit(mut self, wait: Duration) {
        self.proc.quit(wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_faults() {
        let f = Fault::new(FaultKind::Stall, "sent no bestmove within 1.0 s");
        assert_eq!(f.describe("A"), "stall: A sent no bestmove within 1.0 s");
    }
}
