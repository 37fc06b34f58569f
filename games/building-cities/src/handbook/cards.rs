//! The three decks (`handbook/objectives.json`, `events.json`, `challenges.json`):
//! every card has a stable id, its name and text in English and French for the
//! browser, and a structured effect or goal the rules apply (E2, E5-E7, W1-W2).

use super::Handbook;
use super::fit::{self, Unfit};
use super::model::{Category, Target, Text};
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

/// Why an effect, a condition or an objective cannot be played. The handbook's
/// cards and a room's own ([`super::custom`]) pass the same checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardError {
    /// It names a building, a good or a legendary building that does not
    /// exist, or a target no building of the right kind matches.
    Reference,
    /// A number lies outside its bounds; `max` is the highest allowed.
    Amount { max: u32 },
    /// A trade card does not give exactly one face for each die face 1-6.
    TradeFaces,
    /// An objective with no goal or more than `max`.
    Goals { max: u32 },
    /// An objective that cannot be met (the first reason of [`fit::check`]).
    Unfit(Unfit),
}

/// Every Maya amount a card names (a fixed sum or a sum per unit) is at most this.
pub const MAX_AMOUNT: u32 = 5_000;
/// Percents of the bank or of a district's value a card takes.
pub const MAX_LOSS_PERCENT: u32 = 100;
/// A card's share of the district value (the anniversary doubles it).
pub const MAX_VALUE_PERCENT: u32 = 500;
/// Turns a card's effect lasts.
pub const MAX_EFFECT_TURNS: u32 = 5;
/// Goals of one objective.
pub const MAX_GOALS: u32 = 8;
/// Buildings an objective asks for, of one target.
pub const MAX_GOAL_COUNT: u32 = 100;
/// The bank an objective asks for.
pub const MAX_GOAL_BANK: u32 = 1_000_000;
/// Targets an objective forbids.
pub const MAX_FORBIDS: u32 = 8;

fn within(value: u32, range: std::ops::RangeInclusive<u32>) -> Result<(), CardError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(CardError::Amount { max: *range.end() })
    }
}

fn signed_within(value: i32, max: u32) -> Result<(), CardError> {
    within(value.unsigned_abs(), 0..=max)
}

/// Whether some building of the handbook is one of `target`.
fn names_a_building(hb: &Handbook, target: &Target) -> Result<(), CardError> {
    if hb.buildings.iter().any(|b| b.is(target)) {
        Ok(())
    } else {
        Err(CardError::Reference)
    }
}

