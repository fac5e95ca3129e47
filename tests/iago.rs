//! The IAGO rule options (`IagoReserve`, `IagoPromotion`, `IagoBareKing`,
//! `IagoCastlingGates`) through the registry, as the engine and the referee
//! build their games: exact move lists, perft counts and results. Each count
//! says how it was checked by hand.

mod common;

use calvin::game::AnyGame;
use calvin::registry::{RuleOption, RuleOptions, new_game_with, new_game_with_rules};

/// The rule options with `(option, value)` pairs set as the protocol sets them.
fn rules(set: &[(RuleOption, &str)]) -> RuleOptions {
    let mut r = RuleOptions::default();
    for (o, v) in set {
        o.apply(&mut r, v).unwrap();
    }
    r
}

fn game(variant: &str, set: &[(RuleOption, &str)], fen: Option<&str>) -> Box<dyn AnyGame> {
    let mut g = new_game_with_rules(variant, &rules(set)).unwrap();
    if fen.is_some() {
        g.set_position(fen, &[]).unwrap();
    }
    g
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The legal moves of `g` that contain `part`.
fn moves_with(g: &dyn AnyGame, part: &str) -> Vec<String> {
    sorted(g.legal_moves().into_iter().filter(|m| m.contains(part)).collect())
}

use calvin::variants::iago::options::{
    BARE_KING as Bare, CASTLING_GATES as Gates, GATING, NOTATION, PROMOTION as Promo, RESERVE as Reserve,
};

// ------------------------------------------------------------ IagoReserve

#[test]
fn reserve_values() {
    let mut r = RuleOptions::default();
    assert_eq!(Reserve.value(&r), "default");
    Reserve.apply(&mut r, "acm").unwrap();
    assert_eq!(Reserve.value(&r), "MCA");
    for bad in ["", "QQ", "QX", "K", "-"] {
        assert!(Reserve.apply(&mut r, bad).is_err(), "{bad}");
    }
    assert_eq!(Reserve.value(&r), "MCA");
    Reserve.apply(&mut r, "Default").unwrap();
    assert_eq!(r, RuleOptions::default());
    // The class's own reserve is the rulings: the same game as the default.
    let g = game("iago-b", &[(Reserve, "CM")], None);
    assert_eq!(g.start_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[MCmc] w KQBCDFGkqbcdfg - 0 1");
}

#[test]
fn reserve_sets_the_start() {
    let g = game("iago-b", &[(Reserve, "QMCA")], None);
    assert_eq!(g.start_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QMCAqmca] w KQBCDFGkqbcdfg - 0 1");
    // The 20 FIDE moves, and each of the 4 knight moves gating Q, M, C or A.
    assert_eq!(g.perft(1), 20 + 4 * 4);
    assert_eq!(moves_with(&*g, "g1f3"), ["g1f3", "g1f3a", "g1f3c", "g1f3m", "g1f3q"]);
    // Only the Amazon: 20 + 4 knight moves gating it.
    assert_eq!(game("iago-b", &[(Reserve, "A")], None).perft(1), 24);
    // IAGO-C: the queen's square is filled from whatever the reserve holds.
    let c = game("iago-c", &[(Reserve, "MA")], None);
    assert_eq!(c.start_fen(), "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[MAma] w KQBCDFGkqbcdfg - 0 1");
    assert_eq!(sorted(c.legal_moves()), ["A@d1", "M@d1"]);
    assert_eq!(sorted(game("iago-c", &[(Reserve, "A")], None).legal_moves()), ["A@d1"]);
}

#[test]
fn the_amazon_moves_as_queen_and_knight() {
    // Checked by listing: the Amazon on a1 reaches a2-a8 (7), b1 c1 d1 (3,
    // the king on e1 blocks), b2-h8 (7) and the knight squares b3 c2 (2): 19;
    // the king d1 d2 e2 f2 f1: 5. 24 moves.
    let fen = "4k3/8/8/8/8/8/8/A3K3[] w - - 0 1";
    let g = game("iago-b", &[(Reserve, "MCA")], Some(fen));
    assert_eq!(g.perft(1), 24);
    assert_eq!(moves_with(&*g, "a1").len(), 19);
    // The rulings know no Amazon, nor does a game whose reserve holds none.
    assert!(new_game_with_rules("iago-b", &RuleOptions::default()).unwrap().set_position(Some(fen), &[]).is_err());
    let mut g = game("iago-b", &[(Bare, "true")], None);
    assert_eq!(
        g.set_position(Some(fen), &[]).map_err(|e| e.to_string()),
        Err("bad FEN: no Amazon in this game (IagoReserve holds none)".to_string())
    );
}

/// The rulings' types and the Amazon's (`X`) keep tables of their own (the
/// one static of a generic impl would serve both, built by whichever came
/// first): in this order the Amazon had no moves and its evaluation read
/// the rulings' network (a panic); in the other the rulings' network would
/// be the widened one. Both are checked, so one of them fails whichever order the
/// other tests built them in.
#[test]
fn the_rulings_and_the_amazon_keep_their_own_tables() {
    // Perft 2 of the start: tests/perft/iago-{b,c}.perft.
    // Iago-b's network has 8 output buckets, iago-c's one.
    for (variant, perft2, buckets) in [("iago-b", 784, ", 8 output buckets"), ("iago-c", 9, "")] {
        let rulings = new_game_with(variant, &RuleOptions::default()).unwrap();
        assert_eq!(rulings.perft(2), perft2, "{variant}");
        let (_, source) = rulings.network_eval(&rulings.builtin_evaluation()).expect("the rulings' network");
        assert_eq!(source.to_string(), format!("built-in (network 1152x256 SCReLU{buckets})"), "{variant}");
        let fen = "4k3/8/8/8/8/8/8/A3K3[] w - - 0 1";
        let mut amazon = new_game_with(variant, &rules(&[(Reserve, "QMCA")])).unwrap();
        amazon.set_position(Some(fen), &[]).unwrap();
        assert_eq!(amazon.perft(1), 24, "{variant}");
        // The network, widened to the Amazon (which reads as a Queen, with
        // the difference of their values added); the formula's terms count
        // the Amazon's own value.
        let (_, source) = amazon.network_eval(&amazon.builtin_evaluation()).expect("the widened network");
        assert_eq!(
            source.to_string(),
            format!("built-in (network 1296x256 SCReLU{buckets}, A read as Q)"),
            "{variant}"
        );
        assert_eq!(amazon.eval_terms(&amazon.builtin_evaluation()).material, 1250, "{variant}");
    }
}

#[test]
fn amazon_equipment_and_promotion() {
    // Reserve QMCA in B-class: the equipment holds 2 queens (d1 and the
    // reserve), 1 Marshall, 1 Cardinal, 1 Amazon.
    let r = [(Reserve, "QMCA")];
    let g = game("iago-b", &r, Some("k7/4P3/8/8/8/8/8/3QK3[A] w - - 0 1"));
    assert_eq!(moves_with(&*g, "e7e8"), ["e7e8a", "e7e8b", "e7e8c", "e7e8m", "e7e8n", "e7e8q", "e7e8r"]);
    let mut g2 = g.clone_box();
    g2.push_move("e7e8a").unwrap();
    assert_eq!(g2.fen(), "k3A3/8/8/8/8/8/8/3QK3[] b - - 0 1");
    // Without the Amazon in the reserve it is not part of the equipment; with
    // the default reserve (MC in B-class) only one queen.
    let g = game("iago-b", &[(Reserve, "MCQ")], Some("k7/4P3/8/8/8/8/8/3QK3[] w - - 0 1"));
    assert_eq!(moves_with(&*g, "e7e8"), ["e7e8b", "e7e8c", "e7e8m", "e7e8n", "e7e8q", "e7e8r"]);
    let g = game("iago-b", &[(Reserve, "MCA")], Some("k7/4P3/8/8/8/8/8/3QK3[] w - - 0 1"));
    assert_eq!(moves_with(&*g, "e7e8"), ["e7e8a", "e7e8b", "e7e8c", "e7e8m", "e7e8n", "e7e8r"]);
    // IAGO-C with reserve MC: no queen in the equipment at all.
    let g = game("iago-c", &[(Reserve, "MC")], Some("k7/4P3/8/8/8/8/8/3MK3[] w - - 0 1"));
    assert_eq!(moves_with(&*g, "e7e8"), ["e7e8b", "e7e8c", "e7e8n", "e7e8r"]);
}

// ---------------------------------------------------------- IagoPromotion

#[test]
fn promotion_modes() {
    // A queen on d1 and a Marshall in reserve (B-class, reserve MC).
    let fen = "k7/4P3/8/8/8/8/8/3QK3[M] w - - 0 1";
    let promos = |mode: &str| moves_with(&*game("iago-b", &[(Promo, mode)], Some(fen)), "e7e8");
    // Equipment: the queen is on the board, the rest is free.
    assert_eq!(promos("equipment"), ["e7e8b", "e7e8c", "e7e8m", "e7e8n", "e7e8r"]);
    // Reserve-only: the Marshall alone.
    assert_eq!(promos("reserve-only"), ["e7e8m"]);
    // FIDE: Q R B N and the reserve types M and C, whatever stands.
    assert_eq!(promos("fide"), ["e7e8b", "e7e8c", "e7e8m", "e7e8n", "e7e8q", "e7e8r"]);
    // Reserve-only uses the Marshall up, FIDE leaves the reserve alone.
    let after = |mode: &str, m: &str| {
        let mut g = game("iago-b", &[(Promo, mode)], Some(fen));
        g.push_move(m).unwrap();
        g.fen()
    };
    assert_eq!(after("reserve-only", "e7e8m"), "k3M3/8/8/8/8/8/8/3QK3[] b - - 0 1");
    assert_eq!(after("fide", "e7e8m"), "k3M3/8/8/8/8/8/8/3QK3[M] b - - 0 1");
    assert_eq!(after("fide", "e7e8q"), "k3Q3/8/8/8/8/8/8/3QK3[M] b - - 0 1");
    // Reserve-only with an empty reserve: the pawn cannot enter the last rank.
    let g = game("iago-b", &[(Promo, "reserve-only")], Some("k7/4P3/8/8/8/8/8/4K3[] w - - 0 1"));
    assert_eq!(moves_with(&*g, "e7"), Vec::<String>::new());
    // Counted by hand: the king d2 e2 f2 f1 (4), the queen d2-d8, a1-c1,
    // c2 b3 a4, e2 f3 g4 h5 (17), M dropped on a1 b1 c1 f1 g1 h1 (6), and the
    // one promotion.
    assert_eq!(game("iago-b", &[(Promo, "reserve-only")], Some(fen)).perft(1), 4 + 17 + 6 + 1);
}

// ----------------------------------------------------------- IagoBareKing

#[test]
fn bare_king_loses_unless_it_takes_the_last_piece() {
    let b = [(Bare, "true")];
    // Black's king is bare and cannot take the rook on a1: White has won.
    let g = game("iago-b", &b, Some("k7/8/8/8/8/8/8/R3K3[] b - - 0 1"));
    let o = g.outcome().unwrap();
    assert_eq!((o.result_string(), o.reason.as_str()), ("1:0".to_string(), "bare king"));
    assert_eq!(g.perft(1), 0);
    // Without the option the game goes on (K a8: a7 b7 b8 less the a-file: b7 b8).
    assert_eq!(game("iago-b", &[], Some("k7/8/8/8/8/8/8/R3K3[] b - - 0 1")).perft(1), 2);
    // The rook on b8 is White's last piece and the bare king may take it:
    // the game goes on. Checked by listing: Kxb8 or Ka7 (b7 is on the b-file).
    let fen = "kR6/8/8/8/8/8/8/4K3[] b - - 0 1";
    let g = game("iago-b", &b, Some(fen));
    assert_eq!(g.outcome(), None);
    assert_eq!(sorted(g.legal_moves()), ["a8a7", "a8b8"]);
    // Taking it leaves two bare kings: a draw, 0:0. Any other move loses.
    assert_eq!(g.perft(2), 0);
    let mut took = g.clone_box();
    took.push_move("a8b8").unwrap();
    let o = took.outcome().unwrap();
    assert_eq!((o.result_string(), o.reason.as_str()), ("0:0".to_string(), "bare king"));
    let mut fled = g.clone_box();
    fled.push_move("a8a7").unwrap();
    assert_eq!(fled.outcome().unwrap().result_string(), "1:0");
    // A reserve piece is no bare king: Black holds a Marshall.
    assert_eq!(game("iago-b", &b, Some("k7/8/8/8/8/8/8/R3K3[m] b - - 0 1")).outcome(), None);
}

#[test]
fn bare_king_scores() {
    let b = [(Bare, "true")];
    // Rxh8 takes Black's last piece with mate: checkmate, 2:0.
    let mut g = game("iago-b", &b, Some("k6n/8/1K6/8/8/8/8/7R[] w - - 0 1"));
    g.push_move("h1h8").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.result_string(), o.reason.as_str(), o.winner), ("2:0".to_string(), "checkmate", Some(0)));
    // Without the option: a plain checkmate.
    let mut g = game("iago-b", &[], Some("k6n/8/1K6/8/8/8/8/7R[] w - - 0 1"));
    g.push_move("h1h8").unwrap();
    assert_eq!(g.outcome().unwrap().result_string(), "1-0");
    // Stalemate is a draw, 0:0; a forfeit counts as a full win, 2:0.
    let g = game("iago-b", &b, Some("k7/p1Q5/P1K5/8/8/8/8/8[] b - - 0 1"));
    assert_eq!(g.outcome().unwrap().reason, "stalemate");
    assert_eq!(g.outcome().unwrap().result_string(), "0:0");
    assert_eq!(g.forfeit(1, "time").result_string(), "2:0");
    assert_eq!(game("iago-b", &[], None).forfeit(1, "time").result_string(), "1-0");
    // A position's third occurrence: the one after g1f3 g8f6 (which end the
    // gating rights of g1 and g8, so the start does not recur) at plies 2, 6, 10: 0:0.
    let mut g = game("iago-b", &b, None);
    let trip = ["g1f3", "g8f6", "f3g1", "f6g8"];
    g.set_position(None, &[&trip[..], &trip[..], &trip[..2]].concat()).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.result_string(), o.reason.as_str()), ("0:0".to_string(), "threefold repetition"));
}

