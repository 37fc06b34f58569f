//! Balance report: each objective played solo by the random and the greedy
//! bot over N seeded games (default 1000): success rate, median turns of the
//! successes, and complete solo games per second.
//!
//! `cargo run --release -p building-cities --example balance -- [N]`

use building_cities::{BuildingCities, Mode, Options};
use engine::{BotLevel, Game, Setup};
use std::time::Instant;

const OBJECTIVES: [&str; 4] = [
    "obj_tutorial",
    "obj_three_hotels",
    "obj_first_to_3000",
    "obj_transit_city",
];

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    println!("| objective | bot | games | success | median turns (successes) | games/s |");
    println!("|---|---|---|---|---|---|");
    for objective in OBJECTIVES {
        for (name, level) in [("random", BotLevel::Random), ("greedy", BotLevel::Greedy)] {
            let start = Instant::now();
            let mut wins = 0u64;
            let mut turns = Vec::new();
            for seed in 0..n {
                let setup = Setup {
                    seats: 1,
                    seed,
                    options: Options {
                        mode: Mode::Solo,
                        objective: Some(objective.to_string()),
                        ..Options::default()
                    },
                    first_seat: None,
                };
                let (game, _) = engine::play_out::<BuildingCities>(&setup, &[level], seed, 200_000)
                    .expect("bots play legal moves");
                if let Some(o) = game.outcome()
                    && o.winners == vec![0]
                {
                    wins += 1;
                    turns.push(game.round());
                }
            }
            turns.sort_unstable();
            let median = turns
                .get(turns.len() / 2)
                .map_or("-".to_string(), |t| t.to_string());
            let rate = start.elapsed().as_secs_f64();
            println!(
                "| {objective} | {name} | {n} | {:.1}% | {median} | {:.0} |",
                100.0 * wins as f64 / n as f64,
                n as f64 / rate.max(1e-9)
            );
        }
    }
}
