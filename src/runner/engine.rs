//! One UCI engine process talked to over pipes. A reader thread turns its
//! output into lines on a channel, so that every wait has a timeout, and a
//! writer thread feeds its input, so that an engine that stops reading never
//! blocks the runner. Whatever goes wrong is a [`Fault`]: the game is lost
//! and the process is killed, to be started afresh for the next game.

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError, bounded, unbounded};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest output line accepted (a longer one is garbage).
pub const MAX_LINE: usize = 1 << 20;
/// Output lines held unread; an engine that writes more waits on its pipe.
const QUEUE: usize = 4096;

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

/// One piece of engine output, stamped when it was read.
#[derive(Debug)]
pub enum Output {
    Line(Instant, String),
    Garbage(Instant, String),
    Eof,
}

/// Splits a command line into words: whitespace separates, single and double
/// quotes group, a backslash escapes the next character (outside single quotes).
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                cur.push(chars.next().ok_or("trailing backslash in command")?);
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in command '{s}'"));
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

fn read_loop(out: impl Read, tx: Sender<Output>) {
    let mut r = BufReader::new(out);
    let mut buf: Vec<u8> = Vec::new();
    loop {
        buf.clear();
        let mut too_long = false;
        let mut eof = false;
        loop {
            let avail = match r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    eof = true;
                    break;
                }
            };
            if avail.is_empty() {
                eof = true;
                break;
            }
            let (take, done) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (avail.len(), false),
            };
            let room = MAX_LINE.saturating_sub(buf.len());
            if take > room {
                too_long = true;
            }
            buf.extend_from_slice(&avail[..take.min(room)]);
            r.consume(take);
            if done {
                break;
            }
        }
        if !buf.is_empty() {
            let t = Instant::now();
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            let msg = if too_long {
                Output::Garbage(t, format!("sent a line of more than {MAX_LINE} bytes"))
            } else {
                match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(s) if s.chars().any(|c| c.is_control() && c != '\t') => {
                        Output::Garbage(t, format!("sent control characters: {s:?}"))
                    }
                    Ok(s) => Output::Line(t, s),
                    Err(e) => Output::Garbage(
                        t,
                        format!("sent bytes that are not UTF-8 text: {:?}", String::from_utf8_lossy(e.as_bytes())),
                    ),
                }
            };
            if tx.send(msg).is_err() {
                return;
            }
        }
        if eof {
            let _ = tx.send(Output::Eof);
            return;
        }
    }
}

fn write_loop(mut stdin: impl Write, rx: Receiver<String>) {
    for line in rx {
        if stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush()).is_err() {
            return;
        }
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
    child: Child,
    tx: Option<Sender<String>>,
    rx: Receiver<Output>,
    /// A line read after the deadline of the wait that read it, kept for the next wait.
    late: Option<(Instant, String)>,
    /// Prefix for logging the conversation to stderr (`--debug`).
    log: Option<String>,
}

impl Engine {
    /// Starts the process, runs the `uci` handshake, sets the options and the
    /// variant, and waits for `readyok`; each answer within `timeout`.
    pub fn start(cfg: &EngineCmd, timeout: Duration, log: Option<String>) -> Result<Engine, Fault> {
        let words = split_command(&cfg.cmd).map_err(|e| Fault::new(FaultKind::Crash, e))?;
        let mut command = Command::new(&words[0]);
        command.args(&words[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(if log.is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
        if let Some(d) = &cfg.dir {
            command.current_dir(d);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::new(FaultKind::Crash, format!("could not be started ('{}': {e})", cfg.cmd)))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        let (out_tx, out_rx) = bounded(QUEUE);
        let (in_tx, in_rx) = unbounded();
        std::thread::spawn(move || read_loop(stdout, out_tx));
        std::thread::spawn(move || write_loop(stdin, in_rx));
        let mut e = Engine { id_name: None, options: Vec::new(), child, tx: Some(in_tx), rx: out_rx, late: None, log };
        e.send("uci");
        let deadline = Instant::now() + timeout;
        loop {
            let line = e.next_line(deadline, timeout, "uciok", "starting")?.1;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), None) => break,
                (Some("id"), Some("name")) => {
                    let name = line.trim_start()[2..].trim_start()[4..].trim();
                    if !name.is_empty() {
                        e.id_name = Some(name.to_string());
                    }
                }
                (Some("option"), Some("name")) => {
                    let rest = line.trim_start()[6..].trim_start()[4..].trim();
                    let name = rest.split(" type ").next().unwrap_or(rest).trim();
                    e.options.push(name.to_string());
                }
                _ => {}
            }
        }
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
        if let Some(p) = &self.log {
            eprintln!("{p} < {line}");
        }
        if let Some(tx) = &self.tx {
            let _ = tx.send(line.to_string());
        }
    }

