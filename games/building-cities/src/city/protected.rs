//! The six protected-area layouts (M4), one per face of the setup die.
//!
//! The rulebook's scheme on its last page is not published, so these are ours:
//! every protected area is a park-sized patch (2 × 2 or 3 × 2 blocks, the sizes
//! of the rulebook's protected tiles), two to five patches per layout, spread over
//! the districts so each face changes the shape of different districts. No patch
//! covers the junction or closes a district edge: from the junction, every block
//! that is not protected can be reached through blocks that are not protected,
//! across every shared edge (checked by `ruling_m4_*` in `tests/city.rs`;
//! [`leaves_city_open`] checks a room's own layout the same way, and
//! [`check_layout`] everything else a room's layout must respect).

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

/// Why a room's own layout (M4) is refused. `item` is the position of the
/// offending block in the list, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// More than `max` blocks in all.
    TooMany { max: u32 },
    /// The block is not one of the 24 × 16 blocks of the city.
    OffMap { item: u32 },
    /// The block is listed twice.
    Duplicate { item: u32 },
    /// The block is the motorway junction (M3).
    Junction { item: u32 },
    /// The block is one more than `max` in its district.
    DistrictFull { item: u32, max: u32 },
    /// Some block or some shared district edge can no longer be reached from
    /// the junction ([`leaves_city_open`]).
    Closed,
}

impl LayoutError {
    /// The stable code of the problem.
    pub fn code(self) -> &'static str {
        match self {
            LayoutError::TooMany { .. } => "too_many",
            LayoutError::OffMap { .. } => "off_map",
            LayoutError::Duplicate { .. } => "duplicate",
            LayoutError::Junction { .. } => "junction",
            LayoutError::DistrictFull { .. } => "district_full",
            LayoutError::Closed => "closed",
        }
    }

    /// The offending block's position in the list, from 1.
    pub fn item(self) -> Option<u32> {
        match self {
            LayoutError::OffMap { item }
            | LayoutError::Duplicate { item }
            | LayoutError::Junction { item }
            | LayoutError::DistrictFull { item, .. } => Some(item),
            LayoutError::TooMany { .. } | LayoutError::Closed => None,
        }
    }

    /// The bound the problem speaks of.
    pub fn limit(self) -> Option<u32> {
        match self {
            LayoutError::TooMany { max } | LayoutError::DistrictFull { max, .. } => Some(max),
            _ => None,
        }
    }
}

/// Whether a room may play `blocks` as its protected layout: at most
/// `per_district` blocks in any district (so at most six times that in all),
/// each on the map, listed once, not the junction, and the city left open
/// ([`leaves_city_open`]).
pub fn check_layout(blocks: &[Block], per_district: u32) -> Result<(), LayoutError> {
    let max = per_district.saturating_mul(District::ALL.len() as u32);
    if blocks.len() as u32 > max {
        return Err(LayoutError::TooMany { max });
    }
    let mut counts = [0u32; 6];
    for (i, &block) in blocks.iter().enumerate() {
        let item = i as u32 + 1;
        let Some(district) = block.district() else {
            return Err(LayoutError::OffMap { item });
        };
        if blocks[..i].contains(&block) {
            return Err(LayoutError::Duplicate { item });
        }
        if block == JUNCTION {
            return Err(LayoutError::Junction { item });
        }
        let n = &mut counts[district.index()];
        *n += 1;
        if *n > per_district {
            return Err(LayoutError::DistrictFull {
                item,
                max: per_district,
            });
        }
    }
    if !leaves_city_open(blocks) {
        return Err(LayoutError::Closed);
    }
    Ok(())
}
