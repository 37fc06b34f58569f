//! The printed board every player shares (rulings B1 and B2): terrain per cell,
//! the river along cell edges, and the two banks it separates.

use crate::wire::{BoardInfo, Cell, EdgeSide, RiverEdge, Terrain};

/// Columns of the board (`x` 0-13).
pub const WIDTH: usize = 14;
/// Rows of the board (`y` 0-10).
pub const HEIGHT: usize = 11;
/// Number of cells.
pub const CELLS: usize = WIDTH * HEIGHT;

/// Ruling B1, row by row: `M` mountain, `F` forest, `.` plain, `T` two trees,
/// `R` two rocks, `W` well, `G` vein of gold.
const ROWS: [&str; HEIGHT] = [
    "MM..T...R...FF",
    "MM.R....T..GFF",
    "MM.....W....FF",
    "MMT...R....T.F",
    "M...T.....R..F",
    "M.R....G.T...F",
    "M...T.......FF",
    "M.T....R..T.FF",
    "MM...W....R.FF",
    "MM.R...T....FF",
    "MM..T...R..TFF",
];

/// Ruling B2: the last column of the west bank in each row. The river runs along
/// the east side of that column.
const WEST_LAST: [usize; HEIGHT] = [6, 6, 6, 6, 5, 5, 5, 7, 7, 7, 7];

/// Index of a cell in row-major order.
pub fn index(x: usize, y: usize) -> usize {
    y * WIDTH + x
}

/// Column and row of a cell index.
pub fn coords(i: usize) -> (usize, usize) {
    (i % WIDTH, i / WIDTH)
}

/// Terrain of the cell at `(x, y)`; both must be on the board.
pub fn terrain(x: usize, y: usize) -> Terrain {
    let byte = ROWS
        .get(y)
        .and_then(|row| row.as_bytes().get(x))
        .copied()
        .unwrap_or(b'M');
    match byte {
        b'F' => Terrain::Forest,
        b'.' => Terrain::Plain,
        b'T' => Terrain::Trees,
        b'R' => Terrain::Rocks,
        b'W' => Terrain::Well,
        b'G' => Terrain::Gold,
        _ => Terrain::Mountain,
    }
}

/// Terrain by cell index.
pub fn terrain_at(i: usize) -> Terrain {
    let (x, y) = coords(i);
    terrain(x, y)
}

/// Whether a building may stand on this terrain ("light green").
pub fn buildable(t: Terrain) -> bool {
    !matches!(t, Terrain::Mountain | Terrain::Forest)
}

/// `true` for the west bank, `false` for the east bank.
pub fn west_bank(x: usize, y: usize) -> bool {
    WEST_LAST.get(y).is_some_and(|&last| x <= last)
}

/// The in-board side neighbours of a cell index.
pub fn neighbours(i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = coords(i);
    let mut out = [None; 4];
    if x > 0 {
        out[0] = Some(i - 1);
    }
    if x + 1 < WIDTH {
        out[1] = Some(i + 1);
    }
    if y > 0 {
        out[2] = Some(i - WIDTH);
    }
    if y + 1 < HEIGHT {
        out[3] = Some(i + WIDTH);
    }
    out.into_iter().flatten()
}

/// Whether the river runs along one of the sides of this cell.
pub fn along_river(i: usize) -> bool {
    let (x, y) = coords(i);
    let bank = west_bank(x, y);
    neighbours(i).any(|n| {
        let (nx, ny) = coords(n);
        west_bank(nx, ny) != bank
    })
}

/// The river edges of ruling B2, listed explicitly.
pub fn river_edges() -> Vec<RiverEdge> {
    let mut edges = Vec::new();
    for (y, &last) in WEST_LAST.iter().enumerate() {
        edges.push(RiverEdge {
            x: last as u8,
            y: y as u8,
            side: EdgeSide::East,
        });
    }
    for (x, y) in [(6u8, 3u8), (6, 6), (7, 6)] {
        edges.push(RiverEdge {
            x,
            y,
            side: EdgeSide::South,
        });
    }
    edges
}

/// The cells holding a vein of gold (ruling R5).
pub fn gold_cells() -> Vec<usize> {
    (0..CELLS)
        .filter(|&i| terrain_at(i) == Terrain::Gold)
        .collect()
}

/// The static board for the browser.
pub fn board_info() -> BoardInfo {
    let mut terrain_cells = Vec::with_capacity(CELLS);
    let mut west = Vec::with_capacity(CELLS);
    for i in 0..CELLS {
        let (x, y) = coords(i);
        terrain_cells.push(terrain(x, y));
        west.push(west_bank(x, y));
    }
    BoardInfo {
        width: WIDTH as u8,
        height: HEIGHT as u8,
        terrain: terrain_cells,
        west_bank: west,
        river: river_edges(),
        gold: gold_cells()
            .into_iter()
            .map(|i| {
                let (x, y) = coords(i);
                Cell {
                    x: x as u8,
                    y: y as u8,
                }
            })
            .collect(),
    }
}
