//! A seat's [`Move`], and the [`Preview`] a listed tile carries.

use super::GridSide;
use crate::city::{Block, District, Rotation, Sea};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Reads and drops a field a client may send but never sets.
fn dropped<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Preview>, D::Error> {
    serde::de::IgnoredAny::deserialize(d)?;
    Ok(None)
}

/// What building a listed tile would bring, for the board's preview.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, TS)]
#[ts(rename = "BuildingCitiesPreview")]
pub struct Preview {
    /// The Maya it costs (the room's price variant applied; 0 for a legendary
    /// building won at auction).
    pub cost: u32,
    /// The moves it takes (B1).
    pub moves: u32,
    /// How much the seat's total district value (E2: what the end of turn
    /// collects, before a card's percentage and the turn-track multiplier)
    /// changes once it stands there: its own value, its bonuses and maluses in
    /// the cross and those of its neighbours, a grid's level, a metro's pair.
    pub value: i32,
}

/// One decision. Variants without fields are written `EndTurn {}` so that
/// `deny_unknown_fields` holds for them too.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "BuildingCitiesMove")]
pub enum Move {
    /// B1, B2: one road block.
    Road { block: Block },
    /// B1, B3-B5, B8: a building of the handbook (grids, standees and offered
    /// legendary buildings included) with its north-west block on `origin`.
    Tile {
        building: String,
        rotation: Rotation,
        origin: Block,
        /// Only in the legal-move list: what it would bring, for the board's
        /// preview. A played move never carries it: whatever a client sends
        /// here is dropped when the move is read.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "dropped"
        )]
        #[ts(optional)]
        preview: Option<Preview>,
    },
    /// E3: buy a land district (also the forced purchase).
    BuyDistrict { district: District },
    /// M2: buy a sea area.
    BuySea { sea: Sea },
    /// B4: a truck on the district's roads.
    Truck { district: District },
    /// M2: a cargo ship in an owned sea area.
    Ship { sea: Sea },
    /// E8: try to raise a grid one level (the die decides).
    Upgrade { district: District, grid: GridSide },
    /// E4: pay back the loan (0 moves).
    RepayLoan {},
    /// End the building phase.
    EndTurn {},
    /// E5 (Despicable): play the challenge at `card` of the hand on `target`.
    PlayChallenge { card: u8, target: u8 },
    /// E5 (Despicable): play no challenge this turn (not with a full hand).
    KeepChallenges {},
    /// E5 (Despicable): answer a challenge with a Task Force.
    UseTaskForce {},
    /// E5 (Despicable): let the challenge hit.
    AcceptChallenge {},
    /// E7 (Despicable): bid in the open auction. The legal-move list names
    /// the lowest bid; any amount from it up to the bidder's bank is legal.
    Bid { amount: u32 },
    /// E7 (Despicable): leave the auction.
    PassAuction {},
    /// E6 (Despicable): the drawer's trade partner.
    TradePartner { seat: u8 },
    /// E5 (Despicable): the building (tile id) a played challenge removes.
    DestroyBuilding { tile: u32 },
    /// B5: take a card's demand as a priority.
    AcceptDemand {},
    /// B5: refuse a card's demand and pay its price.
    RefuseDemand {},
}

impl Move {
    /// The move as played: without what the legal-move list adds to it (a
    /// tile's preview).
    pub fn played(&self) -> Move {
        match self {
            Move::Tile {
                building,
                rotation,
                origin,
                ..
            } => Move::Tile {
                building: building.clone(),
                rotation: *rotation,
                origin: *origin,
                preview: None,
            },
            other => other.clone(),
        }
    }
}
