//! The committed TypeScript declarations match the Rust types.

#[test]
fn types_gen_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(server::typegen::OUT_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let fresh = server::typegen::generate().expect("no TypeScript name is used twice");
    assert!(
        committed == fresh,
        "{} is stale: run `cargo run -p server --bin gen-types`",
        path.display()
    );
    for name in [
        "ClientMsg",
        "ServerMsg",
        "GameRecord",
        "TicTacToeView",
        "TicTacToeMove",
    ] {
        assert!(
            fresh.contains(&format!("export type {name} ")),
            "{name} declared"
        );
    }
    assert!(!fresh.contains("bigint"), "64-bit integers are numbers");
}
