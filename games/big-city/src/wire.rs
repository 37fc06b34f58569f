//! The public wire types of Big City: lobby [`Options`], a seat's [`Move`], what a
//! viewer sees ([`View`]) and the public game log ([`Event`]).
//!
//! Cards are plain numbers: a property card is its property number
//! (`10 * neighborhood + index`, so 11..=19, 21..=28, ...); the four special cards are
//! 29 (Lincoln Park), 49 (Central Park), 69 (Stanford Corporation) and
//! 89 (Rockwell Industries). A card's stack (its back) is `card / 10`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Reads and drops a field a client may send but never sets.
fn dropped<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u16>, D::Error> {
    serde::de::IgnoredAny::deserialize(d)?;
    Ok(None)
}

/// Variants and settings chosen in the lobby. Every field has a default, so `{}` is
/// the plain English game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
#[ts(rename = "BigCityOptions")]
pub struct Options {
    /// A7: the "trade cards" action.
    pub trade_cards: bool,
    /// A7: how long the other seats have to answer a trade offer, in milliseconds.
    pub trade_window_ms: u32,
    /// C5: useless cards may not be discarded for free; only exchanged.
    pub useless_must_be_exchanged: bool,
    /// S5: the streetcar line is one simple path (German rule).
    pub single_streetcar_line: bool,
    /// S6: every streetcar must border a property holding a building, park or factory.
    pub limited_streetcar_line: bool,
    /// C4: draw only from stacks of neighborhoods already in the city.
    pub limited_card_drawing: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            trade_cards: false,
            trade_window_ms: 30_000,
            useless_must_be_exchanged: false,
            single_streetcar_line: false,
            limited_streetcar_line: false,
            limited_card_drawing: false,
        }
    }
}

/// Every piece that can be placed on properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityPiece")]
pub enum Piece {
    ResidenceSingle,
    ResidenceDouble,
    ResidenceTriple,
    BusinessSingle,
    BusinessDouble,
    BusinessTriple,
    CityHall,
    Church,
    Cinema,
    PostOffice,
    Bank,
    ShoppingCenter,
    /// Park, 2 cells (card 29).
    LincolnPark,
    /// Park, 3 cells in a line (card 49).
    CentralPark,
    /// Factory, 3 cells in an L (card 69).
    StanfordCorporation,
    /// Factory, 2x2 (card 89).
    RockwellIndustries,
}

/// A street segment named by its two end points (grid vertices); `(x1, y1)` is the
/// top/left end. Cell `(x, y)` spans vertices `x..x+1`, `y..y+1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BigCitySegment")]
pub struct Segment {
    pub x1: i16,
    pub y1: i16,
    pub x2: i16,
    pub y2: i16,
}

/// One card accepted in a trade: the active seat gives `give` (one of its offered
/// cards) for answer card number `index` of `seat`'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "BigCityTradePick")]
pub struct TradePick {
    pub give: u8,
    pub seat: u8,
    pub index: u8,
}

/// One atomic step of a turn. A move with a field it does not have is refused:
/// `deny_unknown_fields` holds for struct variants only, so the variants without
/// fields are written `Done {}`, not `Done` (same JSON: `{"type":"done"}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BigCityMove")]
pub enum Move {
    /// Starting-city round (F1) or action A4: place a neighborhood tile (G2, G6).
    /// `(x, y)` is the top-left cell of the rotated tile; rotation 0/90/180/270 clockwise.
    PlaceNeighborhood {
        neighborhood: u8,
        x: i16,
        y: i16,
        rotation: u16,
    },
    /// A1 / A2: place a building (playing the cards of `cells`) or a park/factory
    /// (playing its special card; `cells` is any free footprint). `cells` are
    /// property numbers.
    Build {
        piece: Piece,
        cells: Vec<u8>,
        /// Only in the legal-move list: the points this building would score now
        /// (V1-V3), for the board's preview. A played move never carries it: whatever
        /// a client sends here is dropped when the move is read.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "dropped"
        )]
        #[ts(optional)]
        points: Option<u16>,
    },
    /// A3: place one streetcar. The second segment of an action is a second move.
    Streetcar { segment: Segment },
    /// Ends an optional step: no second streetcar, or no exchange after a failed trade.
    Done {},
    /// A5: return these cards to the bottom of their stacks (in this order), then draw.
    /// After a trade without result (A7) at most two cards.
    Exchange { cards: Vec<u8> },
    /// A6.
    Pass {},
    /// C5: before the action, discard one useless card face up.
    DiscardUseless { card: u8 },
    /// C4: draw the next card from stack `stack` (1..=8).
    Draw { stack: u8 },
    /// A7: offer one or two of your cards; others see only their neighborhoods.
    /// `wanted`: up to two neighborhoods you would like, ascending.
    TradeOffer { cards: Vec<u8>, wanted: Vec<u8> },
    /// A7: answer a trade offer with up to two of your cards (empty: decline).
    TradeAnswer { cards: Vec<u8> },
    /// A7: accept up to two answer cards (empty: no trade).
    TradeAccept { picks: Vec<TradePick> },
}

