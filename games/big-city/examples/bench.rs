//! Benchmark: complete random games per second on one core, and the time to list
//! the legal moves of a mid-game state.
//!
//! `cargo run --release -p big-city --example bench [games]`

use big_city::{BigCity, Options};
use engine::{BotLevel, GameRng, Setup};
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let levels = [BotLevel::Random; 5];
    let mut entries = 0usize;
    let mut unfinished = 0;
    let start = Instant::now();
    for seed in 0..games {
        let setup = Setup {
            seats: 2,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let (g, log) = engine::play_out::<BigCity>(&setup, &levels, seed, 1_000_000)
            .expect("random play-out is legal");
        if g.outcome().is_none() {
            unfinished += 1;
        }
        entries += log.len();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "random 2-player games: {games} in {secs:.2} s = {:.0} complete games/s (single core), {:.0} moves/game, {:.2} M moves/s, unfinished {unfinished}",
        games as f64 / secs,
        entries as f64 / games as f64,
        entries as f64 / secs / 1e6
    );

    // A mid-game state: 4 seats, city hall built, a few neighborhoods placed.
    let mut mid: Option<BigCity> = None;
    for seed in 0..200u64 {
        let setup = Setup {
            seats: 4,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let mut g = BigCity::new(&setup).expect("setup");
        let mut rng = GameRng::new(seed);
        for _ in 0..400 {
            let Some(&seat) = g.awaiting().seats.first() else {
                break;
            };
            let Some(m) = g.bot_move(seat, BotLevel::Greedy, &mut rng) else {
                break;
            };
            if g.apply(seat, &m).is_err() {
                break;
            }
        }
        let view = g.view(engine::Viewer::Spectator);
        let hall = view
            .supply
            .iter()
            .any(|s| s.piece == big_city::Piece::CityHall && s.left == 0);
        if g.outcome().is_none() && hall && matches!(view.phase, big_city::Phase::Action { .. }) {
            mid = Some(g);
            break;
        }
    }
    let Some(g) = mid else {
        println!("no mid-game state found");
        return;
    };
    let seat = g.awaiting().seats[0];
    let n = g.legal_moves(seat).len();
    let reps = 2000;
    let start = Instant::now();
    let mut total = 0;
    for _ in 0..reps {
        total += g.legal_moves(seat).len();
    }
    let per = start.elapsed().as_secs_f64() / f64::from(reps);
    assert_eq!(total, n * reps as usize);
    println!(
        "legal-move listing, mid-game 4-player action state ({n} moves): {:.1} µs per listing",
        per * 1e6
    );
}
