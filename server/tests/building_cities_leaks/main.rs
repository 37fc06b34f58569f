//! Building Cities' hidden information never leaves the server, checked over
//! many seeded games: a Despicable player's face-down challenge cards (only
//! their count is public), the order of the event, challenge and objective
//! decks, future die rolls and the seed.
//!
//! What counts as a leak to a recipient at game version `k` (the truth comes
//! from replaying the game's record with the rules crate, [`Truth`]):
//! - a card id (objective, event, challenge, a room's written blank card) that
//!   at `k` is not public and not in the recipient's own hand now or before,
//!   anywhere in a message (as a whole string, or inside a text). Public: the
//!   objective and every card an event of the log has named (drawn face up,
//!   played, hit). That the log names only face-up cards is the rules crate's
//!   own test (`games/building-cities/tests/hidden.rs`, with the decks as they
//!   lie), as is the finer point that no view, overlay, list or refusal
//!   changes when the decks are shuffled anew, the RNG seeded anew and the
//!   other hands dealt again;
//! - a `hand` list other than the recipient's own hand at `k` (another seat's
//!   cards, or any to a spectator), a `play_challenge` (its `card` indexes the
//!   player's hand) in anything but an answer to the recipient's own request;
//! - a `seed` field, the seed in decimal or hex.
//!
//! Catalogue and game data: the handbook's card list, where the browser is
//! served one, names every card. The sweep tells it apart by where it comes
//! from: static files must be byte for byte the repository's own, and the
//! game's reference (`/api/games/building-cities/reference`, where it exists)
//! the same before any table and after every game, so neither carries an
//! order or a hand; only what a game produces (messages, a table's API
//! answers, log lines) is judged card by card.
//!
//! `engine_sweep.rs` sweeps the rules crate at every version as the server
//! serializes it; `server_sweep.rs` plays tables through the real `citytable`
//! process. `CITYTABLE_BC_LEAK_GAMES` (engine, default 4) and
//! `CITYTABLE_BC_LEAK_SERVER_GAMES` (server, default 3) scale the runs.

#![allow(clippy::unwrap_used)]

mod engine_sweep;
mod server_sweep;

use std::collections::BTreeSet;

use building_cities::{BuildingCities, Event, EventKind, Mode, Options};
use engine::{Game, Setup, Viewer};
use serde_json::{Value, json};
use testkit::Rng;

/// Every card id of the game's handbook (blank and written cards included).
fn catalogue(g: &BuildingCities) -> BTreeSet<String> {
    let hb = g.handbook();
    hb.objectives
        .iter()
        .map(|o| o.id.clone())
        .chain(hb.events.iter().map(|c| c.id.clone()))
        .chain(hb.challenges.iter().map(|c| c.id.clone()))
        .chain([hb.task_force.id.clone()])
        .collect()
}

/// What each recipient may know at each version of one game.
struct Truth {
    seed: u64,
    ids: BTreeSet<String>,
    /// Per version: the cards public by then.
    public: Vec<BTreeSet<String>>,
    /// Per version and seat: the hand now, and every card it has held.
    hands: Vec<Vec<Option<Vec<String>>>>,
    held: Vec<Vec<BTreeSet<String>>>,
}

impl Truth {
    fn start(g: &BuildingCities, seed: u64) -> Truth {
        let objective = g.view(Viewer::Spectator).objective;
        let mut t = Truth {
            seed,
            ids: catalogue(g),
            public: vec![BTreeSet::from([objective])],
            hands: Vec::new(),
            held: Vec::new(),
        };
        t.hands_at(g, None);
        t
    }

    /// The next version: `events` are what the step logged.
    fn step(&mut self, g: &BuildingCities, events: &[Event]) {
        let mut public = self.public.last().unwrap().clone();
        for e in events {
            match &e.kind {
                EventKind::EventCard { card, .. }
                | EventKind::ChallengeCard { card, .. }
                | EventKind::ChallengePlayed { card, .. } => {
                    public.insert(card.clone());
                }
                EventKind::ObjectiveDrawn { objective } => {
                    public.insert(objective.clone());
                }
                _ => {}
            }
        }
        self.public.push(public);
        let before = self.held.last().cloned();
        self.hands_at(g, before);
    }