/// A neighborhood tile in the city.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityTileView")]
pub struct TileView {
    pub neighborhood: u8,
    pub x: i16,
    pub y: i16,
    pub rotation: u16,
    /// Its properties with their cells (row by row of the base orientation).
    pub cells: Vec<TileCell>,
}

/// One property of a tile and the cell it lies on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityTileCell")]
pub struct TileCell {
    pub property: u8,
    pub x: i16,
    pub y: i16,
}

/// One property of the city.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityCellView")]
pub struct CellView {
    pub property: u8,
    pub x: i16,
    pub y: i16,
    /// G5.
    pub outskirts: bool,
    /// Index into [`View::buildings`] of what covers it.
    pub building: Option<u16>,
}

/// A placed building, park or factory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityBuildingView")]
pub struct BuildingView {
    pub piece: Piece,
    /// Property numbers covered.
    pub cells: Vec<u8>,
    pub owner: u8,
    pub points: i32,
}

/// Pieces of one kind still in the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCitySupplyView")]
pub struct SupplyView {
    pub piece: Piece,
    pub left: u8,
}

/// One seat's hand as the viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityHandView")]
pub struct HandView {
    pub seat: u8,
    /// Card backs: how many cards from each stack, index 0 = stack 1 .. index 7 = stack 8
    /// (their sum is the hand's size).
    pub backs: Vec<u8>,
    /// Faces, only in the holder's own view.
    pub cards: Option<Vec<u8>>,
}

/// One seat's answer to a trade offer, by neighborhood only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityTradeAnswerView")]
pub struct TradeAnswerView {
    pub seat: u8,
    /// Neighborhoods (card backs) of the answer cards, in answer order (pick by index).
    pub neighborhoods: Vec<u8>,
}

/// A trade in progress (A7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityTradeView")]
pub struct TradeView {
    pub seat: u8,
    /// Neighborhoods of the offered cards.
    pub offered: Vec<u8>,
    /// The offered card faces, only in the offering seat's own view.
    pub offered_cards: Option<Vec<u8>>,
    pub wanted: Vec<u8>,
    /// Seats that answered so far. Who answered is public (the server's awaited
    /// seats show it too); what, even whether it declined, is not: every answer is
    /// revealed at once when the window closes.
    pub answered: Vec<u8>,
    /// Seats still to answer.
    pub waiting: Vec<u8>,
    /// Filled once the window closes (every answer in, or the time out).
    pub answers: Vec<TradeAnswerView>,
}

/// Whose decision and of what kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(rename = "BigCityPhase")]
pub enum Phase {
    /// F1: `seat` places one of `neighborhoods`.
    StartingCity { seat: u8, neighborhoods: Vec<u8> },
    /// `seat` chooses its action (useless discards allowed first).
    Action { seat: u8 },
    /// `seat` may place a second streetcar or say done.
    SecondStreetcar { seat: u8 },
    /// `seat` draws `remaining` more cards, one `draw` at a time.
    Drawing { seat: u8, remaining: u8 },
    /// Other seats answer `seat`'s offer within `window_ms`.
    TradeAnswers { seat: u8, window_ms: u32 },
    /// `seat` picks among the answers.
    TradeAccept { seat: u8 },
    /// After a trade without result: `seat` may exchange up to two cards, or done.
    TradeExchange { seat: u8 },
    /// F2.
    GameOver { reason: EndReason },
}

/// Why the game ended (F2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityEndReason")]
pub enum EndReason {
    CityComplete,
    AllPassed,
}

