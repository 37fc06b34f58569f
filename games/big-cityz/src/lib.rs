//! Big Cityz for CityTable: place city cards on statement boards ("founded before
//! 1700", "lies south of the equator"...), be challenged by the other players'
//! vetoes, and score when the facts on the card's back prove you right. The
//! rulebook is `shared/seeds/001`, our rulings `shared/rules/big-cityz.md`
//! (D1-D2, B1-B9); each ruling has a test named after it in `tests/rulings.rs`.
//!
//! Layout:
//! - [`cities`]: the 200 city cards and the twelve statements judged from their
//!   numbers (data in `data/cities.json`, read at compile time).
//! - [`wire`]: Options, Move, View, Event, Rule and the plain types inside them.
//! - `board`: the ring of boards and risk fields (B1), what a square judges (B2),
//!   when a board may be replaced (B5), the evidence shown after judging (B4).
//! - `game`: [`BigCityz`], the state machine of a turn (B2-B9).
//! - `view`: the one view every viewer shares.
//! - `bots`: players whose knowledge is a model ([`knowledge`]).
//! - [`synthetic`]: invented cities for tests and examples.
//!
//! A turn: the card is drawn when the turn starts; the active seat may `replace`
//! one board, then `place` (or declare `no_free_square`); the others `object` or
//! `decline` at the same time within `objection_ms`; the card is judged.

mod board;
mod bots;
pub mod cities;
mod game;
pub mod synthetic;
mod view;
pub mod wire;

pub use bots::knowledge;
pub use cities::{CITIES, City, Statement};
pub use game::{BigCityz, DECK_SIZE, TARGET, VETOES};
pub use wire::*;

use engine::{
    Awaiting, BotLevel, Game, GameRng, Illegal, NothingPrivate, Outcome, Seat, Setup, SetupError,
    Viewer,
};

impl Game for BigCityz {
    const ID: &'static str = "big-cityz";
    const NAME: &'static str = "Big Cityz";
    const SEATS: std::ops::RangeInclusive<u8> = 2..=6;

    type Options = Options;
    type Move = Move;
    type View = View;
    type Event = Event;
    type Rule = Rule;
    type Private = NothingPrivate;

    fn new(setup: &Setup<Options>) -> Result<Self, SetupError> {
        BigCityz::with_cities(setup, CITIES)
    }

    fn awaiting(&self) -> Awaiting {
        BigCityz::awaiting(self)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        BigCityz::legal_moves(self, seat)
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        BigCityz::apply(self, seat, mv)
    }

    fn timeout(&mut self) -> Vec<Event> {
        BigCityz::timeout(self)
    }

    fn view(&self, viewer: Viewer) -> View {
        BigCityz::view(self, viewer)
    }

    fn private_view(&self, _seat: Seat) -> NothingPrivate {
        NothingPrivate {}
    }

    fn outcome(&self) -> Option<Outcome> {
        BigCityz::outcome(self)
    }

    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Move> {
        bots::bot_move(self, seat, level, rng)
    }
}
