//! Wire types of My City: what the server reads (Options, Move) and what it sends
//! (View, Event). Plain data only; TypeScript definitions come from `ts_rs::TS`.
//!
//! Coordinates: `x` is the column (0-13, west to east), `y` the row (0-10, top to
//! bottom). Cell lists indexed by cell are row-major: index `y * 14 + x`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Lobby options. The Eternal Game has no variants; the turn timer is a room setting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityOptions")]
#[serde(default)]
pub struct Options {}

/// A seat's decision for the revealed card (ruling R1). A move with a field it
/// does not have is refused: `deny_unknown_fields` holds for struct variants only,
/// so the variants without fields are written `Pass {}` (JSON `{"type":"pass"}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityMove")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Place the revealed building. `rotation` is the number of quarter turns
    /// clockwise from the printed shape (0-3); `(x, y)` is where the top-left
    /// corner of the rotated shape's bounding box goes.
    Place { x: u8, y: u8, rotation: u8 },
    /// Do not build this card; costs 1 point (not allowed for churches or at 0 points).
    Pass {},
    /// Stop playing for the rest of the game, without penalty.
    EndParticipation {},
}

/// Terrain of a cell (ruling B1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityTerrain")]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Mountain,
    Forest,
    Plain,
    Trees,
    Rocks,
    Well,
    Gold,
}

/// Building colors (ruling P1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityColor")]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// Yellow.
    Residential,
    /// Red.
    Public,
    /// Blue.
    Industrial,
    /// Purple.
    Church,
}

/// A board cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityCell")]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

/// Which side of cell `(x, y)` an edge is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityEdgeSide")]
#[serde(rename_all = "snake_case")]
pub enum EdgeSide {
    /// Between `(x, y)` and `(x + 1, y)`.
    East,
    /// Between `(x, y)` and `(x, y + 1)`.
    South,
}

/// One cell edge the river runs along (ruling B2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityRiverEdge")]
pub struct RiverEdge {
    pub x: u8,
    pub y: u8,
    pub side: EdgeSide,
}

/// The static board, identical for every player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityBoardInfo")]
pub struct BoardInfo {
    pub width: u8,
    pub height: u8,
    /// Terrain per cell, row-major (`y * width + x`).
    pub terrain: Vec<Terrain>,
    /// Per cell, row-major: `true` on the west bank of the river.
    pub west_bank: Vec<bool>,
    pub river: Vec<RiverEdge>,
    /// The two veins of gold.
    pub gold: Vec<Cell>,
}

/// One piece of the catalogue, in printed orientation (rotation 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityPieceInfo")]
pub struct PieceInfo {
    /// 0-7 residential, 8-15 public, 16-23 industrial, 24-26 churches.
    pub id: u8,
    pub color: Color,
    pub cells: Vec<Cell>,
}

/// A construction card (ruling P2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityCard")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Card {
    /// Build piece `piece` (churches included).
    Building { piece: u8, color: Color },
    /// The blocking card (ruling R4).
    Blocking,
}

/// A building standing on a player's board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityPlacement")]
pub struct Placement {
    pub piece: u8,
    pub color: Color,
    pub x: u8,
    pub y: u8,
    pub rotation: u8,
    /// The covered cells.
    pub cells: Vec<Cell>,
    /// Round in which it was built.
    pub round: u32,
}

/// A player's score, category by category (rulings S1 and S2). During the game it
/// is the score the player would have if the game ended now.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityScoreBreakdown")]
pub struct ScoreBreakdown {
    /// Starting points (10).
    pub start: i32,
    /// −1 per pass.
    pub passes: i32,
    /// +3 for the gold bonus.
    pub gold: i32,
    /// +2 per visible space with trees.
    pub trees: i32,
    /// −2 per visible space with rocks.
    pub rocks: i32,
    /// −1 per other visible buildable space (plain, well, gold).
    pub empty: i32,
    /// Buildings in the largest connected residential group.
    pub residential: i32,
    /// Buildings in the largest connected public group.
    pub public: i32,
    /// Buildings in the largest connected industrial group.
    pub industrial: i32,
    /// +3 per church with all three colors along its sides.
    pub churches: i32,
    /// +4 per visible well with all four neighbours covered.
    pub wells: i32,
    pub total: i32,
}

/// What a player can see of another (everything here is public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityPlayerView")]
pub struct PlayerView {
    pub seat: u8,
    /// Still taking part (has not ended participation).
    pub active: bool,
    /// Has decided in the current round (never what).
    pub decided: bool,
    /// Points on the scoring track: 10, −1 per pass, +3 for gold.
    pub points: i32,
    /// Gained the gold bonus.
    pub gold_bonus: bool,
    /// Buildings on the board, as of the last reveal.
    pub placements: Vec<Placement>,
    /// Live score if the game ended now (the final score once it has).
    pub score: ScoreBreakdown,
    /// Empty light green spaces (plain, well, gold) left visible per row, top row
    /// first (the tiebreak of ruling S3).
    pub empty_by_row: Vec<u8>,
}

