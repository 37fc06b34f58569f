//! Writes the My City positions of the browser's board tests
//! (`web/test/fixtures/mycity-{mid,end}.json`): real views of a seeded bot game.
//!
//! `cargo run -p my-city --example my_city_fixtures [out_dir]`
//!
//! Three seats (greedy, random, greedy), the first seed from 0 whose game has
//! both positions the tests need: `mid`, the first round from 20 on where every
//! seat is still to decide, with a building card, a blocked building card and at least ten
//! moves for seat 0;
//! `end`, the game over after the last card with a single winner and a well
//! bonus on some board.

use engine::{BotLevel, Entry, Game, GameRng, Setup, Viewer};
use my_city::{Card, EndReason, MyCity, Options};
use serde_json::{Value, json};

const LEVELS: [BotLevel; 3] = [BotLevel::Greedy, BotLevel::Random, BotLevel::Greedy];
/// The seat whose view the fixtures hold.
const SEAT: u8 = 0;

fn position(game: &MyCity) -> Value {
    let awaiting = game.awaiting().seats;
    let mut doc = json!({
        "seat": SEAT,
        "awaiting": awaiting,
        "view": game.view(Viewer::Seat(SEAT)),
        "spectator": game.view(Viewer::Spectator),
        "legal": game.legal_moves(SEAT),
    });
    if let Some(outcome) = game.outcome() {
        doc["outcome"] = json!(outcome);
    }
    doc
}

fn is_mid(game: &MyCity) -> bool {
    let view = game.view(Viewer::Seat(SEAT));
    view.round >= 20
        && view.decided.is_empty()
        && view.awaiting.len() == 3
        && matches!(view.card, Some(Card::Building { .. }))
        && matches!(view.blocked, Some(Card::Building { .. }))
        && game.legal_moves(SEAT).len() >= 10
}

fn is_end(game: &MyCity) -> bool {
    let view = game.view(Viewer::Spectator);
    let wells = view
        .final_scores
        .iter()
        .flatten()
        .any(|score| score.wells > 0);
    view.end_reason == Some(EndReason::DeckExhausted) && view.winners.len() == 1 && wells
}

/// Plays `seed` to the end; the mid and end positions if it has both.
fn fixtures(seed: u64) -> Option<(Value, Value)> {
    let setup = Setup {
        seats: 3,
        seed,
        options: Options {},
        first_seat: None,
    };
    let mut game = MyCity::new(&setup).ok()?;
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let mut mid = None;
    while game.outcome().is_none() {
        if mid.is_none() && is_mid(&game) {
            mid = Some(position(&game));
        }
        let awaiting = game.awaiting();
        let seat = *awaiting.seats.first()?;
        let level = LEVELS[usize::from(seat)];
        let entry = match game.bot_move(seat, level, &mut rng) {
            Some(mv) => Entry::Move { seat, mv },
            None => Entry::Timeout {
                period: awaiting.period,
            },
        };
        engine::apply_entry(&mut game, &entry).ok()?;
    }
    Some((mid?, is_end(&game).then(|| position(&game))?))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "web/test/fixtures".to_owned());
    let (seed, (mid, end)) = (0..10_000u64)
        .find_map(|seed| fixtures(seed).map(|f| (seed, f)))
        .ok_or("no seed below 10000 has both positions")?;
    for (name, doc) in [("mycity-mid", mid), ("mycity-end", end)] {
        let path = format!("{out}/{name}.json");
        std::fs::write(&path, serde_json::to_string(&doc)? + "\n")?;
        println!("{path}: seed {seed}");
    }
    Ok(())
}
