//! Bad input never crashes or wedges the engine: a few thousand raw byte
//! lines, built from real commands, moves, FEN pieces, garbage, bytes that
//! are not UTF-8 and limits no search reaches, in UCI, USI and CECP mode,
//! fed to an in-process `Session` with a fixed seed. A `stop` comes before
//! most commands that change the state while a search may run, as a GUI
//! sends it. Checked: every `isready` is answered at once with `readyok`;
//! every `go` gets one `bestmove`, a perft or one error line (`ping` one
//! `pong`); a command run at once prints at most one error line (exactly
//! one for garbage and for a line that is not UTF-8); and a line rejected
//! at once leaves the position as it was. The line stream depends on the
//! seed and on positions read only when nothing runs, so it is the same on
//! every run.

use calvin::protocol::{Mode, Session};
use calvin::registry::VARIANTS;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Limits no search or count reaches (clamped or refused by the engine).
const ABSURD: &[&str] = &[
    "go depth 2147483648",
    "go depth 99999",
    "go nodes 18446744073709551615",
    "go nodes 99999999999999999999999",
    "go movetime 99999999999999",
    "go mate 99999",
    "go wtime 999999999999 btime 999999999999",
    "go perft 40",
    "go perft 12",
    "setoption name Hash value 999999999",
    "setoption name Threads value 100000",
    "setoption name MultiPV value 99999999999999999999",
];

const GARBAGE: &[&str] = &["frobnicate", "xyzzy", "%%%", "positionn", "gogo", "Ω", "12345", "--", "\u{7f}", "nan"];

const TOKENS: &[&str] = &[
    "e2e4",
    "e7e5",
    "a1a10",
    "P@e4",
    "P*e4",
    "0000",
    "@@@@",
    "e5a5,a5e5",
    "e7e8q",
    "g1f3m",
    "M@e1",
    "a13a14",
    "a19a18",
    "t2t3",
    "œ9œ8",
    "zz",
    "-1",
    "99999999999999999999",
    "w",
    "b",
    "-",
    "[]",
    "moves",
    "fen",
    "startpos",
    "value",
    "name",
    "depth",
    "KQkq",
];

const FEN_PIECES: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "8/8/8/8/8/8/8/8",
    "4k3/8/8/8/8/8/8/4K3",
    "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B",
    "k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K[]",
    "gerkreg/ppppppp/3m3/3m3/3M3/3M3/PPPPPPP/GERKREG",
    "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee]",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[MCmc]",
    "w",
    "b",
    "-",
    "e1ac,f1ac,e10ac,f10ac",
    "KQBCDFGkqbcdfg",
    "0",
    "1",
    "[",
    "10/",
    "+P",
];

fn small(r: &mut Rng, lo: usize, hi: usize) -> String {
    (lo + r.below(hi - lo + 1)).to_string()
}

/// The session's state, read when nothing that ends on its own runs (so
/// the line stream does not depend on timing).
fn fen(r: &mut Rng, s: &mut Session<Vec<u8>>) -> String {
    // The engine's own moves in CECP depend on the search: not read.
    if r.chance(40) && s.mode() != Mode::Cecp {
        s.finish();
        return s.core.engine.game().fen();
    }
    let n = 1 + r.below(6);
    (0..n).map(|_| r.pick(FEN_PIECES).to_string()).collect::<Vec<_>>().join(" ")
}

