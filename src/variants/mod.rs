//! The variants: each a description plus its hooks.

pub mod chess;
pub mod etcetera;
pub mod ito;
