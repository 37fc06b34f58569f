//! Ruling tests: one or more tests per ruling id of `shared/rules/my-city.md`,
//! each named after it. Fixtures set the card, the deck or a board directly.

#![allow(clippy::unwrap_used)]

use crate::board::{self, CELLS};
use crate::pieces;
use crate::score;
use crate::state::{MyCity, PlayerState, full_deck};
use crate::wire::*;
use engine::{Game, Setup, Viewer};
use std::collections::BTreeSet;

fn game(seats: u8, seed: u64) -> MyCity {
    MyCity::new(&Setup {
        seats,
        seed,
        options: Options {},
        first_seat: None,
    })
    .expect("valid setup")
}

fn card(piece: u8) -> Card {
    Card::Building {
        piece,
        color: pieces::color(piece),
    }
}

fn place(x: u8, y: u8, rotation: u8) -> Move {
    Move::Place { x, y, rotation }
}

/// Puts a building on a fixture board without any legality check.
fn put(p: &mut PlayerState, piece: u8, x: u8, y: u8, rotation: u8) {
    let cells: Vec<usize> = pieces::shape(piece, rotation)
        .expect("piece")
        .iter()
        .map(|&(dx, dy)| board::index(usize::from(x + dx), usize::from(y + dy)))
        .collect();
    p.build(piece, x, y, rotation, cells, 0);
}

fn fresh() -> PlayerState {
    game(1, 0).player(0).expect("seat 0").clone()
}

const CHURCH: u8 = 24;
const CHURCH_CARD: Card = Card::Building {
    piece: CHURCH,
    color: Color::Church,
};

// ---------------------------------------------------------------- B. Board

#[test]
fn ruling_b1_board_grid_and_terrain() {
    let info = board::board_info();
    assert_eq!((info.width, info.height), (14, 11));
    assert_eq!(info.terrain.len(), 154);
    let buildable = info
        .terrain
        .iter()
        .filter(|t| board::buildable(**t))
        .count();
    assert_eq!(buildable, 117);
    let count = |t: Terrain| info.terrain.iter().filter(|&&c| c == t).count();
    assert_eq!(count(Terrain::Trees), 12);
    assert_eq!(count(Terrain::Rocks), 9);
    assert_eq!(count(Terrain::Well), 2);
    assert_eq!(count(Terrain::Gold), 2);
    assert_eq!(board::terrain(0, 0), Terrain::Mountain);
    assert_eq!(board::terrain(13, 10), Terrain::Forest);
    assert_eq!(board::terrain(4, 0), Terrain::Trees);
    assert_eq!(board::terrain(8, 0), Terrain::Rocks);
    assert_eq!(board::terrain(7, 2), Terrain::Well);
    assert_eq!(board::terrain(5, 8), Terrain::Well);
    assert_eq!(board::terrain(11, 1), Terrain::Gold);
    assert_eq!(board::terrain(7, 5), Terrain::Gold);
    assert_eq!(board::terrain(12, 3), Terrain::Plain);
    assert_eq!(info.gold, vec![Cell { x: 11, y: 1 }, Cell { x: 7, y: 5 }]);
}

#[test]
fn ruling_b1_mountains_and_forest_are_not_buildable() {
    let mut g = game(1, 1);
    g.set_card(CHURCH_CARD);
    // (1,4) is mountain, (13,4) forest: both refused even along nothing else.
    assert_eq!(
        g.check(0, &place(0, 4, 0)).unwrap_err().code(),
        "not_buildable"
    );
    assert_eq!(
        g.check(0, &place(13, 4, 0)).unwrap_err().code(),
        "not_buildable"
    );
    assert_eq!(
        g.check(0, &place(14, 0, 0)).unwrap_err().code(),
        "off_board"
    );
}

#[test]
fn ruling_b2_river_edges_separate_the_banks() {
    // Every river edge separates the west bank from the east bank, and every pair
    // of side neighbours on different banks is separated by a river edge.
    let edges: BTreeSet<(usize, usize)> = board::river_edges()
        .iter()
        .map(|e| {
            let a = board::index(usize::from(e.x), usize::from(e.y));
            let b = match e.side {
                EdgeSide::East => a + 1,
                EdgeSide::South => a + board::WIDTH,
            };
            (a, b)
        })
        .collect();
    assert_eq!(edges.len(), 14);
    let mut crossing = BTreeSet::new();
    for a in 0..CELLS {
        for b in board::neighbours(a) {
            let (ax, ay) = board::coords(a);
            let (bx, by) = board::coords(b);
            if a < b && board::west_bank(ax, ay) != board::west_bank(bx, by) {
                crossing.insert((a, b));
            }
        }
    }
    assert_eq!(edges, crossing);
    // The shifts of ruling B2.
    assert!(board::west_bank(6, 3) && !board::west_bank(6, 4));
    assert!(!board::west_bank(6, 6) && board::west_bank(6, 7));
    assert!(!board::west_bank(7, 6) && board::west_bank(7, 7));
    assert!(board::west_bank(5, 5) && !board::west_bank(6, 5));
    assert!(board::west_bank(7, 9) && !board::west_bank(8, 9));
    // From the top border to the bottom border.
    assert!(edges.contains(&(board::index(6, 0), board::index(7, 0))));
    assert!(edges.contains(&(board::index(7, 10), board::index(8, 10))));
    // The static board sent to browsers carries the same edges and banks.
    let info = board::board_info();
    assert_eq!(info.river.len(), 14);
    assert!(info.west_bank[board::index(6, 3)]);
    assert!(!info.west_bank[board::index(6, 4)]);
}

