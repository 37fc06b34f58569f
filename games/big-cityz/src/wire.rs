//! The public wire types of Big Cityz: lobby [`Options`], a seat's [`Move`], what a
//! viewer sees ([`View`]) and the public game log ([`Event`]), with the refusals
//! ([`Rule`]).
//!
//! A city card is shown by its public face only ([`CityCard`]: name and country)
//! until it is judged; the numbers behind the statements appear only in a
//! [`Judgment`], each with its source ([`Evidence`]).

use crate::cities::{Continent, Statement};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Variants and settings chosen in the lobby. Every field has a default, so `{}` is
/// the standard game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
#[ts(rename = "BigCityzOptions")]
pub struct Options {
    /// B3: how long the other players have to object after a placement, in
    /// milliseconds (1,000 to 120,000).
    pub objection_ms: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            objection_ms: 10_000,
        }
    }
}

/// Green: "true of this city"; red: "not true" (B2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityzColor")]
pub enum Color {
    Green,
    Red,
}

/// The four point squares of a statement board (B1), in this order on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityzSlot")]
pub enum Slot {
    Green4,
    Green2,
    Red4,
    Red2,
}

impl Slot {
    pub const ALL: [Slot; 4] = [Slot::Green4, Slot::Green2, Slot::Red4, Slot::Red2];

    pub fn color(self) -> Color {
        match self {
            Slot::Green4 | Slot::Green2 => Color::Green,
            Slot::Red4 | Slot::Red2 => Color::Red,
        }
    }

    /// Points for a right placement.
    pub fn value(self) -> i32 {
        match self {
            Slot::Green4 | Slot::Red4 => 4,
            Slot::Green2 | Slot::Red2 => 2,
        }
    }
}

/// A place for a city card. Boards are numbered 0-3 around the ring; risk pair `p`
/// lies between board `p` and board `(p + 1) % 4` (B1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BigCityzSquare")]
pub enum Square {
    /// A point square of statement board `board`.
    Board { board: u8, slot: Slot },
    /// A risk field (8 / −2) between board `pair` and board `(pair + 1) % 4`.
    Risk { pair: u8, color: Color },
}

/// One decision. A move with a field it does not have is refused:
/// `deny_unknown_fields` holds for struct variants only, so the variants without
/// fields are written `Object {}`, not `Object` (same JSON: `{"type":"object"}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BigCityzMove")]
pub enum Move {
    /// B5: before placing, replace statement board `board` (then place on it).
    Replace { board: u8 },
    /// B2: lay the drawn card on a free square.
    Place { square: Square },
    /// B6: declare "no free square" (only when no board may be replaced).
    NoFreeSquare {},
    /// B3: put a veto marker on the card just placed.
    Object {},
    /// B3: let the placement stand.
    Decline {},
}

/// The public face of a city card: what everyone sees from the moment it is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "BigCityzCityCard")]
pub struct CityCard {
    /// The card's number in this game's city list (stable for the whole game).
    pub card: u16,
    /// The city's stable identifier (`data/cities.json`).
    pub id: String,
    pub name_en: String,
    pub name_fr: String,
    /// ISO 3166-1 alpha-2.
    pub country: String,
}

/// The airport behind statement 6.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "BigCityzAirport")]
pub struct AirportView {
    pub iata: String,
    pub name: String,
}

/// The numbers behind one statement for one city, with their source (D1). Shown
/// only once the card is judged.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "statement", rename_all = "snake_case")]
#[ts(rename = "BigCityzEvidence")]
pub enum Evidence {
    FoundedBefore1700 {
        year: i32,
        source: String,
    },
    SouthOfEquator {
        latitude: f64,
        source: String,
    },
    Above708m {
        metres: i32,
        source: String,
    },
    Mean11COrMore {
        celsius: f64,
        station: String,
        source: String,
    },
    FiveHoursFromBerlin {
        utc_offset_minutes: i32,
        time_zone: String,
    },
    InternationalAirport {
        airport: Option<AirportView>,
        source: String,
    },
    MillionInhabitants {
        #[ts(type = "number")]
        population: u64,
        year: u16,
        source: String,
    },
    LargerThan310Km2 {
        km2: f64,
        source: String,
    },
    DrivesOnTheLeft {
        value: bool,
        source: String,
    },
    EuropeOrAsia {
        continent: Continent,
    },
    OnTheSeaCoast {
        value: bool,
        source: String,
    },
    Capital {
        value: bool,
        source: String,
    },
}

/// One statement judged for the card: whether it holds and why.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BigCityzFact")]
pub struct Fact {
    pub holds: bool,
    pub evidence: Evidence,
}

/// One seat's score change at a judgment (B4). `points` is the rule's amount; the
/// score never goes below 0, so `score` is what the seat has now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "BigCityzScoreChange")]
pub struct ScoreChange {
    pub seat: u8,
    pub points: i32,
    pub score: i32,
}