    /// The exit status, once the process has ended (waits up to 200 ms).
    fn exit_status(&mut self) -> String {
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return format!("exited ({st})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "closed its output".into()
    }

    /// The next output line read before `deadline` (so an engine that never
    /// stops writing cannot keep the runner waiting); `waiting` names the
    /// answer awaited (for a stall) and `doing` what the engine was doing
    /// (for a crash).
    fn next_line(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        waiting: &str,
        doing: &str,
    ) -> Result<(Instant, String), Fault> {
        let now = Instant::now();
        let got = if let Some((t, s)) = self.late.take() {
            Ok(Output::Line(t, s))
        } else if now < deadline {
            self.rx.recv_timeout(deadline - now)
        } else {
            self.rx.try_recv().map_err(|e| match e {
                TryRecvError::Empty => RecvTimeoutError::Timeout,
                TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        };
        let got = match got {
            Ok(Output::Line(t, s)) if t > deadline => {
                self.late = Some((t, s));
                Err(RecvTimeoutError::Timeout)
            }
            other => other,
        };
        match got {
            Ok(Output::Line(t, s)) => {
                if let Some(p) = &self.log {
                    eprintln!("{p} > {s}");
                }
                Ok((t, s))
            }
            Ok(Output::Garbage(_, what)) => Err(Fault::new(FaultKind::Garbage, what)),
            Ok(Output::Eof) | Err(RecvTimeoutError::Disconnected) => {
                let st = self.exit_status();
                Err(Fault::new(FaultKind::Crash, format!("{st} while {doing}")))
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(Fault::new(FaultKind::Stall, format!("sent no {waiting} within {:.1} s", timeout.as_secs_f64())))
            }
        }
    }

    /// `isready` and the wait for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("isready");
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.next_line(deadline, timeout, "readyok", "getting ready")?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
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
        self.late = None;
        for _ in 0..self.rx.len() {
            let Ok(o) = self.rx.try_recv() else { break };
            match o {
                Output::Line(..) => {}
                Output::Garbage(_, what) => {
                    return GoReply::Fault(Fault::new(FaultKind::Garbage, what));
                }
                Output::Eof => {
                    let st = self.exit_status();
                    return GoReply::Fault(Fault::new(FaultKind::Crash, format!("{st} while waiting")));
                }
            }
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
        while let Ok((_, line)) = self.next_line(deadline, grace, "bestmove", "stopping") {
            if line.split_whitespace().next() == Some("bestmove") {
                return true;
            }
        }
        false
    }

    /// `quit`, then the process is killed if it has not ended within `wait`.
    pub fn quit(mut self, wait: Duration) {
        self.send("quit");
        self.tx = None;
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.tx = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_like_a_shell() {
        assert_eq!(
            split_command("python3 fake.py --moves 'e2e4 e7e5' \"a b\" c\\ d").unwrap(),
            vec!["python3", "fake.py", "--moves", "e2e4 e7e5", "a b", "c d"]
        );
        assert_eq!(split_command("  ./engine  ").unwrap(), vec!["./engine"]);
        assert_eq!(split_command("x ''").unwrap(), vec!["x", ""]);
        assert!(split_command("x 'y").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn describes_faults() {
        let f = Fault::new(FaultKind::Stall, "sent no bestmove within 1.0 s");
        assert_eq!(f.describe("A"), "stall: A sent no bestmove within 1.0 s");
    }

    #[test]
    fn reads_lines_and_flags_garbage() {
        let (tx, rx) = unbounded();
        let data: &[u8] = b"id name X\r\nreadyok\n\xff\xfe junk\nnul\x00here\nlast";
        read_loop(data, tx);
        let got: Vec<String> = rx
            .iter()
            .map(|o| match o {
                Output::Line(_, s) => format!("L:{s}"),
                Output::Garbage(_, s) => format!("G:{s}"),
                Output::Eof => "EOF".into(),
            })
            .collect();
        assert_eq!(got.len(), 6);
        assert_eq!(got[0], "L:id name X");
        assert_eq!(got[1], "L:readyok");
        assert!(got[2].starts_with("G:sent bytes that are not UTF-8"), "{}", got[2]);
        assert!(got[3].starts_with("G:sent control characters"), "{}", got[3]);
        assert_eq!(got[4], "L:last");
        assert_eq!(got[5], "EOF");
        let (tx, rx) = unbounded();
        let long = vec![b'a'; MAX_LINE + 10];
        read_loop(&long[..], tx);
        assert!(matches!(rx.recv().unwrap(), Output::Garbage(..)));
        assert!(matches!(rx.recv().unwrap(), Output::Eof));
    }
}
