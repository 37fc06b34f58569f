//! How long the legal-move list of a building phase is: the number of moves
//! and the JSON bytes of the `legal_moves` answer's `moves`, at the first
//! building decision of rounds 1, 5, 10 and 15 of bot solo games, and the longest
//! list of any building decision.
//! `-- [objective] [games] [greedy|random]` (seeds 0 to games - 1).

use building_cities::{BuildingCities, Mode, Options, Phase};
use engine::{BotLevel, Game, GameRng, Setup, Viewer};

fn json_bytes(moves: &[building_cities::Move]) -> usize {
    serde_json::to_string(moves).map_or(0, |s| s.len())
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
    // Per round: (moves, bytes) of every game that reached it.
    let mut seen: Vec<Vec<(usize, usize)>> = vec![Vec::new(); rounds.len()];
    // The longest list of any building decision of any game.
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
            let building = g.view(Viewer::Seat(0)).phase == Phase::Building;
            if building {
                let moves = g.legal_moves(0);
                longest = longest.max((json_bytes(&moves), moves.len(), g.round()));
            }
            if next < rounds.len() && g.round() >= rounds[next] && building {
                let moves = g.legal_moves(0);
                seen[next].push((moves.len(), json_bytes(&moves)));
                next += 1;
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
        "{objective}, {bot} solo, {games} games: full legal-move list at the round's first building decision"
    );
    println!(
        "longest list of any building decision: {} moves, {} JSON bytes (round {})",
        longest.1, longest.0, longest.2
    );
    println!("| round | games | moves median | moves max | JSON bytes median | JSON bytes max |");
    println!("|---|---|---|---|---|---|");
    for (round, list) in rounds.iter().zip(&mut seen) {
        if list.is_empty() {
            continue;
        }
        let median = |mut v: Vec<usize>| {
            v.sort_unstable();
            v[v.len() / 2]
        };
        let moves: Vec<usize> = list.iter().map(|x| x.0).collect();
        let bytes: Vec<usize> = list.iter().map(|x| x.1).collect();
        println!(
            "| {round} | {} | {} | {} | {} | {} |",
            list.len(),
            median(moves.clone()),
            moves.iter().max().unwrap_or(&0),
            median(bytes.clone()),
            bytes.iter().max().unwrap_or(&0),
        );
    }
}