// ---------------------------------------------------------------- P. Pieces

#[test]
fn ruling_p1_twenty_seven_pieces_in_four_colors() {
    let cat = pieces::catalogue();
    assert_eq!(cat.len(), 27);
    let of = |c: Color| cat.iter().filter(|p| p.color == c).count();
    assert_eq!(of(Color::Residential), 8);
    assert_eq!(of(Color::Public), 8);
    assert_eq!(of(Color::Industrial), 8);
    assert_eq!(of(Color::Church), 3);
    let sizes: Vec<usize> = cat.iter().map(|p| p.cells.len()).collect();
    assert_eq!(
        sizes,
        vec![
            2, 3, 3, 4, 4, 4, 4, 5, 3, 3, 4, 4, 4, 5, 5, 5, 3, 4, 4, 4, 5, 5, 5, 5, 1, 1, 1
        ]
    );
}

fn cells_of(piece: u8, rotation: u8) -> BTreeSet<(u8, u8)> {
    pieces::shape(piece, rotation)
        .expect("shape")
        .iter()
        .copied()
        .collect()
}

#[test]
fn ruling_p1_rotation_without_mirroring() {
    // `#../###` turned clockwise once is `##/#./#.`.
    let turned: BTreeSet<(u8, u8)> = [(0, 0), (1, 0), (0, 1), (0, 2)].into_iter().collect();
    assert_eq!(cells_of(4, 1), turned);
    // Four rotations are listed and no more.
    assert!(pieces::shape(4, 4).is_none());
    // `.##/##.` (residential) is never its mirror image `##./.##`.
    let mirror: BTreeSet<(u8, u8)> = [(0, 0), (1, 0), (1, 1), (2, 1)].into_iter().collect();
    for r in 0..4 {
        assert_ne!(cells_of(6, r), mirror, "rotation {r}");
    }
    // A rotation is a rotation: same size, and four turns come back round.
    for piece in 0..27u8 {
        for r in 0..4 {
            assert_eq!(cells_of(piece, r).len(), cells_of(piece, 0).len());
        }
    }
    // The Move enum refuses a fifth rotation.
    let mut g = game(1, 2);
    g.set_card(card(4));
    assert_eq!(
        g.check(0, &place(5, 0, 4)).unwrap_err().code(),
        "bad_rotation"
    );
    // The placements listed for the asymmetric `.##/##.` never cover its mirror.
    g.set_card(card(6));
    for mv in g.legal_moves(0) {
        if let Move::Place { x, y, rotation } = mv {
            let cells = g
                .player(0)
                .unwrap()
                .placement_cells(6, x, y, rotation)
                .unwrap();
            let (x0, y0) = (usize::from(x), usize::from(y));
            let rel: BTreeSet<(u8, u8)> = cells
                .iter()
                .map(|&i| {
                    let (cx, cy) = board::coords(i);
                    ((cx - x0) as u8, (cy - y0) as u8)
                })
                .collect();
            assert_ne!(rel, mirror);
        }
    }
}

#[test]
fn ruling_p2_deck_of_twenty_eight_cards_shuffled_by_seed() {
    let deck = full_deck();
    assert_eq!(deck.len(), 28);
    let buildings = deck
        .iter()
        .filter(|c| matches!(c, Card::Building { color, .. } if *color != Color::Church))
        .count();
    let churches = deck
        .iter()
        .filter(|c| {
            matches!(
                c,
                Card::Building {
                    color: Color::Church,
                    ..
                }
            )
        })
        .count();
    let blocking = deck.iter().filter(|c| **c == Card::Blocking).count();
    assert_eq!((buildings, churches, blocking), (24, 3, 1));
    // Revealed plus face-down always makes 28.
    let g = game(2, 5);
    assert_eq!(g.revealed().len() + g.deck_count(), 28);
    // Same seed, same order; different seeds give different orders.
    assert_eq!(game(2, 5), game(2, 5));
    let firsts: std::collections::HashSet<Vec<Card>> =
        (0..8).map(|s| game(1, s).revealed().to_vec()).collect();
    assert!(firsts.len() > 1);
}

