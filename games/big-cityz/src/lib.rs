//! Big Cityz for CityTable: place city cards on statement boards ("founded before
//! 1700", "lies south of the equator"...), be challenged by the other players'
//! vetoes, and score when the facts on the card's back prove you right. The
//! rulebook is `shared/seeds/001`, our rulings `shared/rules/big-cityz.md`.
//!
//! `cities.rs`: the 200 city cards and the twelve statements judged from their
//! numbers (data in `data/cities.json`, read at compile time).

pub mod cities;
