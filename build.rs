//! The built-in games and shared templates are embedded in the binary (include_dir);
//! rebuild when any of their files changes, so `cargo run` never prints stale art.
fn main() {
    println!("cargo:rerun-if-changed=catalogues");
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=fonts");
    println!("cargo:rerun-if-changed=build.rs");
}
