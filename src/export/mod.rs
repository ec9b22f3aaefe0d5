//! Stage `export`: resolved sheets → file bytes.

pub mod cards;
pub mod pdf;