/// Everything one viewer may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityView")]
pub struct View {
    /// The viewing seat, `None` for spectators.
    pub viewer: Option<u8>,
    pub seats: u8,
    pub options: Options,
    /// Cards a hand is refilled to by an exchange (5, or 6 with five players).
    pub hand_size: u8,
    pub first_seat: u8,
    /// What the game waits for; its `seat` is the seat whose turn it is (also
    /// during the others' trade answers).
    pub phase: Phase,
    /// Placed tiles in placement order.
    pub tiles: Vec<TileView>,
    /// Every placed property.
    pub cells: Vec<CellView>,
    /// Neighborhoods not yet in the city.
    pub unplaced: Vec<u8>,
    pub buildings: Vec<BuildingView>,
    pub streetcars: Vec<Segment>,
    pub streetcars_left: u8,
    pub supply: Vec<SupplyView>,
    /// Points per seat.
    pub scores: Vec<i32>,
    pub hands: Vec<HandView>,
    /// Cards left in each stack, index 0 = stack 1.
    pub stacks: Vec<u8>,
    /// Face-up discards (played and useless cards), oldest first.
    pub discards: Vec<u8>,
    /// Cards drawn this turn from each stack (C4 limit is 2), index 0 = stack 1.
    /// The stacks the drawing seat may draw from are among its legal moves.
    pub drawn_this_turn: Vec<u8>,
    /// Useless cards discarded this turn, to be replaced at its end.
    pub useless_discarded: u8,
    pub passes_in_a_row: u8,
    pub trade: Option<TradeView>,
    /// Number of turns played (a turn = one seat's action).
    pub turn_number: u32,
    /// Winners, once over (F3).
    pub winners: Vec<u8>,
}

/// What a seat's view shows beyond the spectators' (`engine::Game::Private`): an
/// overlay of [`View`] holding the faces of its own hand (`hands[seat].cards`, the
/// map's one key being the seat) and of its own trade offer (`trade.offered_cards`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Private {
    pub viewer: Option<u8>,
    pub hands: std::collections::BTreeMap<u8, PrivateHand>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trade: Option<PrivateTrade>,
}

/// [`HandView::cards`] of the viewer's own hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrivateHand {
    pub cards: Vec<u8>,
}

/// [`TradeView::offered_cards`] of the viewer's own offer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrivateTrade {
    pub offered_cards: Vec<u8>,
}

/// What happened, public to everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(rename = "BigCityEventKind")]
pub enum EventKind {
    TurnStarted {
        seat: u8,
    },
    NeighborhoodPlaced {
        seat: u8,
        neighborhood: u8,
        x: i16,
        y: i16,
        rotation: u16,
    },
    Built {
        seat: u8,
        piece: Piece,
        cells: Vec<u8>,
        points: i32,
    },
    StreetcarPlaced {
        seat: u8,
        segment: Segment,
    },
    UselessDiscarded {
        seat: u8,
        card: u8,
    },
    /// Cards returned face down: only their stacks are public.
    Exchanged {
        seat: u8,
        stacks: Vec<u8>,
    },
    Drew {
        seat: u8,
        stack: u8,
    },
    /// C4: no allowed stack left; `count` draws were skipped.
    DrawsSkipped {
        seat: u8,
        count: u8,
    },
    Passed {
        seat: u8,
    },
    TimedOut {
        seat: u8,
    },
    TradeOffered {
        seat: u8,
        neighborhoods: Vec<u8>,
        wanted: Vec<u8>,
    },
    /// A seat answered the offer. Neither the cards nor their number, nor whether
    /// it declined, is told before the window closes (A7): that is
    /// [`EventKind::TradeAnswersRevealed`], for every answer at once.
    TradeAnswered {
        seat: u8,
    },
    TradeAnswersRevealed {
        answers: Vec<TradeAnswerView>,
    },
    /// One card each way, face down: only neighborhoods are public.
    Traded {
        from: u8,
        to: u8,
        given: u8,
        received: u8,
    },
    TradeFailed {
        seat: u8,
    },
    GameOver {
        reason: EndReason,
        scores: Vec<i32>,
        winners: Vec<u8>,
    },
}

/// A log line: the structured event (each language says its sentence).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityEvent")]
pub struct Event {
    pub kind: EventKind,
}

