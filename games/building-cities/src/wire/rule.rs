//! Why Building Cities refuses a move: stable codes with typed arguments.

use crate::city::Refusal;
use serde::Serialize;
use ts_rs::TS;

/// Why Building Cities refuses a move.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "code", content = "args", rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesRule")]
pub enum Rule {
    /// That move is not possible now.
    WrongPhase,
    /// The map refuses the placement or the purchase.
    Map {
        refusal: Refusal,
    },
    UnknownBuilding {
        building: String,
    },
    /// Protected areas, tokens and the like are not built by tiles.
    NotBuildable {
        building: String,
    },
    /// A square tile has one rotation (`R0`): a quarter turn is the same shape.
    SquareRotation,
    /// B1: not enough moves left in this phase.
    NotEnoughMoves {
        needed: u32,
        left: u32,
    },
    NotEnoughMaya {
        needed: u32,
        bank: i32,
    },
    /// B4: a per-district or per-city cap.
    Limit {
        building: String,
        max: u32,
    },
    /// A requirement of the handbook is not met.
    Requirement {
        building: String,
    },
    /// B5: a construction priority comes first.
    Priority {
        building: String,
    },
    /// The objective forbids this building.
    Forbidden {
        building: String,
    },
    /// E7: legendary buildings come from a card.
    NotOffered {
        building: String,
    },
    /// B8: a metro's pair goes in another district on the next turn.
    MetroPairing,
    /// M1, B3: no owned district has a free place for it that touches a road
    /// and links to its grids (the palette's reason; a placed tile is refused
    /// with the map's own refusal).
    NoSpot {
        building: String,
    },
    /// E3: the bank or the tiles are not enough for the next district.
    DistrictConditions {
        bank_more_than: u32,
        tiles_more_than: u32,
    },
    /// The objective allows no more districts, or all are owned.
    NoMoreDistricts,
    /// E8: no grid to upgrade, or it is at the top level.
    NoUpgrade,
    /// E4: no loan runs, or the bank cannot pay it.
    CannotRepay,
    /// B7: spend at least this much while builds remain.
    MustSpend {
        spent: u32,
        min: u32,
    },
    /// B7: no more inactive turns (bank too high or too many in a row).
    MustBuild,
    NoSuchCard,
    NoSuchTarget,
    /// E5: a full hand must play a card.
    HandFull,
    /// E7: a bid must raise by the minimum, be held and be allowed.
    BadBid {
        min: u32,
    },
}

impl engine::Rule for Rule {
    fn code(&self) -> &'static str {
        match self {
            Rule::WrongPhase => "wrong_phase",
            Rule::Map { .. } => "map",
            Rule::UnknownBuilding { .. } => "unknown_building",
            Rule::NotBuildable { .. } => "not_buildable",
            Rule::SquareRotation => "square_rotation",
            Rule::NotEnoughMoves { .. } => "not_enough_moves",
            Rule::NotEnoughMaya { .. } => "not_enough_maya",
            Rule::Limit { .. } => "limit",
            Rule::Requirement { .. } => "requirement",
            Rule::Priority { .. } => "priority",
            Rule::Forbidden { .. } => "forbidden",
            Rule::NotOffered { .. } => "not_offered",
            Rule::MetroPairing => "metro_pairing",
            Rule::NoSpot { .. } => "no_spot",
            Rule::DistrictConditions { .. } => "district_conditions",
            Rule::NoMoreDistricts => "no_more_districts",
            Rule::NoUpgrade => "no_upgrade",
            Rule::CannotRepay => "cannot_repay",
            Rule::MustSpend { .. } => "must_spend",
            Rule::MustBuild => "must_build",
            Rule::NoSuchCard => "no_such_card",
            Rule::NoSuchTarget => "no_such_target",
            Rule::HandFull => "hand_full",
            Rule::BadBid { .. } => "bad_bid",
        }
    }
}

impl From<Refusal> for Rule {
    fn from(refusal: Refusal) -> Self {
        Rule::Map { refusal }
    }
}
