//! The Engineer's Handbook as data (ruling H). The rulebook's own handbook is not
//! published, so the crate ships one: six JSON files in `handbook/` (see its
//! README), embedded with `include_str!` and parsed once ([`Handbook::standard`]).
//! A room may play a custom variant of the numbers ([`Variant`]).
//!
//! - [`model`]: buildings, colours, sizes, bonuses, requirements, limits, goods.
//! - [`cards`]: objectives, event and challenge cards and their effects.
//! - [`rules`]: the economy constants and the turn track.
//! - [`fit`]: whether an objective can be met within the caps and the grids.
//! - [`custom`]: a room's own cards, written on the blank ones.

pub mod cards;
pub mod custom;
pub mod fit;
pub mod model;
pub mod rules;

use cards::{Card, Objective};
use model::{Building, Good, GroupLimit};
use rules::Economy;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;
use ts_rs::TS;

/// The embedded files, by name.
pub const FILES: [(&str, &str); 6] = [
    ("rules.json", include_str!("../../handbook/rules.json")),
    (
        "buildings.json",
        include_str!("../../handbook/buildings.json"),
    ),
    ("goods.json", include_str!("../../handbook/goods.json")),
    (
        "objectives.json",
        include_str!("../../handbook/objectives.json"),
    ),
    ("events.json", include_str!("../../handbook/events.json")),
    (
        "challenges.json",
        include_str!("../../handbook/challenges.json"),
    ),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildingsFile {
    group_limits: Vec<GroupLimit>,
    buildings: Vec<Building>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengesFile {
    task_force: Card,
    cards: Vec<Card>,
}

/// The whole handbook: numbers, buildings, goods and the three decks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "BuildingCitiesHandbook")]
pub struct Handbook {
    pub economy: Economy,
    /// Caps shared by several buildings (B4).
    pub group_limits: Vec<GroupLimit>,
    pub buildings: Vec<Building>,
    pub goods: Vec<Good>,
    /// The objective deck, blank cards included.
    pub objectives: Vec<Objective>,
    /// The event deck, blank cards included.
    pub events: Vec<Card>,
    /// The challenge deck, blank cards included, without the Task Forces.
    pub challenges: Vec<Card>,
    /// The Task Force card, added `economy.challenges.task_forces` times (E5).
    pub task_force: Card,
}

/// A file of the handbook that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub file: &'static str,
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for Error {}

fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(|e| Error {
        file,
        message: e.to_string(),
    })
}

static STANDARD: LazyLock<Handbook> = LazyLock::new(|| match Handbook::parse(FILES) {
    Ok(handbook) => handbook,
    // The files are embedded and `tests/handbook.rs` parses them: this cannot
    // happen in a build whose tests pass.
    Err(error) => panic!("the embedded handbook does not parse: {error}"),
});

impl Handbook {
    /// The handbook shipped with the crate, parsed once.
    pub fn standard() -> &'static Handbook {
        &STANDARD
    }

    /// Parses the six files, given as `(name, text)` in the order of [`FILES`].
    pub fn parse(files: [(&'static str, &str); 6]) -> Result<Handbook, Error> {
        let [rules, buildings, goods, objectives, events, challenges] = files;
        let economy: Economy = parse(rules.0, rules.1)?;
        let buildings: BuildingsFile = parse(buildings.0, buildings.1)?;
        let goods: Vec<Good> = parse(goods.0, goods.1)?;
        let objectives: Vec<Objective> = parse(objectives.0, objectives.1)?;
        let events: Vec<Card> = parse(events.0, events.1)?;
        let challenges: ChallengesFile = parse(challenges.0, challenges.1)?;
        Ok(Handbook {
            economy,
            group_limits: buildings.group_limits,
            buildings: buildings.buildings,
            goods,
            objectives,
            events,
            challenges: challenges.cards,
            task_force: challenges.task_force,
        })
    }

    /// The standard handbook with a room's custom rules applied.
    pub fn with_variant(variant: &Variant) -> Handbook {
        let mut handbook = Handbook::standard().clone();
        let economy = &mut handbook.economy;
        economy.prebuilt_first_district = variant.prebuilt_first_district;
        economy.start_bank = match variant.start_bank {
            Some(bank) => bank,
            None if variant.prebuilt_first_district => economy.prebuilt_start_bank,
            None => economy.start_bank,
        };
        economy.price_percent = variant.price_percent;
        economy.price_steps.clone_from(&variant.price_steps);
        handbook
    }

    /// The building with this id.
    pub fn building(&self, id: &str) -> Option<&Building> {
        self.buildings.iter().find(|b| b.id == id)
    }

    /// The objective with this id.
    pub fn objective(&self, id: &str) -> Option<&Objective> {
        self.objectives.iter().find(|o| o.id == id)
    }

    /// The event or challenge card with this id (the Task Force included).
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.events
            .iter()
            .chain(&self.challenges)
            .chain(std::iter::once(&self.task_force))
            .find(|c| c.id == id)
    }

    /// Task Force cards to add for `players` players (E5); 0 outside 1-4.
    pub fn task_forces(&self, players: usize) -> u32 {
        let table = &self.economy.challenges.task_forces;
        players
            .checked_sub(1)
            .and_then(|i| table.get(i))
            .copied()
            .unwrap_or(0)
    }
}

/// A room's custom rules (W3, rulebook "Modifying the Ruleset"), part of the
/// lobby options. Every field has a default, so `{}` is the standard game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(rename = "BuildingCitiesVariant")]
pub struct Variant {
    /// The starting bank; `None`: the handbook's (200, or the pre-built one).
    pub start_bank: Option<u32>,
    /// Every player starts with the same first district already built.
    pub prebuilt_first_district: bool,
    /// Percent applied to every Maya price (100 = the handbook's).
    pub price_percent: u32,
    /// Further multipliers from the n-th owned district on (e.g. 200 from the
    /// 3rd, 300 from the 5th).
    pub price_steps: Vec<rules::PriceStep>,
}

impl Default for Variant {
    fn default() -> Self {
        Variant {
            start_bank: None,
            prebuilt_first_district: false,
            price_percent: 100,
            price_steps: Vec::new(),
        }
    }
}

/// Why a room's [`Variant`] is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesVariantError")]
pub enum VariantError {
    /// `start_bank` above [`Variant::MAX_START_BANK`].
    StartBank,
    /// A percent outside [`Variant::PERCENT`].
    Percent,
    /// `price_steps` not for districts 2-6, each after the one before.
    Steps,
}

impl Variant {
    pub const MAX_START_BANK: u32 = 100_000;
    pub const PERCENT: std::ops::RangeInclusive<u32> = 10..=1_000;

    /// Whether the room may play this variant.
    pub fn check(&self) -> Result<(), VariantError> {
        if self.start_bank.is_some_and(|b| b > Variant::MAX_START_BANK) {
            return Err(VariantError::StartBank);
        }
        let percents =
            std::iter::once(self.price_percent).chain(self.price_steps.iter().map(|s| s.percent));
        if percents.into_iter().any(|p| !Variant::PERCENT.contains(&p)) {
            return Err(VariantError::Percent);
        }
        let mut last = 1;
        for step in &self.price_steps {
            if step.from_districts <= last || step.from_districts > 6 {
                return Err(VariantError::Steps);
            }
            last = step.from_districts;
        }
        Ok(())
    }
}
