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
    let cpu0 = cpu_seconds().unwrap_or(0.0);
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
    let cpu = cpu_seconds().map(|c| c - cpu0);
    println!(
        "random 2-player games: {games} complete games, {:.0} moves/game, unfinished {unfinished}",
        entries as f64 / games as f64
    );
    println!(
        "  wall clock: {secs:.2} s = {:.0} complete games/s on one thread",
        games as f64 / secs
    );
    if let Some(cpu) = cpu {
        println!(
            "  CPU time of this thread: {cpu:.2} s = {:.0} complete games/s per core ({:.2} M moves/s)",
            games as f64 / cpu,
            entries as f64 / cpu / 1e6
        );
    }

    replays(games.min(300));

    // A mid-game state: 4 seats, greedy play until city hall stands, a streetcar
    // runs and the seat to move chooses an action.
    let mut mid: Option<BigCity> = None;
    'search: for seed in 0..200u64 {
        let setup = Setup {
            seats: 4,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let mut g = BigCity::new(&setup).expect("setup");
        let mut rng = GameRng::new(seed);
        for step in 0..3000 {
            let Some(&seat) = g.awaiting().seats.first() else {
                break;
            };
            let view = g.view(engine::Viewer::Spectator);
            let hall = view
                .supply
                .iter()
                .any(|s| s.piece == big_city::Piece::CityHall && s.left == 0);
            if step > 60
                && hall
                && view.unplaced.len() >= 2
                && matches!(view.phase, big_city::Phase::Action { .. })
            {
                mid = Some(g);
                break 'search;
            }
            let level = if step % 3 == 0 {
                BotLevel::Random
            } else {
                BotLevel::Greedy
            };
            let Some(m) = g.bot_move(seat, level, &mut rng) else {
                break;
            };
            if g.apply(seat, &m).is_err() {
                break;
            }
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

/// Rebuilding games from their logs, as a server does at a restart: through
/// `engine::replay` (which keeps the state before each move a player may take
/// back, so an undo in the log replays exactly) and, for comparison, applying
/// the same entries in place, keeping nothing.
fn replays(games: u64) {
    let levels = [BotLevel::Random; 5];
    let logs: Vec<_> = (0..games)
        .map(|seed| {
            let setup = Setup {
                seats: 2,
                seed,
                options: Options::default(),
                first_seat: None,
            };
            let (_, log) = engine::play_out::<BigCity>(&setup, &levels, seed, 1_000_000)
                .expect("random play-out is legal");
            (setup, log)
        })
        .collect();
    let entries: usize = logs.iter().map(|(_, log)| log.len()).sum();
    let time = |f: &dyn Fn()| {
        let cpu0 = cpu_seconds().unwrap_or(0.0);
        let start = Instant::now();
        f();
        cpu_seconds().map_or(start.elapsed().as_secs_f64(), |c| c - cpu0)
    };
    let kept = time(&|| {
        for (setup, log) in &logs {
            engine::replay::<BigCity>(setup, log).expect("replays");
        }
    });
    let in_place = time(&|| {
        for (setup, log) in &logs {
            let mut g = BigCity::new(setup).expect("setup");
            for entry in log {
                engine::apply_entry(&mut g, entry).expect("replays");
            }
        }
    });
    println!(
        "replaying {games} logs ({entries} entries): {:.2} M entries/s keeping what may be taken back, {:.2} M entries/s in place ({:.2}x the time)",
        entries as f64 / kept / 1e6,
        entries as f64 / in_place / 1e6,
        kept / in_place
    );
}

/// CPU time used by this process so far (user + system), from `/proc/self/stat`;
/// on a busy machine it shows what one core achieves when it is not shared.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are at 11 and 12 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // Clock ticks: 100 per second on Linux.
    Some((utime + stime) / 100.0)
}
