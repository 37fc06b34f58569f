//! A room's own cards (ruling H; rulebook "Modifying the Ruleset and empty
//! cards": five empty cards per deck that the players customise). The lobby
//! options hold up to five per deck; the n-th entry of a list gives its face to
//! the deck's n-th blank card (`obj_blank_n`, `ev_blank_n`, `ch_blank_n`), which
//! then joins its deck and plays like any card. Blanks without an entry stay out
//! of the decks.
//!
//! A face is the handbook's vocabulary (goals, effects, conditions), checked as
//! the handbook's own cards are ([`Effect::check`], [`Objective::check`], which
//! runs the fit check), plus a title the host writes. Views and events name the
//! card by its id; the title reaches the browser with the options, which every
//! visitor of the table sees. The rules never put it in a sentence.

use super::Handbook;
use super::cards::{CardError, Condition, Effect, Goal, Objective};
use super::fit::Unfit;
use super::model::{Target, Text};
use engine::text::is_invisible;
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

/// Characters of a title, once cleaned.
pub const MAX_TITLE_CHARS: u32 = 40;

/// A room's objective: the blank objective card it is written on gets these
/// goals and limits (the rulebook's example: "reach 5000 Maya in 50 turns").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesCustomObjective")]
pub struct CustomObjective {
    /// The host's words, cleaned of control and invisible characters.
    #[serde(deserialize_with = "title")]
    pub title: String,
    /// Every goal, together (1-8).
    pub goals: Vec<Goal>,
    /// Rounds allowed; `None`: the turn cap (W1).
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// At most this many land districts.
    #[serde(default)]
    pub max_districts: Option<u32>,
    /// What may not be built.
    #[serde(default)]
    pub forbids: Vec<Target>,
    /// "The first to X Maya wins" (W2).
    #[serde(default)]
    pub race: bool,
}

/// A room's event or challenge card: the blank card it is written on gets this
/// effect and condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BuildingCitiesCustomCard")]
pub struct CustomCard {
    /// The host's words, cleaned of control and invisible characters.
    #[serde(deserialize_with = "title")]
    pub title: String,
    #[serde(default)]
    pub condition: Condition,
    pub effect: Effect,
}

/// The list of custom cards a refusal speaks of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    Objectives,
    Events,
    Challenges,
}

impl Deck {
    /// The lobby option that holds the list.
    pub const fn option(self) -> &'static str {
        match self {
            Deck::Objectives => "custom_objectives",
            Deck::Events => "custom_events",
            Deck::Challenges => "custom_challenges",
        }
    }
}

/// What is wrong with a custom card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CustomProblem {
    /// More cards than the deck has blanks.
    TooMany { max: u32 },
    /// The title is empty, or longer than `max_chars` once cleaned.
    Title { max_chars: u32 },
    /// An effect no room writes: a blank card or a Task Force (E5 counts those).
    Effect,
    /// The face does not pass the checks of the handbook's cards.
    Card(CardError),
}

/// A refused custom card: its list, its entry (from 1; none when the list
/// itself is refused) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomError {
    pub deck: Deck,
    pub item: Option<u32>,
    pub problem: CustomProblem,
}

impl CustomError {
    /// The stable code of the problem (`bad_settings`, reason `option_invalid`).
    pub fn code(&self) -> &'static str {
        match &self.problem {
            CustomProblem::TooMany { .. } => "too_many",
            CustomProblem::Title { .. } => "title",
            CustomProblem::Effect => "effect",
            CustomProblem::Card(e) => match e {
                CardError::Reference => "reference",
                CardError::Amount { .. } => "amount",
                CardError::TradeFaces => "trade_faces",
                CardError::Goals { .. } => "goals",
                CardError::Unfit(Unfit::CityLimit { .. }) => "unfit_city_limit",
                CardError::Unfit(Unfit::Forbidden { .. }) => "unfit_forbidden",
                CardError::Unfit(Unfit::Districts { .. }) => "unfit_districts",
                CardError::Unfit(Unfit::Moves { .. }) => "unfit_moves",
            },
        }
    }

    /// The bound the problem speaks of: the most cards, characters, goals, the
    /// highest number allowed, or what the objective's city allows.
    pub fn limit(&self) -> Option<u64> {
        let limit = match &self.problem {
            CustomProblem::TooMany { max } => *max,
            CustomProblem::Title { max_chars } => *max_chars,
            CustomProblem::Effect => return None,
            CustomProblem::Card(e) => match e {
                CardError::Amount { max } | CardError::Goals { max } => *max,
                CardError::Unfit(Unfit::CityLimit { max, .. }) => *max,
                CardError::Unfit(Unfit::Districts { allowed, .. })
                | CardError::Unfit(Unfit::Moves { allowed, .. }) => *allowed,
                CardError::Reference
                | CardError::TradeFaces
                | CardError::Unfit(Unfit::Forbidden { .. }) => return None,
            },
        };
        Some(u64::from(limit))
    }
}

