//! The board's HTTP interface without a browser: what the page may send, what
//! is refused, the record it keeps. These run everywhere (no Chromium needed).

mod common;

use common::{http, start_board};
use std::time::{Duration, Instant};

const FORM: &str = "X-Calvin-Board: 1\r\nContent-Type: application/x-www-form-urlencoded\r\n";

fn post(port: u16, path: &str, body: &str) -> (u16, String) {
    http(port, "POST", path, Some(body), FORM)
}

/// The number after `"key":` in a JSON text.
fn int_field(json: &str, key: &str) -> i64 {
    let at = json.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("no {key} in {json}")) + key.len() + 3;
    json[at..].chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect::<String>().parse().unwrap()
}

#[test]
fn a_game_through_the_interface_and_its_pgn() {
    let (_board, port) = start_board(&[]);
    let (status, body) = http(port, "GET", "/", None, "");
    assert_eq!(status, 200);
    assert!(body.contains("<script src=\"/board.js\"></script>"));
    let (status, body) = http(port, "GET", "/api/info", None, "");
    assert_eq!(status, 200);
    assert!(body.contains(r#"{"name":"ito-shogi","files":1,"ranks":31,"#), "{body}");
    // The pieces' names and moves come from the engine's `pieces`.
    assert!(
        body.contains(
            r#"{"letter":"+S","name":"Bishop","moves":"swallow-slides forward or back (2nd, 4th, 6th... square)"}],"rules":"Captured pieces go to the captor's hand and may be dropped; a piece other than the King flips over (+) each time it captures."}"#
        ),
        "{body}"
    );
    let (status, body) = post(port, "/api/new", "variant=ito-shogi&white=human&black=human&limit=depth&value=3");
    assert_eq!(status, 200, "{body}");
    let id = int_field(&body, "id");
    assert!(
        body.contains(
            r#""legal":["a1a2","a1a3","a13a14","a12a11","a12a14","a9a7","a8a11","a6a4","a6a10","a5a4","a5a7"]"#
        ),
        "{body}"
    );
    // Black's moves as if it were to move, for the hints of its pieces.
    assert!(
        body.contains(
            r#""other_legal":["a31a29","a31a30","a19a18","a20a18","a20a21","a23a25","a24a21","a26a22","a26a28","a27a25","a27a28"]"#
        ),
        "{body}"
    );
    for m in ["a13a14", "a19a18"] {
        let (status, body) = post(port, "/api/move", &format!("game={id}&move={m}"));
        assert_eq!(status, 200, "{body}");
    }
    let (_, body) = post(port, "/api/undo", &format!("game={id}"));
    assert!(body.contains(r#""moves":["a13a14"]"#), "{body}");
    let (_, body) = post(port, "/api/move", &format!("game={id}&move=a19a18"));
    let pgn = body.split(r#""pgn":""#).nth(1).unwrap().trim_end_matches("\"}");
    assert_eq!(
        pgn,
        r#"[Event \"calvin-board game\"]\n[Site \"calvin-board\"]\n[Round \"-\"]\n[White \"Human\"]\n[Black \"Human\"]\n[Result \"*\"]\n[Variant \"ito-shogi\"]\n[TimeControl \"depth 3\"]\n\n1. a13a14 a19a18 *\n"#
    );
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let (_board, port) = start_board(&[]);
    let (_, body) = post(port, "/api/new", "variant=ita&limit=depth&value=2");
    let id = int_field(&body, "id");
    let cases: [(&str, &str, u16, &str); 9] = [
        ("/api/move", "move=a1a10", 422, r#"{"error":"illegal move 'a1a10'""#),
        ("/api/move", "move=a1a10%0Aquit", 422, r#"{"error":"illegal move 'a1a10\nquit'""#),
        (
            "/api/new",
            "variant=checkers",
            400,
            r#"{"error":"unknown variant (known: chess, iago-b, iago-c, historia-sako, ita, ito-shogi, etcetera)"}"#,
        ),
        ("/api/new", "variant=ita&white=7", 400, r#"{"error":"white: no such engine"}"#),
        ("/api/new", "variant=ita&limit=clock&base=-1&inc=0", 400, r#"{"error":"base: a number from 0.05 to 600"}"#),
        ("/api/new", "variant=ita&limit=depth&value=2&fen=10/10", 422, r#"{"error":"referee: bad FEN: "#),
        ("/api/new", "variant=ita&limit=depth&value=2&fen=10%0Aquit", 422, r#"{"error":"referee: bad FEN: "#),
        ("/api/frobnicate", "", 404, r#"{"error":"unknown action""#),
        ("/api/move", "game=999&move=e2e3", 404, r#"{"error":"no such game (start a new one)"}"#),
    ];
    for (path, form, status, start) in cases {
        let form =
            if form.contains("game=") || path == "/api/new" { form.to_string() } else { format!("game={id}&{form}") };
        let (s, body) = post(port, path, &form);
        assert_eq!(s, status, "{path} {form}: {body}");
        assert!(body.starts_with(start), "{path} {form}: {body}");
    }
    // Not from the page: no header, or another Host.
    let (s, _) = http(
        port,
        "POST",
        "/api/move",
        Some(&format!("game={id}&move=e2e3")),
        "Content-Type: application/x-www-form-urlencoded\r\n",
    );
    assert_eq!(s, 403);
    let (s, _) = http(port, "GET", &format!("/api/state?game={id}"), None, "Host: evil.example\r\n");
    assert_eq!(s, 403);
    // A burst: some answered 429, none played.
    let statuses: Vec<u16> = (0..40).map(|_| post(port, "/api/move", &format!("game={id}&move=a1a10")).0).collect();
    assert!(statuses.contains(&429) && statuses.iter().all(|s| *s == 422 || *s == 429), "{statuses:?}");
    let (_, body) = http(port, "GET", &format!("/api/state?game={id}"), None, "");
    assert!(body.contains(r#""moves":[]"#) && body.contains(r#""result":null"#), "{body}");
}

#[test]
fn the_clock_ends_a_game_and_ita_scores_it_1_4() {
    let (_board, port) = start_board(&[]);
    // 3 s for each side; White (a person) does not move. The referee says
    // how a loss on time scores: Ita's 1:4, a plain 0-1 in chess.
    let (_, body) = post(port, "/api/new", "variant=ita&white=human&black=human&limit=clock&base=0.05&inc=0");
    let id = int_field(&body, "id");
    assert_eq!(int_field(&body, "white"), 3000);
    let (_, body) = post(port, "/api/new", "variant=chess&white=human&black=human&limit=clock&base=0.05&inc=0");
    let chess = int_field(&body, "id");
    let end = Instant::now() + Duration::from_secs(60);
    for (game, expected) in [
        (id, r#""result":{"result":"0-1","score":"1:4","reason":"time"}"#),
        (chess, r#""result":{"result":"0-1","score":null,"reason":"time"}"#),
    ] {
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let (_, body) = http(port, "GET", &format!("/api/state?game={game}"), None, "");
            if body.contains(r#""result":{"#) {
                assert!(body.contains(expected), "{body}");
                assert_eq!(int_field(&body, "white"), 0);
                assert_eq!(int_field(&body, "black"), 3000);
                break;
            }
            assert!(Instant::now() < end, "no time result: {body}");
        }
    }
    let (s, body) = post(port, "/api/move", &format!("game={id}&move=e2e3"));
    assert_eq!(s, 422);
    assert!(body.starts_with(r#"{"error":"the game is over (0-1 time)""#), "{body}");
}

/// A fake UCI engine in sh: handshakes, then on `go` does what `on_go` says.
fn fake_engine(name: &str, on_go: &str) -> String {
    let path = std::env::temp_dir().join(format!("calvin-board-fake-{name}-{}.sh", std::process::id()));
    let script = format!(
        "while read -r l; do case \"$l\" in uci) echo 'id name {name}'; echo uciok;; isready) echo readyok;; go*) {on_go};; quit) exit 0;; esac; done\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

fn wait_state(port: u16, id: i64, what: &str, done: impl Fn(&str) -> bool) -> String {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, body) = http(port, "GET", &format!("/api/state?game={id}"), None, "");
        if done(&body) {
            return body;
        }
        assert!(Instant::now() < end, "waited in vain for {what}: {body}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn an_engine_that_dies_or_cheats_leaves_the_game_to_a_person() {
    let dier = fake_engine("dier", "exit 0");
    let cheat = fake_engine("cheat", "echo 'info depth 1 score cp 0 pv e2e5'; echo 'bestmove e2e5'");
    let (_board, port) = start_board(&["--opponent", &dier, "--opponent", &cheat]);
    for (engine, message) in [
        (1, "engine dier stopped: the engine process has exited; the game stays"),
        (2, "cheat answered bestmove e2e5: illegal move 'e2e5'; a person plays this side now"),
    ] {
        let (_, body) =
            post(port, "/api/new", &format!("variant=chess&white=human&black={engine}&limit=depth&value=1"));
        let id = int_field(&body, "id");
        wait_state(port, id, "the handshake", |b| b.contains(r#""status":"ready""#));
        let (s, body) = post(port, "/api/move", &format!("game={id}&move=e2e4"));
        assert_eq!(s, 200, "{body}");
        let body = wait_state(port, id, message, |b| b.contains(message));
        // The game stays, Black is a person now and plays on.
        assert!(body.contains(r#""moves":["e2e4"]"#), "{body}");
        let (s, body) = post(port, "/api/move", &format!("game={id}&move=e7e5"));
        assert_eq!(s, 200, "{body}");
        assert!(body.contains(r#""moves":["e2e4","e7e5"]"#), "{body}");
    }
    for f in [dier, cheat] {
        let _ = std::fs::remove_file(f.trim_start_matches("sh "));
    }
}

#[test]
fn chess_is_recorded_in_san_and_levels_are_checked() {
    let (_board, port) = start_board(&[]);
    let (_, body) = post(port, "/api/new", "variant=chess&white=human&black=human&limit=depth&value=1");
    let id = int_field(&body, "id");
    for m in ["e2e4", "f7f6", "d1h5", "g7g6", "h5g6", "h7g6", "g1f3", "b8c6", "f1c4", "g8h6", "e1g1"] {
        let (status, body) = post(port, "/api/move", &format!("game={id}&move={m}"));
        assert_eq!(status, 200, "{body}");
    }
    let (_, body) = http(port, "GET", &format!("/api/state?game={id}"), None, "");
    assert!(body.contains(r#""san":["e4","f6","Qh5+","g6","Qxg6+","hxg6","Nf3","Nc6","Bc4","Nh6","O-O"]"#), "{body}");
    assert!(body.contains(r#"1. e4 f6 2. Qh5+ g6 3. Qxg6+ hxg6 4. Nf3 Nc6 5. Bc4 Nh6 6. O-O *\n"#), "{body}");
    // Taking back drops the last SAN too.
    let (_, body) = post(port, "/api/undo", &format!("game={id}"));
    assert!(body.contains(r#""san":["e4","f6","Qh5+","g6","Qxg6+","hxg6","Nf3","Nc6","Bc4","Nh6"]"#), "{body}");
    // Other variants keep the engine's notation and give no SAN.
    let (_, body) = post(port, "/api/new", "variant=ita&white=human&black=human&limit=depth&value=1");
    assert!(body.contains(r#""san":[]"#) && body.contains(r#""level":null"#), "{body}");
    // The level: a Skill Level -10..19 (20 is full strength, sent as nothing).
    let (_, body) = post(port, "/api/new", "variant=chess&white=human&black=0&limit=depth&value=1&level=-10");
    assert!(body.contains(r#""level":-10"#), "{body}");
    let (_, body) = post(port, "/api/new", "variant=chess&white=human&black=0&limit=depth&value=1&level=20");
    assert!(body.contains(r#""level":null"#), "{body}");
    for bad in ["21", "-11", "x", "3.5"] {
        let (status, body) =
            post(port, "/api/new", &format!("variant=chess&white=human&black=0&limit=depth&value=1&level={bad}"));
        assert_eq!((status, body.as_str()), (400, r#"{"error":"level: a Skill Level from -10 to 20"}"#), "{bad}");
    }
}
