//! Static exchange evaluation with exact values on a position of each
//! variant. Material counts the pieces' values (src/variants/*/mod.rs) on
//! the board and in hand; each comment says why the value is what it is.

use calvin::eval::Evaluator;
use calvin::position::Position;
use calvin::search::see::{see, see_ge};
use calvin::variant::Variant;
use calvin::variants::{
    chess::Chess,
    etcetera::Etcetera,
    historia::HistoriaSako,
    iago::IagoB,
    ita::{Ita, ItaRules},
    ito::ItoShogi,
};

/// The exchange value of the move written `uci` in the position `fen`.
fn see_of<V: Evaluator>(fen: &str, uci: &str) -> i32 {
    let pos = Position::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let m = pos.legal_moves().into_iter().find(|&m| pos.move_to_uci(m) == uci);
    let m = m.unwrap_or_else(|| panic!("{uci} is not legal in {fen}"));
    see(&pos, m)
}

/// Checks `see_ge` against `see` for every legal move and several thresholds.
fn ge_agrees<V: Evaluator>(fen: &str) {
    let pos = Position::<V>::from_fen(fen).unwrap();
    for m in pos.legal_moves() {
        let v = see(&pos, m);
        for t in [-600, -300, -100, -1, 0, 1, 99, 100, 101, 300, 600] {
            assert_eq!(see_ge(&pos, m, t), v >= t, "{fen} {} see {v} threshold {t}", pos.move_to_uci(m));
        }
    }
}

const CHESS_PIN: &str = "2k5/8/4p3/3p4/8/2N4Q/8/4K3 w - - 0 1";
const CHESS_XRAY: &str = "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1";

