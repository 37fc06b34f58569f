//! Writes `web/src/types.gen.d.ts` (run from anywhere inside the repository).

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join(server::typegen::OUT_PATH);
    let text = match server::typegen::generate() {
        Ok(text) => text,
        Err(e) => {
            eprintln!("gen-types: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("gen-types: cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
    println!("wrote {}", path.display());
}
