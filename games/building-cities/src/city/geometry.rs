//! Blocks, districts, sea areas and tile footprints (rulings M1-M3), and the
//! 64-bit masks the placement rules are computed with.
//!
//! A district is exactly 8 × 8 = 64 blocks, so one `u64` holds any set of blocks
//! of one district (bit `y * 8 + x` for the block at local column `x`, row `y`).
//! Moving a whole set one block east, west, north or south is one shift and one
//! mask, and a shift never carries a block into another district: whatever the
//! rules compute with masks (contact, chains, intersections) stays inside its
//! district by construction (B3: "never cross a district border").

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Blocks per district side (M1).
pub const SIDE: u8 = 8;
/// City-wide columns: `D1 D2 D3` side by side.
pub const WIDTH: u8 = 3 * SIDE;
/// City-wide rows: `D1 D2 D3` over `D4 D5 D6`.
pub const HEIGHT: u8 = 2 * SIDE;

/// One block (the rulebook's 2x2 square), in city-wide coordinates: `x` 0-23 from
/// the west (sea S1/S2 side), `y` 0-15 from the north (highway side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesBlock")]
pub struct Block {
    pub x: u8,
    pub y: u8,
}

impl Block {
    /// The block at city-wide `(x, y)` (it may lie off the map).
    pub const fn new(x: u8, y: u8) -> Self {
        Block { x, y }
    }

    /// The block at local `(x, y)` of `district`.
    pub const fn at(district: District, x: u8, y: u8) -> Self {
        Block {
            x: district.column() * SIDE + x,
            y: district.row() * SIDE + y,
        }
    }

    /// Whether the block lies on the map.
    pub const fn on_map(self) -> bool {
        self.x < WIDTH && self.y < HEIGHT
    }

    /// The district the block lies in (`None` off the map).
    pub fn district(self) -> Option<District> {
        if !self.on_map() {
            return None;
        }
        District::from_index(usize::from(self.y / SIDE) * 3 + usize::from(self.x / SIDE))
    }

    /// Column and row inside its district.
    pub const fn local(self) -> (u8, u8) {
        (self.x % SIDE, self.y % SIDE)
    }

    /// The block's bit in its district's mask.
    pub const fn bit(self) -> u64 {
        let (x, y) = self.local();
        1u64 << (y * SIDE + x)
    }

    /// The side neighbours on the map, across district borders too.
    pub fn neighbours(self) -> impl Iterator<Item = Block> {
        let Block { x, y } = self;
        [
            x.checked_sub(1).map(|x| Block::new(x, y)),
            Some(Block::new(x.saturating_add(1), y)),
            y.checked_sub(1).map(|y| Block::new(x, y)),
            Some(Block::new(x, y.saturating_add(1))),
        ]
        .into_iter()
        .flatten()
        .filter(move |b| b.on_map() && *b != self)
    }

    /// The block moved by `(dx, dy)`, if it stays on the map.
    pub fn offset(self, dx: i8, dy: i8) -> Option<Block> {
        let x = self.x.checked_add_signed(dx)?;
        let y = self.y.checked_add_signed(dy)?;
        Some(Block::new(x, y)).filter(|b| b.on_map())
    }
}

/// The six land districts (M1), numbered as printed: `D1 D2 D3` over `D4 D5 D6`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesDistrict")]
pub enum District {
    D1,
    D2,
    D3,
    D4,
    D5,
    D6,
}

impl District {
    /// All six, in number order.
    pub const ALL: [District; 6] = [
        District::D1,
        District::D2,
        District::D3,
        District::D4,
        District::D5,
        District::D6,
    ];

    /// 0 for D1 ... 5 for D6.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The district of an index 0-5.
    pub fn from_index(i: usize) -> Option<District> {
        District::ALL.get(i).copied()
    }

    /// Column of the district on the map (0-2).
    pub const fn column(self) -> u8 {
        (self as u8) % 3
    }

    /// Row of the district on the map (0 top, 1 bottom).
    pub const fn row(self) -> u8 {
        (self as u8) / 3
    }

    /// M1 "think in a cross": districts sharing a side, never a corner.
    pub fn adjacent(self, other: District) -> bool {
        self.column().abs_diff(other.column()) + self.row().abs_diff(other.row()) == 1
    }

    /// The districts sharing a side with this one.
    pub fn neighbours(self) -> impl Iterator<Item = District> {
        District::ALL.into_iter().filter(move |d| self.adjacent(*d))
    }

    /// The sea areas bordering this district (M2).
    pub fn sea_areas(self) -> impl Iterator<Item = Sea> {
        Sea::ALL.into_iter().filter(move |s| s.district() == self)
    }

    /// Every block of the district.
    pub fn blocks(self) -> impl Iterator<Item = Block> {
        blocks_of(self, u64::MAX)
    }
}

