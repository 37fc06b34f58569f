//! The numbers of the game (`handbook/rules.json`): bank, moves, districts and
//! sea areas, loan, grid upgrades, challenges, trade and the turn track. A room's
//! custom variant overrides some of them ([`super::Variant`]).

use super::model::{Scope, Target, Text};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The conditions and price of the n-th land district bought (E3); a sea area
/// uses the step of the player's next land district (M2) without advancing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesDistrictStep")]
pub struct DistrictStep {
    /// Which land district this is in buying order (2-6).
    pub nth: u32,
    /// The bank must hold more than this.
    pub bank_more_than: u32,
    /// More than this many tiles (roads and buildings) built in the owned districts.
    pub tiles_more_than: u32,
    pub price: u32,
}

/// The Central Bank's loan (E4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesLoan")]
pub struct Loan {
    pub amount: u32,
    pub repay: u32,
    pub within_turns: u32,
    pub per_game: u32,
}

/// One grid upgrade (E8): to reach `level`, pay `cost` and `moves`, then roll the
/// die; `success_from` or more succeeds and the district gains `value` per grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesUpgrade")]
pub struct Upgrade {
    pub level: u32,
    pub cost: u32,
    pub moves: u32,
    pub success_from: u32,
    pub value: i32,
}

/// The challenge rhythm and hand (E5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesChallenges")]
pub struct Challenges {
    /// Challenges start once this many land districts are owned.
    pub from_districts: u32,
    /// A challenge every this many turns.
    pub every_turns: u32,
    /// Face-down hand in Despicable Annihilation, Task Forces included.
    pub hand_max: u32,
    /// Task Force cards added for 1, 2, 3, 4 players.
    pub task_forces: Vec<u32>,
}

/// Trade (E6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesTrade")]
pub struct Trade {
    pub goods_drawn: u32,
    pub per_good: u32,
    pub partner_percent: u32,
}

/// A turn-track box that multiplies the district value collected (E2), once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesMultiplier")]
pub struct Multiplier {
    pub turn: u32,
    pub factor: u32,
}

/// The Player's Board turn track.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesTurnTrack")]
pub struct TurnTrack {
    pub length: u32,
    pub multipliers: Vec<Multiplier>,
}

impl TurnTrack {
    /// The multiplier of the district value collected at the end of `turn`.
    pub fn factor(&self, turn: u32) -> u32 {
        self.multipliers
            .iter()
            .find(|m| m.turn == turn)
            .map_or(1, |m| m.factor)
    }
}

/// A sea area and the land district it borders (M2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesSeaArea")]
pub struct SeaArea {
    pub id: String,
    pub next_to: u32,
}

/// A building and how many of it stand in a pre-built first district.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesStock")]
pub struct Stock {
    pub building: String,
    pub count: u32,
}

/// A price multiplier from the n-th owned land district on ("after the second
/// District the price of each purchase is doubled").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesPriceStep")]
pub struct PriceStep {
    pub from_districts: u32,
    pub percent: u32,
}

/// When a construction priority starts (B5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BuildingCitiesTrigger")]
pub enum Trigger {
    /// Once the city counts this many housing units (`Building::housing`).
    Housing { units: u32 },
    /// Once the grids of the n-th owned land district stand; `district` needs
    /// are counted in that district.
    DistrictGrids { nth: u32 },
    /// Before the n-th land district may be bought.
    BeforeDistrict { nth: u32 },
}

/// What a priority asks for: `count` buildings of `target` in the city or in the
/// district of the trigger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesNeed")]
pub struct Need {
    pub target: Target,
    pub count: u32,
    pub scope: Scope,
}

/// A construction priority (B5): until its needs stand, only roads, the needed
/// buildings and their prerequisites may be built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesPriority")]
pub struct Priority {
    pub trigger: Trigger,
    pub needs: Vec<Need>,
}

/// Every constant of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesEconomy")]
pub struct Economy {
    pub name: Text,
    pub start_bank: u32,
    pub moves_per_turn: u32,
    pub min_spend_per_turn: u32,
    pub max_inactive_turns: u32,
    /// Inactivity is allowed only while the bank is under this (B7).
    pub inactive_bank_below: u32,
    pub max_intersections_per_district: u32,
    /// Blocks on each side of a district (M1).
    pub district_side: u32,
    pub land_districts: u32,
    /// Most protected blocks any layout puts in one district (M4).
    pub protected_blocks_max: u32,
    pub sea_areas: Vec<SeaArea>,
    pub ships_per_sea_area: u32,
    pub district_steps: Vec<DistrictStep>,
    pub loan: Loan,
    pub upgrades: Vec<Upgrade>,
    pub challenges: Challenges,
    pub trade: Trade,
    pub turn_track: TurnTrack,
    /// Objectives without a limit end at this turn (W1).
    pub turn_cap: u32,
    /// Rounds the others play after the first completion (W2).
    pub final_rounds: u32,
    /// The construction priorities of B5, in rulebook order.
    pub priorities: Vec<Priority>,
    /// Smallest raise in a legendary auction (E7).
    pub auction_min_raise: u32,
    pub blank_cards_per_deck: u32,
    /// Percent applied to every Maya price (100: the handbook's prices).
    pub price_percent: u32,
    /// Further multipliers as the city grows (empty in the standard game).
    pub price_steps: Vec<PriceStep>,
    /// Whether the first district starts built as in `prebuilt` (variant).
    pub prebuilt_first_district: bool,
    /// The buildings of the pre-built first district (rulebook example: 3
    /// houses, 2 Buildings, some red and yellow tiles).
    pub prebuilt: Vec<Stock>,
    /// The bank when the first district starts built.
    pub prebuilt_start_bank: u32,
}

impl Economy {
    /// The step for buying the `nth` land district (2-6).
    pub fn district_step(&self, nth: u32) -> Option<&DistrictStep> {
        self.district_steps.iter().find(|s| s.nth == nth)
    }

    /// The percent applied to prices when `districts` land districts are owned.
    pub fn price_percent_at(&self, districts: u32) -> u32 {
        let step = self
            .price_steps
            .iter()
            .filter(|s| s.from_districts <= districts)
            .max_by_key(|s| s.from_districts)
            .map_or(100, |s| s.percent);
        self.price_percent * step / 100
    }

    /// A handbook price as paid with `districts` land districts owned.
    pub fn price(&self, base: u32, districts: u32) -> u32 {
        base * self.price_percent_at(districts) / 100
    }
}
