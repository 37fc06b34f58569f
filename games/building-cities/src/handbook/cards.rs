//! The three decks (`handbook/objectives.json`, `events.json`, `challenges.json`):
//! every card has a stable id, its name and text in English and French for the
//! browser, and a structured effect or goal the rules apply (E2, E5-E7, W1-W2).

use super::model::{Target, Text};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which grid a card or an objective speaks of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesGrid")]
pub enum Grid {
    Power,
    Water,
    Both,
}

/// Which district a card hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesDistrictPick")]
pub enum DistrictPick {
    /// Roll the die: face 1-6 names D1-D6; a district not owned means the start
    /// district D1.
    Roll,
    /// The district bought last.
    Newest,
    /// The district with the highest value (ties: the lowest number).
    Richest,
}

/// Who chooses the building a card removes (B6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesChooser")]
pub enum Chooser {
    /// The owner of the city (solo, Fair Play, an event).
    Owner,
    /// The player who played the card (Despicable Annihilation, E5).
    Player,
}

/// What a trade card counts on a die face (E6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesRoute")]
pub enum Route {
    /// Industries only; the second part of the card does not apply (a 1).
    Industries,
    Trucks,
    /// Needs the airport on both sides.
    Planes,
    /// Needs D3 on both sides (M3).
    Trains,
    /// Needs a cargo ship on both sides.
    Ships,
}

/// One face of a trade card: the drawer gets `per_unit` Maya for each truck,
/// industry, ship (`units`), or a flat `per_unit` for planes and trains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesTradeFace")]
pub struct TradeFace {
    pub die: u32,
    pub route: Route,
    pub per_unit: u32,
}

/// What a card does. Amounts are Maya; a negative bank takes the loan (E4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BuildingCitiesEffect")]
pub enum Effect {
    /// Nothing happens (a calm turn).
    Nothing,
    GainMaya {
        amount: u32,
    },
    LoseMaya {
        amount: u32,
    },
    /// Lose a share of the bank (only when it is positive), rounded down.
    LoseBankPercent {
        percent: u32,
    },
    /// `amount` for each building of `target` in the city (gain or loss).
    PerBuilding {
        target: Target,
        amount: i32,
    },
    /// Pay `amount` for each owned district without a building of `target`.
    PerDistrictWithout {
        target: Target,
        amount: u32,
    },
    /// Pay nothing if `target` stands in the picked district, `adjacent` if it
    /// stands in a district next to it (cross), `farther` otherwise.
    Coverage {
        target: Target,
        pick: DistrictPick,
        adjacent: u32,
        farther: u32,
    },
    /// Pay `amount` unless the city has a building of `target`.
    UnlessBuilt {
        target: Target,
        amount: u32,
    },
    /// `amount` if the city trades this good (gain or loss).
    GoodMarket {
        good: String,
        amount: i32,
    },
    /// Remove one building of `target` (B6); nothing if there is none.
    Destroy {
        target: Target,
        chooser: Chooser,
    },
    /// The next building phase(s) are skipped.
    SkipBuildingPhase {
        turns: u32,
    },
    /// The next building phase(s) have this share of the usual moves, rounded down.
    MovesPercent {
        percent: u32,
        turns: u32,
    },
    /// The next district value collection(s) are multiplied by this share.
    ValuePercent {
        percent: u32,
        turns: u32,
    },
    /// Pay `amount` for each owned district whose grid is below `level` (E8).
    GridFailure {
        grid: Grid,
        level: u32,
        amount: u32,
    },
    /// The citizens demand a building: it becomes a priority (B5); if it cannot
    /// be built pay `impossible`, if it can but the player refuses pay `refused`.
    Demand {
        target: Target,
        impossible: u32,
        refused: u32,
    },
    /// A permanent malus of `percent` of the district's value when played; not
    /// cumulative on one district.
    DistrictPenalty {
        pick: DistrictPick,
        percent: u32,
    },
    /// A trade card (E6): the first part by die face, then the trade with a partner.
    Trade {
        faces: Vec<TradeFace>,
    },
    /// The offer of a legendary building (E7) at its handbook price.
    Legendary {
        building: String,
    },
    /// Cancels any challenge (E5).
    TaskForce,
    /// A blank card the room writes (rulebook "5 empty cards for each deck").
    Blank,
}

impl Effect {
    /// Every building this effect names, for reference checks.
    pub fn targets(&self) -> Vec<Target> {
        match self {
            Effect::PerBuilding { target, .. }
            | Effect::PerDistrictWithout { target, .. }
            | Effect::Coverage { target, .. }
            | Effect::UnlessBuilt { target, .. }
            | Effect::Destroy { target, .. }
            | Effect::Demand { target, .. } => vec![target.clone()],
            Effect::Legendary { building } => vec![Target::Building(building.clone())],
            _ => Vec::new(),
        }
    }
}

/// When a card is ignored: it does nothing unless the city owns at least
/// `min_districts` land districts and the turn is at least `min_turn`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(rename = "BuildingCitiesCondition")]
pub struct Condition {
    pub min_districts: u32,
    pub min_turn: u32,
}

/// An event or challenge card; `copies` identical cards are in the deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesCard")]
pub struct Card {
    pub id: String,
    pub name: Text,
    pub text: Text,
    pub copies: u32,
    #[serde(default)]
    pub condition: Condition,
    pub effect: Effect,
}

/// A card of the event deck (E2).
pub type EventCard = Card;
/// A card of the challenge deck (E5).
pub type ChallengeCard = Card;

/// One thing an objective asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BuildingCitiesGoal")]
pub enum Goal {
    /// At least `count` buildings of `target` in the city.
    Build { target: Target, count: u32 },
    /// At least `amount` Maya in the bank.
    Bank { amount: u32 },
    /// Both grids of `districts` districts at `level` (E8).
    GridLevel { level: u32, districts: u32 },
    /// At least `count` land districts owned.
    Districts { count: u32 },
}

/// An objective card (E1, W1-W2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesObjective")]
pub struct Objective {
    pub id: String,
    pub name: Text,
    pub text: Text,
    /// Every goal, together. Empty on a blank card.
    pub goals: Vec<Goal>,
    /// Rounds allowed (W4); `None`: capped by the rules' turn cap (W1).
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// "Don't use more than N districts" (land districts).
    #[serde(default)]
    pub max_districts: Option<u32>,
    /// What the card forbids building ("may preclude one or the other").
    #[serde(default)]
    pub forbids: Vec<Target>,
    /// "The first to X Maya wins": ends at once, no five-round rule (W2).
    #[serde(default)]
    pub race: bool,
    /// A blank card the room writes.
    #[serde(default)]
    pub blank: bool,
}
