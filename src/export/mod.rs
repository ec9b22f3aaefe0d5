//! Stage `export`: resolved sheets → file bytes.

pub mod pdf;
