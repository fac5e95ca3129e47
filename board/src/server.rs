//! The HTTP side: the page's files, the JSON interface, checks and rate limits.
//!
//! Routes (forms in, JSON out; every action needs the `X-Calvin-Board` header,
//! which another site's form cannot send, and a Host naming this server):
//! - `GET /`, `/board.js`, `/board.css`: the page, compiled into the binary;
//! - `GET /api/info`: the referee's variants (variant lines, with the pieces'
//!   names and moves and the rules from its `pieces`) and the engines;
//! - `GET /api/state?game=N`: the game (FEN, legal moves and the other side's,
//!   result, clocks, lines, PGN);
//! - `POST /api/new` (`variant`, `fen`, `white`/`black` = `human` or an engine
//!   number, `limit` = `clock` with `base` minutes and `inc` seconds, or
//!   `movetime`/`depth`/`nodes` with `value`; `level` = the engines' `Skill
//!   Level`, -10..20, 20 or none for full strength; `replace` = the game it ends);
//! - `POST /api/move` (`game`, `move`: one of the referee's legal moves, as text);
//! - `POST /api/undo`, `/api/movenow` (`game`), `/api/analyse` (`game`, `on`, `multipv`).
//!
//! Errors are `{"error": "..."}` (with the unchanged state for a refused action);
//! 429 when requests come faster than a person makes them.

use crate::game::{Game, Limit, NewGame, Player};
use crate::referee::{Referee, VariantInfo};
use calvin_uci_client::json::Json;
use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tiny_http::{Header, Method, Request, Response, Server};

const INDEX: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/board.js");
const STYLE: &str = include_str!("../static/board.css");

/// Games kept at once; the least recently used goes first.
const MAX_GAMES: usize = 8;

/// A token bucket: `capacity` requests at once, `rate` more per second.
struct Bucket {
    tokens: f64,
    capacity: f64,
    rate: f64,
    at: Instant,
}

impl Bucket {
    fn new(capacity: f64, rate: f64) -> Bucket {
        Bucket { tokens: capacity, capacity, rate, at: Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.capacity);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

pub struct Board {
    http: Server,
    engines: Vec<Vec<String>>,
    variants: Vec<VariantInfo>,
    games: Mutex<HashMap<u64, Arc<Mutex<Game>>>>,
    next_id: AtomicU64,
    /// Actions (moves, new games...) and reads (state polls, files) are limited apart.
    actions: Mutex<Bucket>,
    reads: Mutex<Bucket>,
}

/// An answer: status and JSON body.
type Answer = (u16, String);

fn error(status: u16, msg: impl Into<String>) -> Answer {
    (status, Json::obj(vec![("error", Json::str(msg))]).write_html_safe())
}

/// `a=1&b=x%20y` into pairs (the page sends forms, never JSON).
pub fn parse_form(s: &str) -> HashMap<String, String> {
    s.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                match u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("zz"), 16) {
                    Ok(v) => {
                        out.push(v);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Board {
    pub fn start(addr: &str, engines: Vec<Vec<String>>) -> Result<Arc<Board>, String> {
        let mut referee = Referee::start(&engines[0])?;
        let variants = referee.variants()?;
        drop(referee);
        let http = Server::http(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        Ok(Arc::new(Board {
            http,
            engines,
            variants,
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            actions: Mutex::new(Bucket::new(20.0, 10.0)),
            reads: Mutex::new(Bucket::new(60.0, 30.0)),
        }))
    }

    pub fn address(&self) -> String {
        match self.http.server_addr().to_ip() {
            Some(a) => a.to_string(),
            None => "?".into(),
        }
    }

    /// Serves requests on a few threads until the process ends.
    pub fn run(self: Arc<Self>) {
        // Games nobody has asked about for half an hour end (their processes too).
        let reaper = self.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
                let mut games = reaper.games.lock().unwrap_or_else(|e| e.into_inner());
                games.retain(|_, g| g.lock().unwrap_or_else(|e| e.into_inner()).last_used.elapsed().as_secs() < 1800);
            }
        });
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let b = self.clone();
                std::thread::spawn(move || {
                    while let Ok(rq) = b.http.recv() {
                        b.serve(rq);
                    }
                })
            })
            .collect();
        for t in threads {
            let _ = t.join();
        }
    }

