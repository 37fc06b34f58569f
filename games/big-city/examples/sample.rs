//! Prints a short sample game log and a seat's view as JSON (for client authors).
//!
//! `cargo run -p big-city --example sample`

use big_city::{BigCity, Options};
use engine::{BotLevel, GameRng, Setup, Viewer};

fn main() {
    let setup = Setup {
        seats: 2,
        seed: 7,
        options: Options::default(),
        first_seat: Some(0),
    };
    let mut g = BigCity::new(&setup).expect("setup");
    let mut rng = GameRng::new(1);
    for _ in 0..60 {
        let Some(&seat) = g.awaiting().seats.first() else {
            break;
        };
        let Some(m) = g.bot_move(seat, BotLevel::Greedy, &mut rng) else {
            break;
        };
        println!("{}", serde_json::to_string(&m).expect("json"));
        for e in g.apply(seat, &m).expect("legal") {
            println!("  {}", serde_json::to_string(&e.kind).expect("json"));
        }
    }
    println!(
        "{}",
        serde_json::to_string_pretty(&g.view(Viewer::Seat(0))).expect("json")
    );
}