/// Why Big City refuses a move (beside the engine's shared refusals): a stable code
/// with the arguments its sentence needs, all of them public to the mover (the
/// numbers he sent, stacks, pieces). Each variant's comment gives its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "BigCityRule")]
#[serde(tag = "code", content = "args", rename_all = "snake_case")]
pub enum Rule {
    /// That move is not possible at this point of the turn.
    WrongPhase,
    /// The neighborhood is not one of the starting ones left to place (F1).
    NotInStartingSet { neighborhood: u8 },
    /// Neighborhoods are numbered 1 to 8.
    UnknownNeighborhood,
    /// Rotation is 0, 90, 180 or 270.
    BadRotation,
    /// Too far from the city.
    OutOfGrid,
    /// The neighborhood is already in the city.
    NeighborhoodPlaced { neighborhood: u8 },
    /// Neighborhoods may not overlap.
    Overlap,
    /// At least two properties of a new neighborhood border two of the city (G6).
    NotConnected,
    /// Stacks are numbered 1 to 8.
    BadStack,
    /// The stack is empty.
    StackEmpty { stack: u8 },
    /// Two cards were drawn from this stack this turn already (C4).
    StackLimit { stack: u8 },
    /// Limited card drawing: the stack's neighborhood is not in the city yet.
    StackNotInCity { stack: u8 },
    /// Choose at least `min` cards.
    TooFewCards { min: u8 },
    /// Choose at most `max` cards.
    TooManyCards { max: u8 },
    /// A card is listed twice.
    DuplicateCards,
    /// The mover does not hold this card (a number he sent).
    CardsNotHeld { card: u8 },
    /// The properties do not have the shape (or the size) of the piece.
    WrongShape { piece: Piece },
    /// A property is listed twice.
    DuplicateCells,
    /// The property is not in the city.
    CellNotInCity { property: u8 },
    /// The property is already built on.
    CellCovered { property: u8 },
    /// A building may not be placed across a streetcar.
    CrossesStreetcar,
    /// No such piece is left in the supply.
    PieceUnavailable { piece: Piece },
    /// City hall must be in the city first: before this piece, or (no piece) before
    /// new neighborhoods and the streetcar line.
    NeedsCityHall { piece: Option<Piece> },
    /// Parks and factories need their own card.
    SpecialCardNotHeld { piece: Piece },
    /// A park has at most one property on the outskirts.
    ParkOutskirts,
    /// A factory needs at least two properties on the outskirts.
    FactoryOutskirts,
    /// City hall is in the center of the city.
    CityHallOutskirts,
    /// A church needs a double-numbered property (11, 22, ... 88).
    ChurchNotDouble,
    /// A church is the last building of its neighborhood.
    ChurchNotLast { neighborhood: u8 },
    /// A cinema needs at least two residences next to it.
    CinemaPrerequisite,
    /// A post office needs a residence and a business next to it.
    PostOfficePrerequisite,
    /// A bank needs at least two businesses next to it.
    BankPrerequisite,
    /// A shopping center needs a residence, a business, a special building and the
    /// streetcar line next to it.
    ShoppingCenterPrerequisite,
    /// A street segment joins two grid points one unit apart.
    BadSegment,
    /// All 17 streetcars are placed.
    NoStreetcarsLeft,
    /// The segment is not a street of the city.
    StreetNotInCity,
    /// A streetcar may not run across a building, park or factory.
    StreetClosed,
    /// A streetcar already runs there.
    StreetcarTaken,
    /// A new streetcar extends the line.
    StreetcarNotConnected,
    /// Single line: extend it at one of its two ends, without loops.
    SingleLine,
    /// Limited line: a streetcar borders a property with a building, park or factory.
    LimitedLine,
    /// Useless cards can only be exchanged in this game.
    DiscardNotAllowed,
    /// The card is not useless: no park or factory covers its property.
    NotUseless { card: u8 },
    /// Trading cards is not played in this game.
    TradeDisabled,
    /// Name up to two different neighborhoods (1 to 8), in ascending order.
    BadWanted,
    /// At most one card per offered card, two in all.
    TooManyPicks,
    /// The card is not one the mover offered.
    NotOffered { card: u8 },
    /// Each offered card and each answer card is picked once.
    DuplicatePicks,
    /// That seat offered no answer card with this index.
    BadPick { seat: u8, index: u8 },
}

