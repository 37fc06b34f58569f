//! Hidden information (a Despicable hand, the order of both decks, future die
//! rolls) shapes nothing a viewer is given: the rules' side of the leak sweep
//! (`server/tests/building_cities_leaks/` checks every message against the
//! public record of the cards). Over seeded games of the three modes
//! (Despicable with 2-4 seats; room cards, protected layouts, a rich pre-built
//! start so that challenges are drawn, kept and played), at every version:
//!
//! - what each seat and the spectator is given (view, private overlay, the
//!   full and the narrowed legal-move lists, the refusal of a probe) is the
//!   same once everything it cannot see is changed: both decks shuffled anew,
//!   the game RNG seeded anew and every other Despicable hand dealt again
//!   (`test_redeal`);
//! - in Despicable, the next step gives every viewer the same events and then
//!   the same view, overlay and lists when the other hands hold other cards
//!   (`test_swap_hands`, which leaves the next draws and rolls as they are),
//!   unless that step plays one of those cards;
//! - an event names a card only when it is face up: an event card is the top
//!   of the event deck, a solo or Fair Play challenge the top of the challenge
//!   deck, a played challenge one of its player's hand. So the log is the
//!   public record of the cards that the server's sweep counts on.
//!
//! `CITYTABLE_BC_HIDDEN_GAMES` (default 8) scales the run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use building_cities::handbook::cards::Effect;
use building_cities::{BuildingCities, Event, EventKind, Mode, Move, OTHER, Options};
use engine::{BotLevel, Game, GameRng, Seat, Setup, Viewer};
use serde_json::{Value, json};
use std::collections::VecDeque;

