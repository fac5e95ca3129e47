//! calvin-board: a board in the browser for every variant calvin plays.
//!
//! A small HTTP server on 127.0.0.1 serves one page (HTML, JS and CSS compiled
//! into this binary) and a JSON interface. It never links the engine: a
//! referee calvin process, spoken to in UCI over pipes, gives the variants,
//! the legal moves, the positions and the results; opponents and analysers
//! are UCI engines too (calvin by default), one process per game and role.

mod engine;
mod game;
mod referee;
mod san;
mod server;

use std::path::PathBuf;

const USAGE: &str = "usage: calvin-board [--port N] [--engine PATH] [--opponent 'COMMAND ARGS']... [--listen ADDR]

  --port N          port on 127.0.0.1 (default 8080; 0 picks a free one)
  --engine PATH     the calvin binary that referees (default: `calvin` beside this program)
  --opponent CMD    another UCI engine the page may choose as opponent or analyser
                    (words split at spaces, no shell); calvin is always the first
  --listen ADDR     listen on another interface (e.g. 0.0.0.0): only when you mean it,
                    the board has no authentication";

fn main() {
    let mut port: u16 = 8080;
    let mut engine: Option<PathBuf> = None;
    let mut opponents: Vec<Vec<String>> = Vec::new();
    let mut listen = "127.0.0.1".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |what: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("{a} needs {what}\n{USAGE}");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--port" => {
                port = value("a port").parse().unwrap_or_else(|_| {
                    eprintln!("--port needs a number 0..65535");
                    std::process::exit(2)
                })
            }
            "--engine" => engine = Some(PathBuf::from(value("a path"))),
            "--opponent" => opponents.push(value("a command").split_whitespace().map(String::from).collect()),
            "--listen" => listen = value("an address"),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            _ => {
                eprintln!("unknown argument {a}\n{USAGE}");
                std::process::exit(2)
            }
        }
    }
    if !matches!(listen.as_str(), "127.0.0.1" | "localhost" | "::1") {
        eprintln!("calvin-board: listening on {listen}: anyone who can reach it can use the board and start engines");
    }
    let engine = engine.unwrap_or_else(find_engine);
    if !engine.exists() {
        eprintln!("no engine at {}: build it with `cargo build --release` or give --engine PATH", engine.display());
        std::process::exit(1);
    }
    let mut engines = vec![vec![engine.to_string_lossy().into_owned()]];
    engines.extend(opponents.into_iter().filter(|o| !o.is_empty()));
    let server = match server::Board::start(&format!("{listen}:{port}"), engines) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("calvin-board: {e}");
            std::process::exit(1)
        }
    };
    println!("calvin-board: open http://{} in a browser (Ctrl-C stops it)", server.address());
    server.run();
}

/// `calvin` beside this program. Started by `cargo run`, a missing engine is
/// built first with the same profile, so that one command is enough.
fn find_engine() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe.parent().map(PathBuf::from).unwrap_or_default();
    let path = dir.join(format!("calvin{}", std::env::consts::EXE_SUFFIX));
    if !path.exists()
        && let (Ok(cargo), Ok(manifest)) = (std::env::var("CARGO"), std::env::var("CARGO_MANIFEST_DIR"))
    {
        let profile = match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "dev".to_string(),
            Some(p) => p.to_string(),
            None => "release".to_string(),
        };
        eprintln!("calvin-board: building the engine (cargo build --profile {profile} --bin calvin)");
        let root = PathBuf::from(manifest).join("..").join("Cargo.toml");
        let _ = std::process::Command::new(cargo)
            .args(["build", "--profile", &profile, "--bin", "calvin", "--manifest-path"])
            .arg(root)
            .status();
    }
    path
}
