//! The board in a real browser: the tests start `calvin-board`, drive headless
//! Chromium through chromedriver's WebDriver HTTP interface, and play by
//! clicks. They need Debian's `chromium` and `chromium-driver`, so they are
//! ignored by a plain `cargo test` (the summary counts them as ignored) and
//! run with `--ignored`: `.ci/run` installs both and runs them, and there a
//! missing browser is a failure.
//!
//! Every wait has a deadline of many seconds, so a loaded machine is slow, not wrong.

mod common;

use common::{Killer, engine_path, free_port, http, start_board};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(40);

// ---- JSON (WebDriver answers and requests): the board's own codec ------------------

use calvin_uci_client::json::Json as Value;

static NULL: Value = Value::Null;

/// A key of an object, `null` where there is none (so lookups chain).
fn field<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or(&NULL)
}

/// A string's text, empty for anything else.
fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// A WebDriver answer; a body that is not JSON reads as `null`.
fn parse_json(s: &str) -> Value {
    Value::parse(s).unwrap_or(Value::Null)
}

fn quote(s: &str) -> String {
    Value::str(s).write()
}

// ---- processes ----------------------------------------------------------------------

fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

// ---- the browser --------------------------------------------------------------------

/// Tests share one browser at a time (2 cores: several Chromiums would crawl).
static BROWSER: Mutex<()> = Mutex::new(());

/// Ends a process and its whole process group.
struct Group(Killer);
impl Drop for Group {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", "--", &format!("-{}", self.0.0.id())]).status();
    }
}

struct Browser {
    _driver: Group,
    _profile: TempDir,
    port: u16,
    session: String,
}

