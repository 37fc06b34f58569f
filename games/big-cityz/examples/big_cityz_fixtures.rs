//! Writes the Big Cityz positions of the browser's board tests
//! (`web/test/fixtures/bigcityz-*.json`): real views of a seeded bot game over
//! the game's own city list.
//!
//! `cargo run -p big-cityz --example big_cityz_fixtures [out_dir]`
//!
//! Four seats (greedy, random, greedy, random), first seat 0, a 5 s objection
//! window; the first seed from 0 whose game has every position the tests need:
//! `placing`, seat 0 to place with a board it may replace, cards on the ring and
//! a judgment already made; `objections`, another seat's card on a square, an
//! objection already made and seat 0 still to decide; `judged`, the first
//! judgment of a risk field that someone objected to; `nofree`, the first
//! judgment of a "no free square" declaration; `end`, the game over.

use big_cityz::{BigCityz, Move, Options, Phase, Square};
use engine::{BotLevel, Entry, Game, GameRng, Setup, Viewer};
use serde_json::{Value, json};

const LEVELS: [BotLevel; 4] = [
    BotLevel::Greedy,
    BotLevel::Random,
    BotLevel::Greedy,
    BotLevel::Random,
];
/// The seat whose view the fixtures hold.
const SEAT: u8 = 0;
const NAMES: [&str; 5] = ["placing", "objections", "judged", "nofree", "end"];

fn position(game: &BigCityz) -> Value {
    let mut doc = json!({
        "seat": SEAT,
        "awaiting": game.awaiting().seats,
        "view": game.view(Viewer::Seat(SEAT)),
        "spectator": game.view(Viewer::Spectator),
        "legal": game.legal_moves(SEAT),
    });
    if let Some(outcome) = game.outcome() {
        doc["outcome"] = json!(outcome);
    }
    doc
}

fn is_placing(game: &BigCityz) -> bool {
    let view = game.view(Viewer::Spectator);
    let legal = game.legal_moves(SEAT);
    matches!(
        view.phase,
        Phase::Placing {
            seat: SEAT,
            replaced: None
        }
    ) && view.last_judgment.is_some()
        && legal.iter().any(|mv| matches!(mv, Move::Replace { .. }))
        && legal.iter().any(|mv| {
            matches!(
                mv,
                Move::Place {
                    square: Square::Risk { .. }
                }
            )
        })
}

fn is_objections(game: &BigCityz) -> bool {
    let view = game.view(Viewer::Spectator);
    matches!(&view.phase, Phase::Objections { seat, square: Some(_), objectors, waiting, .. }
        if *seat != SEAT && !objectors.is_empty() && waiting.contains(&SEAT))
}

fn is_judged(game: &BigCityz) -> bool {
    let view = game.view(Viewer::Spectator);
    view.last_judgment
        .as_ref()
        .is_some_and(|j| matches!(j.square, Some(Square::Risk { .. })) && !j.objectors.is_empty())
}

fn is_nofree(game: &BigCityz) -> bool {
    let view = game.view(Viewer::Spectator);
    view.last_judgment
        .as_ref()
        .is_some_and(|j| j.square.is_none())
}

/// Plays `seed` to the end; the five positions if it has them all.
fn fixtures(seed: u64) -> Option<Vec<Value>> {
    let setup = Setup {
        seats: 4,
        seed,
        options: Options {
            objection_ms: 5_000,
        },
        first_seat: Some(0),
    };
    let mut game = BigCityz::new(&setup).ok()?;
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let tests: [fn(&BigCityz) -> bool; 4] = [is_placing, is_objections, is_judged, is_nofree];
    let mut found: Vec<Option<Value>> = vec![None; NAMES.len()];
    while game.outcome().is_none() {
        for (slot, test) in found.iter_mut().zip(tests) {
            if slot.is_none() && test(&game) {
                *slot = Some(position(&game));
            }
        }
        let awaiting = game.awaiting();
        let seat = *awaiting.seats.first()?;
        let entry = match game.bot_move(seat, LEVELS[usize::from(seat)], &mut rng) {
            Some(mv) => Entry::Move { seat, mv },
            None => Entry::Timeout {
                period: awaiting.period,
            },
        };
        engine::apply_entry(&mut game, &entry).ok()?;
    }
    found[4] = Some(position(&game));
    found.into_iter().collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "web/test/fixtures".to_owned());
    let (seed, docs) = (0..10_000u64)
        .find_map(|seed| fixtures(seed).map(|f| (seed, f)))
        .ok_or("no seed below 10000 has every position")?;
    for (name, doc) in NAMES.iter().zip(docs) {
        let path = format!("{out}/bigcityz-{name}.json");
        std::fs::write(&path, serde_json::to_string(&doc)? + "\n")?;
        println!("{path}: seed {seed}");
    }
    Ok(())
}