// ------------------------------------------------------ IagoCastlingGates

#[test]
fn castling_gates() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R[M] w KQkq - 0 1";
    let g = game("iago-b", &[(Gates, "true")], Some(fen));
    let castling: Vec<String> =
        g.legal_moves().into_iter().filter(|m| ["e1g1", "e1c1", "h1e1", "a1e1"].contains(&&m[..4])).collect();
    assert_eq!(sorted(castling), ["a1e1m", "e1c1", "e1c1m", "e1g1", "e1g1m", "h1e1m"]);
    // Checked by hand: Ra1 10 moves and Rh1 9, the king 5, each plain or
    // gating the Marshall (48); drops on b1 c1 d1 f1 g1 (5); castling 2
    // plain, 4 gating (6 here, 2 without the option).
    assert_eq!(g.perft(1), 48 + 5 + 6);
    assert_eq!(game("iago-b", &[], Some(fen)).perft(1), 48 + 5 + 2);
    // IagoGating off ends gating on castling too: 24 plain moves, 5 drops, 2 castlings.
    assert_eq!(game("iago-b", &[(Gates, "true"), (GATING, "false")], Some(fen)).perft(1), 24 + 5 + 2);
    let after = |m: &str| {
        let mut g = game("iago-b", &[(Gates, "true")], Some(fen));
        g.push_move(m).unwrap();
        g.fen()
    };
    assert_eq!(after("e1g1m"), "r3k2r/8/8/8/8/8/8/R3MRK1[] b Akq - 1 1");
    assert_eq!(after("h1e1m"), "r3k2r/8/8/8/8/8/8/R4RKM[] b Akq - 1 1");
    assert_eq!(after("a1e1m"), "r3k2r/8/8/8/8/8/8/M1KR3R[] b Hkq - 1 1");
    // With an empty reserve the option changes nothing: perft as without it.
    let empty = "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1";
    let (on, off) = (game("iago-b", &[(Gates, "true")], Some(empty)), game("iago-b", &[], Some(empty)));
    assert_eq!(on.perft(3), off.perft(3));
}

