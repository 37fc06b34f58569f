//! Building Cities for CityTable: each mayor builds a city of up to six districts
//! turn by turn, paying Maya and moves for roads, grids and buildings, collecting
//! the district values and surviving event and challenge cards, until someone
//! completes the shared objective. The rulebook is `shared/seeds/004`, our rulings
//! `shared/rules/building-cities.md` (M1-M4, B1-B8, E1-E8, W1-W4, H); each ruling
//! has a test named after it.
//!
//! The rulebook's Engineer's Handbook is not published, so the crate ships its
//! own as data (`handbook/`, see its README).
//!
//! Layout:
//! - [`city`]: one player's map and placement legality.
//! - [`handbook`]: the numbers, buildings and decks as data.
//! - [`wire`]: options, moves, views, events and refusals.
//! - `game`: [`BuildingCities`], the state machine of rounds and ends of turn.
//! - `bots`: the `random` and `greedy` players.

mod bots;
pub mod city;
mod game;
pub mod handbook;
pub mod wire;

pub use city::{
    Block, City, CityData, CityRules, District, Footprint, JUNCTION, Refusal, Rotation, Sea, Spot,
    Tile, TileKind,
};
pub use game::{BuildingCities, OTHER};
pub use handbook::{Handbook, Variant};
pub use wire::*;

use engine::{
    Awaiting, BotLevel, Game, GameRng, Illegal, Outcome, Seat, Setup, SetupError, Viewer,
};

impl Game for BuildingCities {
    const ID: &'static str = "building-cities";
    const NAME: &'static str = "Building Cities";
    const SEATS: std::ops::RangeInclusive<u8> = 1..=4;

    type Options = Options;
    type Move = Move;
    type View = View;
    type Event = Event;
    type Rule = Rule;
    type Private = Private;

    fn new(setup: &Setup<Options>) -> Result<Self, SetupError> {
        BuildingCities::start(setup)
    }

    fn awaiting(&self) -> Awaiting {
        BuildingCities::awaiting(self)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        BuildingCities::legal_moves(self, seat)
    }

    /// `of` is a ground building's id (its tile moves) or [`OTHER`] (every
    /// legal move but the tile moves).
    fn legal_moves_of(&self, seat: Seat, of: &str) -> Vec<Move> {
        BuildingCities::legal_moves_of(self, seat, of)
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        BuildingCities::apply(self, seat, mv)
    }

    fn timeout(&mut self) -> Vec<Event> {
        BuildingCities::timeout(self)
    }

    fn view(&self, viewer: Viewer) -> View {
        BuildingCities::view(self, viewer)
    }

    fn private_view(&self, seat: Seat) -> Private {
        BuildingCities::private_view(self, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        BuildingCities::outcome(self)
    }

    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Move> {
        bots::bot_move(self, seat, level, rng)
    }
}
