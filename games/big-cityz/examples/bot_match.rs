//! The stronger bot (`greedy`, knows 90 % of the facts) against the weaker one
//! (`random`, 60 %): seeded 2-player games over 200 synthetic cities (seats
//! alternate), prints the stronger level's win share.
//!
//! `cargo run --release -p big-cityz --example bot_match -- [GAMES]`

use big_cityz::{BigCityz, Options, synthetic::synthetic_cities};
use engine::{BotLevel, Entry, Game, GameRng, Setup, apply_entry};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let cities = synthetic_cities(200, 2026);
    let (mut wins, mut ties, mut losses, mut unfinished) = (0u64, 0u64, 0u64, 0u64);
    let (mut strong_points, mut weak_points, mut turns) = (0i64, 0i64, 0u64);
    for seed in 0..games {
        let strong = (seed % 2) as u8;
        let setup = Setup {
            seats: 2,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let mut game = BigCityz::with_cities(&setup, cities).expect("setup");
        let mut rng = GameRng::new(seed.wrapping_mul(31) ^ 0x5eed);
        let mut steps = 0;
        while game.outcome().is_none() && steps < 100_000 {
            steps += 1;
            let awaiting = game.awaiting();
            let seat = awaiting.seats[0];
            let level = if seat == strong {
                BotLevel::Greedy
            } else {
                BotLevel::Random
            };
            let entry = match game.bot_move(seat, level, &mut rng) {
                Some(mv) => Entry::Move { seat, mv },
                None => Entry::Timeout {
                    period: awaiting.period,
                },
            };
            apply_entry(&mut game, &entry).expect("bots play legal moves");
        }
        let Some(o) = game.outcome() else {
            unfinished += 1;
            continue;
        };
        let s = usize::from(strong);
        strong_points += i64::from(o.scores[s]);
        weak_points += i64::from(o.scores[1 - s]);
        turns += u64::from(game.view(engine::Viewer::Spectator).turns[0]);
        match (o.winners.contains(&strong), o.winners.len()) {
            (true, 1) => wins += 1,
            (true, _) => ties += 1,
            _ => losses += 1,
        }
    }
    let n = games.max(1) as f64;
    println!(
        "strong (90 %) vs weak (60 %), {games} two-player games: strong won {wins} ({:.1}%), tied {ties}, lost {losses}, unfinished {unfinished}; mean score strong {:.1}, weak {:.1}; mean turns per seat {:.1}",
        100.0 * wins as f64 / n,
        strong_points as f64 / n,
        weak_points as f64 / n,
        turns as f64 / n,
    );
}
