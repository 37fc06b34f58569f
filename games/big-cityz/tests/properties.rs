//! Property tests over seeded random games, through the public `engine::Game` API:
//! scores never below 0, each veto marker used at most once, every card in exactly
//! one place, `legal_moves` and `apply` agree and refusals change nothing, the same
//! seed and moves give the same state, and no view or event depends on the facts
//! of a card not yet judged.

#![allow(clippy::unwrap_used)]

use big_cityz::synthetic::synthetic_cities;
use big_cityz::{BigCityz, City, Color, Event, EventKind, Move, Options, Slot, Square, View};
use engine::{BotLevel, Entry, Game, GameRng, Seat, Setup, Viewer};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn spectator(g: &BigCityz) -> View {
    g.view(Viewer::Spectator)
}

/// A move from the whole move space, legal or not.
fn any_move(rng: &mut GameRng) -> Move {
    let b = rng.below(6) as u8;
    match rng.below(6) {
        0 => Move::Replace { board: b },
        1 => Move::NoFreeSquare {},
        2 => Move::Object {},
        3 => Move::Decline {},
        4 => Move::Place {
            square: Square::Risk {
                pair: b,
                color: if rng.below(2) == 0 {
                    Color::Green
                } else {
                    Color::Red
                },
            },
        },
        _ => Move::Place {
            square: Square::Board {
                board: b,
                slot: Slot::ALL[rng.below(4)],
            },
        },
    }
}

/// Every card is in exactly one place: the draw pile, the box, the current
/// turn, a square, or out of the game.
fn check_census(v: &View, total: usize) {
    let mut seen = BTreeSet::new();
    let mut visible = 0;
    let on_squares = v
        .boards
        .iter()
        .flat_map(|b| b.squares.iter())
        .chain(v.risks.iter().flat_map(|r| [&r.green, &r.red]))
        .flatten();
    for card in on_squares.chain(v.current.iter()).chain(v.left_game.iter()) {
        assert!(seen.insert(card.card), "card {} twice", card.card);
        visible += 1;
    }
    assert_eq!(
        usize::from(v.deck_count) + usize::from(v.box_count) + visible,
        total
    );
}

struct Played {
    setup: Setup<Options>,
    log: Vec<Entry<Move>>,
    events: Vec<Event>,
    game: BigCityz,
}

/// Plays a seeded game with bots, random moves and timeouts, checking the
/// invariants at every step.
fn play(cities: &'static [City], seats: u8, seed: u64, bot_seed: u64) -> Played {
    let setup = Setup {
        seats,
        seed,
        options: Options::default(),
        first_seat: None,
    };
    let mut game = BigCityz::with_cities(&setup, cities).unwrap();
    let mut rng = GameRng::new(bot_seed);
    let mut log = Vec::new();
    let mut events = Vec::new();
    let mut objections = vec![0u8; usize::from(seats)];
    let mut steps = 0;
    while game.outcome().is_none() && steps < 600 {
        steps += 1;
        let awaiting = game.awaiting();
        assert!(!awaiting.seats.is_empty());
        // Refused moves change nothing; `apply` accepts exactly the listed moves.
        for _ in 0..4 {
            let seat = rng.below(usize::from(seats) + 1) as Seat;
            let mv = any_move(&mut rng);
            let legal = game.legal_moves(seat);
            let mut probe = game.clone();
            let result = probe.apply(seat, &mv);
            assert_eq!(result.is_ok(), legal.contains(&mv), "{seat} {mv:?}");
            if result.is_err() {
                assert_eq!(probe, game);
            }
        }
        let entry = match rng.below(12) {
            0 => Entry::Timeout {
                period: awaiting.period,
            },
            1 | 2 => {
                let seat = *rng.choose(&awaiting.seats).unwrap();
                let legal = game.legal_moves(seat);
                Entry::Move {
                    seat,
                    mv: *rng.choose(&legal).unwrap(),
                }
            }
            k => {
                let seat = *rng.choose(&awaiting.seats).unwrap();
                let level = if k % 2 == 0 {
                    BotLevel::Greedy
                } else {
                    BotLevel::Random
                };
                Entry::Move {
                    seat,
                    mv: game.bot_move(seat, level, &mut rng).unwrap(),
                }
            }
        };
        let before = game.awaiting().period;
        let new = engine::apply_entry(&mut game, &entry).unwrap();
        if matches!(entry, Entry::Timeout { .. }) {
            assert!(game.outcome().is_some() || game.awaiting().period != before);
        }
        for e in &new {
            if let EventKind::Objected { seat } = e.kind {
                objections[usize::from(seat)] += 1;
            }
        }
        events.extend(new);
        log.push(entry);
        let v = spectator(&game);
        assert!(v.scores.iter().all(|&s| s >= 0), "{:?}", v.scores);
        for (left, used) in v.vetoes_left.iter().zip(&objections) {
            assert!(*used <= 2);
            assert_eq!(left + used, 2);
        }
        check_census(&v, cities.len());
    }
    Played {
        setup,
        log,
        events,
        game,
    }
}

