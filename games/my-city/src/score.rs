//! Scoring (rulings S1-S3): the live and final score of one board, and the
//! row-by-row tiebreak.

use crate::board::{self, CELLS, HEIGHT, WIDTH};
use crate::state::PlayerState;
use crate::wire::{Color, ScoreBreakdown, Terrain};

/// Points every player starts with (ruling S1).
pub const START_POINTS: i32 = 10;
/// Points for covering both veins of gold first (ruling R5).
pub const GOLD_POINTS: i32 = 3;
/// Points for a visible well with a different building on each of its sides (S2).
pub const WELL_POINTS: i32 = 4;

/// The score of `player` if the game ended now.
pub fn breakdown(player: &PlayerState) -> ScoreBreakdown {
    let mut s = ScoreBreakdown {
        start: START_POINTS,
        passes: -(player.passes as i32),
        gold: if player.gold_bonus { GOLD_POINTS } else { 0 },
        ..ScoreBreakdown::default()
    };
    for i in 0..CELLS {
        if player.cover[i].is_some() {
            continue;
        }
        match board::terrain_at(i) {
            Terrain::Trees => s.trees += 2,
            Terrain::Rocks => s.rocks -= 2,
            Terrain::Plain | Terrain::Gold => s.empty -= 1,
            Terrain::Well => {
                s.empty -= 1;
                if well_surrounded(player, i) {
                    s.wells += WELL_POINTS;
                }
            }
            Terrain::Mountain | Terrain::Forest => {}
        }
    }
    s.residential = largest_group(player, Color::Residential);
    s.public = largest_group(player, Color::Public);
    s.industrial = largest_group(player, Color::Industrial);
    s.churches = 3 * churches_with_three_colors(player);
    s.total = s.start
        + s.passes
        + s.gold
        + s.trees
        + s.rocks
        + s.empty
        + s.residential
        + s.public
        + s.industrial
        + s.churches
        + s.wells;
    s
}

/// Whether four different buildings stand next to the well at cell `well`, one on
/// each of its four sides (ruling S2): a building covering two sides counts once,
/// so it can never complete the four.
fn well_surrounded(player: &PlayerState, well: usize) -> bool {
    let mut sides = 0;
    let mut buildings = [None; 4];
    for n in board::neighbours(well) {
        let Some(building) = player.cover[n] else {
            return false;
        };
        if buildings.contains(&Some(building)) {
            return false;
        }
        buildings[sides] = Some(building);
        sides += 1;
    }
    sides == 4
}

/// Number of buildings in the largest group of `color` connected by shared sides
/// (across the river too).
fn largest_group(player: &PlayerState, color: Color) -> i32 {
    let n = player.placed.len();
    let mut seen = vec![false; n];
    let mut best = 0;
    for start in 0..n {
        if seen[start] || player.placed[start].color != color {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let mut size = 0;
        while let Some(b) = stack.pop() {
            size += 1;
            for &c in &player.placed[b].cells {
                for nb in board::neighbours(c) {
                    if let Some(other) = player.cover[nb] {
                        let o = usize::from(other);
                        if !seen[o] && player.placed[o].color == color {
                            seen[o] = true;
                            stack.push(o);
                        }
                    }
                }
            }
        }
        best = best.max(size);
    }
    best
}

fn churches_with_three_colors(player: &PlayerState) -> i32 {
    let mut count = 0;
    for p in player.placed.iter().filter(|p| p.color == Color::Church) {
        let mut colors = [false; 3];
        for &c in &p.cells {
            for nb in board::neighbours(c) {
                if let Some(other) = player.cover[nb] {
                    match player.placed[usize::from(other)].color {
                        Color::Residential => colors[0] = true,
                        Color::Public => colors[1] = true,
                        Color::Industrial => colors[2] = true,
                        Color::Church => {}
                    }
                }
            }
        }
        if colors.iter().all(|&c| c) {
            count += 1;
        }
    }
    count
}

/// Empty light green spaces per row, top row first (ruling S3): the visible cells
/// that S2 scores −1 (plain, well and gold); tree and rock cells are not counted.
pub fn empty_by_row(player: &PlayerState) -> Vec<u8> {
    (0..HEIGHT)
        .map(|y| {
            (0..WIDTH)
                .filter(|&x| {
                    let i = board::index(x, y);
                    scored_empty(board::terrain_at(i)) && player.cover[i].is_none()
                })
                .count() as u8
        })
        .collect()
}

/// Terrain that S2 scores −1 when left visible: the "empty light green spaces".
fn scored_empty(t: Terrain) -> bool {
    matches!(t, Terrain::Plain | Terrain::Well | Terrain::Gold)
}

/// Winners by ruling S3: most points; on a tie, fewer empty light green spaces in
/// row 0, then row 1, and so on; still equal: shared win.
pub fn winners(totals: &[i32], rows: &[Vec<u8>]) -> Vec<u8> {
    let Some(&best) = totals.iter().max() else {
        return Vec::new();
    };
    let top: Vec<usize> = (0..totals.len()).filter(|&s| totals[s] == best).collect();
    let Some(best_rows) = top.iter().filter_map(|&s| rows.get(s)).min() else {
        return Vec::new();
    };
    top.into_iter()
        .filter(|&s| rows.get(s) == Some(best_rows))
        .map(|s| s as u8)
        .collect()
}
