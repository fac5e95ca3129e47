//! An engine process over pipes: lines in, lines out, with deadlines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why a conversation with an engine failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ProcError {
    /// The process has exited (or closed its output).
    Dead,
    /// No expected answer within the deadline.
    Timeout(&'static str),
}

impl std::fmt::Display for ProcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProcError::Dead => write!(f, "the engine process has exited"),
            ProcError::Timeout(what) => write!(f, "the engine did not answer {what} in time"),
        }
    }
}

/// The engine's input, shared so that another thread can send `stop`.
#[derive(Clone)]
pub struct Writer(Arc<Mutex<ChildStdin>>);

impl Writer {
    /// Sends one line. Lines come only from this program's own formatting of
    /// checked values; a line break inside would be a bug, so it is refused.
    pub fn send(&self, line: &str) -> Result<(), ProcError> {
        if line.contains(['\n', '\r']) {
            return Err(ProcError::Timeout("a malformed command"));
        }
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(w, "{line}").and_then(|_| w.flush()).map_err(|_| ProcError::Dead)
    }
}

pub struct Proc {
    child: Child,
    stdin: Writer,
    lines: Receiver<String>,
    pub name: String,
}

impl Proc {
    /// Starts `argv[0]` with the other words as arguments (no shell).
    pub fn spawn(argv: &[String]) -> Result<Proc, String> {
        let (program, args) = argv.split_first().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        let name = std::path::Path::new(program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| program.clone());
        Ok(Proc { child, stdin: Writer(Arc::new(Mutex::new(stdin))), lines: rx, name })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ProcError> {
        self.stdin.send(line)
    }

    /// A handle that can write to the engine from another thread (`stop`).
    pub fn writer(&self) -> Writer {
        self.stdin.clone()
    }

    /// The next line, waiting at most `timeout`.
    pub fn recv(&self, timeout: Duration) -> Result<String, ProcError> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(ProcError::Timeout("a line")),
            Err(RecvTimeoutError::Disconnected) => Err(ProcError::Dead),
        }
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn until(
        &self,
        what: &'static str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, ProcError> {
        let end = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ProcError::Timeout(what));
            }
            let line = match self.recv(left) {
                Err(ProcError::Timeout(_)) => return Err(ProcError::Timeout(what)),
                r => r?,
            };
            let stop = done(&line);
            out.push(line);
            if stop {
                return Ok(out);
            }
        }
    }

    /// Sends the commands, then `isready`, and returns every line before `readyok`.
    pub fn query(&mut self, commands: &[String], timeout: Duration) -> Result<Vec<String>, ProcError> {
        for c in commands {
            self.send(c)?;
        }
        self.send("isready")?;
        let mut lines = self.until("isready", timeout, |l| l == "readyok")?;
        lines.pop();
        Ok(lines)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let end = Instant::now() + Duration::from_millis(500);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