/// A title as every visitor sees it: control characters (line breaks, tabs)
/// become spaces, invisible characters go, runs of spaces become one, the ends
/// are trimmed. Cleaned when the options are read, so the options a table keeps
/// and shows are the clean ones.
pub fn clean_title(raw: &str) -> String {
    let spaced: String = raw
        .chars()
        .filter(|&c| !is_invisible(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn title<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d).map(|raw| clean_title(&raw))
}

fn check_title(title: &str) -> Result<(), CustomProblem> {
    let n = title.chars().count() as u32;
    if n == 0 || n > MAX_TITLE_CHARS {
        return Err(CustomProblem::Title {
            max_chars: MAX_TITLE_CHARS,
        });
    }
    Ok(())
}

fn named(title: &str) -> Text {
    Text {
        en: title.to_string(),
        fr: title.to_string(),
    }
}

/// Writes `faces` on the blank cards of one deck, in order.
fn write_cards(
    hb: &Handbook,
    deck: Deck,
    cards: &mut [super::cards::Card],
    faces: &[CustomCard],
) -> Result<(), CustomError> {
    let blanks: Vec<usize> = (0..cards.len())
        .filter(|&i| cards[i].effect == Effect::Blank)
        .collect();
    let err = |item: Option<usize>, problem| CustomError {
        deck,
        item: item.map(|i| i as u32 + 1),
        problem,
    };
    if faces.len() > blanks.len() {
        return Err(err(
            None,
            CustomProblem::TooMany {
                max: blanks.len() as u32,
            },
        ));
    }
    for (n, (face, &at)) in faces.iter().zip(&blanks).enumerate() {
        check_title(&face.title).map_err(|p| err(Some(n), p))?;
        if matches!(face.effect, Effect::Blank | Effect::TaskForce) {
            return Err(err(Some(n), CustomProblem::Effect));
        }
        face.effect
            .check(hb)
            .and_then(|()| face.condition.check(hb))
            .map_err(|e| err(Some(n), CustomProblem::Card(e)))?;
        let card = &mut cards[at];
        card.name = named(&face.title);
        card.effect = face.effect.clone();
        card.condition = face.condition;
    }
    Ok(())
}

impl Handbook {
    /// The handbook with a room's cards written on its blank cards (ruling H);
    /// blanks without a face stay blank (and out of the decks). Refuses a list
    /// longer than the deck's blanks, a title empty or too long, a face the
    /// handbook's checks refuse and an objective that cannot be met.
    pub fn with_custom(
        mut self,
        objectives: &[CustomObjective],
        events: &[CustomCard],
        challenges: &[CustomCard],
    ) -> Result<Handbook, CustomError> {
        let blanks: Vec<usize> = (0..self.objectives.len())
            .filter(|&i| self.objectives[i].blank)
            .collect();
        let err = |item: Option<usize>, problem| CustomError {
            deck: Deck::Objectives,
            item: item.map(|i| i as u32 + 1),
            problem,
        };
        if objectives.len() > blanks.len() {
            return Err(err(
                None,
                CustomProblem::TooMany {
                    max: blanks.len() as u32,
                },
            ));
        }
        for (n, (face, &at)) in objectives.iter().zip(&blanks).enumerate() {
            check_title(&face.title).map_err(|p| err(Some(n), p))?;
            let written = Objective {
                name: named(&face.title),
                goals: face.goals.clone(),
                turn_limit: face.turn_limit,
                max_districts: face.max_districts,
                forbids: face.forbids.clone(),
                race: face.race,
                blank: false,
                ..self.objectives[at].clone()
            };
            written
                .check(&self)
                .map_err(|e| err(Some(n), CustomProblem::Card(e)))?;
            self.objectives[at] = written;
        }
        let mut cards = std::mem::take(&mut self.events);
        let written = write_cards(&self, Deck::Events, &mut cards, events);
        self.events = cards;
        written?;
        let mut cards = std::mem::take(&mut self.challenges);
        let written = write_cards(&self, Deck::Challenges, &mut cards, challenges);
        self.challenges = cards;
        written?;
        Ok(self)
    }
}
