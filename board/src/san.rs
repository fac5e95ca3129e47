//! Standard algebraic notation (`Nf3`, `exd5`, `O-O`, `e8=Q`, `Qh4#`) for the
//! PGN of the variants whose records are written so, written from what the
//! referee says: the position before the move (FEN), its legal moves and
//! whether the move checks or mates. Other variants keep the engine's notation.

/// Whether a variant's moves are written in SAN: as the engine's `pieces`
/// answer declares it (`info string notation san`: chess and its relatives
/// with chess pieces; drops `Q@d1` and gates `Nc3/M` as Fairy-Stockfish
/// writes them), whatever the board's size.
pub fn uses_san(variant: &crate::referee::VariantInfo) -> bool {
    variant.san
}

/// A square `a1`..`z99` as (file, rank) from 0.
fn square(s: &str) -> Option<(u32, u32)> {
    let mut c = s.chars();
    let f = c.next().filter(|c| c.is_ascii_lowercase())? as u32 - 'a' as u32;
    let r: u32 = c.as_str().parse().ok()?;
    (r >= 1).then_some((f, r - 1))
}

/// A move's squares and suffix: `e7e8q` is (`e7`, `e8`, `q`); drops give `None`.
fn split(mv: &str) -> Option<(&str, &str, &str)> {
    let b = mv.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    if b.len() < 4 || !b[0].is_ascii_lowercase() {
        return None;
    }
    let i = digits(1);
    if i == 1 || i >= b.len() || !b[i].is_ascii_lowercase() {
        return None;
    }
    let j = digits(i + 1);
    if j == i + 1 {
        return None;
    }
    Some((&mv[..i], &mv[i..j], &mv[j..]))
}

/// The pieces of a FEN's board part: (file, rank) to the letter as written
/// (upper case White), promoted pieces with their `+`.
fn pieces(fen: &str) -> Vec<((u32, u32), String)> {
    let place = fen.split_whitespace().next().unwrap_or("");
    let board = place.split('[').next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    let mut out = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let r = (rows.len() - 1 - k) as u32;
        let mut f = 0u32;
        let mut chars = row.chars().peekable();
        let mut plus = false;
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0);
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d;
                    chars.next();
                }
                f += n;
            } else if c == '+' {
                plus = true;
            } else if c.is_ascii_alphabetic() {
                out.push(((f, r), format!("{}{c}", if plus { "+" } else { "" })));
                plus = false;
                f += 1;
            }
        }
    }
    out
}

/// The SAN of `mv`, one of `legal` in the position `fen`; `check` and
/// `mate` say what the move does to the opponent. A move the position does
/// not explain (no piece on its square) keeps its text.
pub fn san(fen: &str, legal: &[String], mv: &str, check: bool, mate: bool) -> String {
    let mark = if mate {
        "#"
    } else if check {
        "+"
    } else {
        ""
    };
    if let Some((letter, to)) = mv.split_once('@') {
        return format!("{letter}@{to}{mark}");
    }
    let board = pieces(fen);
    let at = |sq: (u32, u32)| board.iter().find(|(s, _)| *s == sq).map(|(_, p)| p.as_str());
    let Some((from, to, suffix)) = split(mv) else { return mv.to_string() };
    let (Some(fs), Some(ts)) = (square(from), square(to)) else { return mv.to_string() };
    let Some(piece) = at(fs) else { return mv.to_string() };
    let white = piece.chars().any(|c| c.is_ascii_uppercase());
    let kind = piece.to_ascii_uppercase();
    let target = at(ts);
    let gate = if suffix.is_empty() || kind == "P" { String::new() } else { format!("/{}", suffix.to_uppercase()) };
    // Castling: the king two or more files along its rank, or (a gate on the
    // rook's square) the rook onto its own king.
    let own = |p: &str| p.chars().any(|c| c.is_ascii_uppercase()) == white;
    if kind == "K" && fs.1 == ts.1 && fs.0.abs_diff(ts.0) >= 2 {
        let side = if ts.0 > fs.0 { "O-O" } else { "O-O-O" };
        return format!("{side}{gate}{mark}");
    }
    if kind == "R" && target.is_some_and(|t| own(t) && t.eq_ignore_ascii_case("k")) {
        let side = if fs.0 > ts.0 { "O-O" } else { "O-O-O" };
        return format!("{side}{gate}{from}{mark}");
    }
    let capture = target.is_some_and(|t| !own(t)) || (kind == "P" && fs.0 != ts.0);
    let x = if capture { "x" } else { "" };
    if kind == "P" {
        let file = if capture { &from[..1] } else { "" };
        let promo = if suffix.is_empty() { String::new() } else { format!("={}", suffix.to_uppercase()) };
        return format!("{file}{x}{to}{promo}{mark}");
    }
    // Another piece of the same kind that can go to the same square.
    let rivals: Vec<(u32, u32)> = legal
        .iter()
        .filter_map(|m| split(m))
        .filter(|(f, t, _)| *t == to && *f != from)
        .filter_map(|(f, _, _)| square(f))
        .filter(|s| at(*s) == Some(piece))
        .collect();
    let mut rivals = rivals;
    rivals.dedup();
    let which = if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|s| s.0 != fs.0) {
        from[..1].to_string()
    } else if rivals.iter().all(|s| s.1 != fs.1) {
        from[1..].to_string()
    } else {
        from.to_string()
    };
    format!("{kind}{which}{x}{to}{gate}{mark}")
}

