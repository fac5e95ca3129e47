//! The variants: each a description plus its hooks.

pub mod chess;
pub mod etcetera;
pub mod historia;
pub mod iago;
pub mod ita;
pub mod ito;
