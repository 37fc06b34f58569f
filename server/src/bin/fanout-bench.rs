//! The fan-out of a game's moves (Big City unless told), alone: seeded bot games
//! (4 seats), and for each move the update frames of 4 players and 2 spectators
//! built as a room builds them. Prints the bytes on the wire per move (update
//! frames with their WebSocket headers; the mover's own `move`, `move_ok`,
//! `legal_moves` ask and answer apart) and the time spent building frames.
//!
//!     cargo run --release -p server --bin fanout-bench -- [GAMES] [GAME] [OPTIONS]
//!
//! `GAME` is a game id (`building-cities`), `OPTIONS` its options as JSON
//! (`'{"mode":"despicable"}'`; the game's defaults when absent).
//!
//! For instruction counts of the frame building alone:
//!
//!     valgrind --tool=callgrind --toggle-collect='*fan_out_once*' \
//!         target/release/fanout-bench 20
use axum::extract::ws::Utf8Bytes;
use engine::{BotLevel, GameRng, Viewer};
use protocol::{AwaitingInfo, ServerMsg};
use serde_json::Value;
use server::fanout::{Frames, ViewCache};
use server::games::{ErasedGame, SetupDoc};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const SEATS: u8 = 4;
const SPECTATORS: u64 = 2;

/// Server-to-client WebSocket frame of `payload` bytes (RFC 6455 §5.2).
fn frame(payload: usize) -> u64 {
    payload as u64
        + match payload {
            0..=125 => 2,
            126..=65535 => 4,
            _ => 10,
        }
}

/// Client frames are masked: 4 more bytes.
fn client_frame(payload: usize) -> u64 {
    frame(payload) + 4
}

/// One move's frames for every viewer, as `Room::fan_out` builds them.
#[inline(never)]
fn fan_out_once(
    cache: &mut ViewCache,
    state: &dyn ErasedGame,
    version: u64,
    events: &[Value],
    awaiting_changed: bool,
    viewers: &[Viewer],
) -> Vec<(Viewer, Utf8Bytes)> {
    let events_json = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
    let awaiting = awaiting_changed.then(|| AwaitingInfo {
        seats: state.awaiting().seats,
        timer_ms: None,
        undo: state.undo_seat(),
        banks_ms: None,
    });
    let patches = cache.advance(state);
    let frames = Frames::new(
        version,
        &events_json,
        awaiting.as_ref(),
        state.outcome().as_ref(),
        &patches,
    );
    viewers
        .iter()
        .map(|&v| (v, frames.for_viewer(v).clone()))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let game = args.get(2).map_or("big-city", String::as_str);
    let Some(kind) = server::games::Registry::all().get(game) else {
        eprintln!("no game {game}");
        std::process::exit(2);
    };
    let options = match args.get(3) {
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(options) => options,
            Err(e) => {
                eprintln!("options are not JSON: {e}");
                std::process::exit(2);
            }
        },
        None => Value::Null,
    };
    let options = if options.is_null() {
        kind.default_options()
    } else {
        options
    };
    let viewers: Vec<Viewer> = (0..SEATS)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    let (mut moves, mut update_bytes, mut own_bytes) = (0u64, 0u64, 0u64);
    let mut by_kind = [0u64; 4]; // events, patch, rest, frames
    let mut by_field: BTreeMap<String, u64> = BTreeMap::new(); // patch bytes by view field
    let mut spent = Duration::ZERO;
    for g in 0..games {
        let setup = SetupDoc {
            seats: SEATS,
            seed: 1000 + g,
            salt: None,
            options: options.clone(),
            first_seat: None,
            names: Vec::new(),
        };
        let mut state = kind.start(&setup).expect("starts");
        let mut rng = GameRng::new(g);
        let mut cache = ViewCache::new(state.as_ref(), SEATS);
        let mut version = 0;
        while state.outcome().is_none() {
            let awaiting = state.awaiting();
            let Some(&seat) = awaiting.seats.first() else {
                break;
            };
            let level = if seat % 2 == 0 {
                BotLevel::Greedy
            } else {
                BotLevel::Random
            };
            let mv = state.bot_move(seat, level, &mut rng).expect("a bot move");
            // The mover asks its legal moves, sends the move, gets move_ok.
            let legal = serde_json::to_string(&ServerMsg::LegalMoves {
                version,
                of: None,
                moves: state.legal_moves(seat, None),
            })
            .unwrap_or_default();
            let ask = r#"{"type":"legal_moves"}"#;
            let sent = format!(
                r#"{{"type":"move","id":{version},"version":{version},"mv":{}}}"#,
                mv.get()
            );
            let ok = serde_json::to_string(&ServerMsg::MoveOk {
                id: version,
                version: version + 1,
            })
            .unwrap_or_default();
            own_bytes += frame(legal.len())
                + client_frame(ask.len())
                + client_frame(sent.len())
                + frame(ok.len());
            let applied = state.try_move(seat, &mv).expect("legal");
            let awaiting_changed = applied.state.awaiting() != awaiting;
            state = applied.state;
            version += 1;
            let started = Instant::now();
            let frames = fan_out_once(
                &mut cache,
                state.as_ref(),
                version,
                &applied.events,
                awaiting_changed,
                &viewers,
            );
            spent += started.elapsed();
            for (viewer, text) in &frames {
                let copies = if *viewer == Viewer::Spectator {
                    SPECTATORS
                } else {
                    1
                };
                update_bytes += copies * frame(text.len());
                let msg: Value = serde_json::from_str(text).expect("JSON");
                let events = msg["events"].to_string().len() as u64;
                let patch = msg["patch"].to_string().len() as u64;
                by_kind[0] += copies * events;
                by_kind[1] += copies * patch;
                for op in msg["patch"].as_array().into_iter().flatten() {
                    let field = op["path"].as_str().unwrap_or("").split('/').nth(1);
                    *by_field.entry(field.unwrap_or("").to_owned()).or_default() +=
                        copies * op.to_string().len() as u64;
                }
                by_kind[2] += copies * (text.len() as u64 - events - patch);
                by_kind[3] += copies * (frame(text.len()) - text.len() as u64);
            }
            moves += 1;
        }
    }
    let per = |n: u64| n as f64 / moves as f64;
    println!("{game}, games {games}, moves {moves}");
    println!(
        "update frames, 4 players + {SPECTATORS} spectators: {:.0} B/move \
         (events {:.0}, patches {:.0}, rest of the message {:.0}, frame headers {:.0})",
        per(update_bytes),
        per(by_kind[0]),
        per(by_kind[1]),
        per(by_kind[2]),
        per(by_kind[3]),
    );
    let mut fields: Vec<_> = by_field.into_iter().collect();
    fields.sort_by_key(|(_, bytes)| std::cmp::Reverse(*bytes));
    let fields: Vec<String> = fields
        .iter()
        .map(|(field, bytes)| format!("{field} {:.0}", per(*bytes)))
        .collect();
    println!("patch bytes by view field, B/move: {}", fields.join(", "));
    println!(
        "the mover's legal_moves ask and answer, move and move_ok: {:.0} B/move",
        per(own_bytes)
    );
    println!(
        "frame building: {:.1} µs/move",
        spent.as_secs_f64() * 1e6 / moves as f64
    );
}
