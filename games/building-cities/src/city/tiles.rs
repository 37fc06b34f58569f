//! Tiles (M1, B3): inside one district, off protected blocks, grids first, then
//! every tile touching a road and linked to its district's grids. The
//! definitions are in the module docs of [`crate::city`].

use super::geometry::{self, Block, District, Footprint, Rotation, SHIFTS, SIDE};
use super::{City, Refusal};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a tile is, as far as the map cares. `Building` carries the handbook's
/// id, which the map never reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "kind", content = "building", rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesTileKind")]
pub enum TileKind {
    /// A road block: placed with [`City::place_road`], never stored as a tile.
    Road,
    PowerGrid,
    WaterGrid,
    /// Any other tile (houses, shops, parks, the airport, metros...).
    Building(String),
}

/// A placed tile. `origin` is its north-west block after rotation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesTile")]
pub struct Tile {
    pub id: u32,
    #[serde(flatten)]
    pub kind: TileKind,
    pub footprint: Footprint,
    pub rotation: Rotation,
    pub origin: Block,
}

impl Tile {
    /// The district the tile lies in (B8 pairs metros by it).
    pub fn district(&self) -> Option<District> {
        self.origin.district()
    }

    /// Its blocks, in row order.
    pub fn blocks(&self) -> Vec<Block> {
        self.placement()
            .map(|(d, m)| geometry::blocks_of(d, m).collect())
            .unwrap_or_default()
    }

    /// District and mask, if the tile lies inside one district.
    pub(crate) fn placement(&self) -> Option<(District, u64)> {
        placement(self.footprint, self.rotation, self.origin).ok()
    }
}

/// One legal place for a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesSpot")]
pub struct Spot {
    pub rotation: Rotation,
    pub origin: Block,
}

/// District and mask of a footprint, or why it leaves the map or its district.
fn placement(
    footprint: Footprint,
    rotation: Rotation,
    origin: Block,
) -> Result<(District, u64), Refusal> {
    let district = origin.district().ok_or(Refusal::OffMap { block: origin })?;
    let (w, h) = footprint.size(rotation);
    let far = Block::new(origin.x + w - 1, origin.y + h - 1);
    if far.district().is_none() {
        return Err(Refusal::OffMap { block: far });
    }
    let (x, y) = origin.local();
    let mask = geometry::rect(x, y, w, h).ok_or(Refusal::StraddlesBorder { origin })?;
    Ok((district, mask))
}

/// The district and blocks a tile of `footprint` turned by `rotation` would
/// cover with its north-west block on `origin` (`None` off the map or across
/// a border).
pub(crate) fn footprint_blocks(
    footprint: Footprint,
    rotation: Rotation,
    origin: Block,
) -> Option<(District, u64)> {
    placement(footprint, rotation, origin).ok()
}

/// The blocks of the district at most `range` side steps from a block of `m`
/// (a diamond, never a square), `m` itself left out: where a bonus of a tile
/// on `m` reaches.
pub(crate) fn reach(m: u64, range: u8) -> u64 {
    let mut around = m;
    for _ in 0..range {
        around |= geometry::grow(around);
    }
    around & !m
}

/// Blocks linked to `m` (B3): side-touching it, or beyond one road block in a
/// straight line.
fn links(m: u64, roads: u64) -> u64 {
    let mut out = geometry::grow(m);
    for s in SHIFTS {
        out |= s(s(m) & roads);
    }
    out
}