struct TempDir(PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Browser {
    /// Starts chromedriver and a headless Chromium; a test that cannot have
    /// them fails.
    fn start() -> Browser {
        let chromium = which(&["chromium", "chromium-browser", "google-chrome"]);
        let driver = which(&["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            panic!("chromium or chromedriver is missing: apt-get install chromium chromium-driver");
        };
        let port = free_port();
        // chromedriver and the Chromium it starts get a process group of their
        // own, ended as a whole when the test ends, even after a panic.
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver");
        let driver = Group(Killer(child));
        let end = Instant::now() + WAIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < end, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = std::env::temp_dir().join(format!("calvin-board-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1366,900",
        ]
        .iter()
        .map(|a| quote(a))
        .chain(std::iter::once(quote(&format!("--user-data-dir={}", profile.display()))))
        .collect::<Vec<_>>()
        .join(",");
        let caps = format!(
            r#"{{"capabilities":{{"alwaysMatch":{{"browserName":"chrome","goog:chromeOptions":{{"binary":{},"args":[{args}]}}}}}}}}"#,
            quote(&chromium.to_string_lossy())
        );
        let (status, body) = http(port, "POST", "/session", Some(&caps), "Content-Type: application/json\r\n");
        assert_eq!(status, 200, "new session: {body}");
        let session = str_of(field(field(&parse_json(&body), "value"), "sessionId")).to_string();
        Browser { _driver: driver, _profile: TempDir(profile), port, session }
    }

    fn cmd(&self, method: &str, path: &str, body: &str) -> Result<Value, String> {
        let (status, text) = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            Some(body),
            "Content-Type: application/json\r\n",
        );
        let v = parse_json(&text);
        if status == 200 {
            Ok(field(&v, "value").clone())
        } else {
            let value = field(&v, "value");
            Err(format!("{} {}", str_of(field(value, "error")), str_of(field(value, "message"))))
        }
    }

    fn open(&self, url: &str) {
        self.cmd("POST", "/url", &format!(r#"{{"url":{}}}"#, quote(url))).unwrap();
    }

    /// Runs `script` (a function body) in the page.
    fn js(&self, script: &str) -> Value {
        self.cmd("POST", "/execute/sync", &format!(r#"{{"script":{},"args":[]}}"#, quote(script)))
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    fn js_str(&self, script: &str) -> String {
        match self.js(script) {
            Value::Str(s) => s,
            Value::Num(n) => n,
            Value::Bool(b) => b.to_string(),
            Value::Null => "null".into(),
            v => format!("{v:?}"),
        }
    }

    /// Waits until the expression is true in the page.
    fn wait(&self, expr: &str) {
        let end = Instant::now() + WAIT;
        loop {
            if self.js(&format!("try {{ return !!({expr}); }} catch (e) {{ return false; }}")) == Value::Bool(true) {
                return;
            }
            if Instant::now() > end {
                let st = self.js_str("return JSON.stringify({moves: st && st.moves, msg: document.getElementById('message').textContent, status: document.getElementById('status').textContent})");
                panic!("waited in vain for {expr}: {st}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A real click (WebDriver pointer events) on the element `css`.
    fn click(&self, css: &str) {
        let mut last = String::new();
        for _ in 0..20 {
            let found = self.cmd("POST", "/element", &format!(r#"{{"using":"css selector","value":{}}}"#, quote(css)));
            let id = match found {
                Ok(Value::Obj(v)) => v.first().map(|(_, x)| str_of(x).to_string()).unwrap_or_default(),
                Ok(_) => String::new(),
                Err(e) => {
                    last = e;
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                }
            };
            // The board is redrawn when the state changes: a stale element is found again.
            match self.cmd("POST", &format!("/element/{id}/click"), "{}") {
                Ok(_) => return,
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("cannot click {css}: {last}");
    }

    /// The centre of an element in viewport pixels.
    fn centre(&self, css: &str) -> (i64, i64) {
        let v = self.js_str(&format!("const r = document.querySelector({}).getBoundingClientRect(); return Math.round(r.x + r.width / 2) + ' ' + Math.round(r.y + r.height / 2)", quote(css)));
        let (x, y) = v.split_once(' ').unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    }

    /// Drags with the mouse (WebDriver actions) from one element to another.
    /// The board is redrawn on the press, so the path is given in pixels.
    fn drag(&self, from: &str, to: &str) {
        let ((x0, y0), (x1, y1)) = (self.centre(from), self.centre(to));
        let actions = format!(
            r#"{{"actions":[{{"type":"pointer","id":"mouse","parameters":{{"pointerType":"mouse"}},"actions":[
            {{"type":"pointerMove","duration":0,"origin":"viewport","x":{x0},"y":{y0}}},
            {{"type":"pointerDown","button":0}},
            {{"type":"pointerMove","duration":150,"origin":"viewport","x":{},"y":{}}},
            {{"type":"pointerMove","duration":150,"origin":"viewport","x":{x1},"y":{y1}}},
            {{"type":"pointerUp","button":0}}]}}]}}"#,
            (x0 + x1) / 2,
            (y0 + y1) / 2
        );
        self.cmd("POST", "/actions", &actions).unwrap();
    }

    fn moves(&self) -> usize {
        self.js_str("return String(st.moves.length)").parse().unwrap()
    }

    /// Plays `mv` by clicks: the hand piece or the piece, the target, the choice.
    fn play(&self, mv: &str) {
        let n = self.moves();
        let turn = self.js_str("return st.turn");
        if let Some((piece, to)) = mv.split_once('@') {
            self.click(&format!(".hp[data-hand=\"{turn}{piece}\"]"));
            self.wait(&format!("sel && sel.drop === '{piece}'"));
            self.click(&format!(".sq[data-sq=\"{to}\"]"));
        } else {
            let (from, to, suffix) = split_move(mv);
            self.click(&format!(".sq[data-sq=\"{from}\"]"));
            self.wait(&format!("sel && sel.from === '{from}'"));
            self.click(&format!(".sq[data-sq=\"{to}\"]"));
            let choice = self.js_str("return String(!document.getElementById('choice').hidden)") == "true";
            if choice || !suffix.is_empty() {
                self.wait("!document.getElementById('choice').hidden");
                self.click(&format!("#choice button[data-move=\"{mv}\"]"));
            }
        }
        // An engine on the other side may have answered already.
        self.wait(&format!("st.moves.length > {n} && st.moves[{n}] === '{mv}'"));
    }

    /// A new game from the header's controls (`fen` may be empty), people on both sides.
    fn new_game(&self, variant: &str, fen: &str, white: &str, black: &str, limit: (&str, &str, &str)) -> u64 {
        let old = self.js_str("return st ? String(st.id) : '0'");
        self.js(&format!(
            "document.getElementById('variant').value = {}; document.getElementById('fen').value = {};
             document.getElementById('white').value = {}; document.getElementById('black').value = {};
             document.getElementById('limit').value = {}; document.getElementById('limit-a').value = {};
             document.getElementById('limit-b').value = {};",
            quote(variant),
            quote(fen),
            quote(white),
            quote(black),
            quote(limit.0),
            quote(limit.1),
            quote(limit.2)
        ));
        self.click("#new");
        self.wait(&format!("st && String(st.id) !== '{old}' && st.variant.name === '{variant}'"));
        self.js_str("return String(st.id)").parse().unwrap()
    }

    fn text(&self, id: &str) -> String {
        self.js_str(&format!("return document.getElementById('{id}').textContent"))
    }

    /// The piece drawn on a square, as "w:X" / "b:X", or "" when empty.
    fn piece(&self, sq: &str) -> String {
        self.js_str(&format!(
            "const p = document.querySelector('.sq[data-sq=\"{sq}\"] .piece'); return p ? (p.classList.contains('w') ? 'w:' : 'b:') + p.textContent : ''"
        ))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(self.port, "DELETE", &format!("/session/{}", self.session), None, "");
    }
}

fn split_move(mv: &str) -> (String, String, String) {
    let b = mv.as_bytes();
    let mut i = 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut j = i + 1;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    (mv[..i].to_string(), mv[i..j].to_string(), mv[j..].to_string())
}

const HUMANS: (&str, &str) = ("human", "human");
const NO_CLOCK: (&str, &str, &str) = ("depth", "2", "");

/// One short game per variant, by clicks, from the start or from a FEN, to its result.
struct Case {
    variant: &'static str,
    fen: &'static str,
    moves: &'static [&'static str],
    status: &'static str,
    /// Squares and the piece drawn there afterwards ("" for empty).
    board: &'static [(&'static str, &'static str)],
    /// The PGN's moves: SAN for chess and its 8x8 relatives, else the engine's.
    pgn: &'static str,
}

const CASES: [Case; 7] = [
    Case {
        variant: "chess",
        fen: "",
        moves: &["f2f3", "e7e5", "g2g4", "d8h4"],
        status: "Game over: 0-1, checkmate",
        board: &[("h4", "b:\u{265B}"), ("d8", ""), ("g4", "w:\u{265F}\u{FE0E}")],
        pgn: "1. f3 e5 2. g4 Qh4# {checkmate} 0-1",
    },
    Case {
        // Gating a Marshall behind the knight (a choice of three), then the fool's mate.
        variant: "iago-b",
        fen: "",
        moves: &["b1c3m", "e7e5", "f2f3", "a7a6", "g2g4", "d8h4"],
        status: "Game over: 0-1, checkmate",
        board: &[("b1", "w:M"), ("c3", "w:\u{265E}"), ("h4", "b:\u{265B}")],
        pgn: "1. Nc3/M e5 2. f3 a6 3. g4 Qh4# {checkmate} 0-1",
    },
    Case {
        // The queen's squares are filled from the hand first.
        variant: "iago-c",
        fen: "",
        moves: &["Q@d1", "Q@d8", "f2f3", "e7e5", "g2g4", "d8h4"],
        status: "Game over: 0-1, checkmate",
        board: &[("d1", "w:\u{265B}"), ("h4", "b:\u{265B}")],
        pgn: "1. Q@d1 Q@d8 2. f3 e5 3. g4 Qh4# {checkmate} 0-1",
    },
    Case {
        variant: "historia-sako",
        fen: "7k/8/6K1/8/8/8/8/R7[] w - - 0 1",
        moves: &["a1a2", "h8g8", "a2a8"],
        status: "Game over: 1-0, checkmate",
        board: &[("a8", "w:\u{265C}"), ("g8", "b:\u{265A}")],
        pgn: "1. Ra2 Kg8 2. Ra8# {checkmate} 1-0",
    },
    Case {
        // Igui: the Leaper takes the last Flag over the pawn's screen and stays.
        variant: "ita",
        fen: "4f5/10/4p5/10/10/10/10/10/10/4L4F w - - 0 1",
        moves: &["e1e10"],
        status: "Game over: 1-0 (4:1), flags captured",
        board: &[("e1", "w:L"), ("e10", ""), ("e8", "b:P")],
        pgn: "1. e1e10 {flags captured 4:1} 1-0",
    },
    Case {
        // Drops from the hand on the 1x31 line.
        variant: "ito-shogi",
        fen: "k/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/K[PTCHGS] w - - 0 1",
        moves: &["S@a15", "a31a30", "C@a2"],
        status: "Game over: 1-0, checkmate",
        board: &[("a15", "w:S"), ("a2", "w:C"), ("a30", "b:K"), ("a31", "")],
        pgn: "1. S@a15 a31a30 2. C@a2 {checkmate} 1-0",
    },
    Case {
        // Stalemate wins in Etcetera.
        variant: "etcetera",
        fen: "3k3/7/R6/2R4/7/7/7/4K2 w - - 0 1",
        moves: &["a6a7"],
        status: "Game over: 1-0, stalemate",
        board: &[("a7", "w:R"), ("a6", ""), ("d8", "b:K")],
        pgn: "1. a6a7 {stalemate} 1-0",
    },
];

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn a_short_game_by_clicks_in_every_variant() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info && info.variants.length === 7");
    for c in &CASES {
        b.new_game(c.variant, c.fen, HUMANS.0, HUMANS.1, NO_CLOCK);
        let (files, ranks): (usize, usize) = match c.variant {
            "ita" => (10, 10),
            "ito-shogi" => (1, 31),
            "etcetera" => (7, 8),
            _ => (8, 8),
        };
        assert_eq!(
            b.js_str("return String(document.querySelectorAll('#board .sq').length)"),
            (files * ranks).to_string(),
            "{}",
            c.variant
        );
        for m in c.moves {
            b.play(m);
        }
        b.wait(&format!("document.getElementById('status').textContent === {}", quote(c.status)));
        for (sq, want) in c.board {
            assert_eq!(b.piece(sq), *want, "{} square {sq}", c.variant);
        }
        assert_eq!(b.js_str("return st.moves.join(' ')"), c.moves.join(" "), "{}", c.variant);
        let pgn = b.js_str("return document.getElementById('pgn').value");
        assert!(pgn.contains(&format!("[Variant \"{}\"]", c.variant)), "{pgn}");
        assert_eq!(pgn.lines().last(), Some(c.pgn), "{} {pgn}", c.variant);
        // The move list: SAN where the PGN has it, in the order played.
        let shown =
            b.js_str("return [...document.querySelectorAll('#movelist li span')].map(e => e.textContent).join(' ')");
        let want: Vec<&str> = c.pgn.split(" {").next().unwrap().split(' ').filter(|w| !w.ends_with('.')).collect();
        assert_eq!(shown, want.join(" "), "{}", c.variant);
        // After the end no piece can be picked.
        b.click(&format!(".sq[data-sq=\"{}\"]", c.board[0].0));
        b.wait("document.getElementById('message').textContent === 'the game is over'");
    }
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn promotion_choice_and_dragging() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info");
    // A pawn on the seventh: the target offers the four pieces, the knight is chosen.
    b.new_game("chess", "k7/4P3/8/8/8/8/8/K7 w - - 0 1", HUMANS.0, HUMANS.1, NO_CLOCK);
    b.click(".sq[data-sq=\"e7\"]");
    b.wait("sel && sel.from === 'e7'");
    b.click(".sq[data-sq=\"e8\"]");
    b.wait("!document.getElementById('choice').hidden");
    assert_eq!(
        b.js_str("return [...document.querySelectorAll('#choice button')].map(e => e.dataset.move).join(' ')"),
        "e7e8q e7e8r e7e8b e7e8n"
    );
    b.click("#choice button[data-move=\"e7e8n\"]");
    b.wait("st.moves.join() === 'e7e8n'");
    assert_eq!(b.piece("e8"), "w:\u{265E}");
    // Dragging a piece plays it; dragging to a square that is no target does nothing.
    b.new_game("ita", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    b.drag(".sq[data-sq=\"c4\"] .piece", ".sq[data-sq=\"c6\"]");
    b.wait("document.getElementById('message').textContent === 'not a legal move: c4 to c6'");
    assert_eq!(b.moves(), 0);
    b.drag(".sq[data-sq=\"c4\"] .piece", ".sq[data-sq=\"c5\"]");
    b.wait("st.moves.join() === 'c4c5'");
    assert_eq!(b.piece("c5"), "w:P");
    // Flip turns the board: h10 is drawn first (top left).
    b.click("#flip");
    b.wait("document.querySelector('#board .sq').dataset.sq === 'j1'");
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn illegal_clicks_forged_moves_and_bad_fens_change_nothing() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info");
    let id = b.new_game("chess", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    // e2 to e5 is not a target: refused on the page, nothing sent.
    b.click(".sq[data-sq=\"e2\"]");
    b.wait("sel && sel.from === 'e2'");
    assert_eq!(
        b.js_str("return [...document.querySelectorAll('.sq.target')].map(e => e.dataset.sq).join(' ')"),
        "e4 e3"
    );
    b.click(".sq[data-sq=\"e5\"]");
    b.wait("document.getElementById('message').textContent === 'not a legal move: e2 to e5'");
    assert_eq!(b.moves(), 0);
    assert_eq!(b.piece("e2"), "w:\u{265F}\u{FE0E}");
    // A black piece while White is to move.
    b.click(".sq[data-sq=\"e7\"]");
    b.wait("document.getElementById('message').textContent === 'pick a piece of the side to move'");
    // A forged move sent past the page: refused with the referee's reason.
    let form = |m: &str| format!("game={id}&move={m}");
    let hdr = "X-Calvin-Board: 1\r\nContent-Type: application/x-www-form-urlencoded\r\n";
    let (status, body) = http(port, "POST", "/api/move", Some(&form("e2e5")), hdr);
    assert_eq!(status, 422);
    assert!(body.starts_with(r#"{"error":"illegal move 'e2e5'""#), "{body}");
    let (status, body) = http(port, "POST", "/api/move", Some(&form("e2e4%0Aquit")), hdr);
    assert_eq!(status, 422);
    assert!(body.starts_with(r#"{"error":"illegal move 'e2e4\nquit'""#), "{body}");
    // Without the page's header (another site's form): refused.
    let (status, _) =
        http(port, "POST", "/api/move", Some(&form("e2e4")), "Content-Type: application/x-www-form-urlencoded\r\n");
    assert_eq!(status, 403);
    // An unknown variant.
    let (status, body) = http(port, "POST", "/api/new", Some("variant=checkers"), hdr);
    assert_eq!(
        (status, body.as_str()),
        (400, r#"{"error":"unknown variant (known: chess, iago-b, iago-c, historia-sako, ita, ito-shogi, etcetera)"}"#)
    );
    // The game is as before.
    let (status, body) = http(port, "GET", &format!("/api/state?game={id}"), None, "");
    assert_eq!(status, 200);
    assert!(body.contains(r#""moves":[]"#), "{body}");
    // A bad FEN typed on the page: the referee's own error line is shown, the game stays.
    b.js("document.getElementById('variant').value = 'etcetera'; document.getElementById('fen').value = '3k3/7/3P3/7/7/7/7/3K3 w - - 0 1';");
    b.click("#new");
    b.wait("document.getElementById('message').textContent === 'referee: bad FEN: a pawn stands where it must have promoted'");
    assert_eq!(b.js_str("return String(st.id) + ' ' + st.variant.name"), format!("{id} chess"));
    b.js("document.getElementById('fen').value = 'k7/8/8/8/8/8/8/K7 w - - 0 1; rm -rf /';");
    b.click("#new");
    b.wait("document.getElementById('message').textContent === \"character ';' cannot be in a FEN\"");
    // A legal move still plays.
    b.play("e2e4");
    // A burst of actions: the rate limit answers 429 and changes nothing.
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses.push(http(port, "POST", "/api/move", Some(&form("e2e4")), hdr).0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 422 || *s == 429), "{statuses:?}");
    std::thread::sleep(Duration::from_secs(3));
    let (_, body) = http(port, "GET", &format!("/api/state?game={id}"), None, "");
    assert!(body.contains(r#""moves":["e2e4"]"#), "{body}");
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn play_the_engine_watch_engines_analyse_and_survive_a_dying_engine() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    // Engine 1 exits at once: a "UCI engine" that dies.
    let (_board, port) = start_board(&["--opponent", "true"]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info && info.engines.length === 2");
    // A person (White) against calvin at depth 2, in Ito Shogi: the engine answers.
    b.new_game("ito-shogi", "", "human", "0", ("depth", "2", ""));
    b.wait("st.players[1].status === 'ready'");
    // The engine's own `id name` names the player, in the PGN too.
    let name = b.js_str("return st.players[1].name");
    assert!(name.starts_with("calvin "), "{name}");
    assert!(b.js_str("return st.pgn").contains(&format!("[Black \"{name}\"]")));
    b.play("a13a14");
    b.wait("st.moves.length === 2");
    let reply = b.js_str("return st.moves[1]");
    assert!(reply.starts_with('a') || reply.contains('@'), "{reply}");
    // It is the person's turn again; clicking for the engine's pieces is refused.
    assert_eq!(b.text("status"), "White to move");
    // Take back gives the move back to the person (both plies).
    b.click("#undo");
    b.wait("st.moves.length === 0");
    // Two engines play each other (Ita, a clock of 3 s + 0.1 s each).
    b.new_game("ita", "", "0", "0", ("clock", "0.05", "0.1"));
    b.wait("st.moves.length >= 4");
    b.wait("document.getElementById('bottom-clock').textContent !== ''");
    // Analysis streams lines with depth, score and PV, and stops at once.
    b.new_game("chess", "", "human", "human", NO_CLOCK);
    b.js("document.getElementById('multipv').value = '2';");
    b.click("#analyse");
    b.wait("st.analysis && st.lines.length === 2 && st.lines[0].depth >= 3 && st.lines[0].pv.length > 0");
    b.wait("document.querySelectorAll('#lines tbody tr').length === 2 && document.querySelectorAll('#arrows line').length === 2");
    b.click("#analyse");
    b.wait("!st.analysis && st.lines.length === 0 && document.querySelectorAll('#lines tbody tr').length === 0");
    let ver = b.js_str("return String(st.ver)");
    std::thread::sleep(Duration::from_secs(2));
    // Nothing arrives after the stop.
    assert_eq!(b.js_str("return String(st.lines.length)"), "0", "version was {ver}");
    // An engine that dies: the page says so, the game stays and a person plays on.
    b.new_game("chess", "", "human", "1", NO_CLOCK);
    b.wait("st.messages.some(m => m.startsWith('engine true stopped'))");
    b.play("e2e4");
    b.play("e7e5");
    assert_eq!(b.js_str("return st.players[1].kind"), "human");
}

/// A UCI engine that writes every line it reads to `log` and passes it to calvin.
fn logging_engine(log: &Path) -> (String, PathBuf) {
    let script = std::env::temp_dir().join(format!("calvin-board-logging-{}.sh", std::process::id()));
    std::fs::write(&script, format!("tee {} | exec {}\n", log.display(), engine_path().display())).unwrap();
    (format!("sh {}", script.display()), script)
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn nothing_starts_before_start_and_the_engine_plays_at_the_chosen_level() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let log = std::env::temp_dir().join(format!("calvin-board-engine-input-{}.log", std::process::id()));
    let (engine, script) = logging_engine(&log);
    let (_board, port) = start_board(&["--opponent", &engine]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("info && st && st.preview");
    // The start position is shown, but no game exists and no clock runs.
    assert_eq!(b.text("status"), "Choose the game and press Start game");
    assert_eq!(b.text("new"), "Start game");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(b.text("bottom-clock") + &b.text("top-clock"), "");
    let (status, _) = http(port, "GET", "/api/state?game=1", None, "");
    assert_eq!(status, 404);
    assert_eq!(b.js_str("return String(document.querySelectorAll('#board .sq').length)"), "64");
    b.click(".sq[data-sq=\"e2\"]");
    b.wait("document.getElementById('message').textContent === 'press Start game to begin'");
    // A new variant chosen: its start position, still no game.
    b.js("const v = document.getElementById('variant'); v.value = 'ita'; v.dispatchEvent(new Event('change'));");
    b.wait("st.preview && st.variant.name === 'ita' && document.querySelectorAll('#board .sq').length === 100");
    assert_eq!(http(port, "GET", "/api/state?game=1", None, "").0, 404);
    // The level picker: the Skill Levels with their approximate Elo, full strength first.
    assert_eq!(b.js_str("return String(document.getElementById('level').options.length)"), "31");
    assert_eq!(
        b.js_str("return [0, 1, 15, 30].map(i => document.getElementById('level').options[i].text).join(' | ')"),
        "full strength (~2440 Elo) | 19 (~2210 Elo) | 5 (~1580 Elo) | -10 (~540 Elo)"
    );
    assert_eq!(b.js_str("return document.getElementById('level').value"), "20");
    // Only an engine has a level: with two people it is off.
    b.js("const w = document.getElementById('black'); w.value = 'human'; w.dispatchEvent(new Event('change'));");
    assert_eq!(b.js_str("return String(document.getElementById('level').disabled)"), "true");
    b.js("const w = document.getElementById('black'); w.value = '1'; w.dispatchEvent(new Event('change'));");
    assert_eq!(b.js_str("return String(document.getElementById('level').disabled)"), "false");
    // Start: a person against the engine at level -5, on a clock that runs from now.
    b.js("document.getElementById('level').value = '-5';");
    b.new_game("chess", "", "human", "1", ("clock", "5", "3"));
    assert_eq!(b.js_str("return String(st.level)"), "-5");
    b.wait("st.clocks.running && document.getElementById('bottom-clock').classList.contains('running')");
    b.wait("st.players[1].status === 'ready'");
    b.play("e2e4");
    b.wait("st.moves.length === 2");
    let input = std::fs::read_to_string(&log).unwrap();
    let level = input.find("setoption name Skill Level value -5\n").unwrap_or_else(|| panic!("{input}"));
    let go = input.find("go wtime ").unwrap_or_else(|| panic!("{input}"));
    assert!(level < go, "{input}");
    assert!(
        input.contains("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4\n"),
        "{input}"
    );
    // Full strength sends no level.
    let _ = std::fs::remove_file(&log);
    b.js("document.getElementById('level').value = '20';");
    b.new_game("chess", "", "1", "human", ("depth", "1", ""));
    b.wait("st.moves.length === 1");
    let input = std::fs::read_to_string(&log).unwrap();
    assert!(input.contains("go depth 1\n") && !input.contains("Skill Level"), "{input}");
    for f in [&log, &script] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn analysis_shows_win_draw_loss_apart_from_the_move_list() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info");
    b.new_game("chess", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    b.play("e2e4");
    b.play("e7e5");
    // Before analysis: no analysis table, the move list under its own heading.
    assert_eq!(b.js_str("return String(document.getElementById('lines').offsetParent === null)"), "true");
    assert_eq!(b.js_str("return document.getElementById('movelist').previousElementSibling.textContent"), "Moves");
    b.js("document.getElementById('multipv').value = '2';");
    b.click("#analyse");
    b.wait(
        "st.lines.length === 2 && st.lines[0].wdl && st.lines[0].depth >= 4 && !document.getElementById('wdl').hidden",
    );
    b.js("window.frozen = JSON.stringify(st.lines[0].wdl) + ' ' + document.getElementById('wdl-text').textContent;");
    let frozen = b.js_str("return window.frozen");
    let (wdl, text) = frozen.split_once(' ').unwrap();
    let w: Vec<u32> = wdl.trim_matches(['[', ']']).split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(w.iter().sum::<u32>(), 1000, "{frozen}");
    // White to move: the engine's win is White's.
    let pct = |x: u32| format!("{:.1}%", x as f64 / 10.0);
    assert!(
        text.starts_with(&format!("White {} \u{b7} draw {} \u{b7} Black {} (score ", pct(w[0]), pct(w[1]), pct(w[2]))),
        "{frozen}"
    );
    // The bar's parts have those widths.
    let widths = b.js_str("return [...document.querySelectorAll('#wdl-bar span')].map(e => e.style.width).join(' ')");
    assert_eq!(widths.split(' ').count(), 3, "{widths}");
    // Black to move: the engine's win is Black's.
    b.play("g1f3");
    b.wait("st.turn === 'b' && st.lines.length === 2 && st.lines[0].wdl && st.lines[0].depth >= 4");
    b.wait("(() => { const w = st.lines[0].wdl; return document.getElementById('wdl-text').textContent.startsWith('White ' + (w[2] / 10).toFixed(1) + '% \\u00b7 draw ' + (w[1] / 10).toFixed(1) + '% \\u00b7 Black ' + (w[0] / 10).toFixed(1) + '%'); })()");
    // The move list (SAN) and the analysis table do not overlap; the list comes first.
    assert_eq!(b.text("movelist").split_whitespace().collect::<Vec<_>>().join(" "), "e4e5Nf3");
    let overlap = b.js_str(
        "const a = document.getElementById('movelist').getBoundingClientRect(), t = document.getElementById('lines').getBoundingClientRect();
         return a.height > 0 && t.height > 0 && a.bottom <= t.top ? 'apart' : JSON.stringify([a, t])",
    );
    assert_eq!(overlap, "apart");
    b.click("#analyse");
    b.wait("!st.analysis && document.getElementById('wdl').hidden && document.getElementById('lines').offsetParent === null");
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn pieces_are_named_and_show_their_moves() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info");
    let legend = || {
        b.js_str("return [...document.querySelectorAll('#legend .legend-row')].map(e => e.dataset.piece + '=' + e.querySelector('b').textContent).join(' ')")
    };
    let title = |sq: &str| b.js_str(&format!("return document.querySelector('.sq[data-sq=\"{sq}\"] .piece').title"));
    // Every variant's legend names its pieces, as the engine's `pieces` does
    // (IAGO's Amazon only where its reserve may hold one).
    let legends = [
        ("chess", "K=King (K) Q=Queen (Q) R=Rook (R) B=Bishop (B) N=Knight (N) P=Pawn (P)"),
        ("ita", "F=Flag (F) S=Squire (S) L=Leaper (L) C=Cavalry (C) R=Rook (R) B=Bishop (B) P=Pawn (P)"),
        ("etcetera", "K=King (K) R=Rook (R) E=Flyer-Elephant (E) M=Man (M) G=Guardian (G) P=Pawn (P)"),
        ("historia-sako", "K=King (K) Q=Queen (Q) R=Rook (R) B=Bishop (B) N=Knight (N) E=Elephant (E) P=Pawn (P)"),
        (
            "iago-b",
            "K=King (K) Q=Queen (Q) R=Rook (R) B=Bishop (B) N=Knight (N) P=Pawn (P) M=Marshall (M) C=Cardinal (C)",
        ),
    ];
    for (variant, want) in legends {
        b.new_game(variant, "", HUMANS.0, HUMANS.1, NO_CLOCK);
        assert_eq!(legend(), want, "{variant}");
    }
    b.new_game("ito-shogi", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    assert_eq!(b.js_str("return String(document.querySelectorAll('#legend .legend-row').length)"), "13");
    assert_eq!(
        title("a5"),
        "White Flying Swallow (S): lands on the 2nd, 4th, 6th... square forward (stops at the first occupied landing square), or step 1 back"
    );
    assert_eq!(title("a31"), "Black King (K): step 1 forward, jump 2 forward, or step 1 back");
    assert_eq!(
        b.js_str("return document.querySelector('#legend p').textContent"),
        "Captured pieces go to the captor's hand and may be dropped; a piece other than the King flips over (+) each time it captures."
    );
    assert_eq!(
        b.js_str("return document.querySelector('#legend .legend-row[data-piece=\"+G\"]').lastChild.textContent"),
        "Phoenix (+G): step 1 or jump 4 forward or back"
    );
    // Ita's letter discs say what they are.
    b.new_game("ita", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    assert_eq!(
        b.js_str("return document.querySelector('#legend p').textContent"),
        "No king and no check: capture both enemy Flags."
    );
    assert_eq!(title("e2"), "White Squire (S): a non-leaping knight, or a queen of range 1 or 2");
    assert_eq!(
        title("e10"),
        "Black Flag (F): one step straight forward, never capturing; once per game one diagonal step (alley) and once a capture"
    );
    // Hovering a piece of the side to move marks where it can go; one of the
    // other side marks where it could go if it were to move.
    b.new_game("chess", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    let hints = || b.js_str("return [...document.querySelectorAll('.sq.hint')].map(e => e.dataset.sq).join(' ')");
    let hover = |css: &str| {
        let (x, y) = b.centre(css);
        let a = format!(
            r#"{{"actions":[{{"type":"pointer","id":"mouse","parameters":{{"pointerType":"mouse"}},"actions":[{{"type":"pointerMove","duration":0,"origin":"viewport","x":{x},"y":{y}}}]}}]}}"#
        );
        b.cmd("POST", "/actions", &a).unwrap();
    };
    hover(".sq[data-sq=\"g1\"]");
    b.wait("document.querySelectorAll('.sq.hint').length === 2");
    assert_eq!(hints(), "f3 h3");
    hover(".sq[data-sq=\"e2\"]");
    b.wait("document.querySelector('.sq[data-sq=\"e4\"].hint')");
    assert_eq!(hints(), "e4 e3");
    hover(".sq[data-sq=\"e7\"]");
    b.wait("document.querySelector('.sq[data-sq=\"e5\"].hint')");
    assert_eq!(hints(), "e6 e5");
    hover(".sq[data-sq=\"b8\"]");
    b.wait("document.querySelector('.sq[data-sq=\"a6\"].hint')");
    assert_eq!(hints(), "a6 c6");
    hover(".sq[data-sq=\"e4\"]");
    b.wait("document.querySelectorAll('.sq.hint').length === 0");
    assert_eq!(
        title("e7"),
        "Black Pawn (P): one step forward (two from its first rank), captures one step diagonally forward, en passant; promotes on the last rank"
    );
    // Black in check from the bishop on b5: its c7 pawn may block; White's
    // pieces show nothing (the engine refuses the position with White to
    // move, the side not to move being in check).
    b.new_game("chess", "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3", HUMANS.0, HUMANS.1, NO_CLOCK);
    hover(".sq[data-sq=\"c7\"]");
    b.wait("document.querySelector('.sq[data-sq=\"c6\"].hint')");
    assert_eq!(hints(), "c6");
    hover(".sq[data-sq=\"g1\"]");
    b.wait("document.querySelectorAll('.sq.hint').length === 0");
    assert_eq!(hints(), "");
    assert_eq!(b.js_str("return String(st.other_legal.length)"), "0");
}

#[test]
#[ignore = "needs chromium and chromedriver (.ci/run runs it with --ignored)"]
fn every_variant_fits_800_by_600() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.cmd("POST", "/window/rect", r#"{"width":800,"height":600}"#).unwrap();
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info");
    let inner: i64 = b.js_str("return String(window.innerWidth)").parse().unwrap();
    assert!(inner <= 800, "{inner}");
    for v in ["chess", "iago-b", "iago-c", "historia-sako", "ita", "ito-shogi", "etcetera"] {
        b.new_game(v, "", HUMANS.0, HUMANS.1, NO_CLOCK);
        // No sideways scrolling, and every square lies inside the window.
        let fit = b.js_str(
            "const d = document.documentElement; const w = d.clientWidth;
             const out = [...document.querySelectorAll('#board .sq')].filter(e => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > w; });
             return d.scrollWidth <= w && out.length === 0 ? 'fits' : d.scrollWidth + ' > ' + w + ', ' + out.length + ' squares outside'",
        );
        assert_eq!(fit, "fits", "{v}");
    }
    // Both kings of Ito Shogi's line are on screen.
    b.new_game("ito-shogi", "", HUMANS.0, HUMANS.1, NO_CLOCK);
    for sq in ["a1", "a31"] {
        let right: f64 = b
            .js_str(&format!(
                "return String(document.querySelector('.sq[data-sq=\"{sq}\"] .piece').getBoundingClientRect().right)"
            ))
            .parse()
            .unwrap();
        assert!(right > 0.0 && right <= inner as f64, "{sq} at {right}");
    }
}

#[test]
fn split_moves() {
    assert_eq!(split_move("b1c3m"), ("b1".into(), "c3".into(), "m".into()));
    assert_eq!(split_move("a13a14"), ("a13".into(), "a14".into(), "".into()));
    assert_eq!(
        field(&parse_json(r#"{"a":[1,"x\"\u00e9"],"b":null}"#), "a"),
        &Value::Arr(vec![Value::num(1), Value::Str("x\"é".into())])
    );
}

/// The engine's choice at a small depth, for the screenshot games.
fn engine_move(variant: &str, fen: &str, moves: &[String]) -> String {
    let mut child = Command::new(engine_path()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let pos = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    writeln!(input, "setoption name UCI_Variant value {variant}\n{pos}\ngo depth 4").unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut best = String::new();
    for line in out.lines() {
        let line = line.unwrap();
        if let Some(m) = line.strip_prefix("bestmove ") {
            best = m.split_whitespace().next().unwrap().to_string();
            break;
        }
    }
    drop(input);
    let _ = child.wait();
    best
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let b: Vec<u8> = s.bytes().filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/').collect();
    let mut out = Vec::new();
    for chunk in b.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= (val(*c) as u32) << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    out
}

/// Writes `docs/board/<variant>.png` (README's screenshots): a few plies of
/// the engine's moves played by clicks, a piece selected, analysis for some.
/// Run with `cargo test --profile quick -p calvin-board --test browser -- --ignored screenshots`.
#[test]
#[ignore = "writes docs/board/*.png: run by hand, needs chromium and chromedriver"]
fn screenshots() {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::start();
    let (_board, port) = start_board(&[]);
    b.cmd("POST", "/window/rect", r#"{"width":1366,"height":768}"#).unwrap();
    b.open(&format!("http://127.0.0.1:{port}/"));
    b.wait("st && info");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/board");
    std::fs::create_dir_all(&dir).unwrap();
    // variant, FEN, plies, analyse
    let shots: [(&str, &str, usize, bool); 7] = [
        ("chess", "", 6, true),
        ("iago-b", "", 5, false),
        ("iago-c", "", 6, false),
        ("historia-sako", "", 9, false),
        ("ita", "", 8, true),
        // Pawns in both hands and a promoted Tile General (+T, a Silver General).
        ("ito-shogi", "k/1/1/1/s/g/1/h/c/1/1/t/1/1/1/1/1/1/1/+T/1/1/C/H/1/G/S/1/1/1/K[Pp] w - - 0 8", 4, false),
        ("etcetera", "", 6, false),
    ];
    for (variant, fen, plies, analyse) in shots {
        b.new_game(variant, fen, "human", "human", NO_CLOCK);
        let start = b.js_str("return st.startfen");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            let m = engine_move(variant, &start, &moves);
            b.play(&m);
            moves.push(m);
        }
        if analyse {
            b.js("document.getElementById('multipv').value = '3';");
            b.click("#analyse");
            b.wait("st.lines.length === 3 && st.lines[0].depth >= 8");
        }
        // Select something with targets: a hand piece if one can drop, else the first mover.
        let pick = b.js_str(
            "const d = st.legal.find(m => m.includes('@')); const n = st.legal.find(m => !m.includes('@'));
             return d ? 'hand:' + st.turn + d[0] : 'sq:' + n.match(/^[a-z][0-9]+/)[0]",
        );
        match pick.split_once(':') {
            Some(("hand", k)) => b.click(&format!(".hp[data-hand=\"{k}\"]")),
            Some((_, sq)) => b.click(&format!(".sq[data-sq=\"{sq}\"]")),
            None => {}
        }
        b.wait("sel");
        let png = b.cmd("GET", "/screenshot", "").unwrap();
        std::fs::write(dir.join(format!("{variant}.png")), base64(str_of(&png))).unwrap();
        if analyse {
            b.click("#analyse");
            b.wait("!st.analysis");
        }
    }
}
