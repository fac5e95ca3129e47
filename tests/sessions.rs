//! Replays the recorded sessions in `protocol/sessions/*.session` against
//! the `calvin` binary: every `> ` line is sent, then stdin is closed, and the
//! output must match the expectations in order:
//! `< text` exactly this line; `<^ text` a line starting with `text`;
//! `<* text` any number (0+) of lines starting with `text`. Nothing else may
//! be printed. Lines starting with `#` are comments.

use std::io::Write;
use std::process::{Command, Stdio};

enum Expect {
    Exact(String),
    Prefix(String),
    Skip(String),
}

fn run_session(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut input = String::new();
    let mut expect = Vec::new();
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("> ") {
            input += r;
            input.push('\n');
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
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}: engine exited with {:?}", path.display(), out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
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
    for p in paths {
        if p.extension().is_some_and(|e| e == "session") {
            run_session(&p);
            n += 1;
        }
    }
    assert!(n >= 3, "only {n} sessions found");
}
