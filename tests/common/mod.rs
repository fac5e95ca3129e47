//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

/// A fixed xorshift64 sequence from `seed`: the random games of the
/// invariant tests are the same in every run.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A move index below `len` drawn from `next`.
pub fn pick(next: &mut impl FnMut() -> u64, len: usize) -> usize {
    (next() % len as u64) as usize
}

/// Fails the test when `python3`, which the tests of `what` run, is missing
/// (the test suite needs it: README's set-up).
pub fn need_python3(what: &str) {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "python3 not found: it is needed to test {what}");
}

/// The engine's output for `script` (commands ending in a `go` that ends on
/// its own), up to and including its `bestmove` line. Input stays open until
/// then (a `quit` would stop the search), and the engine is told to quit after.
pub fn until_bestmove(script: &str) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs calvin");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(script.as_bytes()).expect("write");
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("a line");
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    stdin.write_all(b"quit\n").expect("write");
    child.wait().expect("calvin ends");
    lines
}