/// The cards judged by these events.
fn judged(events: &[Event]) -> BTreeSet<u16> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Judged { judgment } => Some(judgment.city.card),
            _ => None,
        })
        .collect()
}

/// `cities` with the facts of every card not in `keep` taken from `other`; the
/// public face (id, names, country) stays.
fn swap_facts(
    cities: &'static [City],
    other: &'static [City],
    keep: &BTreeSet<u16>,
) -> &'static [City] {
    let list: Vec<City> = cities
        .iter()
        .zip(other)
        .enumerate()
        .map(|(i, (c, o))| {
            if keep.contains(&(i as u16)) {
                *c
            } else {
                City {
                    id: c.id,
                    name_en: c.name_en,
                    name_fr: c.name_fr,
                    country: c.country,
                    ..*o
                }
            }
        })
        .collect();
    Box::leak(list.into_boxed_slice())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_playouts_keep_the_invariants(
        seats in 2u8..=6,
        seed in any::<u64>(),
        bot_seed in any::<u64>(),
        count in prop_oneof![Just(30usize), Just(120usize)],
    ) {
        let cities = synthetic_cities(count, seed ^ 0xC17);
        let p = play(cities, seats, seed, bot_seed);
        // A finished game ends with its outcome in the log.
        if let Some(o) = p.game.outcome() {
            let last = &p.events.last().unwrap().kind;
            let ok = matches!(last, EventKind::GameOver { scores, winners, .. }
                if *scores == o.scores && *winners == o.winners);
            prop_assert!(ok, "{:?}", last);
        }
        // The same seed and moves give the same state.
        let mut g = BigCityz::with_cities(&p.setup, cities).unwrap();
        for entry in &p.log {
            engine::apply_entry(&mut g, entry).unwrap();
        }
        prop_assert_eq!(g, p.game);
    }

    #[test]
    fn views_do_not_depend_on_unjudged_facts(
        seats in 2u8..=4,
        seed in any::<u64>(),
        bot_seed in any::<u64>(),
    ) {
        let cities = synthetic_cities(60, seed);
        let other = synthetic_cities(60, seed.wrapping_add(1));
        let p = play(cities, seats, seed, bot_seed);
        // At several points of the game, a game whose unjudged cards have other
        // facts shows the same views and the same events.
        let len = p.log.len();
        for cut in [len / 4, len / 2, 3 * len / 4, len] {
            let mut a = BigCityz::with_cities(&p.setup, cities).unwrap();
            let mut events_a = Vec::new();
            for entry in &p.log[..cut] {
                events_a.extend(engine::apply_entry(&mut a, entry).unwrap());
            }
            let keep = judged(&events_a);
            let swapped = swap_facts(cities, other, &keep);
            let mut b = BigCityz::with_cities(&p.setup, swapped).unwrap();
            let mut events_b = Vec::new();
            for entry in &p.log[..cut] {
                events_b.extend(engine::apply_entry(&mut b, entry).unwrap());
            }
            prop_assert_eq!(&events_a, &events_b);
            for viewer in (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                prop_assert_eq!(a.view(viewer), b.view(viewer));
            }
            for seat in 0..seats {
                prop_assert_eq!(a.legal_moves(seat), b.legal_moves(seat));
            }
            prop_assert_eq!(a.awaiting(), b.awaiting());
        }
    }
}

#[test]
fn bot_games_end() {
    let cities = synthetic_cities(200, 1);
    for seed in 0..20u64 {
        let setup = Setup {
            seats: 2 + (seed % 5) as u8,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let mut game = BigCityz::with_cities(&setup, cities).unwrap();
        let mut rng = GameRng::new(seed);
        let mut steps = 0;
        while game.outcome().is_none() {
            steps += 1;
            assert!(steps < 5_000);
            let seat = game.awaiting().seats[0];
            let mv = game.bot_move(seat, BotLevel::Greedy, &mut rng).unwrap();
            game.apply(seat, &mv).unwrap();
        }
        let o = game.outcome().unwrap();
        assert!(o.scores.iter().any(|&s| s >= big_cityz::TARGET));
        let turns = spectator(&game).turns;
        assert!(turns.iter().all(|&t| t == turns[0]), "{turns:?}");
    }
}