fn games() -> u64 {
    std::env::var("CITYTABLE_BC_HIDDEN_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8)
}

/// A table as a room may set it up; `n` picks the mode so that every run has
/// all three.
fn setup(n: u64, rng: &mut GameRng) -> Setup<Options> {
    let (mode, seats) = match n % 4 {
        0 => (Mode::Solo, 1),
        1 => (Mode::FairPlay, 2 + rng.below(3) as u8),
        _ => (Mode::Despicable, 2 + rng.below(3) as u8),
    };
    let mut o = json!({"mode": mode});
    // A rich start buys the second district early, and challenges follow it
    // (E5); a bank objective would be met at once, so buildings then.
    let rich = mode == Mode::Despicable || rng.below(2) == 0;
    if rich {
        o["variant"] = json!({"start_bank": 2500, "prebuilt_first_district": true});
    }
    match rng.below(if rich { 2 } else { 3 }) {
        0 => o["objective"] = json!("obj_three_hotels"),
        1 => {
            o["objective"] = json!("obj_blank_1");
            o["custom_objectives"] = json!([{"title": "Hotels and districts", "goals": [
                {"kind": "build", "target": {"building": "hotel"}, "count": 4},
                {"kind": "districts", "count": 4}], "turn_limit": 30}]);
        }
        _ => {}
    }
    if rng.below(2) == 0 {
        o["custom_events"] = json!([
            {"title": "Fair", "effect": {"kind": "gain_maya", "amount": 150}},
            {"title": "Parks wanted", "effect": {"kind": "demand", "target": {"building": "park"}, "impossible": 50, "refused": 300}}]);
        o["custom_challenges"] = json!([
            {"title": "Quake", "effect": {"kind": "destroy", "target": {"colour": "blue"}, "chooser": "player"}},
            {"title": "Audit", "effect": {"kind": "lose_bank_percent", "percent": 20}},
            {"title": "Museum", "effect": {"kind": "legendary", "building": "pyramid_museum"}}]);
    }
    if mode == Mode::Despicable && rng.below(2) == 0 {
        o["protected_layout"] = json!([{"x": 1, "y": 3}, {"x": 5, "y": 6}, {"x": 11, "y": 2}]);
    } else if rng.below(3) == 0 {
        o["protected_areas"] = json!(true);
    }
    Setup {
        seats,
        seed: rng.next_u64(),
        options: serde_json::from_value(o).unwrap(),
        first_seat: None,
    }
}

/// Everything `v` is given at this version: the view, and for a seat the
/// private overlay, the full list and its `other` part (the parts add up to
/// the full list: `tests/listing.rs`).
fn given(g: &BuildingCities, v: Option<Seat>) -> Value {
    let Some(s) = v else {
        return json!({"view": g.view(Viewer::Spectator)});
    };
    json!({
        "view": g.view(Viewer::Seat(s)),
        "private": g.private_view(s),
        "legal": g.legal_moves(s),
        "other": g.legal_moves_of(s, OTHER),
    })
}

/// A move a seat might send, legal or not (often not).
fn probe(rng: &mut GameRng) -> Move {
    let n = |rng: &mut GameRng, k: usize| rng.below(k) as u8;
    match rng.below(8) {
        0 => Move::PlayChallenge {
            card: n(rng, 7),
            target: n(rng, 4),
        },
        1 => Move::UseTaskForce {},
        2 => Move::AcceptChallenge {},
        3 => Move::KeepChallenges {},
        4 => Move::Bid {
            amount: rng.below(3000) as u32,
        },
        5 => Move::DestroyBuilding {
            tile: rng.below(40) as u32,
        },
        6 => Move::TradePartner { seat: n(rng, 4) },
        _ => Move::EndTurn {},
    }
}

#[derive(Clone, Debug)]
enum Step {
    Move(Seat, Move),
    Timeout,
}

impl Step {
    fn apply(&self, g: &mut BuildingCities) -> Option<Vec<Event>> {
        match self {
            Step::Move(s, mv) => g.apply(*s, mv).ok(),
            Step::Timeout => Some(g.timeout()),
        }
    }
}

/// Mostly the greedy bot (it buys districts, so challenges come), often any
/// listed move, now and then a timeout.
fn next_step(g: &BuildingCities, rng: &mut GameRng) -> Step {
    let awaiting = g.awaiting();
    let seat = awaiting.seats[rng.below(awaiting.seats.len())];
    let legal = g.legal_moves(seat);
    match rng.below(50) {
        0 => Step::Timeout,
        1..=34 => match g.bot_move(seat, BotLevel::Greedy, rng) {
            Some(mv) => Step::Move(seat, mv),
            None => Step::Timeout,
        },
        _ if legal.is_empty() => Step::Timeout,
        _ => Step::Move(seat, legal[rng.below(legal.len())].played()),
    }
}

#[derive(Default)]
struct Counts {
    versions: u64,
    given: u64,
    probes: u64,
    swapped: u64,
    skipped: u64,
    named: u64,
    after_shuffle: u64,
}

/// Whether a card of the challenge deck is a legendary offer (not drawn as a
/// challenge, E7).
fn legendary(g: &BuildingCities, id: &str) -> bool {
    matches!(
        g.handbook().card(id).map(|c| &c.effect),
        Some(Effect::Legendary { .. })
    )
}

/// The next card a draw takes from the challenge deck (legendary offers
/// skipped).
fn draw(g: &BuildingCities, deck: &mut VecDeque<String>) -> Option<String> {
    while let Some(c) = deck.pop_front() {
        if !legendary(g, &c) {
            return Some(c);
        }
    }
    None
}

/// Each card an event names is face up (see the module docs). `prompt`: the
/// challenge a Task Force prompt at `before` is about.
fn names_only_face_up_cards(
    before: &BuildingCities,
    events: &[Event],
    prompt: Option<&str>,
    counts: &mut Counts,
) -> Result<(), String> {
    let (events_deck, challenge_deck) = before.test_decks();
    let mut evd: VecDeque<String> = events_deck.into();
    let mut chd: VecDeque<String> = challenge_deck.clone().into();
    let despicable = before.view(Viewer::Spectator).mode == Mode::Despicable;
    let mut played: Vec<String> = prompt.map(str::to_owned).into_iter().collect();
    let mut shuffled = false;
    for e in events {
        match &e.kind {
            EventKind::EventCard { card, .. } => {
                counts.named += 1;
                let top = evd.pop_front();
                if top.as_ref() != Some(card) {
                    return Err(format!("event {card} is not the top card {top:?}"));
                }
                evd.push_back(card.clone());
            }
            EventKind::ChallengePlayed { seat, card, .. } => {
                counts.named += 1;
                let hand = before.private_view(*seat).hand.unwrap_or_default();
                if !hand.contains(card) {
                    return Err(format!("{card} played by {seat} was not in his hand"));
                }
                played.push(card.clone());
            }
            EventKind::ChallengeCard { card, .. } if despicable => {
                counts.named += 1;
                if !played.contains(card) {
                    return Err(format!("challenge {card} shown but never played"));
                }
            }
            EventKind::ChallengeCard { card, .. } => {
                counts.named += 1;
                if shuffled {
                    // Drawn from a deck shuffled in this step: one of its cards.
                    counts.after_shuffle += 1;
                    if !challenge_deck.contains(card) {
                        return Err(format!("challenge {card} was not in the deck"));
                    }
                    continue;
                }
                let top = draw(before, &mut chd);
                if top.as_ref() != Some(card) {
                    return Err(format!("challenge {card} is not the top card {top:?}"));
                }
            }
            EventKind::TaskForceKept { .. } | EventKind::ChallengeKept { .. } if !shuffled => {
                draw(before, &mut chd);
            }
            EventKind::LegendaryReturned { .. } => shuffled = true,
            EventKind::ObjectiveDrawn { objective } => {
                return Err(format!("objective {objective} drawn during play"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// One game, checked at every version; returns the challenges played.
fn sweep(setup: &Setup<Options>, rng: &mut GameRng, counts: &mut Counts) -> u64 {
    let mut g = BuildingCities::new(setup).expect("setup");
    let viewers: Vec<Option<Seat>> = (0..setup.seats).map(Some).chain([None]).collect();
    let despicable = setup.options.mode == Mode::Despicable;
    let mut prompt: Option<String> = None;
    let mut plays = 0;
    for _ in 0..1500 {
        if g.outcome().is_some() {
            break;
        }
        counts.versions += 1;
        for &v in &viewers {
            let mut other = g.clone();
            other.test_redeal(rng.next_u64(), v);
            assert_eq!(
                given(&g, v),
                given(&other, v),
                "what {v:?} is given depends on what it cannot see"
            );
            counts.given += 1;
            if let Some(s) = v {
                let p = probe(rng);
                let a = g.clone().apply(s, &p).err();
                let b = other.apply(s, &p).err();
                if a.is_some() || b.is_some() {
                    assert_eq!(a, b, "the answer to {p:?} by {s} depends on hidden cards");
                }
                counts.probes += 1;
            }
        }
        let step = next_step(&g, rng);
        let before = g.clone();
        let events = step.apply(&mut g).expect("a listed move applies");
        names_only_face_up_cards(&before, &events, prompt.as_deref(), counts)
            .unwrap_or_else(|e| panic!("{e}\n{events:?}"));
        for e in &events {
            if let EventKind::ChallengePlayed { card, .. } = &e.kind {
                prompt = Some(card.clone());
                plays += 1;
            }
        }
        if despicable {
            swap_hands(&before, &g, &events, &step, &viewers, rng, counts);
        }
    }
    plays
}

/// The step once more with the other hands holding other cards: each viewer
/// sees the same, unless the step plays one of them or shuffles the deck
/// (a shuffle may bring a swapped card to the top).
fn swap_hands(
    before: &BuildingCities,
    after: &BuildingCities,
    events: &[Event],
    step: &Step,
    viewers: &[Option<Seat>],
    rng: &mut GameRng,
    counts: &mut Counts,
) {
    let reshuffled = events
        .iter()
        .any(|e| matches!(e.kind, EventKind::LegendaryReturned { .. }));
    for &v in viewers {
        let hidden = (0..before.seats())
            .filter(|&s| Some(s) != v)
            .any(|s| before.view(Viewer::Spectator).players[usize::from(s)].hand > 0);
        if !hidden {
            continue;
        }
        let plays_hidden =
            matches!(step, Step::Move(s, Move::PlayChallenge { .. }) if Some(*s) != v);
        let mut other = before.clone();
        other.test_swap_hands(rng.next_u64(), v);
        let Some(other_events) = step
            .apply(&mut other)
            .filter(|_| !plays_hidden && !reshuffled)
        else {
            counts.skipped += 1;
            continue;
        };
        assert_eq!(
            json!(events),
            json!(other_events),
            "the events of {step:?} tell {v:?} what another hand holds"
        );
        assert_eq!(
            given(after, v),
            given(&other, v),
            "after {step:?}, {v:?} sees what another hand holds"
        );
        counts.swapped += 1;
    }
}

#[test]
fn hidden_cards_and_rolls_shape_no_view_list_or_event() {
    let started = std::time::Instant::now();
    let mut rng = GameRng::new(0xb17d);
    let mut counts = Counts::default();
    let mut plays = 0;
    for n in 0..games() {
        let setup = setup(n, &mut rng);
        plays += sweep(&setup, &mut rng, &mut counts);
    }
    let c = &counts;
    eprintln!(
        "hidden: {} games, {} versions, {} givens compared after a redeal, {} probes, {} steps replayed with other hands ({} skipped), {} cards named by events ({} after a shuffle), {plays} challenges played, in {:?}",
        games(),
        c.versions,
        c.given,
        c.probes,
        c.swapped,
        c.skipped,
        c.named,
        c.after_shuffle,
        started.elapsed()
    );
    assert!(c.swapped > 0 && plays > 0, "Despicable hands were in play");
}