impl City {
    /// Every placed tile, in the order placed.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile with this id.
    pub fn tile(&self, id: u32) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.id == id)
    }

    /// The tile covering a block.
    pub fn tile_at(&self, block: Block) -> Option<&Tile> {
        let d = block.district()?;
        if self.occupied[d.index()] & block.bit() == 0 {
            return None;
        }
        self.tiles.iter().find(|t| {
            t.placement()
                .is_some_and(|(td, m)| td == d && m & block.bit() != 0)
        })
    }

    /// The tiles of one district, in the order placed.
    pub fn tiles_in_district(&self, district: District) -> impl Iterator<Item = &Tile> {
        self.tiles
            .iter()
            .filter(move |t| t.district() == Some(district))
    }

    /// Bonuses and maluses "in a cross": the tiles side-touching tile `id` in its
    /// district (not across a road, never across a border), in the order placed.
    pub fn neighbours_in_cross(&self, id: u32) -> Vec<u32> {
        self.neighbours_within(id, 1)
    }

    /// Bonuses with a longer reach: the tiles of the same district with a block
    /// at most `range` side steps from a block of tile `id` (a diamond, never a
    /// square; whatever lies in between), in the order placed.
    pub fn neighbours_within(&self, id: u32, range: u8) -> Vec<u32> {
        let Some((d, m)) = self.tile(id).and_then(Tile::placement) else {
            return Vec::new();
        };
        let around = reach(m, range);
        self.tiles
            .iter()
            .filter(|t| {
                t.id != id
                    && t.placement()
                        .is_some_and(|(td, tm)| td == d && tm & around != 0)
            })
            .map(|t| t.id)
            .collect()
    }

    /// B3: whether the district has both its Power Grid and its Water Grid.
    pub fn has_grids(&self, district: District) -> bool {
        self.grid_mask(district, &TileKind::PowerGrid) != 0
            && self.grid_mask(district, &TileKind::WaterGrid) != 0
    }

    /// Blocks of the district's tiles of this kind.
    fn grid_mask(&self, district: District, kind: &TileKind) -> u64 {
        self.tiles_in_district(district)
            .filter(|t| &t.kind == kind)
            .filter_map(|t| t.placement().map(|(_, m)| m))
            .fold(0, |a, m| a | m)
    }

    /// The tiles' blocks linked to `seed` through tiles of the district (B3).
    fn chain(&self, district: District, seed: u64) -> u64 {
        let i = district.index();
        let tiles = self.occupied[i];
        let mut comp = seed & tiles;
        loop {
            let next = comp | (links(comp, self.roads[i]) & tiles);
            if next == comp {
                return comp;
            }
            comp = next;
        }
    }

    /// B3 for a kind in a district: the blocks a new tile must cover one of
    /// (all blocks when nothing is required), or why none will do.
    fn attach(&self, kind: &TileKind, district: District) -> Result<u64, Refusal> {
        let roads = self.roads[district.index()];
        let power = self.grid_mask(district, &TileKind::PowerGrid);
        let water = self.grid_mask(district, &TileKind::WaterGrid);
        match kind {
            TileKind::Road => Ok(u64::MAX),
            TileKind::PowerGrid | TileKind::WaterGrid => {
                let (own, other) = if *kind == TileKind::PowerGrid {
                    (power, water)
                } else {
                    (water, power)
                };
                if own != 0 {
                    Err(Refusal::GridAlreadyBuilt { district })
                } else if other == 0 {
                    Ok(u64::MAX)
                } else {
                    Ok(links(self.chain(district, other), roads))
                }
            }
            TileKind::Building(_) => {
                if power == 0 || water == 0 {
                    return Err(Refusal::GridsFirst { district });
                }
                let comp = self.chain(district, power);
                let comp = if comp & water != 0 { comp } else { 0 };
                Ok(links(comp, roads))
            }
        }
    }

    /// Whether a tile of `kind` and `footprint`, turned by `rotation`, may be
    /// placed with its north-west block on `origin` (M1, M4, B3). A road is a
    /// 1 × 1 tile checked by [`City::can_place_road`].
    pub fn can_place_tile(
        &self,
        kind: &TileKind,
        footprint: Footprint,
        rotation: Rotation,
        origin: Block,
    ) -> Result<(), Refusal> {
        if *kind == TileKind::Road {
            if footprint != Footprint::OneByOne {
                return Err(Refusal::RoadIsOneBlock);
            }
            return self.can_place_road(origin);
        }
        let (district, mask) = placement(footprint, rotation, origin)?;
        if !self.owns(district) {
            return Err(Refusal::DistrictNotOwned { district });
        }
        let i = district.index();
        let first = |m: u64| geometry::blocks_of(district, m).next();
        if let Some(block) = first(mask & self.protected[i]) {
            return Err(Refusal::Protected { block });
        }
        if let Some(block) = first(mask & (self.roads[i] | self.occupied[i])) {
            return Err(Refusal::Occupied { block });
        }
        if let Some(block) = first(mask & self.blocked(district)) {
            return Err(Refusal::JunctionReserved { block });
        }
        let attach = self.attach(kind, district)?;
        if geometry::grow(mask) & self.roads[i] == 0 {
            return Err(Refusal::NoRoadContact { district });
        }
        if mask & attach == 0 {
            return Err(Refusal::NotChained { district });
        }
        Ok(())
    }

    /// Places a tile; returns its id (0 for a road block: roads are not tiles).
    pub fn place_tile(
        &mut self,
        kind: TileKind,
        footprint: Footprint,
        rotation: Rotation,
        origin: Block,
    ) -> Result<u32, Refusal> {
        self.can_place_tile(&kind, footprint, rotation, origin)?;
        if kind == TileKind::Road {
            self.place_road(origin)?;
            return Ok(0);
        }
        let (district, mask) = placement(footprint, rotation, origin)?;
        self.occupied[district.index()] |= mask;
        let id = self.next_id;
        self.next_id += 1;
        self.tiles.push(Tile {
            id,
            kind,
            footprint,
            rotation,
            origin,
        });
        Ok(id)
    }

    /// Why no owned district takes a tile of `kind` wherever it goes (B3: the
    /// district's grids first, or its grid already built): the first
    /// district's refusal; `None` when some district might, given a spot.
    pub fn refusal_everywhere(&self, kind: &TileKind) -> Option<Refusal> {
        let mut first = None;
        for &district in &self.districts {
            match self.attach(kind, district) {
                Ok(_) => return None,
                Err(refusal) => {
                    first.get_or_insert(refusal);
                }
            }
        }
        first
    }

    /// Every rotation and origin where `can_place_tile` accepts the tile, in
    /// district, rotation, then row order.
    pub fn legal_tile_spots(&self, kind: &TileKind, footprint: Footprint) -> Vec<Spot> {
        if *kind == TileKind::Road {
            if footprint != Footprint::OneByOne {
                return Vec::new();
            }
            let rotation = Rotation::R0;
            return self
                .legal_road_blocks()
                .into_iter()
                .map(|origin| Spot { rotation, origin })
                .collect();
        }
        let mut out = Vec::new();
        for &district in &self.districts {
            let Ok(attach) = self.attach(kind, district) else {
                continue;
            };
            let i = district.index();
            let blocked = self.blocked(district);
            let roads = self.roads[i];
            for &rotation in footprint.rotations() {
                let (w, h) = footprint.size(rotation);
                let Some(base) = geometry::rect(0, 0, w, h) else {
                    continue;
                };
                for y in 0..=SIDE - h {
                    for x in 0..=SIDE - w {
                        let m = base << (y * SIDE + x);
                        if m & blocked == 0 && geometry::grow(m) & roads != 0 && m & attach != 0 {
                            let origin = Block::at(district, x, y);
                            out.push(Spot { rotation, origin });
                        }
                    }
                }
            }
        }
        out
    }

    /// Removes a tile (a card; B6). Does not re-check the tiles that chained
    /// through it.
    pub fn remove_tile(&mut self, id: u32) -> Result<Tile, Refusal> {
        let at = self
            .tiles
            .iter()
            .position(|t| t.id == id)
            .ok_or(Refusal::UnknownTile { id })?;
        let tile = self.tiles.remove(at);
        if let Some((d, m)) = tile.placement() {
            self.occupied[d.index()] &= !m;
        }
        Ok(tile)
    }
}
