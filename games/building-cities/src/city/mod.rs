//! One player's city map: districts, sea areas, roads and tiles, and whether a
//! placement is legal (rulings M1-M4, B2, B3, B6, B8). Pure geometry: prices,
//! moves, limits by colour and priorities belong to the rules engine and the
//! handbook; this module only knows a tile's footprint and whether it is a road,
//! a grid or some other building.
//!
//! **Coordinates.** A [`Block`] is city-wide, `x` 0-23 west to east and `y` 0-15
//! north to south, and its district is a function of it (`D1 D2 D3` over
//! `D4 D5 D6`, 8 × 8 blocks each). City-wide because roads and the "side by side"
//! rule run across district borders and the browser draws one board; internally
//! each district is one `u64` (64 blocks), so everything that must stay inside a
//! district (contact, chains, bonuses) is shift-and-mask and cannot leak.
//!
//! **Definitions** where the rulebook draws pictures instead of rules:
//! - *Junction* (M3): block `(3, 0)` of D1, where the highway's ramp comes down;
//!   the fourth of eight columns leaves a 3-block building row to its west and a
//!   4-block one to its east. The city's first road block is the junction, and
//!   the junction takes nothing but a road. The highway itself is outside the
//!   grid and is not a road block.
//! - *Connected road* (B2): a new road block side-touches an existing one, in
//!   its own district or across a shared edge (both districts are owned, since
//!   only owned districts take roads); so every road reaches the junction.
//! - *Side by side* (B2 "two road lines never run side by side"; rulebook "two
//!   straights or two curves must never touch"): no 2 × 2 square is all road, and
//!   two road blocks touching at a corner must share a road neighbour (a bend of
//!   one line, not two lines meeting corner to corner). City-wide, across
//!   borders too. So between two road lines there is always at least one free
//!   row for buildings.
//! - *Intersection* (B2): a road block other than the junction with three or
//!   four road neighbours in its own district; a neighbour across a district
//!   border (a border crossing) does not count. At most
//!   [`CityRules::max_intersections`] per district.
//! - *Touching a road* (B3): a tile side-touches a road block of its district.
//! - *Linked* (B3 chain, "across a road counts"): two tiles of one district are
//!   linked when they side-touch, or when a block of one and a block of the other
//!   lie on either side of a single road block in a straight line
//!   (`tile, road, tile`). Protected blocks and empty blocks break the chain.
//! - *Grids first* (B3): in a district without both grids only road blocks and
//!   the missing grids may be placed; the first grid touches a road, the second
//!   also links to the first; every later tile touches a road and links to the
//!   chain that holds both grids (so there are no holes and no islands).
//! - *Neighbours in the cross* (bonuses, maluses): tiles side-touching a tile in
//!   the same district; a road in between breaks the cross. A longer reach
//!   (`neighbours_within`) counts side steps, so it is a diamond, never a square.
//! - *Tiles* are rectangles placed by their north-west block after rotation;
//!   a half turn gives the same rectangle, so the legal-spot list holds each
//!   shape once (`R0`, and `R90` unless square).
//! - *Protected areas* (M4): [`protected::layout`] gives the six die layouts,
//!   [`protected::leaves_city_open`] checks a room's own.
//! - *Trucks and ships* are counters, not tiles: trucks per district (on a
//!   district with a road), ships per owned sea area.
//!
//! Nothing is removed except through the explicit `remove_*` calls (B6), which
//! cards use; they do not re-check the other tiles.
//!
//! Files: `geometry` (blocks, districts, seas, footprints, masks), `protected`,
//! `roads` (B2), `tiles` (M1, B3), `refusal`.

mod geometry;
pub mod protected;
mod refusal;
mod roads;
mod tiles;

pub use geometry::{Block, District, Footprint, HEIGHT, Rotation, SIDE, Sea, WIDTH};
pub use refusal::Refusal;
pub use tiles::{Spot, Tile, TileKind};
pub(crate) use tiles::{footprint_blocks, reach};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// M3: the motorway junction, block `(3, 0)` of D1.
pub const JUNCTION: Block = Block::new(3, 0);

/// Room settings of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
#[ts(rename = "BuildingCitiesCityRules")]
pub struct CityRules {
    /// B2: intersections per district (rulebook: 2, "can be changed").
    pub max_intersections: u8,
    /// B4: trucks per district (rulebook: 3).
    pub trucks_per_district: u8,
    /// M2: cargo ships per sea area (rulebook: 2).
    pub ships_per_sea: u8,
}

impl Default for CityRules {
    fn default() -> Self {
        CityRules {
            max_intersections: 2,
            trucks_per_district: 3,
            ships_per_sea: 2,
        }
    }
}

/// A player's city. Starts with D1 owned and nothing built.
///
/// Serialized as [`CityData`] (plain lists, for saved games and the browser);
/// the masks are rebuilt on load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "CityData", try_from = "CityData")]
pub struct City {
    rules: CityRules,
    /// Owned land districts, in the order bought.
    districts: Vec<District>,
    /// Owned sea areas, in the order bought.
    seas: Vec<Sea>,
    tiles: Vec<Tile>,
    next_id: u32,
    /// Per district: protected blocks.
    protected: [u64; 6],
    /// Per district: road blocks.
    roads: [u64; 6],
    /// Per district: blocks under a tile.
    occupied: [u64; 6],
    trucks: [u8; 6],
    ships: [u8; 7],
}