// ------------------------------------------------------------ all together

#[test]
fn engine_and_rules_games_agree() {
    let set = [(Reserve, "QA"), (Promo, "fide"), (Bare, "true"), (Gates, "true")];
    let r = rules(&set);
    let e = new_game_with("iago-c", &r).unwrap();
    let g = new_game_with_rules("iago-c", &r).unwrap();
    assert_eq!(e.start_fen(), g.start_fen());
    assert_eq!(e.start_fen(), "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[QAqa] w KQBCDFGkqbcdfg - 0 1");
    assert_eq!(e.perft(3), g.perft(3));
    // `position startpos` after `position fen` keeps the options.
    let mut g = g;
    g.set_position(Some("4k3/8/8/8/8/8/8/4K3[] w - - 0 1"), &[]).unwrap();
    g.set_position(None, &["A@d1"]).unwrap();
    assert_eq!(g.fen(), "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR[Qqa] b KQBCDFGkqbcdfg - 0 1");
}

// ----------------------------------------------------------- IagoNotation

#[test]
fn iago_notation_writes_and_reads_the_seeds_moves() {
    use NOTATION as Notation;
    let n = [(Notation, "iago"), (Gates, "true")];
    let g = game("iago-b", &n, None);
    let start = sorted(g.legal_moves());
    assert_eq!(start.len(), 28);
    assert!(start.contains(&"Ng1-f3&M".to_string()) && start.contains(&"e2-e4".to_string()), "{start:?}");
    // Both notations are read; the seed's is written.
    let mut g = game("iago-b", &n, None);
    g.set_position(None, &["e2-e4", "d7d5", "e4xd5", "Qd8xd5", "Bf1-c4&C", "Qd5-e6"]).unwrap();
    // The queen's d8 and the bishop's f1 have lost their gating rights.
    assert_eq!(g.fen(), "rnb1kbnr/ppp1pppp/4q3/8/2B5/8/PPPP1PPP/RNBQKCNR[Mmc] w KQBCDGkqbcfg - 2 4");
    // Drops, castling (with a gate on the rook's square), promotion, en passant.
    let g = game("iago-b", &n, Some("r3k2r/1P6/8/3pP3/8/8/8/R3K2R[M] w KQkq d6 0 1"));
    let m = g.legal_moves();
    for want in ["&Mb1", "O-O", "O-O&Me1", "O-O&Mh1", "O-O-O&Ma1", "b7xa8=Q", "b7-b8=M", "e5xd6", "Ke1-f1&M"] {
        assert!(m.contains(&want.to_string()), "{want} not in {m:?}");
    }
    // UCI GUIs keep the canonical notation (the default).
    let g = game("iago-b", &[(Gates, "true")], Some("r3k2r/1P6/8/3pP3/8/8/8/R3K2R[M] w KQkq d6 0 1"));
    assert!(g.legal_moves().contains(&"h1e1m".to_string()));
}

