//! The public wire types of Building Cities: lobby [`Options`], a seat's
//! [`Move`], what a viewer sees ([`View`], [`Private`]), the public game log
//! ([`Event`]) and the refusals ([`Rule`]). Every type is named
//! `BuildingCities...` for the browser.

use crate::city::{Block, CityData, District, Rotation, Sea};
use crate::handbook::Variant;
use crate::handbook::cards::Effect;
use crate::handbook::custom::{CustomCard, CustomObjective};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod moves;
mod rule;
pub use moves::{Move, Preview};
pub use rule::Rule;

/// W3: the three ways to play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesMode")]
pub enum Mode {
    /// Player vs Events: one seat.
    #[default]
    Solo,
    /// 2-4 players, challenges hit their drawer, trade partners rotate.
    FairPlay,
    /// 2-4 players, challenges are kept face down and played on opponents.
    Despicable,
}

/// Variants and settings chosen in the lobby; `{}` is a standard solo game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(rename = "BuildingCitiesOptions")]
pub struct Options {
    pub mode: Mode,
    /// E1: an objective id; `None` draws it from the shuffled deck.
    pub objective: Option<String>,
    /// M4: a die picks one of the six protected layouts.
    pub protected_areas: bool,
    /// M4 (Despicable): the room's own protected blocks, the same in every
    /// city; empty for none. Not with `protected_areas`.
    pub protected_layout: Vec<Block>,
    /// B2: intersections per district (1-8).
    pub max_intersections: u8,
    /// E5: how long a target has to answer with a Task Force (Despicable).
    pub task_force_ms: u32,
    /// E7: how long a legendary auction stays open (Despicable).
    pub auction_ms: u32,
    /// W3: the room's custom numbers.
    pub variant: Variant,
    /// H: the room's objectives, written in order on the blank objective cards
    /// (`obj_blank_1`...); `objective` may name one.
    pub custom_objectives: Vec<CustomObjective>,
    /// H: the room's event cards, written in order on `ev_blank_1`...
    pub custom_events: Vec<CustomCard>,
    /// H: the room's challenge cards, written in order on `ch_blank_1`...
    pub custom_challenges: Vec<CustomCard>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Solo,
            objective: None,
            protected_areas: false,
            protected_layout: Vec::new(),
            max_intersections: 2,
            task_force_ms: 15_000,
            auction_ms: 20_000,
            variant: Variant::default(),
            custom_objectives: Vec::new(),
            custom_events: Vec::new(),
            custom_challenges: Vec::new(),
        }
    }
}