#[test]
fn ruling_p2_deck_order_is_never_visible() {
    let g = game(2, 11);
    let revealed: Vec<Card> = g.revealed().to_vec();
    let mut rest: Vec<Card> = full_deck()
        .into_iter()
        .filter(|c| !revealed.contains(c))
        .collect();
    assert_eq!(rest.len(), g.deck_count());
    let mut a = g.clone();
    a.stack_deck(&rest);
    rest.reverse();
    let mut b = g.clone();
    b.stack_deck(&rest);
    assert_ne!(a, b);
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(a.view(viewer), b.view(viewer));
    }
}

// ---------------------------------------------------------------- R. A round

#[test]
fn ruling_r1_decisions_hidden_until_all_decided() {
    let mut g = game(2, 3);
    g.set_card(card(0));
    assert_eq!(g.awaiting().seats, vec![0, 1]);
    let period = g.awaiting().period;

    let mut passed = g.clone();
    let events = g.apply(0, &place(5, 0, 0)).expect("legal");
    assert_eq!(events, vec![Event::Decided { seat: 0 }]);
    assert_eq!(passed.apply(0, &Move::Pass {}).expect("legal"), events);
    assert_eq!(g.awaiting().seats, vec![1]);
    assert_eq!(g.awaiting().period, period);

    // Nobody else can tell a placement from a pass before the reveal.
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(g.view(viewer), passed.view(viewer));
        let v = g.view(viewer);
        assert_eq!(v.decided, vec![0]);
        assert!(v.my_decision.is_none());
        assert!(v.players[0].placements.is_empty());
        assert!(v.players[0].decided);
    }
    assert_eq!(g.view(Viewer::Seat(0)).my_decision, Some(place(5, 0, 0)));

    // A seat decides once per round.
    let before = g.clone();
    let err = g.apply(0, &Move::Pass {}).unwrap_err();
    assert_eq!(err.code(), "already_decided");
    assert_eq!(g, before);
    assert!(g.legal_moves(0).is_empty());

    // The last decision reveals and applies all of them together.
    let events = g.apply(1, &place(6, 1, 1)).expect("legal");
    let revealed = events
        .iter()
        .find_map(|e| match e {
            Event::DecisionsRevealed { decisions, .. } => Some(decisions.clone()),
            _ => None,
        })
        .expect("reveal");
    assert_eq!(revealed.len(), 2);
    assert!(revealed.iter().all(|d| d.action == Action::Place));
    assert_eq!(
        revealed[0].placement.as_ref().unwrap().cells,
        vec![Cell { x: 5, y: 0 }, Cell { x: 6, y: 0 }]
    );
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.players[0].placements.len(), 1);
    assert_eq!(v.players[1].placements.len(), 1);
    assert!(v.decided.is_empty());
    assert_ne!(g.awaiting().period, period);
}

#[test]
fn ruling_r1_three_choices_and_participation() {
    let mut g = game(2, 4);
    g.set_card(card(1));
    let moves = g.legal_moves(0);
    assert!(moves.contains(&Move::Pass {}));
    assert!(moves.contains(&Move::EndParticipation {}));
    assert!(moves.iter().any(|m| matches!(m, Move::Place { .. })));
    g.apply(0, &Move::EndParticipation {}).expect("legal");
    g.apply(1, &Move::Pass {}).expect("legal");
    // Seat 0 makes no more decisions; seat 1 goes on alone.
    assert_eq!(g.awaiting().seats, vec![1]);
    assert_eq!(
        g.apply(0, &Move::Pass {}).unwrap_err().code(),
        "participation_ended"
    );
    assert!(g.legal_moves(0).is_empty());
    assert_eq!(g.player(0).unwrap().points(), 10);
    assert_eq!(g.player(1).unwrap().points(), 9);
    assert_eq!(
        g.apply(7, &Move::Pass {}).unwrap_err().code(),
        "not_your_turn"
    );
}

#[test]
fn ruling_r2_first_building_along_the_river() {
    let mut g = game(1, 6);
    g.set_card(card(0)); // `##`
    let code = |g: &MyCity, mv: Move| g.check(0, &mv).unwrap_err().code();
    assert_eq!(code(&g, place(4, 0, 0)), "not_along_river");
    assert_eq!(code(&g, place(6, 0, 0)), "across_river");
    assert_eq!(code(&g, place(0, 0, 0)), "not_buildable");
    assert_eq!(code(&g, place(13, 0, 0)), "off_board");
    // A corner on the river is not enough: (5,3) touches it only at a corner.
    g.set_card(CHURCH_CARD);
    assert_eq!(code(&g, place(5, 3, 0)), "not_along_river");
    assert!(g.check(0, &place(5, 4, 0)).is_ok());
    assert!(
        g.check(0, &place(6, 3, 0)).is_ok(),
        "the horizontal stretch"
    );
    assert!(g.check(0, &place(7, 6, 0)).is_ok());
    g.set_card(card(0));
    assert!(g.check(0, &place(5, 0, 0)).is_ok());
    // Exactly the placements along the river are listed.
    for mv in g.legal_moves(0) {
        if let Move::Place { x, y, rotation } = mv {
            let cells = g
                .player(0)
                .unwrap()
                .placement_cells(0, x, y, rotation)
                .unwrap();
            assert!(cells.iter().any(|&i| board::along_river(i)));
        }
    }
}

