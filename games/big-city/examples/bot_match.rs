//! Greedy against random: 1,000 seeded 2-player games (seats alternate), prints
//! the greedy bot's win rate.
//!
//! `cargo run --release -p big-city --example bot_match [games]`

use big_city::{BigCity, Options};
use engine::{BotLevel, Setup};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let (mut wins, mut ties, mut losses, mut unfinished) = (0u64, 0u64, 0u64, 0u64);
    let mut greedy_points = 0i64;
    let mut random_points = 0i64;
    for seed in 0..games {
        let greedy_seat = (seed % 2) as u8;
        let levels = if greedy_seat == 0 {
            [BotLevel::Greedy, BotLevel::Random]
        } else {
            [BotLevel::Random, BotLevel::Greedy]
        };
        let setup = Setup {
            seats: 2,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let (g, _) = engine::play_out::<BigCity>(&setup, &levels, seed.wrapping_mul(31), 1_000_000)
            .expect("bot play-out is legal");
        let Some(o) = g.outcome() else {
            unfinished += 1;
            continue;
        };
        let gs = usize::from(greedy_seat);
        greedy_points += i64::from(o.scores[gs]);
        random_points += i64::from(o.scores[1 - gs]);
        match (o.winners.contains(&greedy_seat), o.winners.len()) {
            (true, 1) => wins += 1,
            (true, _) => ties += 1,
            _ => losses += 1,
        }
    }
    println!(
        "greedy vs random, {games} two-player games: greedy won {wins} ({:.1}%), tied {ties}, lost {losses}, unfinished {unfinished}; mean score greedy {:.1}, random {:.1}",
        100.0 * wins as f64 / games as f64,
        greedy_points as f64 / games as f64,
        random_points as f64 / games as f64
    );
}
