//! The variants: each a description plus its hooks.

pub mod chess;
pub mod historia;
pub mod iago;
pub mod ita;
