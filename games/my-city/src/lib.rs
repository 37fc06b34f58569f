//! My City rules (Reiner Knizia), the repeatable "Eternal Game", for CityTable.
//!
//! Every player owns the same board (14 × 11 cells, a river, trees, rocks, two
//! wells, two veins of gold) and the same 27 buildings. Each round a construction
//! card is revealed and every player still in the game decides at the same time:
//! place that building, pass (−1 point), or end participation. Decisions stay
//! hidden until every active player has decided; then they are applied together.
//!
//! Layout:
//! - [`wire`]: Options, Move, View, Event and the plain types inside them.
//! - `board`: the printed board (rulings B1, B2).
//! - `pieces`: the 27 shapes and their rotations (P1).
//! - `state`: [`MyCity`], the state machine of a round (R1-R7).
//! - `score`: live and final scoring and the tiebreak (S1-S3).
//! - `bots`: Random and Greedy players.
//!
//! The rulings are in `shared/rules/my-city.md`; each has a test named after it.

mod board;
mod bots;
mod pieces;
mod score;
mod state;
pub mod wire;

#[cfg(test)]
mod tests;

pub use state::{MyCity, PlayerState};
pub use wire::{
    Action, BoardInfo, Card, Cell, Color, EdgeSide, EndReason, Event, Move, Options, PieceInfo,
    Placement, PlayerView, Private, RevealedDecision, RiverEdge, Rule, ScoreBreakdown, Terrain,
    View,
};

use engine::{
    Awaiting, BotLevel, Game, GameRng, Illegal, Outcome, Seat, Setup, SetupError, Viewer,
};

impl Game for MyCity {
    const ID: &'static str = "my-city";
    const NAME: &'static str = "My City";
    const SEATS: std::ops::RangeInclusive<u8> = 1..=4;

    type Options = Options;
    type Move = Move;
    type View = View;
    type Event = Event;
    type Rule = Rule;
    type Private = Private;

    fn new(setup: &Setup<Options>) -> Result<Self, SetupError> {
        if !Self::SEATS.contains(&setup.seats) {
            return Err(SetupError::Seats {
                min: *Self::SEATS.start(),
                max: *Self::SEATS.end(),
            });
        }
        if setup.first_seat.is_some_and(|s| s >= setup.seats) {
            return Err(SetupError::FirstSeat);
        }
        Ok(MyCity::start(setup.seats, setup.seed))
    }

    fn awaiting(&self) -> Awaiting {
        MyCity::awaiting(self)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        MyCity::legal_moves(self, seat)
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        MyCity::apply(self, seat, mv)
    }

    fn timeout(&mut self) -> Vec<Event> {
        MyCity::timeout(self)
    }

    fn view(&self, viewer: Viewer) -> View {
        MyCity::view(self, viewer)
    }

    fn private_view(&self, seat: Seat) -> Private {
        MyCity::private_view(self, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        MyCity::outcome(self)
    }

    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Move> {
        match level {
            BotLevel::Random => bots::random(self, seat, rng),
            BotLevel::Greedy => bots::greedy(self, seat, rng),
        }
    }

    /// Any decision.
    fn might_take_back(&self, _seat: Seat, _mv: &Move) -> bool {
        true
    }

    /// A decision, until the round's decisions are revealed (the last one to
    /// decide reveals them all, so his may not be taken back).
    fn may_take_back(&self, before: &Self, _seat: Seat, _mv: &Move) -> bool {
        MyCity::awaiting(self).period == MyCity::awaiting(before).period && self.outcome().is_none()
    }
}
