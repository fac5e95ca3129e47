//! One UCI engine process talked to over pipes, shared by calvin's match
//! runner and its browser board (which must not link the engine itself).
//!
//! A reader thread turns the engine's output into lines on a channel, so that
//! every wait has a deadline, and a writer thread feeds its input, so that an
//! engine that stops reading never blocks the caller. Each line is stamped
//! with the instant it was read; a line that is not text (not UTF-8, control
//! characters, longer than [`MAX_LINE`]) arrives as [`Error::Garbage`].
//! Dropping a [`Process`] kills the engine if it is still running.
//!
//! [`json`]: the JSON both write (results files, the board's answers).

pub mod json;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError, bounded, unbounded};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest output line accepted (a longer one is garbage).
pub const MAX_LINE: usize = 1 << 20;
/// Output lines held unread; an engine that writes more waits on its pipe.
const QUEUE: usize = 4096;

/// Why a wait for the engine's output failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Nothing awaited before the deadline.
    Timeout,
    /// The engine sent something that is not a line of text: what it sent.
    Garbage(String),
    /// The engine closed its output (it has exited) or its input.
    Exited,
    /// A line to send held a line break (it would have been two commands);
    /// nothing was sent.
    LineBreak,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Timeout => write!(f, "no answer in time"),
            Error::Garbage(what) => write!(f, "{what}"),
            Error::Exited => write!(f, "the engine process has exited"),
            Error::LineBreak => write!(f, "a command with a line break was refused"),
        }
    }
}

/// One piece of engine output, stamped when it was read.
#[derive(Debug)]
enum Output {
    Line(Instant, String),
    Garbage(String),
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

/// Reads lines until the end of `out`, each without its trailing whitespace.
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
            while matches!(buf.last(), Some(b) if b.is_ascii_whitespace()) {
                buf.pop();
            }
            let msg = if too_long {
                Output::Garbage(format!("sent a line of more than {MAX_LINE} bytes"))
            } else {
                match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(s) if s.chars().any(|c| c.is_control() && c != '\t') => {
                        Output::Garbage(format!("sent control characters: {s:?}"))
                    }
                    Ok(s) => Output::Line(t, s),
                    Err(e) => Output::Garbage(format!(
                        "sent bytes that are not UTF-8 text: {:?}",
                        String::from_utf8_lossy(e.as_bytes())
                    )),
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

/// A handle that writes to the engine from another thread (`stop`).
#[derive(Clone)]
pub struct Writer(Sender<String>);

impl Writer {
    /// Queues one line; fails once the engine no longer reads its input.
    pub fn send(&self, line: &str) -> Result<(), Error> {
        if line.contains(['\n', '\r']) {
            return Err(Error::LineBreak);
        }
        self.0.send(line.to_string()).map_err(|_| Error::Exited)
    }
}

/// What the engine said between `uci` and `uciok`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uci {
    /// `id name` the engine gave, if any (the last one that is not empty).
    pub id_name: Option<String>,
    /// Every `option name ...` line, whole and in order.
    pub options: Vec<String>,
}

impl Uci {
    /// The name in an `option name NAME type ...` line.
    pub fn option_name(line: &str) -> Option<&str> {
        let rest = line.trim_start().strip_prefix("option")?.trim_start().strip_prefix("name")?.trim();
        Some(rest.split(" type ").next().unwrap_or(rest).trim())
    }

    /// Whether the engine has the option (names compare without case).
    pub fn has_option(&self, name: &str) -> bool {
        self.option(name).is_some()
    }

    /// The line that declares the option, if any.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|l| Uci::option_name(l).is_some_and(|n| n.eq_ignore_ascii_case(name)))
            .map(String::as_str)
    }

    /// A combo option's values (`var` words), in order.
    pub fn combo_values(&self, name: &str) -> Option<Vec<&str>> {
        self.option(name).map(|l| l.split(" var ").skip(1).map(str::trim).collect())
    }
}

/// A running engine process.
pub struct Process {
    /// The program's file name (`calvin` for `../target/release/calvin`).
    pub name: String,
    child: Child,
    input: Option<Sender<String>>,
    output: Receiver<Output>,
    /// A line read after the deadline of the wait that read it, kept for the next wait.
    late: Option<(Instant, String)>,
    /// Prefix for logging the conversation to stderr.
    log: Option<String>,
    /// On drop, `quit` and wait this long before killing.
    quit_wait: Option<Duration>,
}

