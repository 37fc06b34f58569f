//! Writes `web/src/types.gen.d.ts` (run from anywhere inside the repository).

fn main() -> std::io::Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join(server::typegen::OUT_PATH);
    std::fs::write(&path, server::typegen::generate())?;
    println!("wrote {}", path.display());
    Ok(())
}
