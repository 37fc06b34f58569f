//! The buildings of the handbook (`handbook/buildings.json`): tiles, road blocks,
//! standees and tokens, with their price, moves, district value, bonuses,
//! requirements and limits (rulings B1, B4, M1), and the six goods (E6).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A name or a text in the two languages of the site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesText")]
pub struct Text {
    pub en: String,
    pub fr: String,
}

/// The nine tile frame colours of the rulebook. Roads, standees, legendary
/// buildings and tokens have no frame (`colour: null`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesColour")]
pub enum Colour {
    Blue,
    Orange,
    Yellow,
    Grey,
    Green,
    Red,
    Purple,
    Pink,
    YellowBlue,
}

impl Colour {
    pub const ALL: [Colour; 9] = [
        Colour::Blue,
        Colour::Orange,
        Colour::Yellow,
        Colour::Grey,
        Colour::Green,
        Colour::Red,
        Colour::Purple,
        Colour::Pink,
        Colour::YellowBlue,
    ];
}

/// What a building is, for limits, requirements and card targets. Grey and green
/// industries share [`Category::Industry`] (B4 counts them together).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesCategory")]
pub enum Category {
    Road,
    Grid,
    House,
    Store,
    Leisure,
    Industry,
    Service,
    School,
    Transport,
    Airport,
    Protected,
    Standee,
    Legendary,
    Token,
}

/// A footprint in blocks (M1: a block is the rulebook's 2x2 tile), before
/// rotation: width × height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(rename = "BuildingCitiesSize")]
pub enum Size {
    #[serde(rename = "1x1")]
    S1x1,
    #[serde(rename = "2x1")]
    S2x1,
    #[serde(rename = "2x2")]
    S2x2,
    #[serde(rename = "3x1")]
    S3x1,
    #[serde(rename = "3x2")]
    S3x2,
}

impl Size {
    pub const ALL: [Size; 5] = [Size::S1x1, Size::S2x1, Size::S2x2, Size::S3x1, Size::S3x2];

    /// Width and height in blocks.
    pub const fn blocks(self) -> (u32, u32) {
        match self {
            Size::S1x1 => (1, 1),
            Size::S2x1 => (2, 1),
            Size::S2x2 => (2, 2),
            Size::S3x1 => (3, 1),
            Size::S3x2 => (3, 2),
        }
    }

    /// Number of blocks covered.
    pub const fn area(self) -> u32 {
        let (w, h) = self.blocks();
        w * h
    }
}

/// Where an item goes: on free blocks of a district, on a road block of a
/// district (trucks) or in a sea area (cargo ships).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesPlacement")]
pub enum Placement {
    Ground,
    Road,
    Sea,
}

/// The buildings a bonus, requirement, limit, card or objective speaks of.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesTarget")]
pub enum Target {
    /// One building of the handbook, by id.
    Building(String),
    /// Every tile of a frame colour.
    Colour(Colour),
    /// Every building of a category.
    Category(Category),
}

/// Where a count or a limit is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesScope")]
pub enum Scope {
    District,
    City,
}

/// A bonus (positive) or malus (negative) a building gives to its own district.
/// With a `target`, it counts once for every building of the target whose blocks
/// lie within `range` blocks of this one, counted along sides only ("cross",
/// never diagonally) and inside the district (B3); it is worth `value` Maya plus
/// `percent` of that building's own district value. Without a target it counts
/// once, for the building itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesBonus")]
pub struct Bonus {
    #[serde(default)]
    pub target: Option<Target>,
    #[serde(default)]
    pub range: u32,
    #[serde(default)]
    pub value: i32,
    #[serde(default)]
    pub percent: i32,
}

/// What must already stand (or be owned) before a building may be placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BuildingCitiesRequirement")]
pub enum Requirement {
    /// At least `min` buildings of `target` in the district of the new building
    /// or anywhere in the city.
    Count {
        target: Target,
        min: u32,
        scope: Scope,
    },
    /// At least `min` land districts owned.
    Districts { min: u32 },
    /// This land district owned (1-6, M1), e.g. D3 for the railway (M3).
    OwnsDistrict { district: u32 },
    /// At least `min` sea areas owned (M2).
    SeaAreas { min: u32 },
    /// The Power and Water Grids of the district at this level or above (E8).
    GridLevel { min: u32 },
}

/// A cap on how many of one building may stand in a district or a city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesLimit")]
pub struct Limit {
    pub scope: Scope,
    pub max: u32,
}

/// A cap shared by every building of a target (B4: 9 blue tiles per district).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesGroupLimit")]
pub struct GroupLimit {
    pub target: Target,
    pub scope: Scope,
    pub max: u32,
}

/// One entry of the handbook: everything that can be built or bought for moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesBuilding")]
pub struct Building {
    /// Stable id, lower-case ASCII with `_`.
    pub id: String,
    pub name: Text,
    pub colour: Option<Colour>,
    pub category: Category,
    /// Footprint on the ground; `None` for tokens (placed on a road or at sea).
    pub size: Option<Size>,
    pub placement: Placement,
    /// Price in Maya.
    pub cost: u32,
    /// Moves spent, all in one building phase (B1).
    pub moves: u32,
    /// Added to the district value of its district every turn (E2).
    pub value: i32,
    /// Housing units it counts for the first priority (B5).
    #[serde(default)]
    pub housing: u32,
    #[serde(default)]
    pub bonuses: Vec<Bonus>,
    #[serde(default)]
    pub requirements: Vec<Requirement>,
    #[serde(default)]
    pub limits: Vec<Limit>,
    /// `false` only for what the setup places (protected areas, M4).
    #[serde(default = "yes")]
    pub buildable: bool,
}

fn yes() -> bool {
    true
}

impl Building {
    /// Whether a `tile` move may name it: a ground building with a footprint,
    /// neither a road (roads are their own moves) nor what the setup places.
    pub fn is_tile(&self) -> bool {
        self.placement == Placement::Ground
            && self.size.is_some()
            && self.buildable
            && self.category != Category::Road
    }

    /// Whether this building is one of `target`.
    pub fn is(&self, target: &Target) -> bool {
        match target {
            Target::Building(id) => *id == self.id,
            Target::Colour(colour) => self.colour == Some(*colour),
            Target::Category(category) => self.category == *category,
        }
    }

    /// The cap of this building alone in `scope`, if any.
    pub fn limit(&self, scope: Scope) -> Option<u32> {
        self.limits
            .iter()
            .filter(|l| l.scope == scope)
            .map(|l| l.max)
            .min()
    }

    /// Blocks covered on the ground (0 for tokens).
    pub fn area(&self) -> u32 {
        self.size.map_or(0, Size::area)
    }
}

/// One of the six goods a city trades (E6), drawn with the die face `die`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesGood")]
pub struct Good {
    pub id: String,
    pub die: u32,
    pub name: Text,
}
