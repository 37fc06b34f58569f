//! Building Cities for CityTable: each mayor builds a city of up to six districts
//! turn by turn, paying Maya and moves for roads, grids and buildings, collecting
//! the district values and surviving event and challenge cards, until someone
//! completes the shared objective. The rulebook is `shared/seeds/004`, our rulings
//! `shared/rules/building-cities.md` (M1-M4, B1-B8, E1-E8, W1-W4, H); each ruling
//! has a test named after it.
//!
//! The rulebook's Engineer's Handbook is not published, so the crate ships its
//! own as data (`handbook/`, see its README).

pub mod city;
pub mod handbook;

pub use city::{
    Block, City, CityData, CityRules, District, Footprint, JUNCTION, Refusal, Rotation, Sea, Spot,
    Tile, TileKind,
};
pub use handbook::{Handbook, Variant};