/// E8: which grid of a district an upgrade is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesGridSide")]
pub enum GridSide {
    Power,
    Water,
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesPhase")]
pub enum Phase {
    /// W4: every active seat builds at the same time.
    Building,
    /// E3: `seat` must buy an adjacent district.
    ForcedPurchase {
        seat: u8,
    },
    /// E5 (Despicable): `seat` may play a challenge from his hand.
    PlayChallenge {
        seat: u8,
    },
    /// E5 (Despicable): `target` may answer `by`'s challenge `card` (face up
    /// once played) with a Task Force.
    TaskForcePrompt {
        by: u8,
        target: u8,
        card: String,
    },
    /// E7 (Despicable): the open auction of a legendary building.
    Auction {
        building: String,
        drawer: u8,
        high_bid: u32,
        high_bidder: u8,
    },
    /// E6 (Despicable): `seat` chooses his trade partner among `partners`.
    TradePartner {
        seat: u8,
        partners: Vec<u8>,
    },
    /// E5 (Despicable): `seat` picks which of `target`'s `tiles` his
    /// challenge removes (least valuable first).
    ChooseDestroyed {
        seat: u8,
        target: u8,
        tiles: Vec<u32>,
    },
    /// B5: `seat` accepts a card's demand for `target` or refuses it for `refused`.
    Demand {
        seat: u8,
        target: crate::handbook::model::Target,
        refused: u32,
    },
    Over,
}

/// Why a bank changed: every Maya that enters or leaves a bank has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesBankReason")]
pub enum BankReason {
    Build,
    District,
    SeaArea,
    Upgrade,
    DistrictValue,
    Event,
    Challenge,
    Trade,
    Loan,
    Repay,
    Auction,
}

/// How a seat's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesEndReason")]
pub enum EndReason {
    /// W1/W2: the objective is met.
    Objective,
    /// W1: the objective's turn limit passed.
    TurnLimit,
    /// W1: the 150-turn cap of objectives without a limit.
    TurnCap,
    /// E4.
    Bankruptcy,
    /// W1: no legal placement remains anywhere.
    NoPlacement,
    /// W2: the five rounds after the first completion are over.
    FinalRounds,
    /// W2: a "first to X Maya" objective was reached.
    Race,
    /// Every player is out.
    NobodyLeft,
}

/// One thing that happened, for the log. Public information only.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesEventKind")]
pub enum EventKind {
    ObjectiveDrawn {
        objective: String,
    },
    ProtectedLayout {
        face: u8,
    },
    /// A bank changed by `amount` (Maya conservation: these add up).
    Bank {
        seat: u8,
        amount: i32,
        reason: BankReason,
        bank: i32,
    },
    Road {
        seat: u8,
        block: Block,
    },
    Built {
        seat: u8,
        building: String,
        tile: u32,
        rotation: Rotation,
        origin: Block,
    },
    DistrictBought {
        seat: u8,
        district: District,
    },
    SeaBought {
        seat: u8,
        sea: Sea,
    },
    Truck {
        seat: u8,
        district: District,
    },
    Ship {
        seat: u8,
        sea: Sea,
    },
    Upgrade {
        seat: u8,
        district: District,
        grid: GridSide,
        roll: u8,
        level: u8,
        success: bool,
    },
    TurnEnded {
        seat: u8,
        inactive: bool,
    },
    EventCard {
        seat: u8,
        card: String,
        applied: bool,
    },
    ChallengeCard {
        seat: u8,
        card: String,
        cancelled: bool,
    },
    /// E5 (Despicable): a card went into `seat`'s hidden hand.
    ChallengeKept {
        seat: u8,
        hand: u8,
    },
    ChallengePlayed {
        seat: u8,
        target: u8,
        card: String,
    },
    TaskForceKept {
        seat: u8,
    },
    Destroyed {
        seat: u8,
        building: String,
        tile: u32,
    },
    Goods {
        seat: u8,
        goods: Vec<String>,
    },
    TradeRoll {
        seat: u8,
        roll: u8,
        partner: Option<u8>,
    },
    LegendaryOffer {
        seat: u8,
        building: String,
    },
    LegendaryReturned {
        building: String,
    },
    AuctionBid {
        seat: u8,
        amount: u32,
    },
    AuctionWon {
        seat: u8,
        building: String,
        price: u32,
    },
    TurnMarker {
        seat: u8,
        turn: u32,
        factor: u32,
    },
    LoanTaken {
        seat: u8,
        due_turn: u32,
    },
    LoanRepaid {
        seat: u8,
    },
    MustBuyDistrict {
        seat: u8,
    },
    /// B5: a card's demand accepted (a priority) or refused (paid).
    DemandAnswered {
        seat: u8,
        accepted: bool,
    },
    Frozen {
        seat: u8,
        round: u32,
    },
    Out {
        seat: u8,
        reason: EndReason,
    },
    GameOver {
        reason: EndReason,
        winners: Vec<u8>,
    },
}

/// A log line.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BuildingCitiesEvent")]
pub struct Event {
    pub kind: EventKind,
}

impl From<EventKind> for Event {
    fn from(kind: EventKind) -> Self {
        Event { kind }
    }
}

/// A seat's standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BuildingCitiesStatus")]
pub enum Status {
    Playing,
    /// W2: completed the objective in this round.
    Frozen,
    Won,
    Lost,
    Bankrupt,
}

/// The public part of a seat.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BuildingCitiesPlayerView")]
pub struct PlayerView {
    pub city: CityData,
    pub bank: i32,
    pub status: Status,
    /// E4: the turn by which the loan must be repaid, while it runs.
    pub loan_due: Option<u32>,
    pub loan_used: bool,
    pub moves_left: u32,
    pub spent: u32,
    pub done: bool,
    pub inactive_turns: u32,
    /// E8: (power, water) level per district D1-D6.
    pub grid_levels: Vec<[u8; 2]>,
    pub goods: Vec<String>,
    pub task_forces: u32,
    /// E5 (Despicable): cards in the hidden hand.
    pub hand: u32,
    /// E7: the legendary building this seat may build.
    pub legendary_offer: Option<String>,
    /// The total district value collected at the end of the last turn.
    pub district_value: i32,
    pub frozen_round: Option<u32>,
}

/// What every viewer sees.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BuildingCitiesView")]
pub struct View {
    pub mode: Mode,
    pub objective: String,
    pub round: u32,
    pub multipliers_left: Vec<u32>,
    pub players: Vec<PlayerView>,
    pub phase: Phase,
    pub last_event: Option<String>,
    pub last_event_effect: Option<Effect>,
    pub last_challenge: Option<String>,
    pub events_left: u32,
    pub challenges_left: u32,
    pub winners: Vec<u8>,
    /// Why the game ended (the reason of its `game_over` event); `null` while
    /// it runs.
    pub end: Option<EndReason>,
    /// The viewer's own Despicable hand (card ids): `null` for spectators and
    /// in the public view; a seat's [`Private`] overlay fills it.
    pub hand: Option<Vec<String>>,
    /// The viewer's own [`Palette`] in his building phase: for each building
    /// a `tile` may name, `null` when some spot is legal now, else the first
    /// rule refusing it. `null` for spectators, in the public view and outside
    /// the seat's building phase; a seat's [`Private`] overlay fills it.
    pub palette: Option<Palette>,
}

/// For every building a `tile` move may name (by id), whether the seat may
/// build it now, in his building phase: `null` when some spot is legal
/// (`legal_moves` with `of` that id lists them), otherwise the first rule that
/// refuses it: its own checks (`not_enough_moves`,
/// `not_enough_maya`, `limit` for the city, `priority`, `forbidden`,
/// `not_offered`, `metro_pairing`); a district's (`limit`, `requirement`)
/// where a spot is; the map's when no district takes it anywhere (`map` with
/// `grids_first` or `grid_already_built`); else `no_spot`.
pub type Palette = std::collections::BTreeMap<String, Option<Rule>>;

/// What only the seat sees: his Despicable Annihilation hand and, in his
/// building phase, his palette.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BuildingCitiesPrivate")]
pub struct Private {
    pub hand: Option<Vec<String>>,
    /// `null` outside his building phase (every tile then waits for it).
    pub palette: Option<Palette>,
}
