//! calvin: a game engine for FIDE chess, IAGO chess, Historia Ŝako, Ita,
//! Ito Shogi and Etcetera, speaking an extended UCI dialect.

pub mod bench;
pub mod bitboard;
pub mod datagen;
pub mod engine;
pub mod engine_game;
pub mod errors;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod magic;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod protocol;
pub mod registry;
pub mod rng;
pub mod runner;
pub mod score;
pub mod search;
#[cfg(test)]
mod testing;
pub mod timeman;
pub mod tt;
pub mod variant;
pub mod variants;
pub mod wdl;