#[test]
fn ruling_r2_later_buildings_share_a_side() {
    let mut g = game(1, 7);
    g.set_card(card(0));
    g.apply(0, &place(5, 0, 0)).expect("first building");
    assert_eq!(g.player(0).unwrap().placed.len(), 1);
    g.set_card(CHURCH_CARD);
    let code = |g: &MyCity, mv: Move| g.check(0, &mv).unwrap_err().code();
    assert_eq!(code(&g, place(2, 5, 0)), "not_adjacent");
    assert_eq!(code(&g, place(4, 1, 0)), "not_adjacent", "corner only");
    assert_eq!(code(&g, place(6, 0, 0)), "occupied");
    // Across the river counts as a shared side.
    assert!(g.check(0, &place(7, 0, 0)).is_ok());
    assert!(g.check(0, &place(4, 0, 0)).is_ok());
    assert!(g.check(0, &place(6, 1, 0)).is_ok());
    // And need not be along the river any more.
    g.set_card(card(1)); // `###`
    assert!(g.check(0, &place(2, 1, 0)).is_err());
    assert!(g.check(0, &place(2, 1, 0)).unwrap_err().code() == "not_adjacent");
    assert!(g.check(0, &place(4, 1, 0)).is_ok());
}

#[test]
fn ruling_r3_churches_cannot_be_passed() {
    let mut g = game(2, 8);
    g.set_card(CHURCH_CARD);
    let before = g.clone();
    let err = g.apply(0, &Move::Pass {}).unwrap_err();
    assert_eq!(err.code(), "church_cannot_pass");
    assert_eq!(g, before);
    assert!(!g.legal_moves(0).contains(&Move::Pass {}));
    assert!(g.legal_moves(0).contains(&Move::EndParticipation {}));
    assert!(!g.view(Viewer::Seat(0)).can_pass);
    // A player unable to place it must end participation: the timer does so.
    g.apply(0, &place(6, 0, 0)).expect("legal");
    g.timeout();
    assert!(g.player(0).unwrap().active);
    assert!(!g.player(1).unwrap().active);
    assert_eq!(g.player(1).unwrap().points(), 10);
}

#[test]
fn ruling_r4_blocking_card_blocks_next() {
    let mut g = game(1, 9);
    g.set_card(card(0));
    g.stack_deck(&[Card::Blocking, CHURCH_CARD, card(1), card(2)]);
    let round = g.round();
    let events = g.apply(0, &Move::Pass {}).expect("legal");
    assert!(events.contains(&Event::CardBlocked { card: CHURCH_CARD }));
    assert!(events.contains(&Event::CardRevealed {
        round: round + 1,
        card: card(1),
        deck_count: 1
    }));
    assert_eq!(g.current_card(), Some(card(1)));
    let v = g.view(Viewer::Seat(0));
    assert_eq!(v.blocked, Some(CHURCH_CARD));
    assert!(
        v.revealed
            .ends_with(&[Card::Blocking, CHURCH_CARD, card(1)])
    );
    // Nobody lost a point for the blocked card (only the pass cost one).
    assert_eq!(g.player(0).unwrap().points(), 9);
    // The next reveal clears the blocked card.
    g.apply(0, &Move::Pass {}).expect("legal");
    assert_eq!(g.current_card(), Some(card(2)));
    assert_eq!(g.view(Viewer::Spectator).blocked, None);
}

#[test]
fn ruling_r4_blocking_card_at_the_end_of_the_deck() {
    let mut g = game(1, 10);
    g.set_card(card(0));
    g.stack_deck(&[Card::Blocking, card(3)]);
    let events = g.apply(0, &Move::Pass {}).expect("legal");
    assert!(events.contains(&Event::CardBlocked { card: card(3) }));
    assert_eq!(g.end_reason(), Some(EndReason::DeckExhausted));
    let mut g = game(1, 10);
    g.set_card(card(0));
    g.stack_deck(&[Card::Blocking]);
    g.apply(0, &Move::Pass {}).expect("legal");
    assert_eq!(g.end_reason(), Some(EndReason::DeckExhausted));
}

/// Seat boards with a church on the gold at (11,1) and one at (8,5), next to the
/// other vein at (7,5).
fn gold_fixture(seats: u8) -> MyCity {
    let mut g = game(seats, 12);
    for s in 0..seats {
        let p = g.player_mut(s);
        put(p, 24, 11, 1, 0);
        put(p, 25, 8, 5, 0);
    }
    g.set_card(Card::Building {
        piece: 26,
        color: Color::Church,
    });
    g.stack_deck(&[card(0), card(1), card(2)]);
    g
}

