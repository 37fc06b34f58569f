//! Greedy against Random: plays seeded games and prints win rates and scores.
//!
//! `cargo run --release -p my-city --example my_city_bot_match [games]`

use engine::{BotLevel, Game, Setup};
use my_city::{MyCity, Options};

fn play(seats: u8, levels: &[BotLevel], seed: u64) -> (Vec<i32>, Vec<u8>, u32) {
    let setup = Setup {
        seats,
        seed,
        options: Options {},
        first_seat: None,
    };
    match engine::play_out::<MyCity>(&setup, levels, seed ^ 0x5eed, 1_000) {
        Ok((game, _)) => {
            let rounds = game.round();
            let out = game.outcome().unwrap_or(engine::Outcome {
                scores: Vec::new(),
                winners: Vec::new(),
            });
            (out.scores, out.winners, rounds)
        }
        Err(e) => {
            eprintln!("seed {seed}: {e}");
            (Vec::new(), Vec::new(), 0)
        }
    }
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);

    // Two players, seats alternating so neither level always sits first.
    let (mut greedy_wins, mut random_wins, mut shared) = (0u64, 0u64, 0u64);
    let (mut greedy_sum, mut random_sum) = (0i64, 0i64);
    for seed in 0..games {
        let greedy_seat = (seed % 2) as u8;
        let levels = if greedy_seat == 0 {
            [BotLevel::Greedy, BotLevel::Random]
        } else {
            [BotLevel::Random, BotLevel::Greedy]
        };
        let (scores, winners, _) = play(2, &levels, seed);
        if scores.len() != 2 {
            continue;
        }
        greedy_sum += i64::from(scores[usize::from(greedy_seat)]);
        random_sum += i64::from(scores[usize::from(1 - greedy_seat)]);
        match winners.as_slice() {
            [w] if *w == greedy_seat => greedy_wins += 1,
            [_] => random_wins += 1,
            _ => shared += 1,
        }
    }
    let n = games.max(1) as f64;
    println!("2 players, greedy vs random, {games} games (seeds 0..{games}):");
    println!(
        "  greedy wins {greedy_wins} ({:.1}%), random wins {random_wins} ({:.1}%), shared {shared}",
        100.0 * greedy_wins as f64 / n,
        100.0 * random_wins as f64 / n
    );
    println!(
        "  mean final score: greedy {:.2}, random {:.2}",
        greedy_sum as f64 / n,
        random_sum as f64 / n
    );

    // Solo score attack, each level alone.
    for level in [BotLevel::Random, BotLevel::Greedy] {
        let (mut sum, mut best, mut rounds) = (0i64, i32::MIN, 0u64);
        for seed in 0..games {
            let (scores, _, r) = play(1, &[level], seed);
            if let Some(&s) = scores.first() {
                sum += i64::from(s);
                best = best.max(s);
                rounds += u64::from(r);
            }
        }
        println!(
            "solo {level:?}: mean score {:.2}, best {best}, mean rounds {:.1}",
            sum as f64 / n,
            rounds as f64 / n
        );
    }
}