    fn serve(&self, mut rq: Request) {
        let url = rq.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let post = *rq.method() == Method::Post;
        // Another site's page in the same browser must not drive the board:
        // the Host must be this server, and actions carry a header that
        // cross-site forms cannot set.
        let hosts: Vec<&str> =
            rq.headers().iter().filter(|h| h.field.equiv("Host")).map(|h| h.value.as_str()).collect();
        let host_ok = hosts.len() == 1 && self.host_allowed(hosts[0]);
        let marked = rq.headers().iter().any(|h| h.field.equiv("X-Calvin-Board"));
        let (status, body, kind) = if !host_ok {
            let (s, b) = error(403, "unexpected Host header");
            (s, b, "application/json")
        } else if !(if post { &self.actions } else { &self.reads }).lock().unwrap_or_else(|e| e.into_inner()).take() {
            let (s, b) = error(429, "too many requests: slow down (nothing was changed)");
            (s, b, "application/json")
        } else {
            match (post, path) {
                (false, "/") | (false, "/index.html") => (200, INDEX.to_string(), "text/html; charset=utf-8"),
                (false, "/board.js") => (200, SCRIPT.to_string(), "text/javascript; charset=utf-8"),
                (false, "/board.css") => (200, STYLE.to_string(), "text/css; charset=utf-8"),
                (false, "/api/info") => (200, self.info().write_html_safe(), "application/json"),
                (false, "/api/state") => {
                    let (s, b) = self.state(&parse_form(query));
                    (s, b, "application/json")
                }
                (true, p) if p.starts_with("/api/") => {
                    let mut body = String::new();
                    let read = rq.as_reader().take(8192).read_to_string(&mut body);
                    let (s, b) = if !marked {
                        error(403, "actions need the X-Calvin-Board header")
                    } else if read.is_err() {
                        error(400, "unreadable request")
                    } else {
                        self.action(&p[5..], &parse_form(&body))
                    };
                    (s, b, "application/json")
                }
                _ => {
                    let (s, b) = error(404, "not found");
                    (s, b, "application/json")
                }
            }
        };
        let header = Header::from_bytes(&b"Content-Type"[..], kind.as_bytes()).expect("static header");
        let nocache = Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..]).expect("static header");
        let _ =
            rq.respond(Response::from_string(body).with_status_code(status).with_header(header).with_header(nocache));
    }

    /// The Host header names this server: a loopback name, or the address it
    /// listens on (any name when it listens on all interfaces, by request).
    fn host_allowed(&self, host: &str) -> bool {
        let name = host.rsplit_once(':').map_or(host, |(n, _)| n);
        let listen = self.http.server_addr().to_ip();
        matches!(name, "127.0.0.1" | "localhost" | "[::1]")
            || listen.is_some_and(|a| a.ip().is_unspecified() || a.ip().to_string() == name.trim_matches(['[', ']']))
    }

    fn info(&self) -> Json {
        Json::obj(vec![
            (
                "variants",
                Json::Arr(
                    self.variants
                        .iter()
                        .map(|v| {
                            Json::obj(vec![
                                ("name", Json::str(&v.name)),
                                ("files", Json::num(v.files as i64)),
                                ("ranks", Json::num(v.ranks as i64)),
                                ("pocket", Json::num(v.pocket as i64)),
                                ("template", Json::str(&v.template)),
                                ("startpos", Json::str(&v.startpos)),
                                (
                                    "pieces",
                                    Json::Arr(
                                        v.pieces
                                            .iter()
                                            .map(|p| {
                                                Json::obj(vec![
                                                    ("letter", Json::str(&p.letter)),
                                                    ("name", Json::str(&p.name)),
                                                    ("moves", Json::str(&p.moves)),
                                                ])
                                            })
                                            .collect(),
                                    ),
                                ),
                                ("rules", Json::str(&v.rules)),
                            ])
                        })
                        .collect(),
                ),
            ),
            ("engines", Json::Arr(self.engines.iter().map(|e| Json::str(e.join(" "))).collect())),
        ])
    }

    fn game(&self, form: &HashMap<String, String>) -> Result<Arc<Mutex<Game>>, Answer> {
        let id: u64 = form.get("game").and_then(|g| g.parse().ok()).ok_or_else(|| error(400, "no game id"))?;
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
            .ok_or_else(|| error(404, "no such game (start a new one)"))
    }

    fn state(&self, form: &HashMap<String, String>) -> Answer {
        match self.game(form) {
            Ok(g) => {
                let mut g = g.lock().unwrap_or_else(|e| e.into_inner());
                g.touch();
                g.tick();
                (200, g.state().write_html_safe())
            }
            Err(e) => e,
        }
    }

    fn action(&self, what: &str, form: &HashMap<String, String>) -> Answer {
        if what == "new" {
            return self.new_game(form);
        }
        let g = match self.game(form) {
            Ok(g) => g,
            Err(e) => return e,
        };
        let mut g = g.lock().unwrap_or_else(|e| e.into_inner());
        g.last_used = Instant::now();
        let done = match what {
            "move" => g.play(form.get("move").map_or("", |m| m.as_str()), false),
            "undo" => g.undo(),
            "analyse" => {
                let on = form.get("on").is_some_and(|v| v == "1");
                let multipv = form.get("multipv").and_then(|m| m.parse().ok()).unwrap_or(1);
                g.analyse(on, multipv)
            }
            "movenow" => {
                g.move_now();
                Ok(())
            }
            _ => return error(404, "unknown action"),
        };
        match done {
            Ok(()) => (200, g.state().write_html_safe()),
            Err(e) => {
                let mut s = g.state();
                if let Json::Obj(v) = &mut s {
                    v.insert(0, ("error".to_string(), Json::str(e)));
                }
                (422, s.write_html_safe())
            }
        }
    }

    fn new_game(&self, form: &HashMap<String, String>) -> Answer {
        let get = |k: &str| form.get(k).map_or("", |v| v.as_str());
        let Some(variant) = self.variants.iter().find(|v| v.name == get("variant")) else {
            let known: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
            return error(400, format!("unknown variant (known: {})", known.join(", ")));
        };
        let player = |k: &str| -> Result<Player, Answer> {
            match get(k) {
                "" | "human" => Ok(Player::Human),
                n => match n.parse::<usize>() {
                    Ok(i) if i < self.engines.len() => Ok(Player::Engine(i)),
                    _ => Err(error(400, format!("{k}: no such engine"))),
                },
            }
        };
        let players = match (player("white"), player("black")) {
            (Ok(w), Ok(b)) => [w, b],
            (Err(e), _) | (_, Err(e)) => return e,
        };
        let num = |k: &str, lo: f64, hi: f64| -> Result<f64, Answer> {
            get(k)
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (lo..=hi).contains(v))
                .ok_or_else(|| error(400, format!("{k}: a number from {lo} to {hi}")))
        };
        let limit = match get("limit") {
            "" | "clock" => match (num("base", 0.05, 600.0), num("inc", 0.0, 60.0)) {
                (Ok(b), Ok(i)) => Limit::Clock { base_ms: (b * 60_000.0) as i64, inc_ms: (i * 1000.0) as i64 },
                (Err(e), _) | (_, Err(e)) => return e,
            },
            "movetime" => match num("value", 0.01, 600.0) {
                Ok(s) => Limit::MoveTime((s * 1000.0) as u64),
                Err(e) => return e,
            },
            "depth" => match num("value", 1.0, 64.0) {
                Ok(d) => Limit::Depth(d as u32),
                Err(e) => return e,
            },
            "nodes" => match num("value", 1.0, 1e9) {
                Ok(n) => Limit::Nodes(n as u64),
                Err(e) => return e,
            },
            _ => return error(400, "limit: clock, movetime, depth or nodes"),
        };
        // The engines' strength: `Skill Level` -10..20; 20 (or nothing) is full strength.
        let level = match get("level") {
            "" | "20" => None,
            l => match l.parse::<i32>() {
                Ok(l) if (-10..20).contains(&l) => Some(l),
                _ => return error(400, "level: a Skill Level from -10 to 20"),
            },
        };
        let fen = Some(get("fen").trim()).filter(|f| !f.is_empty()).map(String::from);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let new = NewGame { variant: variant.clone(), fen, players, limit, level };
        let game = match Game::create(id, new, &self.engines[0], &self.engines) {
            Ok(g) => g,
            Err(e) => return error(422, e),
        };
        let state = game.lock().unwrap_or_else(|e| e.into_inner()).state().write_html_safe();
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = form.get("replace").and_then(|r| r.parse::<u64>().ok()) {
            games.remove(&old);
        }
        while games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .min_by_key(|(_, g)| g.lock().unwrap_or_else(|e| e.into_inner()).last_used)
                .map(|(k, _)| *k);
            match oldest {
                Some(k) => games.remove(&k),
                None => break,
            };
        }
        games.insert(id, game);
        (200, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_forms() {
        let f = parse_form("move=P%40a20&fen=k%2F1+w&x=%zz&y&=3");
        assert_eq!(f["move"], "P@a20");
        assert_eq!(f["fen"], "k/1 w");
        assert_eq!(f["x"], "%zz");
        assert_eq!(f["y"], "");
        assert_eq!(f[""], "3");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("a%41"), "aA");
    }

    #[test]
    fn buckets_refuse_bursts() {
        let mut b = Bucket::new(3.0, 0.0);
        assert_eq!((0..5).map(|_| b.take()).collect::<Vec<_>>(), [true, true, true, false, false]);
    }
}