/// What a seat's view shows beyond the spectators' (`engine::Game::Private`): an
/// overlay of these fields of [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Private {
    pub seat: Option<u8>,
    pub my_decision: Option<Move>,
    pub can_pass: bool,
}

/// Why the game ended (ruling R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityEndReason")]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Every player ended participation.
    AllEnded,
    /// The last card was played.
    DeckExhausted,
}

/// What one viewer sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityView")]
pub struct View {
    /// The viewer's seat; null for a spectator.
    pub seat: Option<u8>,
    pub board: BoardInfo,
    pub pieces: Vec<PieceInfo>,
    /// Round number, from 1.
    pub round: u32,
    /// The card players decide on now (null once the game is over).
    pub card: Option<Card>,
    /// The card blocked by the blocking card just before this round's card.
    pub blocked: Option<Card>,
    /// Every card revealed so far, in order (blocking and blocked cards included).
    pub revealed: Vec<Card>,
    /// Cards left face down.
    pub deck_count: u8,
    pub players: Vec<PlayerView>,
    /// Seats whose decision is still awaited this round.
    pub awaiting: Vec<u8>,
    /// Seats that have decided this round (never what they decided).
    pub decided: Vec<u8>,
    /// The viewer's own decision this round, until it is revealed.
    pub my_decision: Option<Move>,
    /// The viewer may pass now (false when not awaited, for a church, or at 0 points).
    pub can_pass: bool,
    /// Someone has already gained the gold bonus.
    pub gold_claimed: bool,
    pub game_over: bool,
    pub end_reason: Option<EndReason>,
    /// Final scores by seat, once the game is over.
    pub final_scores: Option<Vec<ScoreBreakdown>>,
    /// Winning seats, once the game is over (several on a shared win).
    pub winners: Vec<u8>,
}

/// What a decision was, once revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityAction")]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Place,
    Pass,
    EndParticipation,
}

/// One seat's decision, revealed with all the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityRevealedDecision")]
pub struct RevealedDecision {
    pub seat: u8,
    pub action: Action,
    /// The building placed, for `place`.
    pub placement: Option<Placement>,
    /// The timer decided for this seat (ruling R7).
    pub timed_out: bool,
}

/// Public events, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityEvent")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new round: the card everyone decides on.
    CardRevealed {
        round: u32,
        card: Card,
        deck_count: u8,
    },
    /// The blocking card was revealed and `card` was blocked (ruling R4).
    CardBlocked { card: Card },
    /// `seat` has decided (what stays hidden until the reveal).
    Decided { seat: u8 },
    /// Every active seat decided: the decisions, applied together.
    DecisionsRevealed {
        round: u32,
        decisions: Vec<RevealedDecision>,
    },
    /// These seats covered both veins of gold first (ruling R5).
    GoldBonus { seats: Vec<u8>, points: i32 },
    /// Final scores by seat and the winners (rulings S2, S3).
    GameOver {
        reason: EndReason,
        scores: Vec<ScoreBreakdown>,
        winners: Vec<u8>,
    },
}

/// Why My City refuses a decision (beside the engine's shared refusals). The
/// browser says the sentence; each variant's comment gives its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "MyCityRule")]
#[serde(tag = "code", content = "args", rename_all = "snake_case")]
pub enum Rule {
    /// Rotation is 0, 1, 2 or 3 quarter turns.
    BadRotation,
    /// The building does not fit on the board there.
    OffBoard,
    /// Buildings cannot stand in the mountains or the forest.
    NotBuildable,
    /// That space already holds one of the player's buildings.
    Occupied,
    /// A building stands entirely on one bank of the river.
    AcrossRiver,
    /// The first building has a side along the river.
    NotAlongRiver,
    /// A building shares a side with one of the player's buildings.
    NotAdjacent,
    /// The player ended his participation and makes no more decisions.
    ParticipationEnded,
    /// The player already decided this round.
    AlreadyDecided,
    /// A church cannot be passed: place it or end the participation.
    ChurchCannotPass,
    /// At 0 points a player cannot pass.
    NoPointsToPass,
}

impl engine::Rule for Rule {
    fn code(&self) -> &'static str {
        match self {
            Rule::BadRotation => "bad_rotation",
            Rule::OffBoard => "off_board",
            Rule::NotBuildable => "not_buildable",
            Rule::Occupied => "occupied",
            Rule::AcrossRiver => "across_river",
            Rule::NotAlongRiver => "not_along_river",
            Rule::NotAdjacent => "not_adjacent",
            Rule::ParticipationEnded => "participation_ended",
            Rule::AlreadyDecided => "already_decided",
            Rule::ChurchCannotPass => "church_cannot_pass",
            Rule::NoPointsToPass => "no_points_to_pass",
        }
    }
}