#[test]
fn ruling_r5_gold_to_the_first_in_the_same_round() {
    let mut g = gold_fixture(3);
    g.apply(0, &place(7, 5, 0)).expect("legal");
    g.apply(1, &place(7, 5, 0)).expect("legal");
    let events = g.apply(2, &place(8, 4, 0)).expect("legal");
    assert!(events.contains(&Event::GoldBonus {
        seats: vec![0, 1],
        points: 3
    }));
    assert_eq!(g.player(0).unwrap().points(), 13);
    assert_eq!(g.player(1).unwrap().points(), 13);
    assert_eq!(g.player(2).unwrap().points(), 10);
    assert!(g.view(Viewer::Spectator).gold_claimed);
    // Seat 2 covers both veins a round later: too late.
    g.apply(0, &Move::Pass {}).expect("legal");
    g.apply(1, &Move::Pass {}).expect("legal");
    let events = g.apply(2, &place(7, 5, 1)).expect("legal");
    assert!(!events.iter().any(|e| matches!(e, Event::GoldBonus { .. })));
    assert_eq!(g.player(2).unwrap().points(), 10);
    assert!(!g.player(2).unwrap().gold_bonus);
    let s = score::breakdown(g.player(0).unwrap());
    assert_eq!(s.gold, 3);
}

#[test]
fn ruling_r6_game_ends_when_everyone_ended() {
    let mut g = game(2, 13);
    g.apply(0, &Move::EndParticipation {}).expect("legal");
    g.apply(1, &Move::Pass {}).expect("legal");
    assert!(g.outcome().is_none());
    let events = g.apply(1, &Move::EndParticipation {}).expect("legal");
    assert!(matches!(
        events.last(),
        Some(Event::GameOver {
            reason: EndReason::AllEnded,
            ..
        })
    ));
    assert!(g.outcome().is_some());
    assert!(g.awaiting().seats.is_empty());
    assert_eq!(g.apply(1, &Move::Pass {}).unwrap_err().code(), "game_over");
    assert!(g.view(Viewer::Spectator).game_over);
    assert!(g.view(Viewer::Spectator).card.is_none());
}

#[test]
fn ruling_r6_game_ends_after_the_last_card() {
    let mut g = game(2, 14);
    g.set_card(card(0));
    g.stack_deck(&[card(1)]);
    g.apply(0, &Move::Pass {}).expect("legal");
    g.apply(1, &Move::Pass {}).expect("legal");
    assert_eq!(g.current_card(), Some(card(1)));
    assert_eq!(g.deck_count(), 0);
    assert!(g.outcome().is_none());
    g.apply(0, &Move::Pass {}).expect("legal");
    g.apply(1, &Move::Pass {}).expect("legal");
    assert_eq!(g.end_reason(), Some(EndReason::DeckExhausted));
    let v = g.view(Viewer::Seat(1));
    assert_eq!(v.final_scores.as_ref().map(Vec::len), Some(2));
    assert_eq!(v.end_reason, Some(EndReason::DeckExhausted));
}

#[test]
fn ruling_r7_timer_passes_or_ends_participation() {
    let mut g = game(3, 15);
    g.set_card(card(0));
    g.player_mut(2).passes = 10; // at 0 points: may not pass
    assert_eq!(g.player(2).unwrap().points(), 0);
    g.apply(0, &place(5, 0, 0)).expect("legal");
    let period = g.awaiting().period;
    let events = g.timeout();
    assert_ne!(g.awaiting().period, period);
    let decisions = events
        .iter()
        .find_map(|e| match e {
            Event::DecisionsRevealed { decisions, .. } => Some(decisions.clone()),
            _ => None,
        })
        .expect("reveal");
    assert_eq!(
        decisions
            .iter()
            .map(|d| (d.seat, d.action, d.timed_out))
            .collect::<Vec<_>>(),
        vec![
            (0, Action::Place, false),
            (1, Action::Pass, true),
            (2, Action::EndParticipation, true)
        ]
    );
    assert_eq!(g.player(1).unwrap().points(), 9);
    assert!(!g.player(2).unwrap().active);
    assert_eq!(g.player(0).unwrap().placed.len(), 1);
}

// ---------------------------------------------------------------- S. Scoring

#[test]
fn ruling_s1_start_at_ten_pass_costs_one_at_once() {
    let mut g = game(1, 16);
    g.set_card(card(0));
    assert_eq!(g.player(0).unwrap().points(), 10);
    g.apply(0, &Move::Pass {}).expect("legal");
    assert_eq!(g.player(0).unwrap().points(), 9);
    assert_eq!(g.view(Viewer::Seat(0)).players[0].points, 9);
    assert_eq!(g.view(Viewer::Seat(0)).players[0].score.passes, -1);
    // No pass at 0 points.
    g.player_mut(0).passes = 10;
    g.set_card(card(1));
    let before = g.clone();
    assert_eq!(
        g.apply(0, &Move::Pass {}).unwrap_err().code(),
        "no_points_to_pass"
    );
    assert_eq!(g, before);
    assert!(!g.legal_moves(0).contains(&Move::Pass {}));
    // Final scores may go below zero: an empty board ends at -80.
    let s = score::breakdown(&fresh());
    assert_eq!(s.total, -80);
}

