//! Big City (Franz-Benno Delonge) rules for CityTable.
//!
//! The crate is a pure, deterministic state machine implementing [`engine::Game`]
//! for 2-5 players with every variant of the rulebook as lobby [`Options`]. The
//! project's rulings (`shared/rules/big-city.md`, ids G1-O2) decide what the
//! rulebook leaves open; tests are named after them.
//!
//! Layout:
//! - [`wire`]: the public wire types (Options, Move, View, Event).
//! - [`geometry`]: cells, tiles, adjacency, outskirts, footprints, streets, the line.
//! - [`pieces`]: piece facts (footprint, supply) and card numbering.
//! - `game`: state, validation, scoring, turn flow, timeouts.
//! - `moves`: listing every legal move of the current decision.
//! - `view`: per-viewer views without hidden information.
//! - `bots`: random and greedy computer players.
//! - [`position`]: the text position format, its loader ([`BigCity::from_position`])
//!   and writer ([`BigCity::to_position`]).
//!
//! A turn is a sequence of small moves: optional `discard_useless` moves, one action
//! (`build`, `streetcar` [+ `streetcar` or `done`], `place_neighborhood`,
//! `exchange`, `trade_offer` ..., `pass`), then one `draw { stack }` per card.

mod bots;
mod game;
pub mod geometry;
mod moves;
pub mod pieces;
pub mod position;
#[cfg(test)]
mod props;
mod view;
pub mod wire;

pub use game::{BigCity, Surroundings, hand_size, score};
pub use position::{Position, PositionError};
pub use wire::*;

use engine::{
    Awaiting, BotLevel, Game, GameRng, Illegal, Outcome, Seat, Setup, SetupError, Viewer,
};

impl Game for BigCity {
    const ID: &'static str = "big-city";
    const NAME: &'static str = "Big City";
    const SEATS: std::ops::RangeInclusive<u8> = 2..=5;

    type Options = Options;
    type Move = Move;
    type View = View;
    type Event = Event;
    type Rule = Rule;
    type Private = Private;

    fn new(setup: &Setup<Options>) -> Result<Self, SetupError> {
        BigCity::new(setup)
    }

    fn awaiting(&self) -> Awaiting {
        BigCity::awaiting(self)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        BigCity::legal_moves(self, seat)
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        BigCity::apply(self, seat, mv)
    }

    fn timeout(&mut self) -> Vec<Event> {
        BigCity::timeout(self)
    }

    fn view(&self, viewer: Viewer) -> View {
        BigCity::view(self, viewer)
    }

    fn private_view(&self, seat: Seat) -> Private {
        BigCity::private_view(self, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        BigCity::outcome(self)
    }

    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Move> {
        BigCity::bot_move(self, seat, level, rng)
    }

    /// The moves of a turn before its draws: a discard, a build, a neighborhood
    /// placed, a streetcar segment, skipping the second one. A draw, an
    /// exchange or a trade may not be taken back.
    fn might_take_back(&self, _seat: Seat, mv: &Move) -> bool {
        matches!(
            mv,
            Move::DiscardUseless { .. }
                | Move::Build { .. }
                | Move::PlaceNeighborhood { .. }
                | Move::Streetcar { .. }
                | Move::Done {}
        )
    }

    /// Nor one that ended the turn (its period) or the game.
    fn may_take_back(&self, before: &Self, _seat: Seat, _mv: &Move) -> bool {
        self.period == before.period && self.outcome().is_none()
    }
}
