//! What a finished game's record costs: bots play seeded games of every game
//! with hidden information at its largest table; each game's record is built
//! (`records::build`, what `GET /api/tables/{code}/record` serves) and checked
//! (`fairness::check_record`, what `citytable verify` runs). Prints, per game,
//! the median entries, record size (and the part that is each seat's private
//! overlays), build time and check time.
//!
//!     cargo run --release -p server --example record_bench -- 20

use std::time::{Duration, Instant};

use engine::{BotLevel, GameRng};
use protocol::RawJson;
use serde_json::{Value, json};
use server::games::{GameKind, Registry, SetupDoc};

/// The longest game played: a bots' game that goes on past it is left out.
const MAX_ENTRIES: usize = 50_000;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let registry = Registry::all();
    let tables = [
        ("big-city", 5, json!({})),
        ("my-city", 4, json!({})),
        (
            "building-cities",
            4,
            json!({"mode": "fair_play", "objective": "obj_tutorial"}),
        ),
        (
            "building-cities",
            4,
            json!({"mode": "despicable", "objective": "obj_labor_city"}),
        ),
    ];
    println!("{games} greedy bots' games per table; medians (min-max)");
    for (game, seats, options) in tables {
        let Some(kind) = registry.get(game) else {
            eprintln!("no game {game}");
            return;
        };
        let mut rows = Vec::new();
        for seed in 0..games {
            let setup = SetupDoc {
                seats,
                seed,
                salt: Some(server::fairness::new_salt()),
                options: options.clone(),
                first_seat: None,
                names: (0..seats).map(|s| format!("Bot {s}")).collect(),
            };
            let Some(entries) = play(kind.as_ref(), &setup, seed) else {
                continue;
            };
            let setup_value = serde_json::to_value(&setup).expect("a setup serializes");
            let started = Instant::now();
            let record = server::records::build(kind.as_ref(), game, &setup_value, entries.clone())
                .expect("the game replays")
                .expect("the game is over");
            let built = started.elapsed();
            let started = Instant::now();
            let check =
                server::fairness::check_record(&registry, record.as_bytes()).expect("a record");
            let checked = started.elapsed();
            assert!(
                matches!(check.replay, protocol::api::ReplayCheck::Matches { .. }),
                "{check:?}"
            );
            let mut value: Value = serde_json::from_str(&record).expect("a record is JSON");
            let overlays = value
                .as_object_mut()
                .and_then(|r| r.remove("seat_views"))
                .map_or(0, |v| v.to_string().len());
            rows.push((entries.len(), record.len(), overlays, built, checked));
        }
        let label = format!("{game} {seats} {}", options["mode"].as_str().unwrap_or(""));
        println!(
            "{label:<34} {:>3} games, entries {}, record {} KB of which overlays {} KB, build {}, check {}",
            rows.len(),
            spread(rows.iter().map(|r| r.0 as f64).collect(), ""),
            spread(rows.iter().map(|r| r.1 as f64 / 1024.0).collect(), ""),
            spread(rows.iter().map(|r| r.2 as f64 / 1024.0).collect(), ""),
            spread(rows.iter().map(|r| ms(r.3)).collect(), " ms"),
            spread(rows.iter().map(|r| ms(r.4)).collect(), " ms"),
        );
    }
}

/// Greedy bots play the game to its end; its log, or `None` past `MAX_ENTRIES`.
fn play(kind: &dyn GameKind, setup: &SetupDoc, seed: u64) -> Option<Vec<RawJson>> {
    let mut state = kind.start(setup).expect("the game starts");
    let mut rng = GameRng::new(seed);
    let mut entries = Vec::new();
    while state.outcome().is_none() && entries.len() < MAX_ENTRIES {
        let seat = *state.awaiting().seats.first()?;
        let mv = state.bot_move(seat, BotLevel::Greedy, &mut rng)?;
        let mv: Value = mv.to_value().ok()?;
        let entry = RawJson::of(&json!({"move": {"seat": seat, "mv": mv}})).ok()?;
        state = state.try_entry(&entry).ok()?.state;
        entries.push(entry);
    }
    state.outcome().is_some().then_some(entries)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// "median (min-max)" of `values`.
fn spread(mut values: Vec<f64>, unit: &str) -> String {
    if values.is_empty() {
        return "-".to_owned();
    }
    values.sort_by(f64::total_cmp);
    let (min, max) = (values[0], values[values.len() - 1]);
    let median = values[values.len() / 2];
    format!("{median:.0}{unit} ({min:.0}-{max:.0})")
}