impl engine::Rule for Rule {
    fn code(&self) -> &'static str {
        match self {
            Rule::WrongPhase => "wrong_phase",
            Rule::NotInStartingSet { .. } => "not_in_starting_set",
            Rule::UnknownNeighborhood => "unknown_neighborhood",
            Rule::BadRotation => "bad_rotation",
            Rule::OutOfGrid => "out_of_grid",
            Rule::NeighborhoodPlaced { .. } => "neighborhood_placed",
            Rule::Overlap => "overlap",
            Rule::NotConnected => "not_connected",
            Rule::BadStack => "bad_stack",
            Rule::StackEmpty { .. } => "stack_empty",
            Rule::StackLimit { .. } => "stack_limit",
            Rule::StackNotInCity { .. } => "stack_not_in_city",
            Rule::TooFewCards { .. } => "too_few_cards",
            Rule::TooManyCards { .. } => "too_many_cards",
            Rule::DuplicateCards => "duplicate_cards",
            Rule::CardsNotHeld { .. } => "cards_not_held",
            Rule::WrongShape { .. } => "wrong_shape",
            Rule::DuplicateCells => "duplicate_cells",
            Rule::CellNotInCity { .. } => "cell_not_in_city",
            Rule::CellCovered { .. } => "cell_covered",
            Rule::CrossesStreetcar => "crosses_streetcar",
            Rule::PieceUnavailable { .. } => "piece_unavailable",
            Rule::NeedsCityHall { .. } => "needs_city_hall",
            Rule::SpecialCardNotHeld { .. } => "special_card_not_held",
            Rule::ParkOutskirts => "park_outskirts",
            Rule::FactoryOutskirts => "factory_outskirts",
            Rule::CityHallOutskirts => "city_hall_outskirts",
            Rule::ChurchNotDouble => "church_not_double",
            Rule::ChurchNotLast { .. } => "church_not_last",
            Rule::CinemaPrerequisite => "cinema_prerequisite",
            Rule::PostOfficePrerequisite => "post_office_prerequisite",
            Rule::BankPrerequisite => "bank_prerequisite",
            Rule::ShoppingCenterPrerequisite => "shopping_center_prerequisite",
            Rule::BadSegment => "bad_segment",
            Rule::NoStreetcarsLeft => "no_streetcars_left",
            Rule::StreetNotInCity => "street_not_in_city",
            Rule::StreetClosed => "street_closed",
            Rule::StreetcarTaken => "streetcar_taken",
            Rule::StreetcarNotConnected => "streetcar_not_connected",
            Rule::SingleLine => "single_line",
            Rule::LimitedLine => "limited_line",
            Rule::DiscardNotAllowed => "discard_not_allowed",
            Rule::NotUseless { .. } => "not_useless",
            Rule::TradeDisabled => "trade_disabled",
            Rule::BadWanted => "bad_wanted",
            Rule::TooManyPicks => "too_many_picks",
            Rule::NotOffered { .. } => "not_offered",
            Rule::DuplicatePicks => "duplicate_picks",
            Rule::BadPick { .. } => "bad_pick",
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
            Rule::decl(&cfg),
            Phase::decl(&cfg),
        ] {
            assert!(!decl.contains("bigint"), "{decl}");
        }
        assert!(Move::decl(&cfg).contains("\"type\": \"place_neighborhood\""));
    }

    #[test]
    fn moves_with_unknown_fields_are_refused() {
        for text in [
            r#"{"type":"draw","stack":3,"extra":1}"#,
            r#"{"type":"build","piece":"residence_single","cells":[11],"owner":1}"#,
            r#"{"type":"streetcar","segment":{"x1":0,"y1":0,"x2":1,"y2":0,"z":1}}"#,
            r#"{"type":"trade_accept","picks":[{"give":11,"seat":1,"index":0,"x":0}]}"#,
            r#"{"type":"pass","extra":1}"#,
            r#"{"type":"done","extra":null}"#,
        ] {
            assert!(serde_json::from_str::<Move>(text).is_err(), "{text}");
        }
        for text in [
            r#"{"type":"draw","stack":3}"#,
            r#"{"type":"streetcar","segment":{"x1":0,"y1":0,"x2":1,"y2":0}}"#,
            r#"{"type":"trade_accept","picks":[{"give":11,"seat":1,"index":0}]}"#,
            r#"{"type":"pass"}"#,
            r#"{"type":"done"}"#,
        ] {
            assert!(serde_json::from_str::<Move>(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn json_shapes() {
        let m: Move = serde_json::from_str(r#"{"type":"draw","stack":3}"#).unwrap();
        assert_eq!(m, Move::Draw { stack: 3 });
        let m: Move =
            serde_json::from_str(r#"{"type":"build","piece":"residence_double","cells":[11,12]}"#)
                .unwrap();
        assert_eq!(
            m,
            Move::Build {
                piece: Piece::ResidenceDouble,
                cells: vec![11, 12],
                points: None,
            }
        );
        // A preview's points sent back with a listed move are dropped.
        let m: Move =
            serde_json::from_str(r#"{"type":"build","piece":"church","cells":[11],"points":99}"#)
                .unwrap();
        assert_eq!(
            m,
            Move::Build {
                piece: Piece::Church,
                cells: vec![11],
                points: None,
            }
        );
        let listed = Move::Build {
            piece: Piece::Church,
            cells: vec![11],
            points: Some(15),
        };
        assert_eq!(
            serde_json::to_string(&listed).unwrap(),
            r#"{"type":"build","piece":"church","cells":[11],"points":15}"#
        );
        let o: Options = serde_json::from_str(r#"{"trade_cards":true}"#).unwrap();
        assert!(o.trade_cards);
        assert_eq!(o.trade_window_ms, 30_000);
        assert_eq!(
            serde_json::to_string(&Move::Pass {}).unwrap(),
            r#"{"type":"pass"}"#
        );
    }

    #[test]
    fn each_rule_code_is_its_serde_tag() {
        use engine::Rule as _;
        let rules = [
            Rule::WrongPhase,
            Rule::NotInStartingSet { neighborhood: 2 },
            Rule::UnknownNeighborhood,
            Rule::BadRotation,
            Rule::OutOfGrid,
            Rule::NeighborhoodPlaced { neighborhood: 2 },
            Rule::Overlap,
            Rule::NotConnected,
            Rule::BadStack,
            Rule::StackEmpty { stack: 3 },
            Rule::StackLimit { stack: 3 },
            Rule::StackNotInCity { stack: 3 },
            Rule::TooFewCards { min: 1 },
            Rule::TooManyCards { max: 2 },
            Rule::DuplicateCards,
            Rule::CardsNotHeld { card: 34 },
            Rule::WrongShape { piece: Piece::Bank },
            Rule::DuplicateCells,
            Rule::CellNotInCity { property: 34 },
            Rule::CellCovered { property: 34 },
            Rule::CrossesStreetcar,
            Rule::PieceUnavailable { piece: Piece::Bank },
            Rule::NeedsCityHall { piece: None },
            Rule::SpecialCardNotHeld {
                piece: Piece::CentralPark,
            },
            Rule::ParkOutskirts,
            Rule::FactoryOutskirts,
            Rule::CityHallOutskirts,
            Rule::ChurchNotDouble,
            Rule::ChurchNotLast { neighborhood: 2 },
            Rule::CinemaPrerequisite,
            Rule::PostOfficePrerequisite,
            Rule::BankPrerequisite,
            Rule::ShoppingCenterPrerequisite,
            Rule::BadSegment,
            Rule::NoStreetcarsLeft,
            Rule::StreetNotInCity,
            Rule::StreetClosed,
            Rule::StreetcarTaken,
            Rule::StreetcarNotConnected,
            Rule::SingleLine,
            Rule::LimitedLine,
            Rule::DiscardNotAllowed,
            Rule::NotUseless { card: 34 },
            Rule::TradeDisabled,
            Rule::BadWanted,
            Rule::TooManyPicks,
            Rule::NotOffered { card: 34 },
            Rule::DuplicatePicks,
            Rule::BadPick { seat: 1, index: 0 },
        ];
        for rule in rules {
            let v = serde_json::to_value(rule).unwrap();
            assert_eq!(v["code"], rule.code(), "{rule:?}");
            assert_eq!(serde_json::from_value::<Rule>(v).unwrap(), rule);
        }
    }
}
