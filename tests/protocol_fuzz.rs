//! Bad input never crashes: a few thousand random and truncated lines, built
//! from real commands, moves, FEN pieces and garbage, in UCI, USI and CECP
//! mode, fed to an in-process `Session`. Every command prints at most one
//! error line (exactly one for an unknown command), and a `position` or
//! `setboard` that fails leaves the position as it was.

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

fn fen(r: &mut Rng, s: &Session<Vec<u8>>) -> String {
    if r.chance(40) {
        return s.engine.game.fen();
    }
    let n = 1 + r.below(6);
    (0..n).map(|_| r.pick(FEN_PIECES).to_string()).collect::<Vec<_>>().join(" ")
}

/// Some legal moves of the position in the mode's notation, and tokens.
fn moves(r: &mut Rng, s: &Session<Vec<u8>>) -> String {
    let legal = s.engine.game.legal_moves();
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

fn uci_line(r: &mut Rng, s: &Session<Vec<u8>>) -> String {
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

fn cecp_line(r: &mut Rng, s: &Session<Vec<u8>>) -> String {
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
        10 => format!("st 0.0{}", small(r, 1, 3)),
        11 => format!("level 0 0:0{} 0", small(r, 1, 2)),
        12 => format!("time {}", small(r, 1, 200)),
        13 => format!("otim {}", small(r, 1, 200)),
        14 => format!("ping {}", small(r, 1, 9)),
        15 => format!("setboard {}", fen(r, s)),
        16 => r.pick(&["undo", "remove"]).into(),
        17 => r.pick(&["analyze", "exit"]).into(),
        18 => format!("lift {}", r.pick(&["e2", "e1", "a0", "j9", "zz", "a31", "e4"])),
        19 => r.pick(&["post", "nopost", "?", "hard", "easy", "draw", "hint"]).into(),
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

fn fuzz(seed: u64, mode: Mode, lines: usize) {
    let mut r = Rng(seed);
    let mut s = Session::new(Vec::<u8>::new());
    let start = match mode {
        Mode::Uci => "uci",
        Mode::Usi => "usi",
        Mode::Cecp => "xboard",
    };
    s.handle(start);
    if mode == Mode::Cecp {
        s.handle("st 0.02");
    }
    for i in 0..lines {
        let garbage = r.chance(5);
        let mut line = if garbage {
            format!("{} {}", r.pick(GARBAGE), r.pick(TOKENS))
        } else if s.mode == Mode::Cecp {
            cecp_line(&mut r, &s)
        } else {
            uci_line(&mut r, &s)
        };
        // Truncated lines: cut at a character boundary.
        if !garbage && r.chance(15) {
            let cut = r.below(line.chars().count() + 1);
            line = line.chars().take(cut).collect();
        }
        let mode_now = s.mode;
        let fen_before = s.engine.game.fen();
        let before = s.out.len();
        assert!(s.handle(&line), "{line}: quit");
        s.drain();
        let out = String::from_utf8_lossy(&s.out[before..]).to_string();
        let errors: Vec<&str> = out.lines().filter(|l| is_error(s.mode, l)).collect();
        assert!(errors.len() <= 1, "seed {seed} line {i} '{line}': {} errors: {errors:?}", errors.len());
        if garbage {
            assert_eq!(errors.len(), 1, "seed {seed} line {i} '{line}': {out}");
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if !errors.is_empty() && matches!(word, "position" | "setboard") && s.mode == mode_now {
            assert_eq!(s.engine.game.fen(), fen_before, "seed {seed} line {i} '{line}' changed the position");
        }
        // Keep each mode mostly in itself: return after a switch.
        if s.mode != mode && r.chance(50) {
            s.handle(start);
            if mode == Mode::Cecp {
                s.handle("st 0.02");
            }
        }
    }
    s.settle();
    let out = String::from_utf8_lossy(&s.out).to_string();
    let errors = out.lines().filter(|l| is_error(s.mode, l)).count();
    let best = out.lines().filter(|l| l.starts_with("bestmove") || l.starts_with("move ")).count();
    let perft = out.lines().filter(|l| l.starts_with("Nodes searched")).count();
    eprintln!("{mode:?}: {lines} lines, {errors} errors, {best} moves, {perft} perfts");
    assert!(errors > lines / 20 && best > 10, "the fuzz did too little");
}

#[test]
fn fuzz_uci() {
    fuzz(0x9E37_79B9_7F4A_7C15, Mode::Uci, 1200);
}

#[test]
fn fuzz_usi() {
    fuzz(0xD1B5_4A32_D192_ED03, Mode::Usi, 1000);
}

#[test]
fn fuzz_cecp() {
    fuzz(0x94D0_49BB_1331_11EB, Mode::Cecp, 1200);
}
