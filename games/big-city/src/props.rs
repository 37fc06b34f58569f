//! Property tests over seeded random play-outs (all seat counts, all variants):
//! no panic, card conservation, piece supply, scores, legal-move listing agrees with
//! `apply`, refused moves change nothing, replay reproduces the state, and views hide
//! other seats' faces and stack order.
//!
//! `PROPTEST_CASES` raises the number of play-outs (default 20).

#![allow(clippy::unwrap_used)]

use crate::game::{BigCity, Step};
use crate::pieces::{ALL_PIECES, TOTAL_CARDS, stack_of};
use crate::wire::*;
use engine::{Entry, GameRng, Setup, Viewer, apply_entry, replay};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

fn options(bits: u8) -> Options {
    Options {
        trade_cards: bits & 1 != 0,
        useless_must_be_exchanged: bits & 2 != 0,
        single_streetcar_line: bits & 4 != 0,
        limited_streetcar_line: bits & 8 != 0,
        limited_card_drawing: bits & 16 != 0,
        ..Options::default()
    }
}

/// Order-insensitive form of a move: the lists `apply` accepts in any order.
fn normalize(m: &Move) -> Move {
    let sorted = |v: &Vec<u8>| {
        let mut v = v.clone();
        v.sort_unstable();
        v
    };
    match m {
        Move::Build { piece, cells, .. } => Move::Build {
            piece: *piece,
            cells: sorted(cells),
            points: None,
        },
        Move::Exchange { cards } => Move::Exchange {
            cards: sorted(cards),
        },
        Move::TradeAnswer { cards } => Move::TradeAnswer {
            cards: sorted(cards),
        },
        Move::TradeOffer { cards, wanted } => Move::TradeOffer {
            cards: sorted(cards),
            wanted: wanted.clone(),
        },
        Move::TradeAccept { picks } => {
            let mut p = picks.clone();
            p.sort_by_key(|x| (x.give, x.seat, x.index));
            Move::TradeAccept { picks: p }
        }
        Move::Streetcar { segment } => Move::Streetcar {
            segment: crate::geometry::Edge::from_segment(segment).map_or(*segment, |e| e.segment()),
        },
        other => other.clone(),
    }
}

fn random_cards(rng: &mut GameRng, hand: &[u8], max: usize) -> Vec<u8> {
    let n = rng.below(max + 1);
    (0..n)
        .map(|_| {
            if !hand.is_empty() && rng.below(2) == 0 {
                hand[rng.below(hand.len())]
            } else {
                rng.below(100) as u8
            }
        })
        .collect()
}

/// A random move, often plausible, usually illegal.
fn random_move(g: &BigCity, seat: u8, rng: &mut GameRng) -> Move {
    let hand = g.hand(seat).to_vec();
    let coord = |rng: &mut GameRng| rng.below(30) as i16 - 15;
    match rng.below(11) {
        0 => Move::PlaceNeighborhood {
            neighborhood: rng.below(10) as u8,
            x: coord(rng),
            y: coord(rng),
            rotation: [0, 90, 180, 270, 45][rng.below(5)],
        },
        1 => Move::Build {
            piece: ALL_PIECES[rng.below(16)],
            cells: random_cards(rng, &hand, 4),
            points: None,
        },
        2 => {
            let (x1, y1) = (coord(rng), coord(rng));
            let (x2, y2) = match rng.below(5) {
                0 => (x1 + 1, y1),
                1 => (x1, y1 + 1),
                2 => (x1 - 1, y1),
                3 => (x1, y1 - 1),
                _ => (coord(rng), coord(rng)),
            };
            Move::Streetcar {
                segment: Segment { x1, y1, x2, y2 },
            }
        }
        3 => Move::Done {},
        4 => Move::Exchange {
            cards: random_cards(rng, &hand, 6),
        },
        5 => Move::Pass {},
        6 => Move::DiscardUseless {
            card: random_cards(rng, &hand, 1).first().copied().unwrap_or(0),
        },
        7 => Move::Draw {
            stack: rng.below(10) as u8,
        },
        8 => Move::TradeOffer {
            cards: random_cards(rng, &hand, 3),
            wanted: (0..rng.below(3)).map(|_| rng.below(10) as u8).collect(),
        },
        9 => Move::TradeAnswer {
            cards: random_cards(rng, &hand, 3),
        },
        _ => Move::TradeAccept {
            picks: (0..rng.below(3))
                .map(|_| TradePick {
                    give: random_cards(rng, &hand, 1).first().copied().unwrap_or(0),
                    seat: rng.below(6) as u8,
                    index: rng.below(3) as u8,
                })
                .collect(),
        },
    }
}

