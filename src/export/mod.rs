//! Stage `export`: resolved sheets → file bytes.

pub mod cards;
pub mod cut;
pub mod pdf;