#[test]
fn ruling_s2_empty_board_and_covered_terrain() {
    let s = score::breakdown(&fresh());
    assert_eq!(
        (s.start, s.passes, s.gold, s.trees, s.rocks, s.empty),
        (10, 0, 0, 24, -18, -96)
    );
    let mut p = fresh();
    put(&mut p, 24, 4, 0, 0); // trees
    put(&mut p, 25, 8, 0, 0); // rocks
    put(&mut p, 26, 2, 0, 0); // plain
    put(&mut p, 24, 7, 2, 0); // the well, covered: no bonus
    put(&mut p, 24, 11, 1, 0); // gold
    let s = score::breakdown(&p);
    assert_eq!((s.trees, s.rocks, s.empty, s.wells), (22, -16, -93, 0));
}

#[test]
fn ruling_s2_largest_group_per_color_across_the_river() {
    let mut p = fresh();
    put(&mut p, 0, 5, 0, 0); // residential (5,0)-(6,0), west bank
    put(&mut p, 1, 7, 0, 0); // residential (7,0)-(9,0), east bank: joined across
    put(&mut p, 2, 2, 5, 0); // residential far away: group of 1
    put(&mut p, 8, 9, 2, 0); // public (9,2)-(11,2)
    put(&mut p, 16, 2, 8, 0); // industrial
    put(&mut p, 17, 6, 4, 0); // industrial (6,4)-(9,4), not touching
    let s = score::breakdown(&p);
    assert_eq!((s.residential, s.public, s.industrial), (2, 1, 1));
}

#[test]
fn ruling_s2_church_with_three_colors() {
    let mut p = fresh();
    put(&mut p, 24, 3, 6, 0); // church
    put(&mut p, 0, 1, 6, 0); // residential (1,6)-(2,6)
    put(&mut p, 8, 4, 6, 0); // public (4,6)-(6,6)
    let s = score::breakdown(&p);
    assert_eq!(s.churches, 0, "two colors only");
    put(&mut p, 16, 3, 4, 0); // industrial (3,4),(4,4),(3,5)
    let s = score::breakdown(&p);
    assert_eq!(s.churches, 3);
    // A church beside a church does not count as a color.
    let mut q = fresh();
    put(&mut q, 24, 3, 6, 0);
    put(&mut q, 25, 3, 7, 0);
    put(&mut q, 0, 1, 6, 0);
    put(&mut q, 8, 4, 6, 0);
    assert_eq!(score::breakdown(&q).churches, 0);
}

#[test]
fn ruling_s2_well_surrounded_on_four_sides() {
    let mut p = fresh();
    // The well at (5,8): neighbours (4,8), (6,8), (5,7), (5,9).
    put(&mut p, 24, 4, 8, 0);
    put(&mut p, 25, 6, 8, 0);
    put(&mut p, 26, 5, 7, 0);
    assert_eq!(score::breakdown(&p).wells, 0);
    put(&mut p, 24, 5, 9, 0);
    let s = score::breakdown(&p);
    assert_eq!(s.wells, 4);
    assert_eq!(
        s.total,
        s.start
            + s.passes
            + s.gold
            + s.trees
            + s.rocks
            + s.empty
            + s.residential
            + s.public
            + s.industrial
            + s.churches
            + s.wells
    );
}

#[test]
fn ruling_s2_well_needs_four_different_buildings() {
    // From a real game: the T piece `.#./###` (piece 5) turned twice at (5,7)
    // covers (5,7), (6,7), (7,7) and (6,8): the north and east sides of the well
    // at (5,8). Two churches cover its west (4,8) and south (5,9) sides.
    let mut p = fresh();
    put(&mut p, 5, 5, 7, 2);
    let cells: Vec<usize> = (0..board::CELLS)
        .filter(|&i| p.cover[i].is_some())
        .collect();
    let at = |x, y| board::index(x, y);
    assert_eq!(cells, vec![at(5, 7), at(6, 7), at(7, 7), at(6, 8)]);
    put(&mut p, 24, 4, 8, 0);
    put(&mut p, 25, 5, 9, 0);
    assert!(board::neighbours(at(5, 8)).all(|n| p.cover[n].is_some()));
    assert_eq!(score::breakdown(&p).wells, 0, "one building on two sides");
    // The same four sides held by four different buildings do score.
    let mut q = fresh();
    put(&mut q, 24, 4, 8, 0);
    put(&mut q, 25, 5, 9, 0);
    put(&mut q, 26, 5, 7, 0);
    put(&mut q, 0, 6, 8, 1); // residential (6,8)-(6,9)
    assert_eq!(score::breakdown(&q).wells, score::WELL_POINTS);
}