impl Process {
    /// Starts `argv[0]` with the other words as arguments (no shell), in
    /// `dir` if given; the engine's stderr is shown when `log` is given
    /// (which also logs every line, `PREFIX < sent` and `PREFIX > read`),
    /// and dropped otherwise.
    pub fn spawn(argv: &[String], dir: Option<&str>, log: Option<String>) -> std::io::Result<Process> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty engine command"))?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(if log.is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
        if let Some(d) = dir {
            command.current_dir(d);
        }
        let mut child = command.spawn()?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("no pipes to the engine"));
        };
        let (out_tx, out_rx) = bounded(QUEUE);
        let (in_tx, in_rx) = unbounded();
        std::thread::spawn(move || read_loop(stdout, out_tx));
        std::thread::spawn(move || write_loop(stdin, in_rx));
        let name = std::path::Path::new(program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| program.clone());
        Ok(Process { name, child, input: Some(in_tx), output: out_rx, late: None, log, quit_wait: None })
    }

    /// Sends one line; fails once the engine no longer reads its input (a
    /// dead engine is otherwise noticed when it is read from). A line with a
    /// line break in it is refused.
    pub fn send(&self, line: &str) -> Result<(), Error> {
        if line.contains(['\n', '\r']) {
            return Err(Error::LineBreak);
        }
        if let Some(p) = &self.log {
            eprintln!("{p} < {line}");
        }
        match &self.input {
            Some(tx) => tx.send(line.to_string()).map_err(|_| Error::Exited),
            None => Err(Error::Exited),
        }
    }

    /// A handle that can write to the engine from another thread.
    pub fn writer(&self) -> Writer {
        Writer(self.input.clone().unwrap_or_else(|| unbounded().0))
    }

    /// The next line read before `deadline`, with the instant it was read. A
    /// line already waiting is taken even after the deadline, unless it was
    /// read after it (so an engine that never stops writing cannot keep the
    /// caller waiting).
    pub fn recv_until(&mut self, deadline: Instant) -> Result<(Instant, String), Error> {
        let now = Instant::now();
        let got = if let Some((t, s)) = self.late.take() {
            Ok(Output::Line(t, s))
        } else if now < deadline {
            self.output.recv_timeout(deadline - now)
        } else {
            self.output.try_recv().map_err(|e| match e {
                TryRecvError::Empty => RecvTimeoutError::Timeout,
                TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        };
        match got {
            Ok(Output::Line(t, s)) if t > deadline => {
                self.late = Some((t, s));
                Err(Error::Timeout)
            }
            Ok(Output::Line(t, s)) => {
                if let Some(p) = &self.log {
                    eprintln!("{p} > {s}");
                }
                Ok((t, s))
            }
            Ok(Output::Garbage(what)) => Err(Error::Garbage(what)),
            Ok(Output::Eof) | Err(RecvTimeoutError::Disconnected) => Err(Error::Exited),
            Err(RecvTimeoutError::Timeout) => Err(Error::Timeout),
        }
    }

    /// The next line, waiting at most `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, Error> {
        self.recv_until(Instant::now() + timeout).map(|(_, s)| s)
    }

    /// Lines up to and including the first one for which `done` holds, all
    /// read within `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Result<Vec<String>, Error> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let (_, line) = self.recv_until(deadline)?;
            let stop = done(&line);
            out.push(line);
            if stop {
                return Ok(out);
            }
        }
    }

    /// Sends the commands, then `isready`, and returns every line before
    /// `readyok`, all within `timeout`.
    pub fn query(&mut self, commands: &[String], timeout: Duration) -> Result<Vec<String>, Error> {
        for c in commands {
            self.send(c)?;
        }
        self.send("isready")?;
        let mut lines = self.until(timeout, |l| l.trim() == "readyok")?;
        lines.pop();
        Ok(lines)
    }

    /// `isready` and the wait for `readyok` within `timeout`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), Error> {
        self.query(&[], timeout).map(drop)
    }

    /// `uci` and the wait for `uciok` within `timeout`: the engine's name and options.
    pub fn handshake(&mut self, timeout: Duration) -> Result<Uci, Error> {
        self.send("uci")?;
        let lines = self.until(timeout, |l| l.trim() == "uciok")?;
        let mut uci = Uci::default();
        for line in lines {
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("id"), Some("name")) => {
                    let name = line.trim_start()[2..].trim_start()[4..].trim();
                    if !name.is_empty() {
                        uci.id_name = Some(name.to_string());
                    }
                }
                (Some("option"), Some("name")) => uci.options.push(line),
                _ => {}
            }
        }
        Ok(uci)
    }

    /// Drops every line read and not yet taken; garbage or the end of the
    /// output among them is the error it would have been.
    pub fn drain(&mut self) -> Result<(), Error> {
        self.late = None;
        for _ in 0..self.output.len() {
            match self.output.try_recv() {
                Ok(Output::Line(..)) => {}
                Ok(Output::Garbage(what)) => return Err(Error::Garbage(what)),
                Ok(Output::Eof) | Err(TryRecvError::Disconnected) => return Err(Error::Exited),
                Err(TryRecvError::Empty) => break,
            }
        }
        Ok(())
    }

    /// The exit status, once the process has ended (waits up to 200 ms):
    /// `"exited (exit status: 3)"`, or `"closed its output"`.
    pub fn exit_status(&mut self) -> String {
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return format!("exited ({st})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "closed its output".into()
    }

    /// `quit`, closes the engine's input and waits up to `wait` for it to
    /// end; whether it did (if not, dropping the process kills it).
    pub fn quit(&mut self, wait: Duration) -> bool {
        let _ = self.send("quit");
        self.input = None;
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Makes dropping the process send `quit` and wait up to `wait` for the
    /// engine to end before it is killed (by default it is killed at once).
    pub fn quit_on_drop(&mut self, wait: Duration) {
        self.quit_wait = Some(wait);
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(wait) = self.quit_wait {
            self.quit(wait);
        }
        self.input = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake engine: a `sh` script that answers `uci` and `isready`, echoes
    /// `echo WORDS`, and stays silent on `silent`.
    const FAKE: &str = r#"
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name Fake  1"; echo "id author nobody"
         echo "option name Hash type spin default 16 min 1 max 64"
         echo "option name UCI_Variant type combo default chess var chess var ita"
         echo "info string not an option"; echo "uciok";;
    isready) echo "readyok";;
    echo) echo "$rest  ";;
    garbage) printf 'bad\001line\n';;
    exit) exit 3;;
    quit) exit 0;;
  esac