/// The plain form of a [`City`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesCity")]
pub struct CityData {
    pub rules: CityRules,
    /// M4: the protected blocks (a die layout or the room's own).
    pub protected: Vec<Block>,
    /// Owned land districts in the order bought (B5 counts them so).
    pub districts: Vec<District>,
    /// Owned sea areas in the order bought.
    pub seas: Vec<Sea>,
    /// Road blocks, in row order.
    pub roads: Vec<Block>,
    /// Placed tiles, in the order placed.
    pub tiles: Vec<Tile>,
    /// The id the next tile gets.
    pub next_id: u32,
    /// One entry per truck: the district whose roads it stands on.
    pub trucks: Vec<District>,
    /// One entry per cargo ship: its sea area.
    pub ships: Vec<Sea>,
}

impl City {
    /// A new city: D1 owned, `protected` blocks set (see [`protected::layout`];
    /// blocks off the map are ignored).
    pub fn new(rules: CityRules, protected: &[Block]) -> City {
        let mut masks = [0u64; 6];
        for b in protected {
            if let Some(d) = b.district() {
                masks[d.index()] |= b.bit();
            }
        }
        City {
            rules,
            districts: vec![District::D1],
            seas: Vec::new(),
            tiles: Vec::new(),
            next_id: 1,
            protected: masks,
            roads: [0; 6],
            occupied: [0; 6],
            trucks: [0; 6],
            ships: [0; 7],
        }
    }

    /// A new city with the protected layout of die face `face` (1-6), or none.
    pub fn with_layout(rules: CityRules, face: Option<u8>) -> City {
        let blocks = face.and_then(protected::layout).unwrap_or_default();
        City::new(rules, &blocks)
    }

    /// The plain form, for a view or a saved game.
    pub fn to_data(&self) -> CityData {
        CityData::from(self.clone())
    }

    /// The room settings.
    pub fn rules(&self) -> CityRules {
        self.rules
    }

    /// Owned land districts, in the order bought.
    pub fn districts(&self) -> &[District] {
        &self.districts
    }

    /// Whether the district is owned.
    pub fn owns(&self, district: District) -> bool {
        self.districts.contains(&district)
    }

    /// Owned sea areas, in the order bought.
    pub fn seas(&self) -> &[Sea] {
        &self.seas
    }

    /// Whether the sea area is owned.
    pub fn owns_sea(&self, sea: Sea) -> bool {
        self.seas.contains(&sea)
    }

    /// M3: trains are unlocked by owning D3, where the railway runs.
    pub fn has_railway(&self) -> bool {
        self.owns(District::D3)
    }

    /// Whether a block is protected (M4).
    pub fn is_protected(&self, block: Block) -> bool {
        block
            .district()
            .is_some_and(|d| self.protected[d.index()] & block.bit() != 0)
    }

    /// The protected blocks, in district then row order.
    pub fn protected_blocks(&self) -> Vec<Block> {
        District::ALL
            .into_iter()
            .flat_map(|d| geometry::blocks_of(d, self.protected[d.index()]))
            .collect()
    }

    /// Whether a district may be bought now (M1/E3 adjacency; money is the rules
    /// engine's).
    pub fn can_buy_district(&self, district: District) -> Result<(), Refusal> {
        if self.owns(district) {
            return Err(Refusal::DistrictOwned { district });
        }
        if !self.districts.iter().any(|d| d.adjacent(district)) {
            return Err(Refusal::DistrictNotAdjacent { district });
        }
        Ok(())
    }

    /// Buys a district.
    pub fn buy_district(&mut self, district: District) -> Result<(), Refusal> {
        self.can_buy_district(district)?;
        self.districts.push(district);
        Ok(())
    }

    /// The districts that may be bought now.
    pub fn buyable_districts(&self) -> Vec<District> {
        District::ALL
            .into_iter()
            .filter(|d| self.can_buy_district(*d).is_ok())
            .collect()
    }

    /// Whether a sea area may be bought now (M2: next to an owned district).
    pub fn can_buy_sea(&self, sea: Sea) -> Result<(), Refusal> {
        if self.owns_sea(sea) {
            return Err(Refusal::SeaOwned { sea });
        }
        if !self.owns(sea.district()) {
            return Err(Refusal::SeaNotAdjacent { sea });
        }
        Ok(())
    }

    /// Buys a sea area.
    pub fn buy_sea(&mut self, sea: Sea) -> Result<(), Refusal> {
        self.can_buy_sea(sea)?;
        self.seas.push(sea);
        Ok(())
    }

    /// The sea areas that may be bought now.
    pub fn buyable_seas(&self) -> Vec<Sea> {
        Sea::ALL
            .into_iter()
            .filter(|s| self.can_buy_sea(*s).is_ok())
            .collect()
    }

    /// Trucks standing on the district's roads.
    pub fn trucks(&self, district: District) -> u8 {
        self.trucks[district.index()]
    }

