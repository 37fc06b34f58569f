//! The 27 buildings every player owns (ruling P1) and their four rotations.
//!
//! Piece ids: 0-7 residential, 8-15 public, 16-23 industrial, 24-26 churches.
//! Each construction card names one piece id (ruling P2).

use crate::wire::{Cell, Color, PieceInfo};
use std::sync::OnceLock;

/// Number of pieces per player.
pub const PIECES: usize = 27;

/// Ruling P1 shapes in printed orientation: rows separated by `/`, `#` a cell.
const SHAPES: [(&str, Color); PIECES] = [
    ("##", Color::Residential),
    ("###", Color::Residential),
    ("#./##", Color::Residential),
    ("##/##", Color::Residential),
    ("#../###", Color::Residential),
    (".#./###", Color::Residential),
    (".##/##.", Color::Residential),
    ("##/##/#.", Color::Residential),
    ("###", Color::Public),
    ("##/.#", Color::Public),
    ("####", Color::Public),
    ("..#/###", Color::Public),
    ("##./.##", Color::Public),
    ("#.#/###", Color::Public),
    ("###/.#./.#.", Color::Public),
    (".#./###/.#.", Color::Public),
    ("##/#.", Color::Industrial),
    ("####", Color::Industrial),
    ("###/#..", Color::Industrial),
    ("##/##", Color::Industrial),
    ("####/#...", Color::Industrial),
    ("###/##.", Color::Industrial),
    ("##./.##/..#", Color::Industrial),
    ("###./..##", Color::Industrial),
    ("#", Color::Church),
    ("#", Color::Church),
    ("#", Color::Church),
];

/// Cells of one rotation, normalised so the smallest `x` and `y` are 0.
pub type Shape = Vec<(u8, u8)>;

fn parse(text: &str) -> Shape {
    let mut cells = Vec::new();
    for (y, row) in text.split('/').enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch == '#' {
                cells.push((x as u8, y as u8));
            }
        }
    }
    cells
}

/// A quarter turn clockwise, then normalised.
fn rotate(shape: &Shape) -> Shape {
    let height = shape.iter().map(|&(_, y)| y).max().unwrap_or(0);
    let mut out: Shape = shape.iter().map(|&(x, y)| (height - y, x)).collect();
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    out
}

fn table() -> &'static Vec<[Shape; 4]> {
    static TABLE: OnceLock<Vec<[Shape; 4]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        SHAPES
            .iter()
            .map(|(text, _)| {
                let mut r0 = parse(text);
                r0.sort_unstable_by_key(|&(x, y)| (y, x));
                let r1 = rotate(&r0);
                let r2 = rotate(&r1);
                let r3 = rotate(&r2);
                [r0, r1, r2, r3]
            })
            .collect()
    })
}

/// The cells of `piece` turned `rotation` quarter turns clockwise (`None` for a
/// piece id or rotation out of range).
pub fn shape(piece: u8, rotation: u8) -> Option<&'static Shape> {
    table()
        .get(usize::from(piece))
        .and_then(|rotations| rotations.get(usize::from(rotation)))
}

/// Color of a piece (churches included).
pub fn color(piece: u8) -> Color {
    SHAPES
        .get(usize::from(piece))
        .map(|&(_, c)| c)
        .unwrap_or(Color::Church)
}

/// The catalogue for the browser, in printed orientation.
pub fn catalogue() -> Vec<PieceInfo> {
    (0..PIECES as u8)
        .map(|id| PieceInfo {
            id,
            color: color(id),
            cells: shape(id, 0)
                .map(|s| s.iter().map(|&(x, y)| Cell { x, y }).collect())
                .unwrap_or_default(),
        })
        .collect()
}