fn check_invariants(g: &BigCity) {
    // Card conservation: hands + stacks + discards (cards under trade stay in hands).
    let held: usize = g.hands.iter().map(|h| h.len()).sum();
    let stacked: usize = g.stacks.iter().map(|s| s.len()).sum();
    assert_eq!(held + stacked + g.discards.len(), TOTAL_CARDS);
    let mut all: Vec<u8> = g.hands.iter().flatten().copied().collect();
    all.extend(g.stacks.iter().flatten());
    all.extend(&g.discards);
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), TOTAL_CARDS, "a card was duplicated");
    // Piece supply: what is left plus what is placed is the box.
    for p in ALL_PIECES {
        let placed = g.buildings.iter().filter(|b| b.piece == p).count();
        assert_eq!(
            usize::from(g.supply[p.index()]) + placed,
            usize::from(p.supply())
        );
    }
    assert_eq!(usize::from(g.streetcars_left) + g.line.len(), 17);
    // Scores are the sum of their placements.
    for s in 0..g.seats {
        let sum: i32 = g
            .buildings
            .iter()
            .filter(|b| b.owner == s)
            .map(|b| b.points)
            .sum();
        assert_eq!(g.scores[usize::from(s)], sum);
    }
    // The spectator view agrees.
    let v = g.view(Viewer::Spectator);
    let counted: usize = v
        .hands
        .iter()
        .flat_map(|h| &h.backs)
        .map(|&n| usize::from(n))
        .sum::<usize>()
        + v.stacks.iter().map(|&s| usize::from(s)).sum::<usize>()
        + v.discards.len();
    assert_eq!(counted, TOTAL_CARDS);
    for b in &v.buildings {
        assert!(b.points >= 0);
    }
}

/// The view of `viewer` must not change when hidden information changes: stack order
/// and the faces of other seats' cards (swapped for same-back cards of the stacks).
fn check_hidden(g: &BigCity, rng: &mut GameRng) {
    let viewers: Vec<Viewer> = (0..g.seats)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    for viewer in viewers {
        let base = serde_json::to_string(&g.view(viewer)).unwrap();
        let mut other = g.clone();
        for s in other.stacks.iter_mut() {
            rng.shuffle(s);
        }
        let in_trade: Vec<u8> = g
            .trade
            .as_ref()
            .map(|t| {
                let mut v = t.offered.clone();
                for a in t.answers.iter().flatten() {
                    v.extend(a);
                }
                v
            })
            .unwrap_or_default();
        for s in 0..g.seats {
            if viewer == Viewer::Seat(s) {
                continue;
            }
            let hand = other.hands[usize::from(s)].clone();
            for c in hand {
                if in_trade.contains(&c) {
                    continue;
                }
                let st = usize::from(stack_of(c) - 1);
                if let Some(&d) = other.stacks[st].first() {
                    // Swap faces, keep backs.
                    other.stacks[st][0] = c;
                    let h = &mut other.hands[usize::from(s)];
                    h.retain(|&x| x != c);
                    h.push(d);
                    h.sort_unstable();
                }
            }
        }
        let after = serde_json::to_string(&other.view(viewer)).unwrap();
        assert_eq!(base, after, "{viewer:?} sees hidden information");
        if let Viewer::Seat(s) = viewer {
            for h in &g.view(viewer).hands {
                assert_eq!(h.cards.is_some(), h.seat == s);
            }
        }
    }
}