/// The seven sea areas (M2), each along the outer side of one district.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesSea")]
pub enum Sea {
    S1,
    S2,
    S3,
    S4,
    S5,
    S6,
    S7,
}

impl Sea {
    /// All seven, in number order.
    pub const ALL: [Sea; 7] = [
        Sea::S1,
        Sea::S2,
        Sea::S3,
        Sea::S4,
        Sea::S5,
        Sea::S6,
        Sea::S7,
    ];

    /// 0 for S1 ... 6 for S7.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one district this area borders: S1 left of D1, S2 left of D4, S3-S5
    /// under D4-D6, S6 right of D6, S7 right of D3. (D2 lies between the highway
    /// and D5, so it has no sea.)
    pub const fn district(self) -> District {
        match self {
            Sea::S1 => District::D1,
            Sea::S2 | Sea::S3 => District::D4,
            Sea::S4 => District::D5,
            Sea::S5 | Sea::S6 => District::D6,
            Sea::S7 => District::D3,
        }
    }
}

/// The five tile sizes of M1, in blocks, as `width x height` before rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesFootprint")]
pub enum Footprint {
    #[serde(rename = "1x1")]
    OneByOne,
    #[serde(rename = "2x1")]
    TwoByOne,
    #[serde(rename = "2x2")]
    TwoByTwo,
    #[serde(rename = "3x1")]
    ThreeByOne,
    #[serde(rename = "3x2")]
    ThreeByTwo,
}

impl Footprint {
    /// All five sizes.
    pub const ALL: [Footprint; 5] = [
        Footprint::OneByOne,
        Footprint::TwoByOne,
        Footprint::TwoByTwo,
        Footprint::ThreeByOne,
        Footprint::ThreeByTwo,
    ];

    /// Width and height in blocks once turned by `rotation`.
    pub const fn size(self, rotation: Rotation) -> (u8, u8) {
        let (w, h) = match self {
            Footprint::OneByOne => (1, 1),
            Footprint::TwoByOne => (2, 1),
            Footprint::TwoByTwo => (2, 2),
            Footprint::ThreeByOne => (3, 1),
            Footprint::ThreeByTwo => (3, 2),
        };
        match rotation {
            Rotation::R0 => (w, h),
            Rotation::R90 => (h, w),
        }
    }

    /// The rotations that give different shapes (one for a square).
    pub fn rotations(self) -> &'static [Rotation] {
        match self {
            Footprint::OneByOne | Footprint::TwoByTwo => &[Rotation::R0],
            _ => &[Rotation::R0, Rotation::R90],
        }
    }
}

/// A tile's turn. Every footprint is a rectangle, so a half turn gives the same
/// shape: a quarter turn (`R90`, width and height swapped) is the only other one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesRotation")]
pub enum Rotation {
    R0,
    R90,
}

/// Local column 0 of a district mask.
pub(crate) const COL0: u64 = 0x0101_0101_0101_0101;
/// Local column 7 of a district mask.
pub(crate) const COL7: u64 = COL0 << 7;

/// Every block moved one column east (dropping column 7).
pub(crate) const fn east(m: u64) -> u64 {
    (m << 1) & !COL0
}

/// Every block moved one column west (dropping column 0).
pub(crate) const fn west(m: u64) -> u64 {
    (m >> 1) & !COL7
}

/// Every block moved one row north (dropping row 0).
pub(crate) const fn north(m: u64) -> u64 {
    m >> 8
}

/// Every block moved one row south (dropping row 7).
pub(crate) const fn south(m: u64) -> u64 {
    m << 8
}

/// The four moves, east, west, north, south.
pub(crate) const SHIFTS: [fn(u64) -> u64; 4] = [east, west, north, south];

/// The blocks side-touching `m` (in the same district), `m` itself left out
/// only where it does not touch itself.
pub(crate) const fn grow(m: u64) -> u64 {
    east(m) | west(m) | north(m) | south(m)
}

/// The mask of a `w × h` rectangle at local `(x, y)`; `None` when it leaves the
/// district.
pub(crate) fn rect(x: u8, y: u8, w: u8, h: u8) -> Option<u64> {
    if w == 0 || h == 0 || x + w > SIDE || y + h > SIDE {
        return None;
    }
    let row = ((1u64 << w) - 1) << x;
    let mut m = 0;
    for r in y..y + h {
        m |= row << (r * SIDE);
    }
    Some(m)
}

/// The blocks of `district` in `mask`, in row order.
pub(crate) fn blocks_of(district: District, mask: u64) -> impl Iterator<Item = Block> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros() as u8;
        m &= m - 1;
        Some(Block::at(district, i % SIDE, i / SIDE))
    })
}