/// A card turned over (B4, B6): the placement, whether it was right, and the
/// facts that decided it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BigCityzJudgment")]
pub struct Judgment {
    /// The placer.
    pub seat: u8,
    pub city: CityCard,
    /// Where the card was laid; `None` for "no free square" (B6).
    pub square: Option<Square>,
    pub right: bool,
    /// The seats that objected, in the order they did.
    pub objectors: Vec<u8>,
    /// The statements that decided it: the board's, both neighbours' for a risk
    /// field, and for "no free square" every statement next to a free square.
    pub facts: Vec<Fact>,
    /// For "no free square": the free squares that would have been right (empty
    /// when the declaration was right).
    pub right_squares: Vec<Square>,
    /// The placer's change first, then each objector's.
    pub changes: Vec<ScoreChange>,
}

/// One statement board on the ring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "BigCityzBoardView")]
pub struct BoardView {
    pub statement: Statement,
    /// The cards on green 4, green 2, red 4, red 2 (the order of [`Slot::ALL`]).
    pub squares: Vec<Option<CityCard>>,
}

/// The two risk fields between board `pair` and board `(pair + 1) % 4`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "BigCityzRiskView")]
pub struct RiskView {
    pub pair: u8,
    pub green: Option<CityCard>,
    pub red: Option<CityCard>,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityzEndReason")]
pub enum EndReason {
    /// B8: someone reached 36 and the round was finished.
    ScoreReached,
    /// No card could be drawn any more (only with a city list of a few dozen cards).
    OutOfCards,
}

/// What the game waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(rename = "BigCityzPhase")]
pub enum Phase {
    /// `seat` has drawn the current card and places it (B2), may first replace a
    /// board (B5) or declare "no free square" (B6). `replaced`: the board it
    /// replaced this turn, on which it must now place.
    Placing {
        seat: u8,
        replaced: Option<u8>,
    },
    /// B3: the other seats with a veto marker left object or decline within
    /// `window_ms`. `square: None` is a "no free square" declaration.
    Objections {
        seat: u8,
        square: Option<Square>,
        objectors: Vec<u8>,
        waiting: Vec<u8>,
        window_ms: u32,
    },
    GameOver {
        reason: EndReason,
    },
}

/// Everything a viewer may see; every viewer sees the same (no seat holds
/// anything private: the facts of a drawn card are hidden from all until judged).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BigCityzView")]
pub struct View {
    /// The viewing seat, `None` for spectators.
    pub viewer: Option<u8>,
    pub seats: u8,
    pub options: Options,
    pub first_seat: u8,
    pub phase: Phase,
    /// The card drawn this turn while it is not on a square (before placing, and
    /// during the objections to "no free square").
    pub current: Option<CityCard>,
    /// The four boards, positions 0-3.
    pub boards: Vec<BoardView>,
    /// The four risk pairs, pair `p` between boards `p` and `p + 1`.
    pub risks: Vec<RiskView>,
    pub scores: Vec<i32>,
    pub vetoes_left: Vec<u8>,
    /// Turns begun by each seat.
    pub turns: Vec<u32>,
    /// City cards in the draw pile (its order is secret).
    pub deck_count: u16,
    /// Cities still in the box, shuffled in when the draw pile runs out (B7).
    pub box_count: u16,
    /// Cards that left the game (B5, B6, timeouts), oldest first.
    pub left_game: Vec<CityCard>,
    /// Statement boards in the draw pile (face down).
    pub statement_pile: u8,
    /// Replaced statement boards, face up, oldest first.
    pub statement_discards: Vec<Statement>,
    /// The latest judgment, facts included.
    pub last_judgment: Option<Judgment>,
    /// B8: someone has reached 36; the round is being finished.
    pub final_round: bool,
    /// Winners, once over.
    pub winners: Vec<u8>,
}

/// Where the draw pile was refilled from (B7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityzRefill")]
pub enum Refill {
    /// The cities not drawn into the game at setup.
    Box,
    /// The cards that left the game.
    LeftGame,
}

/// What happened, public to everyone.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(rename = "BigCityzEventKind")]
pub enum EventKind {
    /// `seat`'s turn begins with this card drawn.
    TurnStarted {
        seat: u8,
        city: CityCard,
    },
    DeckRefilled {
        from: Refill,
        count: u16,
    },
    /// B5: the cards on the board and its risk fields left the game.
    BoardReplaced {
        seat: u8,
        board: u8,
        removed: Statement,
        statement: Statement,
        cards: Vec<CityCard>,
    },
    /// The statement discard pile became the new draw pile.
    StatementsReshuffled {
        count: u8,
    },
    Placed {
        seat: u8,
        square: Square,
    },
    DeclaredNoFreeSquare {
        seat: u8,
    },
    Objected {
        seat: u8,
    },
    Declined {
        seat: u8,
    },
    /// The objection window ran out: these seats declined.
    ObjectionsTimedOut {
        seats: Vec<u8>,
    },
    Judged {
        judgment: Judgment,
    },
    /// The turn's time ran out before a placement: the card left the game unjudged.
    TurnTimedOut {
        seat: u8,
        city: CityCard,
    },
    /// B8: `seat` reached 36; the round is finished.
    FinalRound {
        seat: u8,
    },
    GameOver {
        reason: EndReason,
        scores: Vec<i32>,
        winners: Vec<u8>,
    },
}

/// A log line: the structured event (each language says its sentence).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(rename = "BigCityzEvent")]
pub struct Event {
    pub kind: EventKind,
}

impl From<EventKind> for Event {
    fn from(kind: EventKind) -> Self {
        Event { kind }
    }
}

/// Why Big Cityz refuses a move (beside the engine's shared refusals): a stable
/// code with the arguments its sentence needs. None carries a hidden fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityzRule")]
#[serde(tag = "code", content = "args", rename_all = "snake_case")]
pub enum Rule {
    /// That move is not possible at this point of the turn.
    WrongPhase,
    /// Boards and risk pairs are numbered 0 to 3.
    NoSuchBoard { board: u8 },
    /// A card already lies there.
    SquareTaken { square: Square },
    /// B5: the board holds fewer than 3 cards, or 2 with fewer than 2 on its risk fields.
    BoardNotReplaceable { board: u8 },
    /// B5: one board per turn.
    AlreadyReplaced,
    /// B5: after replacing a board, the card goes on one of its four squares.
    MustPlaceOnNewBoard { board: u8 },
    /// B6: "no free square" only when no board may be replaced; this one may.
    BoardReplaceable { board: u8 },
    /// B3: both veto markers are used.
    NoVetoesLeft,
    /// B3: the placer does not object to his own card.
    CannotObjectOwnCard,
    /// B3: this seat has already objected or declined on this card.
    AlreadyDecided,
}

impl engine::Rule for Rule {
    fn code(&self) -> &'static str {
        match self {
            Rule::WrongPhase => "wrong_phase",
            Rule::NoSuchBoard { .. } => "no_such_board",
            Rule::SquareTaken { .. } => "square_taken",
            Rule::BoardNotReplaceable { .. } => "board_not_replaceable",
            Rule::AlreadyReplaced => "already_replaced",
            Rule::MustPlaceOnNewBoard { .. } => "must_place_on_new_board",
            Rule::BoardReplaceable { .. } => "board_replaceable",
            Rule::NoVetoesLeft => "no_vetoes_left",
            Rule::CannotObjectOwnCard => "cannot_object_own_card",
            Rule::AlreadyDecided => "already_decided",
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn typescript_declarations_are_plain() {
        let cfg = ts_rs::Config::new();
        for decl in [
            Options::decl(&cfg),
            Move::decl(&cfg),
            View::decl(&cfg),
            Event::decl(&cfg),
            EventKind::decl(&cfg),
            Evidence::decl(&cfg),
            Judgment::decl(&cfg),
            Rule::decl(&cfg),
            Phase::decl(&cfg),
        ] {
            assert!(!decl.contains("bigint"), "{decl}");
        }
        assert!(Move::decl(&cfg).contains("\"type\": \"no_free_square\""));
    }

    #[test]
    fn moves_with_unknown_fields_are_refused() {
        for text in [
            r#"{"type":"replace","board":1,"extra":1}"#,
            r#"{"type":"place","square":{"type":"board","board":0,"slot":"green4","x":1}}"#,
            r#"{"type":"place","square":{"type":"risk","pair":0,"color":"green"},"y":0}"#,
            r#"{"type":"object","extra":1}"#,
            r#"{"type":"decline","extra":null}"#,
            r#"{"type":"no_free_square","square":null}"#,
        ] {
            assert!(serde_json::from_str::<Move>(text).is_err(), "{text}");
        }
        for text in [
            r#"{"type":"replace","board":1}"#,
            r#"{"type":"place","square":{"type":"board","board":0,"slot":"red2"}}"#,
            r#"{"type":"place","square":{"type":"risk","pair":3,"color":"red"}}"#,
            r#"{"type":"object"}"#,
            r#"{"type":"decline"}"#,
            r#"{"type":"no_free_square"}"#,
        ] {
            assert!(serde_json::from_str::<Move>(text).is_ok(), "{text}");
        }
        let o: Options = serde_json::from_str("{}").unwrap();
        assert_eq!(o.objection_ms, 10_000);
    }

    #[test]
    fn each_rule_code_is_its_serde_tag() {
        use engine::Rule as _;
        let square = Square::Risk {
            pair: 1,
            color: Color::Red,
        };
        for rule in [
            Rule::WrongPhase,
            Rule::NoSuchBoard { board: 7 },
            Rule::SquareTaken { square },
            Rule::BoardNotReplaceable { board: 1 },
            Rule::AlreadyReplaced,
            Rule::MustPlaceOnNewBoard { board: 2 },
            Rule::BoardReplaceable { board: 3 },
            Rule::NoVetoesLeft,
            Rule::CannotObjectOwnCard,
            Rule::AlreadyDecided,
        ] {
            let v = serde_json::to_value(rule).unwrap();
            assert_eq!(v["code"], rule.code(), "{rule:?}");
            assert_eq!(serde_json::from_value::<Rule>(v).unwrap(), rule);
        }
    }
}
