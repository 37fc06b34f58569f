//! How long the legal-move list of a building phase is, whole and in parts:
//! at the first building decision of rounds 1, 5, 10 and 15 of bot solo
//! games, the number of moves and the JSON bytes of the `legal_moves` answer's
//! `moves` for the full list (tiles with their previews), for the largest
//! one-building part (`of` a building id) and for `of` `"other"`, and the time
//! each listing takes; then the longest full list of any building decision.
//! `-- [objective] [games] [greedy|random]` (seeds 0 to games - 1).

use building_cities::{BuildingCities, Mode, Move, OTHER, Options, Phase};
use engine::{BotLevel, Game, GameRng, Setup, Viewer};
use std::time::Instant;

fn json_bytes(moves: &[Move]) -> usize {
    serde_json::to_string(moves).map_or(0, |s| s.len())
}

/// One building decision's lists: (moves, bytes, µs) of the full list, the
/// largest building part and the other moves.
#[derive(Clone, Copy, Default)]
struct Sample {
    full: (usize, usize, f64),
    part: (usize, usize, f64),
    other: (usize, usize, f64),
}

fn timed(list: impl Fn() -> Vec<Move>) -> (usize, usize, f64) {
    let start = Instant::now();
    let moves = list();
    let us = start.elapsed().as_secs_f64() * 1e6;
    (moves.len(), json_bytes(&moves), us)
}

fn sample(g: &BuildingCities) -> Sample {
    let full = timed(|| g.legal_moves(0));
    let mut part = (0, 0, 0.0);
    let ids: Vec<String> = g
        .handbook()
        .buildings
        .iter()
        .map(|b| b.id.clone())
        .collect();
    for id in &ids {
        let one = timed(|| g.legal_moves_of(0, id));
        if one.1 > part.1 {
            part = one;
        }
    }
    let other = timed(|| g.legal_moves_of(0, OTHER));
    Sample { full, part, other }
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let objective = args.get(1).cloned().unwrap_or("obj_first_to_3000".into());
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let (level, bot) = match args.get(3).map(String::as_str) {
        Some("random") => (BotLevel::Random, "random"),
        _ => (BotLevel::Greedy, "greedy"),
    };
    let rounds = [1, 5, 10, 15];
    let mut seen: Vec<Vec<Sample>> = vec![Vec::new(); rounds.len()];
    // The longest full list of any building decision: (bytes, moves, round).
    let mut longest = (0, 0, 0);
    for seed in 0..games {
        let setup = Setup {
            seats: 1,
            seed,
            options: Options {
                mode: Mode::Solo,
                objective: Some(objective.clone()),
                ..Options::default()
            },
            first_seat: None,
        };
        let Ok(mut g) = BuildingCities::new(&setup) else {
            eprintln!("unknown objective {objective}");
            return;
        };
        let mut rng = GameRng::new(seed);
        let mut next = 0;
        while g.outcome().is_none() {
            if g.view(Viewer::Seat(0)).phase == Phase::Building {
                let moves = g.legal_moves(0);
                longest = longest.max((json_bytes(&moves), moves.len(), g.round()));
                if next < rounds.len() && g.round() >= rounds[next] {
                    seen[next].push(sample(&g));
                    next += 1;
                }
            }
            match g.bot_move(0, level, &mut rng) {
                Some(mv) => {
                    let _ = g.apply(0, &mv);
                }
                None => {
                    g.timeout();
                }
            }
        }
    }
    println!(
        "{objective}, {bot} solo, {games} games, the round's first building decision \
         (medians; max in brackets)"
    );
    println!(
        "| round | games | full: moves | full: bytes | full: µs | largest building: moves | \
         bytes | µs | other: moves | bytes | µs |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (round, list) in rounds.iter().zip(&seen) {
        if list.is_empty() {
            continue;
        }
        let cell = |f: &dyn Fn(&Sample) -> (usize, usize, f64)| {
            let moves: Vec<usize> = list.iter().map(|s| f(s).0).collect();
            let bytes: Vec<usize> = list.iter().map(|s| f(s).1).collect();
            let us: Vec<f64> = list.iter().map(|s| f(s).2).collect();
            format!(
                "{} ({}) | {} ({}) | {:.0}",
                median(moves.clone()),
                moves.iter().max().unwrap_or(&0),
                median(bytes.clone()),
                bytes.iter().max().unwrap_or(&0),
                median(us),
            )
        };
        println!(
            "| {round} | {} | {} | {} | {} |",
            list.len(),
            cell(&|s| s.full),
            cell(&|s| s.part),
            cell(&|s| s.other),
        );
    }
    println!(
        "longest full list of any building decision: {} moves, {} JSON bytes (round {})",
        longest.1, longest.0, longest.2
    );
}