/// The FEN with the other side to move and no en-passant square: the
/// referee refuses it ("the side not to move is in check") exactly when the
/// side to move in `fen` is in check.
pub fn other_side_to_move(fen: &str) -> String {
    let mut w: Vec<&str> = fen.split_whitespace().collect();
    if let Some(side) = w.get_mut(1) {
        *side = if *side == "b" { "w" } else { "b" };
    }
    if let Some(ep) = w.get_mut(3) {
        *ep = "-";
    }
    w.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The engine's `pieces` answer decides SAN, not the board's size: an
    /// 8x8 game declared `lan` keeps the engine's text, a 10x10 one declared
    /// `san` gets SAN, and an engine that says nothing gets no SAN.
    #[test]
    fn san_where_the_engine_declares_it() {
        let cases = [
            ("chess files 8 ranks 8 pocket 0 template fairy startpos 8/8/8/8/8/8/8/8 w - - 0 1", Some("san")),
            ("mini files 8 ranks 8 pocket 0 template fairy startpos 8/8/8/8/8/8/8/8 w - - 0 1", Some("lan")),
            (
                "ita files 10 ranks 10 pocket 0 template fairy startpos 10/10/10/10/10/10/10/10/10/10 w - - 0 1",
                Some("lan"),
            ),
            (
                "grand files 10 ranks 10 pocket 0 template fairy startpos 10/10/10/10/10/10/10/10/10/10 w - - 0 1",
                Some("san"),
            ),
            ("old files 8 ranks 8 pocket 0 template fairy startpos 8/8/8/8/8/8/8/8 w - - 0 1", None),
        ];
        let san: Vec<bool> = cases
            .iter()
            .map(|(line, notation)| {
                let mut v = crate::referee::parse_variant_line(&format!("info string variant {line}")).unwrap();
                let mut answer = vec!["info string piece K King: one step".to_string()];
                answer.extend(notation.map(|n| format!("info string notation {n}")));
                v.read_pieces(&answer);
                assert_eq!(v.pieces.len(), 1);
                uses_san(&v)
            })
            .collect();
        assert_eq!(san, [true, false, false, true, false]);
    }

    fn l(moves: &str) -> Vec<String> {
        moves.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn pawns_pieces_and_marks() {
        let legal = l("e2e4 g1f3 b1c3");
        assert_eq!(san(START, &legal, "e2e4", false, false), "e4");
        assert_eq!(san(START, &legal, "g1f3", false, false), "Nf3");
        // The fool's mate.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        assert_eq!(san(fen, &l("d8h4"), "d8h4", true, true), "Qh4#");
        assert_eq!(san(fen, &l("d8h4"), "d8h4", true, false), "Qh4+");
    }

    #[test]
    fn captures_en_passant_and_promotion() {
        let fen = "k7/3P4/8/3pP3/8/2n5/8/K2R4 w - d6 0 1";
        assert_eq!(san(fen, &l("e5d6"), "e5d6", false, false), "exd6");
        assert_eq!(san(fen, &l("d7d8q"), "d7d8q", true, false), "d8=Q+");
        assert_eq!(san(fen, &l("d1d5"), "d1d5", false, false), "Rxd5");
        assert_eq!(san("k7/8/8/8/8/8/8/K1n5 b - - 0 1", &l("c1b3"), "c1b3", false, false), "Nb3");
    }

    #[test]
    fn disambiguation_by_file_rank_or_both() {
        // Knights on b1 and f1 to d2: the file. Rooks on a1 and a5 to a3: the rank.
        let fen = "k7/8/8/R7/8/8/8/RN3N1K w - - 0 1";
        let legal = l("b1d2 f1d2 a1a3 a5a3 a1a2");
        assert_eq!(san(fen, &legal, "b1d2", false, false), "Nbd2");
        assert_eq!(san(fen, &legal, "a5a3", false, false), "R5a3");
        assert_eq!(san(fen, &legal, "a1a2", false, false), "Ra2");
        // Queens on a1, a3 and c1 to c3... b2: all three reach b2.
        let fen = "k7/8/8/8/8/Q7/8/Q1Q4K w - - 0 1";
        let legal = l("a1b2 a3b2 c1b2");
        assert_eq!(san(fen, &legal, "a1b2", false, false), "Qa1b2");
        assert_eq!(san(fen, &legal, "c1b2", false, false), "Qcb2");
    }

    #[test]
    fn castling_gates_and_drops() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R[Mm] w KQkq - 0 1";
        assert_eq!(san(fen, &l("e1g1 e1c1"), "e1g1", false, false), "O-O");
        assert_eq!(san(fen, &l("e1g1 e1c1"), "e1c1", true, false), "O-O-O+");
        assert_eq!(san(fen, &l("e1g1m"), "e1g1m", false, false), "O-O/M");
        assert_eq!(san(fen, &l("h1e1m"), "h1e1m", false, false), "O-O/Mh1");
        assert_eq!(san(START, &l("b1c3m"), "b1c3m", false, false), "Nc3/M");
        assert_eq!(san(START, &l("Q@d4"), "Q@d4", true, false), "Q@d4+");
    }

    #[test]
    fn the_other_side_to_move() {
        assert_eq!(other_side_to_move("8/8 w KQ e3 0 1"), "8/8 b KQ - 0 1");
        assert_eq!(other_side_to_move("8/8 b - - 3 9"), "8/8 w - - 3 9");
        assert_eq!(other_side_to_move("8/8"), "8/8");
    }
}
