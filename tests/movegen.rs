//! Move generation invariants on random games of every variant:
//! the captures-only generator yields exactly the captures and promotions of
//! the full generator, every generated move survives a FEN round trip of the
//! position after it, and the incremental Zobrist key equals a fresh one.

mod common;

use calvin::moves::{Kind, MoveList};
use calvin::position::Position;
use calvin::registry::{RuleOptions, VariantId, VariantVisitor};
use calvin::variant::Variant;
use calvin::variants::EngineVariant;
use std::collections::BTreeSet;

fn check<V: Variant>(seed: u64) {
    let mut next = common::xorshift(seed);
    for _game in 0..20 {
        let mut pos = Position::<V>::startpos();
        for _ply in 0..120 {
            let mut all = MoveList::new();
            pos.generate(&mut all);
            let mut caps = MoveList::new();
            pos.generate_captures(&mut caps);
            let want: BTreeSet<u32> = all
                .iter()
                .filter(|m| match m.kind() {
                    Kind::Drop | Kind::Castling => false,
                    Kind::EnPassant | Kind::Igui | Kind::Promotion => true,
                    _ => pos.board[m.to()] != 0,
                })
                .map(|m| m.0)
                .collect();
            let got: BTreeSet<u32> = caps.iter().map(|m| m.0).collect();
            assert_eq!(got, want, "{}: captures differ at {}", V::NAME, pos.fen());
            let legal = pos.legal_moves();
            if legal.is_empty() || V::board_end(&pos).is_some() {
                break;
            }
            let m = legal[common::pick(&mut next, legal.len())];
            let child = pos.play(m);
            assert_eq!(child.key, child.compute_key(), "{}: key after {}", V::NAME, pos.move_to_uci(m));
            assert_eq!(
                child.pawn_key(),
                child.compute_pawn_key(),
                "{}: pawn key after {}",
                V::NAME,
                pos.move_to_uci(m)
            );
            assert_eq!(
                child.piece_keys(),
                child.compute_piece_keys(),
                "{}: piece keys after {}",
                V::NAME,
                pos.move_to_uci(m)
            );
            let back = Position::<V>::from_fen(&child.fen()).expect("own FEN reads back");
            assert_eq!(back.fen(), child.fen());
            assert_eq!(back.key, child.key, "{}: key of {} read back", V::NAME, child.fen());
            assert_eq!(back.pawn_key(), child.pawn_key(), "{}: pawn key of {} read back", V::NAME, child.fen());
            assert_eq!(back.piece_keys(), child.piece_keys(), "{}: piece keys of {} read back", V::NAME, child.fen());
            pos = child;
        }
    }
}

#[test]
fn generators_agree_in_every_variant() {
    struct Check(u64);
    impl VariantVisitor for Check {
        type Out = ();
        fn visit<V: EngineVariant>(self) {
            check::<V>(self.0)
        }
    }
    for (i, &id) in VariantId::ALL.iter().enumerate() {
        id.visit(&RuleOptions::default(), Check(0x9E37_79B9 + i as u64));
    }
}
