//! Property tests over seeded random playouts through the public `engine::Game`
//! API, in the three modes: Maya conservation (every bank change is a logged
//! amount), cities stay sound (no overlap, every tile inside its district,
//! every road connected to the junction), B4 limits, the first B5 priority,
//! at most 10 moves per phase, the loan repaid or bankruptcy within 15 turns,
//! `legal_moves` and `apply` agree (a refusal changes nothing), the same seed
//! and moves give the same state, and no view shows a hidden hand; and the
//! same with the room's own cards in play (H).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use building_cities::handbook::model::{Category, Colour};
use building_cities::{
    Block, BuildingCities, City, CityData, District, EventKind, JUNCTION, Mode, Move, Options,
    Rotation, Status, TileKind,
};
use engine::{BotLevel, Entry, Game, GameRng, Seat, Setup, Viewer};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Even seeds roll a die layout (M4); odd Despicable seeds play a room's own.
fn setup(mode: Mode, seats: u8, seed: u64) -> Setup<Options> {
    let die = seed.is_multiple_of(2);
    let own = !die && mode == Mode::Despicable;
    let layout = [(1, 3), (2, 3), (5, 6), (10, 2), (11, 2), (4, 12), (20, 9)];
    Setup {
        seats,
        seed,
        options: Options {
            mode,
            protected_areas: die,
            protected_layout: if own {
                layout.iter().map(|&(x, y)| Block::new(x, y)).collect()
            } else {
                Vec::new()
            },
            ..Options::default()
        },
        first_seat: None,
    }
}

/// A move from a wide space, legal or not.
fn any_move(rng: &mut GameRng) -> Move {
    let b = Block::new(rng.below(26) as u8, rng.below(18) as u8);
    let ids = [
        "house",
        "grocery",
        "factory",
        "power_grid",
        "airport",
        "nope",
    ];
    match rng.below(6) {
        0 => Move::Road { block: b },
        1 => Move::Tile {
            building: ids[rng.below(ids.len())].to_string(),
            rotation: if rng.below(2) == 0 {
                Rotation::R0
            } else {
                Rotation::R90
            },
            origin: b,
            preview: None,
        },
        2 => Move::BuyDistrict {
            district: District::ALL[rng.below(6)],
        },
        3 => Move::RepayLoan {},
        4 => Move::Bid {
            amount: rng.below(2000) as u32,
        },
        _ => Move::EndTurn {},
    }
}

/// Whether the legal-move list allows `probe`. The list names the lowest bid
/// only; any bid from it up to the bidder's bank is legal too.
fn is_listed(legal: &[Move], probe: &Move, bank: i32) -> bool {
    legal.iter().any(|m| match (m, probe) {
        (Move::Bid { amount: min }, Move::Bid { amount }) => {
            min <= amount && i64::from(*amount) <= i64::from(bank)
        }
        _ => m.played() == *probe,
    })
}