    fn hands_at(&mut self, g: &BuildingCities, before: Option<Vec<BTreeSet<String>>>) {
        let hands: Vec<Option<Vec<String>>> =
            (0..g.seats()).map(|s| g.private_view(s).hand).collect();
        let mut held = before.unwrap_or_else(|| vec![BTreeSet::new(); hands.len()]);
        for (h, hand) in held.iter_mut().zip(&hands) {
            h.extend(hand.iter().flatten().cloned());
        }
        self.hands.push(hands);
        self.held.push(held);
    }

    fn versions(&self) -> usize {
        self.public.len()
    }

    /// The card ids `viewer` must not be given at version `k`.
    fn hidden(&self, k: usize, viewer: Option<u8>) -> Vec<&str> {
        let k = k.min(self.versions() - 1);
        let own = viewer.map(|s| &self.held[k][usize::from(s)]);
        self.ids
            .iter()
            .filter(|id| !self.public[k].contains(*id) && !own.is_some_and(|h| h.contains(*id)))
            .map(String::as_str)
            .collect()
    }

    /// What leaked in `raw` (parsed as `msg`) to `viewer` at version `k`.
    /// `answer`: the message answers the recipient's own request.
    fn leaks(
        &self,
        raw: &str,
        msg: &Value,
        viewer: Option<u8>,
        k: usize,
        answer: bool,
    ) -> Vec<String> {
        let k = k.min(self.versions() - 1);
        let mut found: Vec<String> = self
            .hidden(k, viewer)
            .into_iter()
            .filter(|id| contains_token(raw, id))
            .map(|id| format!("hidden card {id}"))
            .collect();
        let own = viewer.and_then(|s| self.hands[k][usize::from(s)].clone());
        walk(msg, &mut |key, v| {
            if key == "seed" {
                found.push("a `seed` field".into());
            }
            if key == "hand" && v.is_array() && Some(v) != own.as_ref().map(|h| json!(h)).as_ref() {
                found.push(format!("a hand not the recipient's own: {v}"));
            }
            // A patch writing the recipient's hand.
            if v.get("op").is_some() && v.get("path") == Some(&json!("/hand")) {
                let value = v.get("value").unwrap_or(&Value::Null);
                if value.is_array() && Some(value) != own.as_ref().map(|h| json!(h)).as_ref() {
                    found.push(format!("a hand not the recipient's own: {v}"));
                }
            }
            if v.get("type").and_then(Value::as_str) == Some("play_challenge") && !answer {
                found.push(format!("a hand index outside an answer: {v}"));
            }
        });
        found.extend(
            seed_forms(self.seed)
                .into_iter()
                .filter(|s| contains_token(raw, s))
                .map(|s| format!("the seed ({s})")),
        );
        found
    }
}

/// Calls `f` with every key and value of `v` (the key of a list item is its
/// list's).
fn walk(v: &Value, f: &mut impl FnMut(&str, &Value)) {
    fn go(key: &str, v: &Value, f: &mut impl FnMut(&str, &Value)) {
        f(key, v);
        match v {
            Value::Object(o) => o.iter().for_each(|(k, x)| go(k, x, f)),
            Value::Array(a) => a.iter().for_each(|x| go(key, x, f)),
            _ => {}
        }
    }
    go("", v, f);
}

/// `token` in `text`, not as part of a longer word or number.
fn contains_token(text: &str, token: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(token).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(word)
            && !text[at + token.len()..].chars().next().is_some_and(word)
    })
}

fn seed_forms(seed: u64) -> Vec<String> {
    vec![
        seed.to_string(),
        format!("{seed:x}"),
        format!("{seed:X}"),
        format!("{seed:016x}"),
    ]
}