done
"#;

    fn fake() -> Process {
        Process::spawn(&["sh".into(), "-c".into(), FAKE.into()], None, None).unwrap()
    }

    const T: Duration = Duration::from_secs(10);

    #[test]
    fn splits_commands_like_a_shell() {
        assert_eq!(
            split_command("python3 fake.py --moves 'e2e4 e7e5' \"a b\" c\\ d").unwrap(),
            vec!["python3", "fake.py", "--moves", "e2e4 e7e5", "a b", "c d"]
        );
        assert_eq!(split_command("  ./engine  ").unwrap(), vec!["./engine"]);
        assert_eq!(split_command("x ''").unwrap(), vec!["x", ""]);
        assert_eq!(split_command("x 'y"), Err("unclosed quote in command 'x 'y'".into()));
        assert_eq!(split_command("   "), Err("empty engine command".into()));
    }

    #[test]
    fn reads_lines_and_flags_garbage() {
        let (tx, rx) = unbounded();
        let data: &[u8] = b"id name X \t\r\nreadyok\n\xff\xfe junk\nnul\x00here\nlast";
        read_loop(data, tx);
        let got: Vec<String> = rx
            .iter()
            .map(|o| match o {
                Output::Line(_, s) => format!("L:{s}"),
                Output::Garbage(s) => format!("G:{s}"),
                Output::Eof => "EOF".into(),
            })
            .collect();
        assert_eq!(
            got,
            vec![
                "L:id name X",
                "L:readyok",
                "G:sent bytes that are not UTF-8 text: \"\u{fffd}\u{fffd} junk\"",
                "G:sent control characters: \"nul\\0here\"",
                "L:last",
                "EOF"
            ]
        );
        let (tx, rx) = unbounded();
        let long = vec![b'a'; MAX_LINE + 10];
        read_loop(&long[..], tx);
        assert!(matches!(rx.recv().unwrap(), Output::Garbage(s) if s == "sent a line of more than 1048576 bytes"));
        assert!(matches!(rx.recv().unwrap(), Output::Eof));
    }

    #[test]
    fn handshake_collects_name_and_option_lines() {
        let mut p = fake();
        assert_eq!(p.name, "sh");
        let uci = p.handshake(T).unwrap();
        assert_eq!(uci.id_name.as_deref(), Some("Fake  1"));
        assert_eq!(
            uci.options,
            vec![
                "option name Hash type spin default 16 min 1 max 64",
                "option name UCI_Variant type combo default chess var chess var ita"
            ]
        );
        assert!(uci.has_option("hash"));
        assert!(!uci.has_option("Threads"));
        assert_eq!(uci.combo_values("UCI_Variant"), Some(vec!["chess", "ita"]));
        assert_eq!(Uci::option_name("option  name Move Overhead type spin"), Some("Move Overhead"));
        p.ready(T).unwrap();
        assert_eq!(p.send("echo a\nquit"), Err(Error::LineBreak));
        assert_eq!(p.writer().send("echo b\r"), Err(Error::LineBreak));
        let lines = p.query(&["echo a b".into(), "echo c".into()], T).unwrap();
        assert_eq!(lines, vec!["a b", "c"]);
        assert_eq!(p.until(Duration::from_millis(50), |_| true), Err(Error::Timeout));
    }

    #[test]
    fn a_silent_engine_times_out_and_garbage_is_an_error() {
        let mut p = fake();
        let start = Instant::now();
        assert_eq!(p.recv(Duration::from_millis(100)), Err(Error::Timeout));
        assert!(start.elapsed() >= Duration::from_millis(100));
        assert_eq!(p.until(Duration::from_millis(50), |l| l == "never"), Err(Error::Timeout));
        p.send("garbage").unwrap();
        assert_eq!(p.recv(T), Err(Error::Garbage("sent control characters: \"bad\\u{1}line\"".into())));
        p.send("echo x").unwrap();
        p.send("echo y").unwrap();
        assert_eq!(p.recv(T), Ok("x".into()));
        std::thread::sleep(Duration::from_millis(100));
        p.drain().unwrap();
        assert_eq!(p.recv(Duration::from_millis(50)), Err(Error::Timeout));
    }

    #[test]
    fn an_exit_is_reported_with_its_status() {
        let mut p = fake();
        p.send("exit").unwrap();
        assert_eq!(p.recv(T), Err(Error::Exited));
        assert_eq!(p.exit_status(), "exited (exit status: 3)");
        assert_eq!(p.recv(T), Err(Error::Exited));
        let mut q = fake();
        assert!(q.quit(T));
        assert_eq!(q.send("uci"), Err(Error::Exited));
    }

    #[test]
    fn drop_kills_the_engine() {
        let p = fake();
        let pid = p.id();
        let alive = || std::path::Path::new(&format!("/proc/{pid}")).exists();
        assert!(alive());
        let w = p.writer();
        drop(p);
        // Reaped by the drop: no process, not even a zombie, has the id.
        assert!(!alive());
        assert_eq!(w.send("stop"), Ok(()));
        // Asked to, a drop sends quit and waits, then kills: this engine writes
        // the line it reads to a file and sleeps on.
        let dir = std::env::temp_dir().join(format!("calvin-uci-client-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let script = format!("read -r cmd; echo \"$cmd\" > '{}'; exec sleep 5", dir.display());
        let mut p = Process::spawn(&["sh".into(), "-c".into(), script], None, None).unwrap();
        p.quit_on_drop(Duration::from_secs(1));
        let start = Instant::now();
        drop(p);
        assert_eq!(std::fs::read_to_string(&dir).unwrap(), "quit\n");
        assert!(start.elapsed() < Duration::from_secs(5), "killed after the wait, not left to sleep");
        let _ = std::fs::remove_file(&dir);
        let e = Process::spawn(&["/nonexistent/engine".into()], None, None).err().unwrap();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        let e = Process::spawn(&[], None, None).err().unwrap();
        assert_eq!(e.to_string(), "empty engine command");
    }
}