#[test]
fn ruling_s2_live_and_final_breakdown_in_views() {
    let mut g = game(2, 17);
    g.set_card(card(0));
    g.apply(0, &place(5, 0, 0)).expect("legal");
    g.apply(1, &Move::Pass {}).expect("legal");
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.players[0].score.residential, 1);
    assert_eq!(v.players[0].score.empty, -94);
    assert_eq!(v.players[1].score.total, -81);
    assert!(v.final_scores.is_none());
    g.apply(0, &Move::EndParticipation {}).expect("legal");
    g.apply(1, &Move::EndParticipation {}).expect("legal");
    let v = g.view(Viewer::Spectator);
    let finals = v.final_scores.expect("final scores");
    assert_eq!(finals[0], v.players[0].score);
    assert_eq!(finals[0].total, -77);
    assert_eq!(g.outcome().unwrap().scores, vec![-77, -81]);
    assert_eq!(g.outcome().unwrap().winners, vec![0]);
}

#[test]
fn ruling_s3_tiebreak_row_by_row() {
    assert_eq!(
        score::winners(&[5, 7, 7], &[vec![0], vec![3], vec![2]]),
        vec![2]
    );
    assert_eq!(
        score::winners(&[7, 7], &[vec![2, 5, 1], vec![2, 4, 9]]),
        vec![1]
    );
    assert_eq!(
        score::winners(&[7, 7], &[vec![2, 4], vec![2, 4]]),
        vec![0, 1]
    );
    // In a game: equal totals, seat 0 covered a cell of row 0.
    let mut g = game(2, 18);
    put(g.player_mut(0), 24, 2, 0, 0);
    put(g.player_mut(1), 24, 1, 5, 0);
    g.apply(0, &Move::EndParticipation {}).expect("legal");
    g.apply(1, &Move::EndParticipation {}).expect("legal");
    let out = g.outcome().expect("over");
    assert_eq!(out.scores, vec![-79, -79]);
    assert_eq!(out.winners, vec![0]);
    // Still equal: shared win.
    let mut g = game(2, 19);
    g.apply(0, &Move::EndParticipation {}).expect("legal");
    g.apply(1, &Move::EndParticipation {}).expect("legal");
    assert_eq!(g.outcome().expect("over").winners, vec![0, 1]);
}

#[test]
fn ruling_s3_tiebreak_counts_empty_light_green_spaces_only() {
    // Row 0 is `MM..T...R...FF`: eight plain cells, one tree, one rock.
    assert_eq!(score::empty_by_row(&fresh())[0], 8);
    let mut g = game(2, 22);
    // Seat 0 covers the trees of row 0 and a plain cell of row 5; seat 1 covers
    // trees of row 3 and another plain cell of row 5: both end at -81.
    put(g.player_mut(0), 24, 4, 0, 0);
    put(g.player_mut(0), 25, 1, 5, 0);
    put(g.player_mut(1), 24, 2, 3, 0);
    put(g.player_mut(1), 25, 3, 5, 0);
    // Covered trees are not empty light green spaces: every row counts the same.
    assert_eq!(
        score::empty_by_row(g.player(0).unwrap()),
        score::empty_by_row(g.player(1).unwrap())
    );
    g.apply(0, &Move::EndParticipation {}).expect("legal");
    g.apply(1, &Move::EndParticipation {}).expect("legal");
    let out = g.outcome().expect("over");
    assert_eq!(out.scores, vec![-81, -81]);
    assert_eq!(out.winners, vec![0, 1], "a shared win, not seat 0's");
    // Well and gold cells left visible do count.
    let mut p = fresh();
    let row2 = score::empty_by_row(&p)[2];
    put(&mut p, 24, 7, 2, 0); // the well at (7,2)
    assert_eq!(score::empty_by_row(&p)[2], row2 - 1);
    let row1 = score::empty_by_row(&p)[1];
    put(&mut p, 25, 11, 1, 0); // gold at (11,1)
    assert_eq!(score::empty_by_row(&p)[1], row1 - 1);
}

#[test]
fn ruling_s4_one_to_four_players() {
    for seats in [0u8, 5] {
        let err = MyCity::new(&Setup {
            seats,
            seed: 1,
            options: Options {},
            first_seat: None,
        });
        assert!(err.is_err(), "{seats} seats");
    }
    for seats in 1..=4u8 {
        let g = game(seats, 20);
        assert_eq!(g.awaiting().seats, (0..seats).collect::<Vec<_>>());
    }
    // A solo score attack plays to the end.
    let setup = Setup {
        seats: 1,
        seed: 21,
        options: Options {},
        first_seat: None,
    };
    let (g, _) =
        engine::play_out::<MyCity>(&setup, &[engine::BotLevel::Greedy], 1, 200).expect("play-out");
    let out = g.outcome().expect("solo game over");
    assert_eq!(out.winners, vec![0]);
    assert_eq!(out.scores.len(), 1);
}