#[test]
fn chess() {
    // Rook takes a pawn defended by a pawn: +100 - 500.
    assert_eq!(see_of::<Chess>("4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"), -400);
    // The defender e6 is pinned to its King by the Queen on h3: it may not
    // take back, so the Knight wins the pawn.
    assert_eq!(see_of::<Chess>(CHESS_PIN, "c3d5"), 100);
    // Doubled rooks: Black's rook takes back (+500) and is taken (-500):
    // Black gains nothing by recapturing, White keeps the pawn.
    assert_eq!(see_of::<Chess>(CHESS_XRAY, "e2e5"), 100);
    // A quiet move onto a square the pawn d6 attacks loses the Knight.
    assert_eq!(see_of::<Chess>("4k3/8/3p4/8/8/8/8/4K1N1 w - - 0 1", "g1f3"), 0);
    assert_eq!(see_of::<Chess>("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5"), -320);
    // A pawn that takes and promotes on the last rank: +500 (rook) +850
    // (pawn to queen); the king takes back the queen (-950).
    assert_eq!(see_of::<Chess>("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q"), 500 + 850 - 950);
    // A pawn that takes back on its last rank promotes: the Rook takes the
    // Knight (+320), b2xc1=Q takes the Rook and becomes a Queen (+500 +850):
    // -1030 with nothing to take back, and with the King beside c1 it takes
    // the Queen (+950), so Black's recapture nets 400: 320 - 400.
    assert_eq!(see_of::<Chess>("7k/8/8/8/8/8/1p4K1/2n1R3 w - - 0 1", "e1c1"), 320 - (500 + 850));
    assert_eq!(see_of::<Chess>("7k/8/8/8/8/8/1p1K4/2n1R3 w - - 0 1", "e1c1"), 320 - (500 + 850 - 950));
    ge_agrees::<Chess>("7k/8/8/8/8/8/1p1K4/2n1R3 w - - 0 1");
    ge_agrees::<Chess>(CHESS_PIN);
    ge_agrees::<Chess>(CHESS_XRAY);
    ge_agrees::<Chess>("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
}

#[test]
fn historia_sako() {
    // The Queen (BW, 525) takes a pawn (100) that the Elephant (vWF, 265)
    // defends one step straight ahead: 100 - 525.
    let fen = "4k3/8/3e4/3p4/3Q4/8/8/4K3[] w - - 0 30";
    assert_eq!(see_of::<HistoriaSako>(fen, "d4d5"), -425);
    // The Elephant does not step sideways: from c5 it does not defend d5.
    assert_eq!(see_of::<HistoriaSako>("4k3/8/8/2ep4/3Q4/8/8/4K3[] w - - 0 30", "d4d5"), 100);
    // Deployment: a drop captures nothing and stands where nothing attacks it.
    assert_eq!(see_of::<HistoriaSako>(HistoriaSako::START_FEN, "K@e1"), 0);
    ge_agrees::<HistoriaSako>(fen);
}

#[test]
fn iago_drop_on_attacked_square() {
    // IAGO-B: the Cardinal (BN, 800) dropped on d1, where the rook d8 takes
    // it; the King e1 takes back the rook: -(800 - 500).
    assert_eq!(see_of::<IagoB>("3rk3/8/8/8/8/8/8/4K3[C] w - - 0 1", "C@d1"), -300);
    // Dropped on a1, out of the rook's reach: nothing happens.
    assert_eq!(see_of::<IagoB>("3rk3/8/8/8/8/8/8/4K3[C] w - - 0 1", "C@a1"), 0);
}

/// Ita positions: a Rook (R6, 450) on d2 takes the pawn d6; the Cavalry
/// e8 may take back only through e7 (non-leaping knight).
const ITA_OPEN: &str = "4f5/10/4c5/10/3p6/10/10/10/3R6/4F5 w - - 0 1";
const ITA_BLOCKED: &str = "4f5/10/4c5/4p5/3p6/10/10/10/3R6/4F5 w - - 0 1";
/// A Leaper on c2 and a black rook on c7 (defended by the bishop e9) behind the screen c5.
const ITA_IGUI: &str = "4f5/4b5/10/2r7/10/2P7/10/10/2L7/4F5 w - - 0 1";

#[test]
fn ita() {
    // Open path: the Cavalry takes the Rook back: 100 - 450.
    assert_eq!(see_of::<Ita>(ITA_OPEN, "d2d6"), -350);
    // The pawn e7 blocks the Cavalry's path: the pawn is won.
    assert_eq!(see_of::<Ita>(ITA_BLOCKED, "d2d6"), 100);
    // Igui: the Leaper removes the rook and stays on c2; nothing stands on
    // c7 to be taken back, whatever defends it.
    assert_eq!(see_of::<Ita>(ITA_IGUI, "c2c7"), 450);
    // With the Leaper capturing by replacement it lands on c7, and the
    // bishop takes it: 450 - 350.
    assert_eq!(see_of::<ItaRules<true, false>>(ITA_IGUI, "c2c7"), 100);
    ge_agrees::<Ita>(ITA_OPEN);
    ge_agrees::<Ita>(ITA_IGUI);
    ge_agrees::<Ita>(Ita::START_FEN);
}

/// An Ito Shogi FEN from (square number 1..=31, letter) pairs and the hand.
fn ito(pieces: &[(usize, &str)], hand: &str) -> String {
    let ranks: Vec<String> = (1..=31)
        .rev()
        .map(|sq| pieces.iter().find(|(s, _)| *s == sq).map_or("1".to_string(), |(_, l)| l.to_string()))
        .collect();
    format!("{}[{hand}] w - - 0 1", ranks.join("/"))
}

#[test]
fn ito_shogi() {
    // The Silver Cannon a9 hops over the pawn a13 and takes the pawn a19:
    // Black loses the pawn (100), it goes to White's hand (100), and the
    // Cannon turns into a Reverse Chariot (450 - 350): +300. The Tile
    // General a21 takes it back: White loses 450, Black gains a Cannon in
    // hand (350) and the General turns into a Silver General (300 - 200):
    // 900 for Black. 300 - 900.
    let fen = ito(&[(1, "K"), (9, "C"), (13, "P"), (19, "p"), (21, "t"), (31, "k")], "");
    assert_eq!(see_of::<ItoShogi>(&fen, "a9a19"), -600);
    // Without the Tile General the pawn is won: +300.
    let fen2 = ito(&[(1, "K"), (9, "C"), (13, "P"), (19, "p"), (31, "k")], "");
    assert_eq!(see_of::<ItoShogi>(&fen2, "a9a19"), 300);
    // A pawn dropped on a16, where the pawn a17 takes it: the drop gains
    // nothing; Black wins the pawn (100), holds it (100) and turns into a
    // Go-Between (200 - 100): -300.
    let fen3 = ito(&[(1, "K"), (17, "p"), (31, "k")], "P");
    assert_eq!(see_of::<ItoShogi>(&fen3, "P@a16"), -300);
    // With a Tile General on a14 (jump +2) White takes back: +400 for
    // White, so Black, who would lose 100 net, does not take: 0.
    let fen4 = ito(&[(1, "K"), (14, "T"), (17, "p"), (31, "k")], "P");
    assert_eq!(see_of::<ItoShogi>(&fen4, "P@a16"), 0);
    ge_agrees::<ItoShogi>(&fen);
    ge_agrees::<ItoShogi>(&fen4);
    ge_agrees::<ItoShogi>(ItoShogi::START_FEN);
}

#[test]
fn etcetera() {
    // The Rook a2 (R4) takes the pawn a5. A black Rook on a7 defends it in
    // chess terms, but a Rook cannot take a Rook (same-type immunity): +100.
    let immune = "2k4/r6/7/p6/7/7/R6/3K3 w - - 0 1";
    assert_eq!(see_of::<Etcetera>(immune, "a2a5"), 100);
    // A Man (W) on b5 does take the Rook: 100 - 450.
    let man = "2k4/7/7/pm5/7/7/R6/3K3 w - - 0 1";
    assert_eq!(see_of::<Etcetera>(man, "a2a5"), -350);
    ge_agrees::<Etcetera>(immune);
    ge_agrees::<Etcetera>(man);
    ge_agrees::<Etcetera>(Etcetera::START_FEN);
}
