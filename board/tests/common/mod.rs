//! Helpers shared by the board's integration tests: a plain HTTP client and
//! the board server started on a free port.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

// ---- HTTP ---------------------------------------------------------------------------

pub fn http(port: u16, method: &str, path: &str, body: Option<&str>, headers: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or("");
    let host = if headers.contains("Host:") { String::new() } else { format!("Host: 127.0.0.1:{port}\r\n") };
    let req = format!(
        "{method} {path} HTTP/1.1\r\n{host}Connection: close\r\nContent-Length: {}\r\n{headers}\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    // Read the head, then exactly the body (servers may keep the connection open).
    let mut r = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let lower = head.to_ascii_lowercase();
    let length =
        lower.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|n| n.trim().parse::<usize>().ok());
    let body = if let Some(n) = length {
        let mut b = vec![0; n];
        r.read_exact(&mut b).unwrap();
        String::from_utf8_lossy(&b).into_owned()
    } else if lower.contains("transfer-encoding: chunked") {
        let mut out = Vec::new();
        loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut b = vec![0; n + 2];
            r.read_exact(&mut b).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&b[..n]);
        }
        String::from_utf8_lossy(&out).into_owned()
    } else {
        let mut b = Vec::new();
        r.read_to_end(&mut b).unwrap();
        String::from_utf8_lossy(&b).into_owned()
    };
    (status, body)
}

// ---- processes ------------------------------------------------------------------------

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub struct Killer(pub Child);
impl Drop for Killer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The engine binary built beside this test (target/<profile>/calvin).
pub fn engine_path() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let p = dir.join("calvin");
    assert!(
        p.exists(),
        "{} is missing: run the tests from the workspace root (cargo test --profile quick builds the engine too)",
        p.display()
    );
    p
}

/// Starts `calvin-board` on a free port with extra arguments; returns it and its port.
pub fn start_board(extra: &[&str]) -> (Killer, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin-board"))
        .args(["--port", "0", "--engine"])
        .arg(engine_path())
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start calvin-board");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line.split("127.0.0.1:").nth(1).and_then(|r| r.split_whitespace().next()).and_then(|p| p.parse().ok());
    let port = port.unwrap_or_else(|| panic!("no address in {line:?}"));
    (Killer(child), port)
}