fn playout(seed: u64, seats: u8, bits: u8, max_steps: usize) {
    let setup = Setup {
        seats,
        seed,
        options: options(bits),
        first_seat: None,
    };
    let mut g = BigCity::new(&setup).unwrap();
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let mut log: Vec<Entry<Move>> = Vec::new();
    for step in 0..max_steps {
        if g.outcome().is_some() {
            break;
        }
        check_invariants(&g);
        let awaiting = g.awaiting();
        assert!(!awaiting.seats.is_empty());
        let seat = awaiting.seats[rng.below(awaiting.seats.len())];
        let moves = g.legal_moves(seat);
        assert!(!moves.is_empty(), "no legal move in {:?}", g.step);
        // Seats not awaited have no moves.
        for s in 0..seats {
            if !awaiting.seats.contains(&s) {
                assert!(g.legal_moves(s).is_empty());
            }
        }
        if step % 20 == 0 {
            for m in &moves {
                let mut c = g.clone();
                let events = match c.apply(seat, m) {
                    Ok(events) => events,
                    Err(e) => panic!("listed move {m:?} refused: {e}"),
                };
                // A listed build's preview is the points it scores when played.
                if let Move::Build { points, .. } = m {
                    let scored = events.iter().find_map(|e| match e.kind {
                        EventKind::Built { points, .. } => Some(points),
                        _ => None,
                    });
                    assert_eq!(points.map(i32::from), scored, "{m:?}");
                }
            }
            check_hidden(&g, &mut rng);
        }
        let listed: Vec<Move> = moves.iter().map(normalize).collect();
        for _ in 0..4 {
            let s = rng.below(usize::from(seats)) as u8;
            let m = random_move(&g, s, &mut rng);
            let listed_here = if s == seat {
                listed.contains(&normalize(&m))
            } else {
                g.legal_moves(s)
                    .iter()
                    .map(normalize)
                    .any(|x| x == normalize(&m))
            };
            if listed_here {
                continue;
            }
            let before = g.clone();
            let r = g.apply(s, &m);
            assert!(
                r.is_err(),
                "unlisted {m:?} by seat {s} accepted in {:?}",
                before.step
            );
            assert_eq!(g, before, "refused move changed the state");
        }
        // Occasionally let the timer run out instead.
        let entry = if rng.below(40) == 0 {
            Entry::Timeout {
                period: awaiting.period,
            }
        } else {
            let m = if rng.below(3) == 0 {
                g.bot_move(seat, engine::BotLevel::Greedy, &mut rng)
                    .unwrap()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            Entry::Move { seat, mv: m }
        };
        let before_period = g.awaiting().period;
        apply_entry(&mut g, &entry).unwrap();
        if matches!(entry, Entry::Timeout { .. }) {
            assert!(g.outcome().is_some() || g.awaiting().period != before_period);
        }
        log.push(entry);
    }
    check_invariants(&g);
    let again: BigCity = replay(&setup, &log).unwrap();
    assert_eq!(again, g, "replay differs");
    if g.step != Step::StartingCity {
        assert!(g.map.tiles.len() >= 4);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_playouts_keep_every_invariant(seed in any::<u64>(), seats in 2u8..=5, bits in 0u8..32) {
        playout(seed, seats, bits, 700);
    }
}

#[test]
fn full_random_games_finish_and_replay() {
    // Complete games to the end (greedy against random keeps them short).
    for seed in 0..3u64 {
        let setup = Setup {
            seats: 2 + (seed % 4) as u8,
            seed,
            options: options((seed * 7 % 32) as u8),
            first_seat: None,
        };
        let levels = [
            engine::BotLevel::Greedy,
            engine::BotLevel::Random,
            engine::BotLevel::Greedy,
            engine::BotLevel::Random,
            engine::BotLevel::Greedy,
        ];
        let (g, log) = engine::play_out::<BigCity>(&setup, &levels, seed, 200_000).unwrap();
        assert!(g.outcome().is_some(), "seed {seed} did not finish");
        check_invariants(&g);
        let again: BigCity = replay(&setup, &log).unwrap();
        assert_eq!(again, g);
    }
}

#[test]
fn same_seed_same_moves_same_state() {
    let setup = Setup {
        seats: 3,
        seed: 11,
        options: Options::default(),
        first_seat: None,
    };
    let levels = [engine::BotLevel::Random; 3];
    let (a, log_a) = engine::play_out::<BigCity>(&setup, &levels, 5, 400).unwrap();
    let (b, log_b) = engine::play_out::<BigCity>(&setup, &levels, 5, 400).unwrap();
    assert_eq!(log_a, log_b);
    assert_eq!(a, b);
    let other = Setup { seed: 12, ..setup };
    let (c, _) = engine::play_out::<BigCity>(&other, &levels, 5, 400).unwrap();
    assert_ne!(a, c);
}