#[test]
fn typescript_names_carry_the_game_prefix() {
    use ts_rs::TS;
    let cfg = ts_rs::Config::default();
    assert_eq!(Move::ident(&cfg), "MyCityMove");
    assert_eq!(View::ident(&cfg), "MyCityView");
    let decl = Move::decl(&cfg);
    assert!(decl.contains("\"type\": \"place\""), "{decl}");
    assert!(decl.contains("\"end_participation\""), "{decl}");
    let event = Event::decl(&cfg);
    assert!(event.contains("\"card_revealed\""), "{event}");
    // Every wire type declares, and none uses 64-bit numbers (`bigint` in TypeScript).
    let decls = [
        Options::decl(&cfg),
        Move::decl(&cfg),
        View::decl(&cfg),
        Event::decl(&cfg),
        Terrain::decl(&cfg),
        Color::decl(&cfg),
        Cell::decl(&cfg),
        EdgeSide::decl(&cfg),
        RiverEdge::decl(&cfg),
        BoardInfo::decl(&cfg),
        PieceInfo::decl(&cfg),
        Card::decl(&cfg),
        Placement::decl(&cfg),
        ScoreBreakdown::decl(&cfg),
        PlayerView::decl(&cfg),
        EndReason::decl(&cfg),
        Action::decl(&cfg),
        RevealedDecision::decl(&cfg),
    ];
    for decl in &decls {
        assert!(decl.contains("MyCity"), "{decl}");
        assert!(!decl.contains("bigint"), "{decl}");
    }
    if std::env::var_os("MY_CITY_PRINT_TS").is_some() {
        println!("{}", decls.join("\n"));
    }
}

#[test]
fn moves_with_unknown_fields_are_refused() {
    for text in [
        r#"{"type":"place","x":5,"y":0,"rotation":1,"seat":1}"#,
        r#"{"type":"pass","extra":1}"#,
        r#"{"type":"end_participation","extra":null}"#,
    ] {
        assert!(serde_json::from_str::<Move>(text).is_err(), "{text}");
    }
    let mv: Move = serde_json::from_str(r#"{"type":"pass"}"#).expect("pass parses");
    assert_eq!(mv, Move::Pass {});
    assert_eq!(
        serde_json::to_string(&Move::Pass {}).expect("JSON"),
        r#"{"type":"pass"}"#
    );
}

#[test]
fn wire_shapes_in_json() {
    let mv: Move =
        serde_json::from_str(r#"{"type":"place","x":5,"y":0,"rotation":1}"#).expect("place parses");
    assert_eq!(mv, place(5, 0, 1));
    let mv: Move = serde_json::from_str(r#"{"type":"end_participation"}"#).expect("end parses");
    assert_eq!(mv, Move::EndParticipation {});
    let options: Options = serde_json::from_str("{}").expect("options parse");
    assert_eq!(options, Options {});
    let json = serde_json::to_value(CHURCH_CARD).expect("card");
    assert_eq!(
        json,
        serde_json::json!({"type": "building", "piece": 24, "color": "church"})
    );
    let view = serde_json::to_value(game(2, 1).view(Viewer::Seat(1))).expect("view");
    assert_eq!(view["board"]["terrain"][0], "mountain");
    assert_eq!(view["seat"], 1);
    assert!(view.get("deck").is_none());
}

/// A perft-like count: the first `##` on an empty board, enumerated here
/// independently of the placement code (adjacent pairs of buildable cells on
/// one bank, one of them along the river).
#[test]
fn ruling_r2_first_domino_placements_count() {
    let mut g = game(1, 22);
    g.set_card(card(0));
    let along = |x: usize, y: usize| {
        let w = board::west_bank(x, y);
        (x > 0 && board::west_bank(x - 1, y) != w)
            || (x + 1 < board::WIDTH && board::west_bank(x + 1, y) != w)
            || (y > 0 && board::west_bank(x, y - 1) != w)
            || (y + 1 < board::HEIGHT && board::west_bank(x, y + 1) != w)
    };
    let ok = |a: (usize, usize), b: (usize, usize)| {
        board::buildable(board::terrain(a.0, a.1))
            && board::buildable(board::terrain(b.0, b.1))
            && board::west_bank(a.0, a.1) == board::west_bank(b.0, b.1)
            && (along(a.0, a.1) || along(b.0, b.1))
    };
    let mut horizontal = 0;
    let mut vertical = 0;
    for y in 0..board::HEIGHT {
        for x in 0..board::WIDTH {
            if x + 1 < board::WIDTH && ok((x, y), (x + 1, y)) {
                horizontal += 1;
            }
            if y + 1 < board::HEIGHT && ok((x, y), (x, y + 1)) {
                vertical += 1;
            }
        }
    }
    // Rotations 0 and 2 give the same horizontal cells, 1 and 3 the vertical ones;
    // each is its own move. Plus pass and end participation.
    let moves = g.legal_moves(0);
    assert_eq!(moves.len(), 2 * (horizontal + vertical) + 2);
    assert_eq!(
        horizontal + vertical,
        46,
        "23 on each bank, counted by hand"
    );
}
