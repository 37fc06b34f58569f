//! Prints one solo game of a bot, move by move: `-- [objective] [seed] [greedy|random]`.

use building_cities::{BuildingCities, Mode, Options};
use engine::{BotLevel, Game, GameRng, Seat, Setup};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let objective = args.get(1).cloned().unwrap_or("obj_tutorial".into());
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let level = match args.get(3).map(String::as_str) {
        Some("random") => BotLevel::Random,
        _ => BotLevel::Greedy,
    };
    let setup = Setup {
        seats: 1,
        seed,
        options: Options {
            mode: Mode::Solo,
            objective: Some(objective),
            ..Options::default()
        },
        first_seat: None,
    };
    let mut g = BuildingCities::new(&setup).expect("setup");
    let mut rng = GameRng::new(seed);
    let seat: Seat = 0;
    while g.outcome().is_none() {
        let Some(mv) = g.bot_move(seat, level, &mut rng) else {
            println!("no move: timeout");
            g.timeout();
            continue;
        };
        let events = g.apply(seat, &mv).expect("legal");
        println!("round {} bank {} {:?}", g.round(), g.bank(seat), mv);
        for e in events {
            println!("    {}", serde_json::to_string(&e.kind).unwrap_or_default());
        }
    }
    println!("{:?}", g.outcome());
}