/// Some legal moves of the position in the mode's notation, and tokens.
fn moves(r: &mut Rng, s: &mut Session<Vec<u8>>) -> String {
    let legal = if s.mode() == Mode::Cecp {
        // The engine's own moves in CECP depend on the search: not read.
        vec!["e2e4".to_string(), "e7e5".into(), "g1f3".into(), "b8c6".into(), "a2a3".into(), "a13a14".into()]
    } else {
        s.finish();
        s.core.engine.game().legal_moves()
    };
    let w = s.move_writer();
    let n = r.below(4);
    (0..n)
        .map(|_| {
            if !legal.is_empty() && r.chance(70) {
                w.write(&legal[r.below(legal.len())])
            } else {
                r.pick(TOKENS).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn uci_line(r: &mut Rng, s: &mut Session<Vec<u8>>) -> String {
    let v = r.pick(VARIANTS);
    match r.below(24) {
        0 => "isready".into(),
        1 => "ucinewgame".into(),
        2 | 3 => format!("position startpos moves {}", moves(r, s)),
        4 => format!("position fen {} moves {}", fen(r, s), moves(r, s)),
        5 => format!("position sfen {}", fen(r, s)),
        6 => format!("go depth {}", small(r, 1, 3)),
        7 => format!("go perft {}", small(r, 1, 2)),
        8 => format!("go movetime {}", small(r, 1, 20)),
        9 => format!("go nodes {}", small(r, 1, 500)),
        10 => "go infinite".into(),
        11 => "stop".into(),
        12 => format!("setoption name UCI_Variant value {v}"),
        13 => format!(
            "setoption name {} value {}",
            r.pick(&["Hash", "Threads", "MultiPV", "ItaNotation", "ItaTimeMode", "Ponder", "Nonsense"]),
            r.pick(&["1", "2", "native", "canonical", "hard", "true", "x", ""])
        ),
        14 => r.pick(&["d", "fen", "moves", "result", "eval", "variant"]).into(),
        15 => format!("go wtime {} btime {}", small(r, 1, 50), small(r, 1, 50)),
        16 => format!("go depth {} searchmoves {}", small(r, 1, 2), moves(r, s)),
        17 => "go ponder".into(),
        18 => "ponderhit".into(),
        19 => "go mate 1".into(),
        20 => format!("go btime 20 wtime 20 byoyomi {}", small(r, 1, 20)),
        21 => "usinewgame".into(),
        _ => format!("{} {}", r.pick(TOKENS), r.pick(TOKENS)),
    }
}

fn cecp_line(r: &mut Rng, s: &mut Session<Vec<u8>>) -> String {
    let v =
        r.pick(&["normal", "chess", "iago-b", "iago-c", "historia-sako", "ita", "ito-shogi", "etcetera", "checkers"]);
    match r.below(26) {
        0 => "protover 2".into(),
        1 => "new".into(),
        2 => format!("variant {v}"),
        3 => "force".into(),
        4 => "go".into(),
        5..=8 => format!("usermove {}", moves(r, s)),
        9 => format!("sd {}", small(r, 1, 3)),
        10 => format!("sd {}", small(r, 1, 2)),
        11 => format!("perft {}", small(r, 1, 2)),
        12 => format!("time {}", small(r, 1, 200)),
        13 => format!("otim {}", small(r, 1, 200)),
        14 => format!("ping {}", small(r, 1, 9)),
        15 => format!("setboard {}", fen(r, s)),
        16 => r.pick(&["undo", "remove"]).into(),
        17 => r.pick(&["analyze", "exit"]).into(),
        18 => format!("lift {}", r.pick(&["e2", "e1", "a0", "j9", "zz", "a31", "e4"])),
        19 => r.pick(&["post", "nopost", "hard", "easy", "draw", "hint", "d"]).into(),
        20 => "result 1-0 {done}".into(),
        21 => "playother".into(),
        22 => format!("option ItaNotation={}", r.pick(&["native", "bad"])),
        23 => r.pick(&["memory 1", "cores 1", "cores 0", "memory x"]).into(),
        _ => moves(r, s),
    }
}

fn is_error(mode: Mode, l: &str) -> bool {
    match mode {
        Mode::Cecp => l.starts_with("Error (") || l.starts_with("Illegal move") || l.starts_with("tellusererror"),
        _ => l.starts_with("info string error"),
    }
}

/// The next line: a command of the mode, garbage, an absurd limit, a line
/// with bytes that are not UTF-8; some cut short. Also whether it must be
/// answered by exactly one error line.
fn next_line(r: &mut Rng, s: &mut Session<Vec<u8>>) -> (Vec<u8>, bool) {
    if r.chance(4) {
        return (format!("{} {}", r.pick(GARBAGE), r.pick(TOKENS)).into_bytes(), true);
    }
    if r.chance(4) && s.mode() != Mode::Cecp {
        return (r.pick(ABSURD).as_bytes().to_vec(), false);
    }
    let mut line = if s.mode() == Mode::Cecp { cecp_line(r, s) } else { uci_line(r, s) };
    // Truncated lines: cut at a character boundary.
    if r.chance(15) {
        let cut = r.below(line.chars().count() + 1);
        line = line.chars().take(cut).collect();
    }
    let mut bytes = line.into_bytes();
    if r.chance(4) {
        // A lone continuation byte, a cut sequence or a byte never in UTF-8.
        let bad: &[&[u8]] = &[b"\x80", b"\xc3", b"\xff", b"\xe2\x82", b"\xed\xa0\x80"];
        let at = r.below(bytes.len() + 1);
        let b = bad[r.below(bad.len())];
        bytes.splice(at..at, b.iter().copied());
        return (bytes, true);
    }
    (bytes, false)
}

/// Counts over the whole run, checked at its end.
#[derive(Default)]
struct Tally {
    go: usize,
    ping: usize,
    lines: usize,
}

fn fuzz(seed: u64, mode: Mode, lines: usize) {
    let mut r = Rng(seed);
    let mut s = Session::new(Vec::<u8>::new());
    let start = match mode {
        Mode::Uci => "uci",
        Mode::Usi => "usi",
        Mode::Cecp => "xboard",
    };
    s.handle(start);
    // XBoard sends the depth again after `new`: thinking stays short.
    let depth_limit = "sd 1";
    if mode == Mode::Cecp {
        s.handle(depth_limit);
    }
    // Perfts the engine accepts may take minutes: small ones only here.
    s.core.perft_max_nodes = 1e6;
    let mut tally = Tally::default();
    for i in 0..lines {
        // Mostly as a GUI that waits for answers; now and then racing ahead.
        if mode == Mode::Cecp && r.chance(80) {
            s.finish();
        }
        let (line, must_fail) = next_line(&mut r, &mut s);
        if std::env::var("FUZZ_TRACE").is_ok() {
            eprintln!("{i} {:?} busy {} queued {}", String::from_utf8_lossy(&line), s.busy(), s.queued());
        }
        let text = std::str::from_utf8(&line).ok().map(str::trim);
        let word = text.and_then(|t| t.split_whitespace().next()).unwrap_or("");
        // As a GUI does: `stop` before a command that changes the state.
        if s.busy() && r.chance(60) && !matches!(word, "isready" | "d" | "fen" | "moves" | "result" | "eval") {
            s.handle(if mode == Mode::Cecp { "?" } else { "stop" });
        }
        let ran_at_once = !s.busy();
        let queue_empty = s.queued() == 0;
        let fen_before = s.core.engine.game().fen();
        let before = s.core.out.len();
        assert!(s.handle_bytes(&line), "seed {seed} line {i}: quit");
        let out = String::from_utf8_lossy(&s.core.out[before..]).to_string();
        let what = format!("seed {seed} line {i} {:?}", String::from_utf8_lossy(&line));
        let errors = out.lines().filter(|l| is_error(s.mode(), l)).count();
        if text.is_some_and(|t| t == "isready") {
            assert!(out.lines().any(|l| l == "readyok"), "{what}: no readyok at once: {out}");
        }
        // Bad lines wait in turn behind queued commands.
        if must_fail && queue_empty {
            assert_eq!(errors, 1, "{what}: {out}");
            assert_eq!(s.core.engine.game().fen(), fen_before, "{what} changed the position");
        }
        if ran_at_once && s.queued() == 0 {
            assert!(errors <= 1, "{what}: {errors} errors: {out}");
            if errors == 1 && matches!(word, "position" | "setboard" | "usermove") {
                assert_eq!(s.core.engine.game().fen(), fen_before, "{what} changed the position");
            }
        }
        if !must_fail {
            tally.go += (word == "go" && s.mode() != Mode::Cecp) as usize;
            tally.ping += (word == "ping") as usize;
        }
        tally.lines += 1;
        if mode == Mode::Cecp && word == "new" {
            s.handle(depth_limit);
        }
        s.pump();
    }
    s.settle();
    assert!(!s.busy(), "seed {seed}: still busy after the end of input");
    let out = String::from_utf8_lossy(&s.core.out).to_string();
    let count = |p: &str| out.lines().filter(|l| l.starts_with(p)).count();
    let errors = out.lines().filter(|l| is_error(s.mode(), l)).count();
    if mode == Mode::Cecp {
        assert_eq!(count("pong"), tally.ping, "seed {seed}: a ping without its pong");
    } else {
        // Each go: one bestmove, a perft or one error line.
        let answered = count("bestmove")
            + count("Nodes searched")
            + count("info string error go ")
            + count("info string error go:");
        assert_eq!(answered, tally.go, "seed {seed}: go lines and their answers");
    }
    let best = count("bestmove") + count("move ");
    eprintln!("{mode:?}: {} lines, {errors} errors, {best} moves, {} perfts", tally.lines, count("Nodes searched"));
    assert!(errors > lines / 20 && best > 10, "the fuzz did too little");
}

#[test]
fn fuzz_uci() {
    fuzz(0x9E37_79B9_7F4A_7C15, Mode::Uci, 1500);
}

#[test]
fn fuzz_usi() {
    fuzz(0xD1B5_4A32_D192_ED03, Mode::Usi, 1200);
}

#[test]
fn fuzz_cecp() {
    fuzz(0x94D0_49BB_1331_11EB, Mode::Cecp, 1500);
}