/// A room as players set one up; `n` picks the mode, so that a run plays all
/// three (Despicable most). A rich pre-built start buys the second district
/// early, so challenges are drawn (E5) and, in Despicable, kept and played;
/// room cards are written on the blank ones (H), and an undrawn one must not
/// show either. The objective is the room's own of `turns` turns, or with
/// `None` one of 30 turns or one drawn from the deck (its order is hidden
/// until then).
fn room(n: u64, rng: &mut Rng, turns: Option<u32>) -> (u8, Value) {
    let (mode, seats) = match n % 3 {
        0 => (Mode::Despicable, 2 + rng.below(3) as u8),
        1 => (Mode::FairPlay, 2 + rng.below(2) as u8),
        _ => (Mode::Solo, 1),
    };
    let mut o = json!({
        "mode": mode,
        "variant": {"start_bank": 2500, "prebuilt_first_district": true},
        "task_force_ms": 3000,
        "auction_ms": 3000,
        "custom_objectives": [{"title": "Hotels and districts", "goals": [
            {"kind": "build", "target": {"building": "hotel"}, "count": 4},
            {"kind": "districts", "count": 4}], "turn_limit": turns.unwrap_or(30)}],
    });
    if turns.is_some() || rng.below(2) == 0 {
        o["objective"] = json!("obj_blank_1");
    }
    if rng.below(3) > 0 {
        o["custom_events"] = json!([
            {"title": "Street fair", "effect": {"kind": "gain_maya", "amount": 150}},
            {"title": "Parks wanted", "effect": {"kind": "demand", "target": {"building": "park"}, "impossible": 50, "refused": 300}}]);
        o["custom_challenges"] = json!([
            {"title": "Quake", "effect": {"kind": "destroy", "target": {"colour": "blue"}, "chooser": "player"}},
            {"title": "Audit", "effect": {"kind": "lose_bank_percent", "percent": 20}}]);
    }
    if mode == Mode::Despicable && rng.below(2) == 0 {
        o["protected_layout"] = json!([{"x": 1, "y": 3}, {"x": 5, "y": 6}, {"x": 11, "y": 2}]);
    } else if rng.below(3) == 0 {
        o["protected_areas"] = json!(true);
    }
    (seats, o)
}

fn setup(seats: u8, seed: u64, options: &Value) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: serde_json::from_value(options.clone()).unwrap(),
        first_seat: None,
    }
}

/// The sweep sees a hidden card, another seat's hand, a hand index and the
/// seed when they are there, and lets a card pass once it is public or in
/// the recipient's own hand.
#[test]
fn the_sweep_recognises_a_hidden_card_a_hand_and_the_seed() {
    let mut rng = Rng::new(7);
    let (seats, options) = room(0, &mut rng, None);
    let g = BuildingCities::new(&setup(seats, 99, &options)).unwrap();
    let mut truth = Truth::start(&g, 0x5eed_1234_abcd);
    let objective = g.view(Viewer::Spectator).objective;
    let quiet = |t: &Truth, v: &Value, viewer| t.leaks(&v.to_string(), v, viewer, 0, false);
    let view = json!(g.view(Viewer::Spectator));
    assert_eq!(quiet(&truth, &view, None), Vec::<String>::new());
    for card in ["ev_flood_x", "ch_hackers", "ev_blank_2", "obj_skyline"] {
        let planted = json!({"last_event": card, "objective": objective});
        let found = quiet(&truth, &planted, Some(0));
        assert_eq!(
            found.is_empty(),
            !truth.ids.contains(card) || card == objective,
            "{card}: {found:?}"
        );
    }
    let sentence = json!({"text": "next up: ch_hackers!"});
    assert_eq!(quiet(&truth, &sentence, None).len(), 1);
    // Once the log names it, or the seat holds it, it passes.
    let drawn = EventKind::ChallengePlayed {
        seat: 1,
        target: 0,
        card: "ch_hackers".into(),
    };
    truth.step(&g, &[drawn.into()]);
    let named = json!({"last_challenge": "ch_hackers"});
    assert!(
        truth
            .leaks(&named.to_string(), &named, None, 1, false)
            .is_empty()
    );
    assert_eq!(
        truth
            .leaks(&named.to_string(), &named, None, 0, false)
            .len(),
        1
    );
    // Each of these once (the card is public by version 1).
    for planted in [
        json!({"players": [{"hand": ["ch_hackers"]}]}),
        json!({"patch": [{"op": "add", "path": "/hand", "value": ["ch_hackers"]}]}),
        json!({"patch": [{"op": "add", "path": "/x", "value": {"seed": 1}}]}),
        json!({"moves": [{"type": "play_challenge", "card": 2, "target": 1}]}),
        json!({"id": "5eed1234abcd"}),
        json!({"n": 0x5eed_1234_abcd_u64}),
    ] {
        let found = truth.leaks(&planted.to_string(), &planted, Some(0), 1, false);
        assert_eq!(found.len(), 1, "{planted}: {found:?}");
    }
    let answer = json!({"moves": [{"type": "play_challenge", "card": 2, "target": 1}]});
    assert!(
        truth
            .leaks(&answer.to_string(), &answer, Some(0), 0, true)
            .is_empty()
    );
    assert!(contains_token("a ev_calm.", "ev_calm") && !contains_token("ev_calmer", "ev_calm"));
}
