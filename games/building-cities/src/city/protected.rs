//! The six protected-area layouts (M4), one per face of the setup die.
//!
//! The rulebook's scheme on its last page is not published, so these are ours:
//! every protected area is a park-sized patch (2 × 2 or 3 × 2 blocks, the sizes
//! of the rulebook's protected tiles), two to five patches per layout, spread over
//! the districts so each face changes the shape of different districts. No patch
//! covers the junction or closes a district edge: from the junction, every block
//! that is not protected can be reached through blocks that are not protected,
//! across every shared edge (checked by `ruling_m4_*` in `tests/city.rs`;
//! [`leaves_city_open`] checks a room's own layout the same way).

use super::JUNCTION;
use super::geometry::{Block, District, HEIGHT, SIDE, WIDTH};

/// Faces of the setup die.
pub const FACES: u8 = 6;

/// One patch: district, local column and row of its north-west block, width and
/// height in blocks.
type Patch = (District, u8, u8, u8, u8);

use District::{D1, D2, D3, D4, D5, D6};

const LAYOUTS: [&[Patch]; FACES as usize] = [
    &[(D2, 2, 3, 2, 2), (D4, 4, 4, 3, 2), (D6, 1, 5, 2, 2)],
    &[(D1, 0, 5, 2, 2), (D3, 5, 2, 2, 2), (D5, 3, 3, 2, 2)],
    &[
        (D2, 5, 5, 3, 2),
        (D3, 1, 6, 2, 2),
        (D4, 1, 1, 2, 2),
        (D6, 4, 2, 2, 2),
    ],
    &[(D1, 5, 4, 3, 2), (D5, 0, 6, 2, 2), (D6, 5, 6, 3, 2)],
    &[
        (D2, 0, 0, 2, 2),
        (D3, 3, 3, 3, 2),
        (D4, 5, 6, 2, 2),
        (D5, 5, 1, 2, 2),
    ],
    &[
        (D1, 6, 6, 2, 2),
        (D2, 3, 6, 2, 2),
        (D3, 6, 0, 2, 2),
        (D4, 2, 3, 3, 2),
        (D6, 2, 0, 2, 2),
    ],
];

/// The protected blocks for die face `face` (1-6), in row order per patch;
/// `None` for another number.
pub fn layout(face: u8) -> Option<Vec<Block>> {
    let patches = LAYOUTS.get(usize::from(face.checked_sub(1)?))?;
    let mut out = Vec::new();
    for &(district, x, y, w, h) in patches.iter() {
        for dy in 0..h {
            for dx in 0..w {
                if x + dx < SIDE && y + dy < SIDE {
                    out.push(Block::at(district, x + dx, y + dy));
                }
            }
        }
    }
    Some(out)
}

/// Whether a layout (a room's own, M4) keeps the map open: the junction is not
/// protected, every other unprotected block can be reached from it through
/// unprotected blocks, and on every shared district edge at least one pair of
/// blocks facing each other is unprotected.
pub fn leaves_city_open(protected: &[Block]) -> bool {
    let width = usize::from(WIDTH);
    let index = |b: Block| usize::from(b.y) * width + usize::from(b.x);
    let mut closed = vec![false; width * usize::from(HEIGHT)];
    for b in protected.iter().filter(|b| b.on_map()) {
        closed[index(*b)] = true;
    }
    if closed[index(JUNCTION)] {
        return false;
    }
    let mut reached = closed.clone();
    reached[index(JUNCTION)] = true;
    let mut stack = vec![JUNCTION];
    while let Some(at) = stack.pop() {
        for n in at.neighbours() {
            if !reached[index(n)] {
                reached[index(n)] = true;
                stack.push(n);
            }
        }
    }
    if reached.iter().any(|r| !r) {
        return false;
    }
    let open = |a: Block, b: Block| !closed[index(a)] && !closed[index(b)];
    let vertical = [(1u8, 0u8), (2, 0), (1, 1), (2, 1)]
        .into_iter()
        .all(|(col, row)| {
            (0..SIDE).any(|i| {
                let y = row * SIDE + i;
                open(Block::new(col * SIDE - 1, y), Block::new(col * SIDE, y))
            })
        });
    let horizontal = (0..3u8).all(|col| {
        (0..SIDE).any(|i| {
            let x = col * SIDE + i;
            open(Block::new(x, SIDE - 1), Block::new(x, SIDE))
        })
    });
    vertical && horizontal
}
