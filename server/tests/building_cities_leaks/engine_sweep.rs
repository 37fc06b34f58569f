//! The rules crate at every version, as the server serializes it: every
//! seat's and the spectator's view, every seat's private overlay, every
//! awaited seat's legal moves (the full list, `other`, and the parts of a
//! few buildings it lists and of one at random), the refusal of moves sent at
//! random (by the awaited seat and by another), and every step's events.

use building_cities::{BuildingCities, Move, OTHER};
use engine::{BotLevel, Game, GameRng, Seat, Viewer};
use serde_json::{Value, json};
use testkit::{Rng, env_num};

use super::{Truth, room, setup};

#[derive(Default)]
struct Counts {
    versions: u64,
    views: u64,
    overlays: u64,
    lists: u64,
    listed: u64,
    refusals: u64,
    events: u64,
    plays: u64,
}

/// A move a seat might send, legal or not (often another seat's business).
fn probe(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => json!({"type": "play_challenge", "card": rng.below(8), "target": rng.below(4)}),
        1 => json!({"type": "use_task_force"}),
        2 => json!({"type": "accept_challenge"}),
        3 => json!({"type": "keep_challenges"}),
        4 => json!({"type": "bid", "amount": rng.below(4000)}),
        5 => json!({"type": "destroy_building", "tile": rng.below(60)}),
        6 => json!({"type": "trade_partner", "seat": rng.below(4)}),
        _ => json!({"type": "tile", "building": "hotel", "rotation": "R0",
                    "origin": {"x": rng.below(24), "y": rng.below(16)}}),
    }
}

/// Judges one message; panics with what leaked.
fn judge(truth: &Truth, what: &str, msg: &Value, viewer: Option<Seat>, k: usize, answer: bool) {
    let raw = msg.to_string();
    let found = truth.leaks(&raw, msg, viewer, k, answer);
    assert!(
        found.is_empty(),
        "{what} to {viewer:?} at version {k}: {found:?}\n{raw}"
    );
}

fn lists(g: &BuildingCities, truth: &Truth, k: usize, seat: Seat, rng: &mut Rng, c: &mut Counts) {
    let full = g.legal_moves(seat);
    // `other`, a few of the buildings listed and one at random: the parts add
    // up to the full list (the rules crate's `tests/listing.rs`).
    let mut parts: Vec<String> = vec![OTHER.into()];
    for m in &full {
        if let Move::Tile { building, .. } = m
            && !parts.contains(building)
            && parts.len() < 4
        {
            parts.push(building.clone());
        }
    }
    let buildings = &g.handbook().buildings;
    parts.push(
        buildings[rng.below(buildings.len() as u64) as usize]
            .id
            .clone(),
    );
    c.listed += full.len() as u64;
    let answer = |moves: &Vec<Move>, of: Option<&str>| json!({"type": "legal_moves", "version": k, "of": of, "moves": moves});
    judge(
        truth,
        "legal moves",
        &answer(&full, None),
        Some(seat),
        k,
        true,
    );
    for of in &parts {
        let part = g.legal_moves_of(seat, of);
        judge(
            truth,
            "legal moves",
            &answer(&part, Some(of)),
            Some(seat),
            k,
            true,
        );
    }
    c.lists += 1 + parts.len() as u64;
}

/// One seeded game, judged at every version.
fn sweep(n: u64, rng: &mut Rng, c: &mut Counts) {
    let (seats, options) = room(n, rng, None);
    let seed = rng.next();
    let mut g = BuildingCities::new(&setup(seats, seed, &options)).expect("setup");
    let mut truth = Truth::start(&g, seed);
    let mut bot_rng = GameRng::new(rng.next());
    let viewers: Vec<Option<Seat>> = (0..seats).map(Some).chain([None]).collect();
    for _ in 0..1500 {
        let k = truth.versions() - 1;
        c.versions += 1;
        for &v in &viewers {
            let view = json!(g.view(v.map_or(Viewer::Spectator, Viewer::Seat)));
            judge(&truth, "view", &view, v, k, false);
            c.views += 1;
            if let Some(s) = v {
                judge(&truth, "overlay", &json!(g.private_view(s)), v, k, false);
                c.overlays += 1;
            }
        }
        if g.outcome().is_some() {
            break;
        }
        let awaiting = g.awaiting();
        for &s in &awaiting.seats {
            lists(&g, &truth, k, s, rng, c);
        }
        let seat = awaiting.seats[rng.below(awaiting.seats.len() as u64) as usize];
        // Refused moves, as the server sends their refusal, say nothing hidden
        // and change nothing.
        for who in [seat, (seat + 1) % seats] {
            let Ok(mv) = serde_json::from_value::<Move>(probe(rng)) else {
                continue;
            };
            let mut copy = g.clone();
            if let Err(e) = copy.apply(who, &mv) {
                let rule = json!(e);
                let err = json!({"type": "error", "code": "illegal_move", "rule": e.code(), "args": rule.get("args")});
                judge(&truth, "refusal", &err, Some(who), k, true);
                assert_eq!(
                    json!(copy.view(Viewer::Spectator)),
                    json!(g.view(Viewer::Spectator))
                );
                c.refusals += 1;
            }
        }
        let legal = g.legal_moves(seat);
        let events = match rng.below(20) {
            0 => g.timeout(),
            1..=12 => match g.bot_move(seat, BotLevel::Greedy, &mut bot_rng) {
                Some(mv) => g.apply(seat, &mv).expect("a bot's move applies"),
                None => g.timeout(),
            },
            _ if legal.is_empty() => g.timeout(),
            _ => {
                let mv = legal[rng.below(legal.len() as u64) as usize].played();
                g.apply(seat, &mv).expect("a listed move applies")
            }
        };
        truth.step(&g, &events);
        c.plays += events
            .iter()
            .filter(|e| matches!(e.kind, building_cities::EventKind::ChallengePlayed { .. }))
            .count() as u64;
        judge(
            &truth,
            "events",
            &json!({"type": "update", "events": events}),
            None,
            k + 1,
            false,
        );
        c.events += events.len() as u64;
    }
}

#[test]
fn engine_sweep_views_overlays_lists_refusals_and_events() {
    let games = env_num("CITYTABLE_BC_LEAK_GAMES", 4);
    let started = std::time::Instant::now();
    let mut rng = Rng::new(env_num("CITYTABLE_LEAK_SEED", 0xb0c1));
    let mut c = Counts::default();
    for n in 0..games {
        sweep(n, &mut rng, &mut c);
    }
    eprintln!(
        "building cities engine sweep: {games} games, {} versions, {} views, {} overlays, {} legal-move lists ({} moves in the full ones), {} refusals, {} events, {} challenges played, in {:?}",
        c.versions,
        c.views,
        c.overlays,
        c.lists,
        c.listed,
        c.refusals,
        c.events,
        c.plays,
        started.elapsed()
    );
    assert!(c.plays > 0, "challenges were played");
}