// ------------------------------------------------- invariants under options

/// Random games under every IAGO option at once: the incremental key is a
/// fresh one, the FEN reads back to the same position, every legal move's
/// text reads back to the move, and perft's bulk count equals the list.
fn random_games<V: calvin::variant::Variant>(word: u32, seed: u64) {
    use calvin::position::Position;
    let mut next = common::xorshift(seed);
    let mut castling_gates = 0;
    for _ in 0..12 {
        let mut pos = Position::<V>::startpos_with(word);
        for _ in 0..80 {
            assert_eq!(pos.key, pos.compute_key(), "{}", pos.fen());
            let again = Position::<V>::from_fen_with(&pos.fen(), word).unwrap();
            assert_eq!(again.fen(), pos.fen());
            assert_eq!(again.key, pos.key, "{}", pos.fen());
            if V::board_end(&pos).is_some() {
                break;
            }
            let legal = pos.legal_moves();
            assert_eq!(pos.count_legal(), legal.len() as u64, "{}", pos.fen());
            for &m in &legal {
                assert_eq!(pos.parse_uci_move(&pos.move_to_uci(m)), Ok(m), "{}", pos.fen());
                assert_eq!(pos.parse_uci_move(&pos.move_to_canonical(m)), Ok(m), "{}", pos.fen());
                castling_gates += usize::from(m.kind() == calvin::moves::Kind::Castling && m.piece() != 0);
            }
            if legal.is_empty() {
                break;
            }
            pos = pos.play(legal[common::pick(&mut next, legal.len())]);
        }
    }
    assert!(castling_gates > 0);
}

