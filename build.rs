//! The built-in games and shared templates are embedded in the binary (include_dir);
//! rebuild when any of their files changes, so `cargo run` never prints stale art.
fn main() {
    println!("cargo:rerun-if-changed=catalogues");
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=fonts");
    println!("cargo:rerun-if-changed=build.rs");
    // `deckpress --version` names the commit it was built from, when built from git.
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "commit unknown".to_string());
    println!("cargo:rustc-env=DECKPRESS_COMMIT={commit}");
    // Rebuilt when HEAD moves: `.git/HEAD` and `.git/refs/heads` in a plain clone; in a
    // `git worktree`, `.git` is a file and they live where git says.
    let git = |what: &str| {
        std::process::Command::new("git")
            .args(["rev-parse", "--path-format=absolute", what])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let dir = git("--git-dir").unwrap_or_else(|| ".git".to_string());
    let common = git("--git-common-dir").unwrap_or_else(|| dir.clone());
    for head in
        [format!("{dir}/HEAD"), format!("{common}/refs/heads"), format!("{common}/packed-refs")]
    {
        if std::path::Path::new(&head).exists() {
            println!("cargo:rerun-if-changed={head}");
        }
    }
}
