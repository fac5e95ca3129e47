//! Replays the recorded sessions in `protocol/sessions/*.session` against
//! the `calvin` binary: every `> ` line is sent, then stdin is closed, and the
//! output must match the expectations in order:
//! `< text` exactly this line; `<^ text` a line starting with `text`;
//! `<* text` any number (0+) of lines starting with `text`;
//! `<~ text` lines starting with `text` are left out of the whole output
//! (search output that may come at any time). Nothing else may be printed.
//! `>b text` sends `text` with `\xHH` written as the byte HH (lines that are
//! not UTF-8). Lines starting with `#` are comments.

use std::io::Write;
use std::process::{Command, Stdio};

/// How long one session may take (the longest takes about a second).
const DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

enum Expect {
    Exact(String),
    Prefix(String),
    Skip(String),
}

/// `text` with every `\xHH` as the byte HH.
fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let hex = b.get(i + 2..i + 4).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match hex {
            Some(v) if b[i] == b'\\' && b[i + 1] == b'x' => {
                out.push(v);
                i += 4;
            }
            _ => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    out
}

fn run_session(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut input = Vec::new();
    let mut expect = Vec::new();
    let mut ignore = Vec::new();
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("> ") {
            input.extend_from_slice(r.as_bytes());
            input.push(b'\n');
        } else if let Some(r) = line.strip_prefix(">b ") {
            input.extend(unescape(r));
            input.push(b'\n');
        } else if let Some(r) = line.strip_prefix("<~ ") {
            ignore.push(r.to_string());
        } else if let Some(r) = line.strip_prefix("<^ ") {
            expect.push(Expect::Prefix(r.to_string()));
        } else if let Some(r) = line.strip_prefix("<* ") {
            expect.push(Expect::Skip(r.to_string()));
        } else if line == "<" {
            expect.push(Expect::Exact(String::new()));
        } else if let Some(r) = line.strip_prefix("< ") {
            expect.push(Expect::Exact(r.to_string()));
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    // A generous deadline: a wedged engine fails the test instead of hanging it.
    let mut stdout_pipe = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout_pipe, &mut v);
        v
    });
    let deadline = std::time::Instant::now() + DEADLINE;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{}: no end after {DEADLINE:?}", path.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let out = std::process::Output { status, stdout: reader.join().unwrap(), stderr: Vec::new() };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| !ignore.iter().any(|p| l.starts_with(p.as_str()))).collect();
    let mut i = 0;
    let name = path.file_name().unwrap().to_string_lossy();
    for (k, e) in expect.iter().enumerate() {
        match e {
            Expect::Skip(p) => {
                while i < lines.len() && lines[i].starts_with(p.as_str()) {
                    i += 1;
                }
            }
            Expect::Exact(t) => {
                assert!(i < lines.len(), "{name}: output ended, expected '{t}' (expectation {k})");
                assert_eq!(lines[i], t, "{name}: line {i}");
                i += 1;
            }
            Expect::Prefix(p) => {
                assert!(i < lines.len(), "{name}: output ended, expected '{p}...'");
                assert!(lines[i].starts_with(p.as_str()), "{name}: line {i} is '{}', expected '{p}...'", lines[i]);
                i += 1;
            }
        }
    }
    assert_eq!(i, lines.len(), "{name}: unexpected extra output from line {i}: {:?}", &lines[i..]);
}

#[test]
fn recorded_sessions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/sessions");
    let mut n = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    // Every session is replayed, and every one that fails is named.
    let mut failed = Vec::new();
    for p in paths {
        if p.extension().is_some_and(|e| e == "session") {
            if std::panic::catch_unwind(|| run_session(&p)).is_err() {
                failed.push(p.file_name().unwrap().to_string_lossy().into_owned());
            }
            n += 1;
        }
    }
    assert!(failed.is_empty(), "{} of {n} sessions failed: {failed:?}", failed.len());
    assert!(n >= 3, "only {n} sessions found");
}

/// `calvin CMD ARGS...` runs that one command, waits for what it starts
/// and ends without reading stdin, as Stockfish does with `stockfish bench`.
#[test]
fn a_command_given_as_arguments() {
    let run = |args: &[&str]| {
        let o =
            Command::new(env!("CARGO_BIN_EXE_calvin")).args(args).stdin(Stdio::null()).output().expect("runs calvin");
        assert!(o.status.success(), "{args:?}: {:?}", o.status);
        String::from_utf8_lossy(&o.stdout).lines().map(String::from).collect::<Vec<_>>()
    };
    // The banner first, as Stockfish prints it.
    let banner = concat!("calvin ", env!("CARGO_PKG_VERSION"), " by the calvin developers");
    let perft = run(&["go", "perft", "2"]);
    assert_eq!(perft.len(), 23, "{perft:?}");
    assert_eq!(perft[0], banner);
    assert_eq!(perft[1], "a2a3: 20");
    assert_eq!(perft[22], "Nodes searched: 400");
    assert_eq!(run(&["frob", "1"]), [banner, "info string error unknown command 'frob'"]);
    let bench = run(&["bench", "2"]);
    assert!(bench.iter().any(|l| l.starts_with("Nodes searched  : ")), "{bench:?}");
}