#[test]
fn invariants_under_every_option() {
    use calvin::registry::{VariantId, VariantVisitor};
    use calvin::variants::EngineVariant;
    use calvin::variants::iago::options::DROPS;
    /// Random games of the type the registry picks for the rule word.
    struct Random(u32, u64);
    impl VariantVisitor for Random {
        type Out = usize;
        fn visit<V: EngineVariant>(self) -> usize {
            random_games::<V>(self.0, self.1);
            V::PIECES.len()
        }
    }
    let play = |v: VariantId, r: &RuleOptions, seed| {
        let word = v.rule_word(r);
        v.visit_word(word, Random(word, seed))
    };
    let set = [(Reserve, "QMCA"), (Promo, "fide"), (Bare, "true"), (Gates, "true"), (NOTATION, "iago")];
    let r = rules(&set);
    // The types with the Amazon (`X`): nine piece types.
    assert_eq!(play(VariantId::IagoB, &r, 7), 9);
    assert_eq!(play(VariantId::IagoC, &r, 11), 9);
    let mut r = r;
    Promo.apply(&mut r, "reserve-only").unwrap();
    DROPS.apply(&mut r, "false").unwrap();
    assert_eq!(play(VariantId::IagoB, &r, 13), 9);
}

/// The reference counts of the rulings (`tests/perft/iago-*.perft`, from an
/// independent implementation) under options that change nothing there: the
/// notation (the type that reads the rule word, with the rulings' rules),
/// castling gates where the reserves are empty, the class's own reserve given.
#[test]
fn reference_counts_under_options_that_do_not_matter() {
    for variant in ["iago-b", "iago-c"] {
        let path = format!("{}/tests/perft/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut fen = String::new();
        let mut checked = 0;
        for line in text.lines() {
            if let Some(f) = line.strip_prefix("fen ") {
                fen = f.to_string();
            } else if let Some(p) = line.strip_prefix("perft ") {
                let (d, n) = p.split_once(' ').unwrap();
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.parse().unwrap());
                if d > 4 {
                    continue;
                }
                let own = if variant == "iago-b" { "MC" } else { "QMC" };
                let mut set = vec![(NOTATION, "iago"), (Reserve, own)];
                if fen.contains("[]") {
                    set.push((Gates, "true"));
                }
                assert_eq!(game(variant, &set, Some(&fen)).perft(d), n, "{variant} {fen} perft {d}");
                checked += 1;
            }
        }
        assert!(checked >= 4, "{variant}: {checked}");
    }
}