impl Effect {
    /// Whether the effect can be played with `hb`: every building, good and
    /// target it names exists (a demand names something a tile or a token can
    /// build; a legendary offer a legendary building), every amount is at most
    /// [`MAX_AMOUNT`], percents and turns lie within their bounds, and a trade
    /// card has one face per die face.
    pub fn check(&self, hb: &Handbook) -> Result<(), CardError> {
        let turns = |t: u32| within(t, 1..=MAX_EFFECT_TURNS);
        for target in self.targets() {
            names_a_building(hb, &target)?;
        }
        match self {
            Effect::Nothing | Effect::TaskForce | Effect::Blank => Ok(()),
            Effect::GainMaya { amount } | Effect::LoseMaya { amount } => {
                within(*amount, 0..=MAX_AMOUNT)
            }
            Effect::LoseBankPercent { percent } => within(*percent, 1..=MAX_LOSS_PERCENT),
            Effect::PerBuilding { amount, .. } => signed_within(*amount, MAX_AMOUNT),
            Effect::PerDistrictWithout { amount, .. } | Effect::UnlessBuilt { amount, .. } => {
                within(*amount, 0..=MAX_AMOUNT)
            }
            Effect::Coverage {
                adjacent, farther, ..
            } => {
                within(*adjacent, 0..=MAX_AMOUNT)?;
                within(*farther, 0..=MAX_AMOUNT)
            }
            Effect::GoodMarket { good, amount } => {
                if !hb.goods.iter().any(|g| g.id == *good) {
                    return Err(CardError::Reference);
                }
                signed_within(*amount, MAX_AMOUNT)
            }
            Effect::Destroy { .. } => Ok(()),
            Effect::SkipBuildingPhase { turns: t } => turns(*t),
            Effect::MovesPercent { percent, turns: t } => {
                within(*percent, 0..=100)?;
                turns(*t)
            }
            Effect::ValuePercent { percent, turns: t } => {
                within(*percent, 0..=MAX_VALUE_PERCENT)?;
                turns(*t)
            }
            Effect::GridFailure { level, amount, .. } => {
                let top = hb
                    .economy
                    .upgrades
                    .iter()
                    .map(|u| u.level)
                    .max()
                    .unwrap_or(1);
                within(*level, 1..=top)?;
                within(*amount, 0..=MAX_AMOUNT)
            }
            Effect::Demand {
                target,
                impossible,
                refused,
            } => {
                // A demand that nothing can meet would block every building.
                let buildable = hb.buildings.iter().any(|b| {
                    b.is(target)
                        && b.buildable
                        && !matches!(b.category, Category::Road | Category::Legendary)
                });
                if !buildable {
                    return Err(CardError::Reference);
                }
                within(*impossible, 0..=MAX_AMOUNT)?;
                within(*refused, 0..=MAX_AMOUNT)
            }
            Effect::DistrictPenalty { percent, .. } => within(*percent, 1..=MAX_LOSS_PERCENT),
            Effect::Trade { faces } => {
                let mut dice: Vec<u32> = faces.iter().map(|f| f.die).collect();
                dice.sort_unstable();
                if dice != [1, 2, 3, 4, 5, 6] {
                    return Err(CardError::TradeFaces);
                }
                faces
                    .iter()
                    .try_for_each(|f| within(f.per_unit, 0..=MAX_AMOUNT))
            }
            Effect::Legendary { building } => match hb.building(building) {
                Some(b) if b.category == Category::Legendary => Ok(()),
                _ => Err(CardError::Reference),
            },
        }
    }
}

impl Condition {
    /// Whether the condition can ever hold: at most every land district, at most
    /// the turn cap (W1).
    pub fn check(&self, hb: &Handbook) -> Result<(), CardError> {
        within(self.min_districts, 0..=hb.economy.land_districts)?;
        within(self.min_turn, 0..=hb.economy.turn_cap)
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

impl Objective {
    /// Whether the objective can be played with `hb`: one to [`MAX_GOALS`]
    /// goals, each naming existing buildings with counts within their bounds,
    /// a turn limit up to the turn cap, a district limit up to the six land
    /// districts, and it fits ([`fit::check`]: an impossible goal is refused).
    pub fn check(&self, hb: &Handbook) -> Result<(), CardError> {
        let e = &hb.economy;
        let goals = self.goals.len() as u32;
        if goals == 0 || goals > MAX_GOALS {
            return Err(CardError::Goals { max: MAX_GOALS });
        }
        for goal in &self.goals {
            match goal {
                Goal::Build { target, count } => {
                    names_a_building(hb, target)?;
                    within(*count, 1..=MAX_GOAL_COUNT)?;
                }
                Goal::Bank { amount } => within(*amount, 1..=MAX_GOAL_BANK)?,
                Goal::GridLevel { level, districts } => {
                    let top = e.upgrades.iter().map(|u| u.level).max().unwrap_or(1);
                    within(*level, 1..=top)?;
                    within(*districts, 1..=e.land_districts)?;
                }
                Goal::Districts { count } => within(*count, 1..=e.land_districts)?,
            }
        }
        if let Some(limit) = self.turn_limit {
            within(limit, 1..=e.turn_cap)?;
        }
        if let Some(max) = self.max_districts {
            within(max, 1..=e.land_districts)?;
        }
        within(self.forbids.len() as u32, 0..=MAX_FORBIDS)?;
        for target in &self.forbids {
            names_a_building(hb, target)?;
        }
        match fit::check(hb, self) {
            Ok(_) => Ok(()),
            Err(unfit) => Err(CardError::Unfit(unfit.into_iter().next().unwrap_or(
                Unfit::Districts {
                    need: e.land_districts + 1,
                    allowed: e.land_districts,
                },
            ))),
        }
    }
}