    /// Cargo ships in the sea area.
    pub fn ships(&self, sea: Sea) -> u8 {
        self.ships[sea.index()]
    }

    /// Whether a truck may be put on the district's roads (owned, has a road,
    /// under [`CityRules::trucks_per_district`]).
    pub fn can_place_truck(&self, district: District) -> Result<(), Refusal> {
        if !self.owns(district) {
            return Err(Refusal::DistrictNotOwned { district });
        }
        if self.roads[district.index()] == 0 {
            return Err(Refusal::NoRoadForTruck { district });
        }
        let limit = self.rules.trucks_per_district;
        if self.trucks(district) >= limit {
            return Err(Refusal::TrucksFull { district, limit });
        }
        Ok(())
    }

    /// Puts a truck on the district's roads.
    pub fn place_truck(&mut self, district: District) -> Result<(), Refusal> {
        self.can_place_truck(district)?;
        self.trucks[district.index()] += 1;
        Ok(())
    }

    /// Takes a truck away (a card).
    pub fn remove_truck(&mut self, district: District) -> Result<(), Refusal> {
        let n = &mut self.trucks[district.index()];
        *n = n.checked_sub(1).ok_or(Refusal::NothingToRemove)?;
        Ok(())
    }

    /// Whether a cargo ship may sail in the sea area (owned, under
    /// [`CityRules::ships_per_sea`]).
    pub fn can_place_ship(&self, sea: Sea) -> Result<(), Refusal> {
        if !self.owns_sea(sea) {
            return Err(Refusal::SeaNotOwned { sea });
        }
        let limit = self.rules.ships_per_sea;
        if self.ships(sea) >= limit {
            return Err(Refusal::SeaFull { sea, limit });
        }
        Ok(())
    }

    /// Puts a cargo ship in the sea area.
    pub fn place_ship(&mut self, sea: Sea) -> Result<(), Refusal> {
        self.can_place_ship(sea)?;
        self.ships[sea.index()] += 1;
        Ok(())
    }

    /// Takes a cargo ship away (a card).
    pub fn remove_ship(&mut self, sea: Sea) -> Result<(), Refusal> {
        let n = &mut self.ships[sea.index()];
        *n = n.checked_sub(1).ok_or(Refusal::NothingToRemove)?;
        Ok(())
    }

    /// E3 "tiles built (streets and buildings)": road blocks plus tiles in the
    /// district.
    pub fn built_in(&self, district: District) -> u32 {
        self.roads[district.index()].count_ones() + self.tiles_in_district(district).count() as u32
    }

    /// Blocks of the district with nothing on them and not protected.
    pub fn free_blocks(&self, district: District) -> u32 {
        (!self.blocked(district)).count_ones()
    }

    /// Per district mask of blocks that cannot take anything new.
    fn blocked(&self, district: District) -> u64 {
        let i = district.index();
        let junction = if district == District::D1 {
            JUNCTION.bit()
        } else {
            0
        };
        self.protected[i] | self.roads[i] | self.occupied[i] | junction
    }
}

impl From<City> for CityData {
    fn from(c: City) -> CityData {
        CityData {
            rules: c.rules,
            protected: c.protected_blocks(),
            roads: c.roads(),
            districts: c.districts,
            seas: c.seas,
            tiles: c.tiles,
            next_id: c.next_id,
            trucks: District::ALL
                .into_iter()
                .flat_map(|d| std::iter::repeat_n(d, usize::from(c.trucks[d.index()])))
                .collect(),
            ships: Sea::ALL
                .into_iter()
                .flat_map(|s| std::iter::repeat_n(s, usize::from(c.ships[s.index()])))
                .collect(),
        }
    }
}

impl TryFrom<CityData> for City {
    type Error = String;

    /// Rebuilds the masks. Checks that blocks are on the map and nothing
    /// overlaps; the placement rules are not replayed (cards may have removed
    /// pieces since).
    fn try_from(data: CityData) -> Result<City, String> {
        let mut city = City::new(data.rules, &data.protected);
        city.districts = data.districts;
        city.seas = data.seas;
        city.next_id = data.next_id;
        for b in data.roads {
            let d = b.district().ok_or(format!("road off the map: {b:?}"))?;
            if city.blocked(d) & b.bit() != 0 && b != JUNCTION {
                return Err(format!("road on a taken block: {b:?}"));
            }
            city.roads[d.index()] |= b.bit();
        }
        for t in data.tiles {
            let (d, mask) = t
                .placement()
                .ok_or(format!("tile {} off its district", t.id))?;
            if city.blocked(d) & mask != 0 {
                return Err(format!("tile {} on a taken block", t.id));
            }
            city.occupied[d.index()] |= mask;
            city.next_id = city.next_id.max(t.id.saturating_add(1));
            city.tiles.push(t);
        }
        for d in data.trucks {
            city.trucks[d.index()] = city.trucks[d.index()].saturating_add(1);
        }
        for s in data.ships {
            city.ships[s.index()] = city.ships[s.index()].saturating_add(1);
        }
        Ok(city)
    }
}
