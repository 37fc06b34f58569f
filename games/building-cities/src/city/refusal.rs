//! Why the city map refuses a placement or a purchase: stable codes with typed
//! arguments, for the rules engine and the browser to word as they like.

use super::geometry::{Block, District, Sea};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A refused map action. Serialized as `{"code": "...", ...arguments}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "code", rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesRefusal")]
pub enum Refusal {
    /// The block (or a block of the tile) lies off the map.
    OffMap { block: Block },
    /// M1: the tile would straddle a district border.
    StraddlesBorder { origin: Block },
    /// The district is not owned.
    DistrictNotOwned { district: District },
    /// M4: a protected block takes neither buildings nor roads.
    Protected { block: Block },
    /// A tile or road block already lies there.
    Occupied { block: Block },
    /// M3: the motorway junction block takes only a road.
    JunctionReserved { block: Block },
    /// B2: the city's first road block is the junction.
    FirstRoadAtJunction { junction: Block },
    /// B2: a road block must side-touch the existing road.
    RoadNotConnected { block: Block },
    /// B2: the four blocks of the square whose north-west block is `corner`
    /// would all be road (two road lines side by side).
    RoadsSideBySide { corner: Block },
    /// B2: the new road block would touch the road block `other` only at a
    /// corner (two road lines touching).
    RoadsTouchAtCorner { block: Block, other: Block },
    /// B2: the district would have more intersections than the room allows.
    TooManyIntersections { district: District, limit: u8 },
    /// A road is one block.
    RoadIsOneBlock,
    /// B3: the district's Power Grid and Water Grid come before other tiles.
    GridsFirst { district: District },
    /// B3: the district already has this grid.
    GridAlreadyBuilt { district: District },
    /// B3: a tile must side-touch a road block of its district.
    NoRoadContact { district: District },
    /// B3: the tile would not chain to its district's grids.
    NotChained { district: District },
    /// M1/E3: the district is owned already.
    DistrictOwned { district: District },
    /// M1/E3: a new district must share a side with an owned one.
    DistrictNotAdjacent { district: District },
    /// M2: the sea area is owned already.
    SeaOwned { sea: Sea },
    /// M2: a sea area can be bought only next to an owned district.
    SeaNotAdjacent { sea: Sea },
    /// M2: ships sail only in owned sea areas.
    SeaNotOwned { sea: Sea },
    /// M2: the sea area holds its maximum of ships.
    SeaFull { sea: Sea, limit: u8 },
    /// Trucks stand on roads: the district has none.
    NoRoadForTruck { district: District },
    /// B4: the district holds its maximum of trucks.
    TrucksFull { district: District, limit: u8 },
    /// Nothing of that kind to remove.
    NothingToRemove,
    /// No placed tile has this id.
    UnknownTile { id: u32 },
}