/// Every road block reaches the junction through road blocks.
fn roads_connected(data: &CityData) {
    let roads: BTreeSet<(u8, u8)> = data.roads.iter().map(|b| (b.x, b.y)).collect();
    if roads.is_empty() {
        return;
    }
    assert!(roads.contains(&(JUNCTION.x, JUNCTION.y)));
    let mut seen = BTreeSet::from([(JUNCTION.x, JUNCTION.y)]);
    let mut todo = vec![(JUNCTION.x, JUNCTION.y)];
    while let Some((x, y)) = todo.pop() {
        for (dx, dy) in [(1i16, 0i16), (-1, 0), (0, 1), (0, -1)] {
            let n = ((x as i16 + dx) as u8, (y as i16 + dy) as u8);
            if roads.contains(&n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    assert_eq!(seen.len(), roads.len(), "a road block is cut off");
}

fn check_city(g: &BuildingCities, seat: Seat) {
    let data = g.city(seat).to_data();
    let rebuilt = City::try_from(data.clone()).expect("no overlap, on the map");
    for t in rebuilt.tiles() {
        let d = t.district().unwrap();
        assert!(t.blocks().iter().all(|b| b.district() == Some(d)));
        assert!(rebuilt.owns(d));
    }
    roads_connected(&data);
    let hb = g.handbook();
    let mut per: BTreeMap<(District, &str), u32> = BTreeMap::new();
    for t in rebuilt.tiles() {
        let id = match &t.kind {
            TileKind::Building(id) => id.as_str(),
            _ => continue,
        };
        let b = hb.building(id).unwrap();
        let group = match (b.colour, b.category) {
            (Some(Colour::Blue), _) => "blue",
            (Some(Colour::Orange), _) => "orange",
            (_, Category::Industry) => "industry",
            _ => continue,
        };
        *per.entry((t.district().unwrap(), group)).or_default() += 1;
    }
    for ((_, group), n) in per {
        let max = if group == "blue" { 9 } else { 3 };
        assert!(n <= max, "{group}: {n}");
    }
    for d in District::ALL {
        assert!(rebuilt.trucks(d) <= 3);
        // B3: a district with buildings keeps its grids (no card removes them).
        let kinds: Vec<&TileKind> = rebuilt
            .tiles()
            .iter()
            .filter(|t| t.district() == Some(d))
            .map(|t| &t.kind)
            .collect();
        if kinds.iter().any(|k| matches!(k, TileKind::Building(_))) {
            assert!(
                kinds.contains(&&TileKind::PowerGrid),
                "{d:?} lost its power grid"
            );
            assert!(
                kinds.contains(&&TileKind::WaterGrid),
                "{d:?} lost its water grid"
            );
        }
    }
}

/// B5: while 5 housing units stand without 2 services and a school, only
/// roads, grids, the needs and their prerequisites are built. Checked with one
/// district only: the second district's priority (shops, an industry) may be
/// open at the same time and allows its own needs.
fn priority_open(g: &BuildingCities, seat: Seat) -> bool {
    if g.city(seat).districts().len() > 1 {
        return false;
    }
    let hb = g.handbook();
    let mut housing = 0;
    let mut services = 0;
    let mut school = 0;
    for t in g.city(seat).tiles() {
        if let TileKind::Building(id) = &t.kind {
            let b = hb.building(id).unwrap();
            housing += b.housing;
            services += u32::from(b.category == Category::Service);
            school += u32::from(id == "elementary_school");
        }
    }
    housing >= 5 && (services < 2 || school < 1)
}

/// `demanded`: a card's demand was accepted (B5), which adds its target (the
/// room cards' Park or a transport building) to what may be built.
fn may_build_under_priority(g: &BuildingCities, id: &str, demanded: bool) -> bool {
    let b = g.handbook().building(id).unwrap();
    matches!(b.category, Category::Service | Category::Grid)
        || ["elementary_school", "clinic", "police_station"].contains(&id)
        || (demanded && (id == "park" || b.category == Category::Transport))
}

/// The room's own cards (H): an objective, and events and challenges of
/// several kinds (a demand, removals, one aimed at the grids, which no card
/// removes, a legendary offer from the challenge deck).
fn custom_options(mode: Mode, seed: u64) -> Options {
    serde_json::from_value(serde_json::json!({
        "mode": mode,
        "protected_areas": seed.is_multiple_of(2),
        "objective": "obj_blank_1",
        "custom_objectives": [{"title": "Parks and savings", "goals": [
            {"kind": "build", "target": {"building": "park"}, "count": 2},
            {"kind": "bank", "amount": 1500}], "turn_limit": 60}],
        "custom_events": [
            {"title": "Street fair", "effect": {"kind": "per_building", "target": {"colour": "blue"}, "amount": 25}},
            {"title": "Parks wanted", "effect": {"kind": "demand", "target": {"building": "park"}, "impossible": 50, "refused": 300}},
            {"title": "Fire", "effect": {"kind": "destroy", "target": {"colour": "red"}, "chooser": "owner"}},
            {"title": "Strike", "condition": {"min_turn": 3}, "effect": {"kind": "skip_building_phase", "turns": 1}},
            {"title": "Boom", "effect": {"kind": "value_percent", "percent": 150, "turns": 2}}],
        "custom_challenges": [
            {"title": "Blackout", "effect": {"kind": "destroy", "target": {"category": "grid"}, "chooser": "player"}},
            {"title": "Quake", "effect": {"kind": "destroy", "target": {"colour": "blue"}, "chooser": "player"}},
            {"title": "Transit wanted", "effect": {"kind": "demand", "target": {"category": "transport"}, "impossible": 100, "refused": 500}},
            {"title": "Audit", "effect": {"kind": "lose_bank_percent", "percent": 20}},
            {"title": "Museum", "effect": {"kind": "legendary", "building": "pyramid_museum"}}],
    }))
    .unwrap()
}

const CUSTOM_EVENTS: [&str; 5] = [
    "ev_blank_1",
    "ev_blank_2",
    "ev_blank_3",
    "ev_blank_4",
    "ev_blank_5",
];
const CUSTOM_CHALLENGES: [&str; 5] = [
    "ch_blank_1",
    "ch_blank_2",
    "ch_blank_3",
    "ch_blank_4",
    "ch_blank_5",
];

fn play(mode: Mode, seats: u8, seed: u64, steps: usize) {
    play_setup(&setup(mode, seats, seed), seed, steps, false);
}

/// Plays `steps` random steps. With `stack_custom` the room's cards are put on
/// top of their decks now and then (through the test-setup API, outside the
/// log, so the replay check is left out) and must have been drawn.
fn play_setup(setup: &Setup<Options>, seed: u64, steps: usize, stack_custom: bool) {
    let seats = setup.seats;
    let mut g = BuildingCities::new(setup).unwrap();
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let mut log = Vec::new();
    let mut loans: BTreeMap<Seat, u32> = BTreeMap::new();
    let mut custom_drawn = 0;
    let mut demanded = false;
    for _ in 0..steps {
        if g.outcome().is_some() {
            break;
        }
        // From the first end of turn on (a game may end at its first round).
        if stack_custom && (log.is_empty() || rng.below(8) == 0) {
            g.test_stack_event(CUSTOM_EVENTS[rng.below(5)]);
            g.test_stack_challenge(CUSTOM_CHALLENGES[rng.below(5)]);
        }
        let awaiting = g.awaiting();
        let seat = awaiting.seats[rng.below(awaiting.seats.len())];
        let legal = g.legal_moves(seat);
        // A move outside the list is refused and changes nothing.
        let probe = any_move(&mut rng);
        if !is_listed(&legal, &probe, g.bank(seat)) {
            let before = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
            assert!(g.apply(seat, &probe).is_err(), "{probe:?} accepted");
            assert_eq!(
                before,
                serde_json::to_value(g.view(Viewer::Spectator)).unwrap()
            );
        }
        let banks: Vec<i32> = (0..seats).map(|s| g.bank(s)).collect();
        let period = awaiting.period;
        let moves_before = g.moves_left(seat);
        let (entry, events) = if rng.below(40) == 0 || legal.is_empty() {
            (Entry::Timeout { period }, g.timeout())
        } else {
            let mv = g
                .bot_move(seat, BotLevel::Random, &mut rng)
                .expect("a legal move");
            let open = priority_open(&g, seat);
            let events = g.apply(seat, &mv).unwrap();
            if let Move::Tile { building, .. } = &mv
                && open
            {
                assert!(
                    may_build_under_priority(&g, building, demanded),
                    "{building}"
                );
            }
            (Entry::Move { seat, mv }, events)
        };
        log.push(entry);
        // Maya conservation.
        let mut delta = vec![0i64; usize::from(seats)];
        for e in &events {
            match &e.kind {
                EventKind::DemandAnswered { accepted: true, .. } => demanded = true,
                EventKind::EventCard { card, .. } | EventKind::ChallengeCard { card, .. }
                    if card.contains("_blank_") =>
                {
                    custom_drawn += 1;
                }
                EventKind::Bank { seat, amount, .. } => delta[usize::from(*seat)] += *amount as i64,
                EventKind::LoanTaken { seat, due_turn } => {
                    loans.insert(*seat, *due_turn);
                }
                EventKind::LoanRepaid { seat } => {
                    loans.remove(seat);
                }
                _ => {}
            }
        }
        let v = g.view(Viewer::Spectator);
        for s in 0..seats {
            let i = usize::from(s);
            assert_eq!(g.bank(s) as i64 - banks[i] as i64, delta[i], "seat {s}");
            check_city(&g, s);
            assert!(g.moves_left(s) <= 10);
            if let Some(due) = loans.get(&s)
                && g.round() > *due
            {
                assert!(
                    matches!(
                        v.players[i].status,
                        Status::Bankrupt | Status::Lost | Status::Won
                    ) || v.players[i].frozen_round.is_some()
                        || g.outcome().is_some(),
                    "loan unpaid after turn {due}"
                );
            }
            // Hands only as counts; a seat's view is the public one with
            // his own hand and palette laid over it.
            let own = g.private_view(s);
            assert_eq!(
                own.hand.as_ref().map_or(0, Vec::len) as u32,
                v.players[i].hand
            );
            assert_eq!((&v.hand, &v.palette), (&None, &None));
            let mut seen = g.view(Viewer::Seat(s));
            assert_eq!((&seen.hand, &seen.palette), (&own.hand, &own.palette));
            seen.hand = None;
            seen.palette = None;
            assert_eq!(
                serde_json::to_value(&seen).unwrap(),
                serde_json::to_value(&v).unwrap()
            );
        }
        if g.awaiting().period == period && g.awaiting().includes(seat) {
            assert!(g.moves_left(seat) <= moves_before || g.moves_left(seat) == 10);
        }
    }
    if stack_custom {
        assert!(custom_drawn > 0, "no room card drawn");
        return;
    }
    // Same seed and moves: same state.
    let again = engine::replay::<BuildingCities>(setup, &log).unwrap();
    assert_eq!(
        serde_json::to_value(again.view(Viewer::Spectator)).unwrap(),
        serde_json::to_value(g.view(Viewer::Spectator)).unwrap()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn solo_playouts_keep_the_rules(seed in any::<u64>()) {
        play(Mode::Solo, 1, seed, 1500);
    }

    #[test]
    fn fair_play_playouts_keep_the_rules(seed in any::<u64>(), seats in 2u8..=3) {
        play(Mode::FairPlay, seats, seed, 1500);
    }

    #[test]
    fn despicable_playouts_keep_the_rules(seed in any::<u64>(), seats in 2u8..=4) {
        play(Mode::Despicable, seats, seed, 1500);
    }

    /// Ruling H: the room's own cards in play keep every rule above.
    #[test]
    fn ruling_h_playouts_with_room_cards_keep_the_rules(seed in any::<u64>(), seats in 1u8..=3) {
        let mode = match seats {
            1 => Mode::Solo,
            2 => Mode::FairPlay,
            _ => Mode::Despicable,
        };
        let setup = Setup { seats, seed, options: custom_options(mode, seed), first_seat: None };
        play_setup(&setup, seed, 1500, true);
    }
}
