//! One test per ruling of `shared/rules/big-city.md` (G1-O2), named after it,
//! through the public API only: each table is a text position
//! ([`big_city::Position`], loaded with `BigCity::from_position`) or a new game,
//! moved on with `apply` and `timeout`, and read through views and `to_position`.
//!
//! Most tests start from [`CITY`]: two seats, seat 0 to act, hands empty, and this
//! map (neighborhood 1 at (0,0), 3 at (3,0), 2 at (0,3)):
//!
//! ```text
//!        x=0  1  2  3  4  5
//!   y=0   11 12 13 31 32 33
//!   y=1   14 15 16 34 35 36
//!   y=2   17 18 19 37 38 39
//!   y=3   21 22 23 24
//!   y=4   25 26 27 28
//! ```
//! Center: 15 16 18 19 22 23 34 35 37; everything else is on the outskirts.
//! Cards not written in a position lie on their stacks, lowest number on top.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use big_city::geometry::{Cell, CityMap, Edge, tile_cells, tile_properties};
use big_city::position::Stage;
use big_city::*;
use engine::{Setup, Viewer};

/// The fixture city of the module docs.
const CITY: &str = "
seats 2
tile 3 3 0
tile 2 0 3
";

/// City hall on 35, owned by seat 1.
const HALL: &str = "building city_hall 35 by 1\n";

fn setup(seats: u8, options: Options) -> Setup<Options> {
    Setup {
        seats,
        seed: 42,
        options,
        first_seat: Some(0),
    }
}

/// The game a position text describes.
fn load(text: &str) -> BigCity {
    let p = Position::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    BigCity::from_position(&p).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The fixture city with more lines.
fn city(more: &str) -> BigCity {
    load(&format!("{CITY}{more}"))
}

fn seg(x1: i16, y1: i16, x2: i16, y2: i16) -> Segment {
    Segment { x1, y1, x2, y2 }
}

fn build(piece: Piece, cells: &[u8]) -> Move {
    Move::Build {
        piece,
        cells: cells.to_vec(),
        points: None,
    }
}

fn streetcar(x1: i16, y1: i16, x2: i16, y2: i16) -> Move {
    Move::Streetcar {
        segment: seg(x1, y1, x2, y2),
    }
}

fn pos(g: &BigCity) -> Position {
    g.to_position()
}

fn stage(g: &BigCity) -> Stage {
    pos(g).stage
}

fn active(g: &BigCity) -> u8 {
    pos(g).turn
}

fn hand(g: &BigCity, seat: u8) -> Vec<u8> {
    pos(g).hands[usize::from(seat)].clone()
}

fn line_len(g: &BigCity) -> usize {
    pos(g).streetcars.len()
}

fn passes(g: &BigCity) -> u8 {
    pos(g).passes
}

fn spectator(g: &BigCity) -> View {
    g.view(Viewer::Spectator)
}

fn cell_of(g: &BigCity, property: u8) -> Option<Cell> {
    spectator(g)
        .cells
        .iter()
        .find(|c| c.property == property)
        .map(|c| Cell::new(c.x, c.y))
}

fn outskirts(g: &BigCity, property: u8) -> bool {
    let v = spectator(g);
    v.cells
        .iter()
        .find(|c| c.property == property)
        .unwrap()
        .outskirts
}

/// Whether a building, park or factory covers the cell.
fn built_at(g: &BigCity, cell: Cell) -> bool {
    spectator(g)
        .cells
        .iter()
        .any(|c| c.x == cell.x && c.y == cell.y && c.building.is_some())
}

/// Whether `seat`'s legal-move list holds `mv` (as played: without a build's points).
fn listed(g: &BigCity, seat: u8, mv: &Move) -> bool {
    g.legal_moves(seat).iter().any(|m| m.played() == *mv)
}

/// A refusal's stable code.
fn code(e: &engine::Illegal<Rule>) -> &'static str {
    e.code()
}

/// Applies a move that must be legal and listed, and returns its events.
fn ok(g: &mut BigCity, seat: u8, mv: Move) -> Vec<Event> {
    assert!(
        listed(g, seat, &mv),
        "{mv:?} should be listed; step {:?}",
        stage(g)
    );
    g.apply(seat, &mv)
        .unwrap_or_else(|e| panic!("{mv:?} refused: {e:?}"))
}

/// Applies a move that must be refused with `code`, leaving the state untouched.
fn refused(g: &mut BigCity, seat: u8, mv: Move, expected: &str) {
    let before = g.clone();
    let err = g.apply(seat, &mv).expect_err("move should be refused");
    assert_eq!(code(&err), expected, "{mv:?}: {err:?}");
    assert_eq!(*g, before, "a refused move changed the state");
    assert!(!listed(g, seat, &mv), "{mv:?} refused but listed");
}

fn points_of_last(g: &BigCity) -> i32 {
    pos(g).buildings.last().unwrap().points
}

// ---------- G: geometry ----------

#[test]
fn ruling_g1_grid_whole_cells() {
    let g = city("");
    let v = spectator(&g);
    let c21 = v.cells.iter().find(|c| c.property == 21).unwrap();
    assert_eq!((c21.x, c21.y), (0, 3));
    let c33 = v.cells.iter().find(|c| c.property == 33).unwrap();
    assert_eq!((c33.x, c33.y), (5, 0));
    // Every cell is distinct: tiles sit on whole cells, never half a property.
    let mut xy: Vec<(i16, i16)> = v.cells.iter().map(|c| (c.x, c.y)).collect();
    xy.sort_unstable();
    xy.dedup();
    assert_eq!(xy.len(), 9 + 9 + 8);
}

#[test]
fn ruling_g2_tile_numbering_and_rotation() {
    let t = tile_cells(1, 0, 0, 0);
    let order: Vec<u8> = t.iter().map(|x| x.1).collect();
    assert_eq!(order, (11..=19).collect::<Vec<_>>());
    assert_eq!(t[3].0, Cell::new(0, 1), "14 starts the second row");
    let t = tile_cells(2, 0, 0, 0);
    assert!(t.contains(&(Cell::new(3, 0), 24)));
    assert!(t.contains(&(Cell::new(0, 1), 25)));
    // Rotated 90 clockwise, (x, y) is still the top-left cell of the rotated tile.
    let t = tile_cells(4, 5, 5, 90);
    assert!(t.contains(&(Cell::new(6, 5), 41)));
    assert!(t.contains(&(Cell::new(6, 8), 44)));
    assert!(t.contains(&(Cell::new(5, 5), 45)));
    let total: usize = (1..=8).map(|n| tile_properties(n).count()).sum();
    assert_eq!(total, 68);
    // The same placement through the game.
    let mut g = city(HALL);
    let mv = Move::PlaceNeighborhood {
        neighborhood: 4,
        x: 6,
        y: 0,
        rotation: 90,
    };
    ok(&mut g, 0, mv);
    assert_eq!(cell_of(&g, 41), Some(Cell::new(7, 0)));
    assert_eq!(cell_of(&g, 48), Some(Cell::new(6, 3)));
}

#[test]
fn ruling_g3_starting_tile() {
    let g = BigCity::new(&setup(3, Options::default())).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.tiles.len(), 1);
    assert_eq!(
        (
            v.tiles[0].neighborhood,
            v.tiles[0].x,
            v.tiles[0].y,
            v.tiles[0].rotation
        ),
        (1, 0, 0, 0)
    );
    assert_eq!(
        v.tiles[0].cells[4],
        TileCell {
            property: 15,
            x: 1,
            y: 1
        }
    );
    assert_eq!(v.hand_size, 5);
    assert_eq!(v.unplaced, vec![2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn ruling_g4_adjacency_by_shared_edges() {
    let g = city("");
    let c19 = cell_of(&g, 19).unwrap();
    let mut n19: Vec<u8> = spectator(&g)
        .cells
        .iter()
        .filter(|c| c19.adjacent(Cell::new(c.x, c.y)))
        .map(|c| c.property)
        .collect();
    n19.sort_unstable();
    // Across neighborhoods: 37 (right) and 23 (below); never diagonal 24 or 38.
    assert_eq!(n19, vec![16, 18, 23, 37]);
    // Through the rules: a cinema on 19 sees residences on 37 and 23 (other tiles).
    let residences = "
building residence_single 37 by 1
building residence_single 24 by 1
hand 0 19
";
    let mut g = city(&format!("{HALL}{residences}"));
    refused(
        &mut g,
        0,
        build(Piece::Cinema, &[19]),
        "cinema_prerequisite",
    );
    let mut g = city(&format!(
        "{HALL}{residences}building residence_single 23 by 1\n"
    ));
    ok(&mut g, 0, build(Piece::Cinema, &[19]));
}

#[test]
fn ruling_g5_outskirts_ignore_holes() {
    // Ring around the hole x = 3, y = 0..2: 2 above, 4 below, 3 to the right.
    let mut g = load(
        "
seats 2
tile 2 1 -2
tile 4 1 3
tile 3 4 0
hand 0 16
",
    );
    assert!(!outskirts(&g, 16), "16 borders only the hole");
    assert!(!outskirts(&g, 31), "31 borders the hole and city");
    assert!(outskirts(&g, 11));
    // City hall may go on 16: it is in the center.
    ok(&mut g, 0, build(Piece::CityHall, &[16]));
}

#[test]
fn ruling_g6_neighborhood_placement() {
    let mut g = city(HALL);
    let place = |n: u8, x: i16, y: i16, rotation: u16| Move::PlaceNeighborhood {
        neighborhood: n,
        x,
        y,
        rotation,
    };
    // Overlap.
    refused(&mut g, 0, place(5, 2, 2, 0), "overlap");
    // One shared edge only (corner contact of 39 with a cell of the new tile).
    refused(&mut g, 0, place(5, 5, 3, 0), "not_connected");
    // Already in the city.
    refused(&mut g, 0, place(3, 6, 0, 0), "neighborhood_placed");
    refused(&mut g, 0, place(5, 6, 0, 45), "bad_rotation");
    refused(&mut g, 0, place(9, 6, 0, 0), "unknown_neighborhood");
    // Two cells of the new tile against two of the city: fine.
    ok(&mut g, 0, place(5, 4, 3, 0));
    assert!(!spectator(&g).unplaced.contains(&5));
}

#[test]
fn ruling_g7_footprints() {
    // Triple residence must be straight; may span neighborhoods.
    let mut g = city(&format!("{HALL}hand 0 13 16 19\n"));
    ok(&mut g, 0, build(Piece::ResidenceTriple, &[13, 16, 19]));
    let mut g = city("hand 0 16 19 37\n");
    refused(
        &mut g,
        0,
        build(Piece::ResidenceTriple, &[16, 19, 37]),
        "wrong_shape",
    );
    ok(&mut g, 0, build(Piece::ResidenceDouble, &[19, 37]));
    // Factories: the L in every rotation and reflection, the square.
    let mut g = city(&format!("{HALL}hand 0 69\n"));
    let ells: Vec<Vec<u8>> = g
        .legal_moves(0)
        .into_iter()
        .filter_map(|m| match m {
            Move::Build {
                piece: Piece::StanfordCorporation,
                cells,
                ..
            } => Some(cells),
            _ => None,
        })
        .collect();
    assert!(ells.contains(&vec![11, 14, 15]));
    assert!(ells.contains(&vec![11, 12, 14]));
    assert!(ells.contains(&vec![11, 12, 15]));
    assert!(ells.contains(&vec![12, 14, 15]));
    refused(
        &mut g,
        0,
        build(Piece::StanfordCorporation, &[11, 12, 13]),
        "wrong_shape",
    );
    let mut g = city(&format!("{HALL}hand 0 89\n"));
    refused(
        &mut g,
        0,
        build(Piece::RockwellIndustries, &[11, 12, 13, 14]),
        "wrong_shape",
    );
    ok(
        &mut g,
        0,
        build(Piece::RockwellIndustries, &[21, 22, 25, 26]),
    );
}

#[test]
fn ruling_g8_streets_and_closed_segments() {
    let mut g = city(&format!("{HALL}building residence_double 11 12 by 1\n"));
    // Between 11 and 12 (same building): closed.
    refused(&mut g, 0, streetcar(1, 0, 1, 1), "street_closed");
    // Not a street of the city.
    refused(&mut g, 0, streetcar(10, 10, 11, 10), "street_not_in_city");
    refused(&mut g, 0, streetcar(0, 0, 1, 1), "bad_segment");
    // Between two different buildings is a street; so is the outer edge.
    ok(&mut g, 0, streetcar(2, 0, 2, 1));
    // A double building may not be placed across a streetcar.
    let mut g = city(&format!(
        "{HALL}streetcar 2 1 2 2  # between 15 and 16\nhand 0 15 16\n"
    ));
    refused(
        &mut g,
        0,
        build(Piece::ResidenceDouble, &[15, 16]),
        "crosses_streetcar",
    );
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[15]));
}

#[test]
fn ruling_g9_streetcar_adjacency_boundary_only() {
    // Single residence on 15 (center): base 2, x2 only with a boundary streetcar.
    // (2,0)-(2,1) runs into 15's corner; (2,1)-(3,1) runs along 16's top, touching
    // 15's corner.
    let mut g = city(&format!(
        "{HALL}streetcar 2 0 2 1\nstreetcar 2 1 3 1\nhand 0 15\n"
    ));
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[15]));
    assert_eq!(points_of_last(&g), 2, "corner contact is not adjacent");
    let mut g = city(&format!(
        "{HALL}streetcar 1 1 2 1  # 15's top side\nhand 0 15\n"
    ));
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[15]));
    assert_eq!(points_of_last(&g), 4);
}

// ---------- S: streetcars ----------

#[test]
fn ruling_s1_streetcars_need_city_hall_and_run_out() {
    let mv = streetcar(0, 0, 1, 0);
    let mut g = city("");
    refused(&mut g, 0, mv.clone(), "needs_city_hall");
    let g = city(HALL);
    assert!(listed(&g, 0, &mv));
    // All 17 placed: along the top, down the right side, under neighborhood 3, and
    // down the left side.
    let line = "
streetcar 0 0 1 0
streetcar 1 0 2 0
streetcar 2 0 3 0
streetcar 3 0 4 0
streetcar 4 0 5 0
streetcar 5 0 6 0
streetcar 6 0 6 1
streetcar 6 1 6 2
streetcar 6 2 6 3
streetcar 5 3 6 3
streetcar 4 3 5 3
streetcar 0 0 0 1
streetcar 0 1 0 2
streetcar 0 2 0 3
streetcar 0 3 0 4
streetcar 0 4 0 5
streetcar 0 5 1 5
";
    let mut g = city(&format!("{HALL}{line}"));
    assert_eq!(spectator(&g).streetcars_left, 0);
    refused(&mut g, 0, streetcar(1, 5, 2, 5), "no_streetcars_left");
    assert!(
        !g.legal_moves(0)
            .iter()
            .any(|m| matches!(m, Move::Streetcar { .. }))
    );
    assert_eq!(
        BigCity::new(&setup(2, Options::default()))
            .unwrap()
            .view(Viewer::Spectator)
            .streetcars_left,
        17
    );
}

#[test]
fn ruling_s2_first_streetcar_is_one_segment_anywhere() {
    let mut g = city(HALL);
    // An outskirts street (top edge of 11) is allowed for the first one.
    ok(&mut g, 0, streetcar(0, 0, 1, 0));
    assert_eq!(line_len(&g), 1);
    assert_eq!(active(&g), 1, "the first streetcar ends the action");
    assert_eq!(stage(&g), Stage::Action);
}

#[test]
fn ruling_s3_later_actions_one_or_two_connected() {
    let mut g = city(&format!("{HALL}streetcar 0 0 1 0\n"));
    refused(&mut g, 0, streetcar(3, 3, 4, 3), "streetcar_not_connected");
    ok(&mut g, 0, streetcar(1, 0, 2, 0));
    assert_eq!(stage(&g), Stage::SecondStreetcar);
    // The second may attach to the first new one.
    ok(&mut g, 0, streetcar(2, 0, 3, 0));
    assert_eq!(active(&g), 1);
    // Or stop after one.
    ok(&mut g, 1, streetcar(3, 0, 4, 0));
    ok(&mut g, 1, Move::Done {});
    assert_eq!(line_len(&g), 4);
    assert_eq!(active(&g), 0);
}

/// Three sides of cell 15: top, right, bottom.
const U_AROUND_15: &str = "
streetcar 1 1 2 1
streetcar 2 1 2 2
streetcar 1 2 2 2
";

#[test]
fn ruling_s4_branches_and_loops_by_default() {
    let mut g = city(&format!("{HALL}{U_AROUND_15}"));
    // Branch from the middle vertex (2,1) upwards.
    ok(&mut g, 0, streetcar(2, 0, 2, 1));
    // Close the loop around 15.
    ok(&mut g, 0, streetcar(1, 1, 1, 2));
    assert_eq!(line_len(&g), 5);
}

#[test]
fn ruling_s5_single_line_variant() {
    let single = "options single_streetcar_line\n";
    let mut g = city(&format!("{single}{HALL}{U_AROUND_15}"));
    refused(&mut g, 0, streetcar(2, 0, 2, 1), "single_line");
    refused(&mut g, 0, streetcar(1, 1, 1, 2), "single_line");
    // Extending an end is fine, also twice at the same end.
    ok(&mut g, 0, streetcar(0, 1, 1, 1));
    ok(&mut g, 0, streetcar(0, 0, 0, 1));
    // A one-segment line extends at either end point.
    let g = city(&format!("{single}{HALL}streetcar 1 1 2 1\n"));
    for s in [
        seg(0, 1, 1, 1),
        seg(2, 1, 3, 1),
        seg(1, 0, 1, 1),
        seg(2, 1, 2, 2),
    ] {
        assert!(listed(&g, 0, &Move::Streetcar { segment: s }));
    }
    // A position whose line branches is refused by the loader too.
    let branching = format!("{CITY}{single}{HALL}{U_AROUND_15}streetcar 2 0 2 1\n");
    assert_eq!(
        BigCity::from_position(&Position::parse(&branching).unwrap()),
        Err(PositionError::Streetcar {
            index: 3,
            code: "single_line"
        })
    );
}

#[test]
fn ruling_s6_limited_line_variant() {
    let mut g = city(&format!("options limited_streetcar_line\n{HALL}"));
    // (0,0)-(1,0) borders only 11, which is empty.
    refused(&mut g, 0, streetcar(0, 0, 1, 0), "limited_line");
    // 35's top side borders city hall.
    ok(&mut g, 0, streetcar(4, 1, 5, 1));
    let listed: Vec<Move> = g.legal_moves(1);
    assert!(!listed.is_empty());
    for m in listed {
        if let Move::Streetcar { segment } = m {
            let e = Edge::from_segment(&segment).unwrap();
            assert!(e.sides().iter().any(|&c| built_at(&g, c)));
        }
    }
}

// ---------- C: cards ----------

#[test]
fn ruling_c1_deck_of_72_in_eight_stacks() {
    let g = BigCity::new(&setup(2, Options::default())).unwrap();
    let p = pos(&g);
    let mut all: Vec<u8> = p.stacks.iter().flatten().copied().collect();
    all.extend(p.hands.iter().flatten());
    all.sort_unstable();
    assert_eq!(all.len(), 72);
    let expected: Vec<u8> = (1..=8u8)
        .flat_map(|n| (1..=9).map(move |i| n * 10 + i))
        .collect();
    assert_eq!(all, expected);
    // Stack 2 holds 21..28 and Lincoln Park (29).
    assert!(big_city::pieces::stack_cards(2).contains(&29));
    assert_eq!(Piece::LincolnPark.special_card(), Some(29));
    assert_eq!(Piece::CentralPark.special_card(), Some(49));
    assert_eq!(Piece::StanfordCorporation.special_card(), Some(69));
    assert_eq!(Piece::RockwellIndustries.special_card(), Some(89));
}

#[test]
fn ruling_c2_setup_hands_and_starting_seat() {
    for seats in 2..=5u8 {
        let g = BigCity::new(&setup(seats, Options::default())).unwrap();
        let n = if seats == 5 { 6 } else { 5 };
        for h in &pos(&g).hands {
            assert_eq!(h.len(), n);
            let stacks: Vec<u8> = h.iter().map(|&c| c / 10).collect();
            assert_eq!(stacks, (1..=n as u8).collect::<Vec<_>>());
        }
        assert_eq!(hand_size(seats), n);
        assert_eq!(spectator(&g).first_seat, 0, "the host's choice");
    }
    // Without a host choice the seed decides, deterministically, over all seats.
    let mut seen = [false; 4];
    for seed in 0..40 {
        let s = Setup {
            seats: 4,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let a = BigCity::new(&s).unwrap();
        assert_eq!(a, BigCity::new(&s).unwrap());
        seen[usize::from(spectator(&a).first_seat)] = true;
    }
    assert!(seen.iter().all(|&x| x));
    // Shuffled: two seeds give different hands.
    let a = BigCity::new(&Setup {
        seed: 1,
        ..setup(2, Options::default())
    })
    .unwrap();
    let b = BigCity::new(&Setup {
        seed: 2,
        ..setup(2, Options::default())
    })
    .unwrap();
    assert_ne!(pos(&a).stacks, pos(&b).stacks);
}

#[test]
fn ruling_c3_what_others_see() {
    let g = BigCity::new(&setup(3, Options::default())).unwrap();
    let v = g.view(Viewer::Seat(1));
    for h in &v.hands {
        assert_eq!(h.backs.iter().sum::<u8>(), 5);
        assert_eq!(h.backs, vec![1, 1, 1, 1, 1, 0, 0, 0]);
        if h.seat == 1 {
            assert_eq!(h.cards, Some(hand(&g, 1)));
        } else {
            assert_eq!(h.cards, None);
        }
    }
    assert_eq!(v.stacks, vec![6, 6, 6, 6, 6, 9, 9, 9]);
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.hands.iter().all(|h| h.cards.is_none()));
    assert_eq!(spectator.viewer, None);
    // The JSON of seat 1's view carries none of seat 0's faces as hand cards.
    let json = serde_json::to_string(&v).unwrap();
    assert!(json.contains("\"cards\":null"));
}

#[test]
fn ruling_c4_drawing_one_at_a_time_two_per_stack() {
    let mut g = city("hand 0 11 12 13\n");
    ok(&mut g, 0, build(Piece::ResidenceTriple, &[11, 12, 13]));
    assert_eq!(stage(&g), Stage::Drawing { remaining: 3 });
    let draws: Vec<Move> = g.legal_moves(0);
    assert_eq!(
        draws.len(),
        8,
        "any non-empty stack, even unplaced neighborhoods"
    );
    ok(&mut g, 0, Move::Draw { stack: 7 });
    assert_eq!(hand(&g, 0).len(), 1);
    ok(&mut g, 0, Move::Draw { stack: 7 });
    refused(&mut g, 0, Move::Draw { stack: 7 }, "stack_limit");
    refused(&mut g, 0, Move::Draw { stack: 9 }, "bad_stack");
    ok(&mut g, 0, Move::Draw { stack: 1 });
    assert_eq!(active(&g), 1, "three draws end the turn");
    assert_eq!(hand(&g, 0).len(), 3);
    // Variant: only neighborhoods in the city.
    let limited = "options limited_card_drawing\n";
    let mut g = city(&format!("{limited}hand 0 11\n"));
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[11]));
    refused(&mut g, 0, Move::Draw { stack: 7 }, "stack_not_in_city");
    let drawable: Vec<u8> = g
        .legal_moves(0)
        .into_iter()
        .filter_map(|m| match m {
            Move::Draw { stack } => Some(stack),
            _ => None,
        })
        .collect();
    assert_eq!(drawable, vec![1, 2, 3]);
    // Empty allowed stacks: remaining draws are skipped. Every other card of
    // neighborhoods 1-3 lies in the discards.
    let others: Vec<String> = (1..=3u8)
        .flat_map(big_city::pieces::stack_cards)
        .filter(|c| ![11, 12].contains(c))
        .map(|c| c.to_string())
        .collect();
    let mut g = city(&format!(
        "{limited}hand 0 11 12\ndiscards {}\n",
        others.join(" ")
    ));
    let stacks = &pos(&g).stacks;
    assert!(stacks[0].is_empty() && stacks[1].is_empty() && stacks[2].is_empty());
    let ev = ok(&mut g, 0, build(Piece::ResidenceDouble, &[11, 12]));
    assert!(
        ev.iter()
            .any(|e| e.kind == EventKind::DrawsSkipped { seat: 0, count: 2 })
    );
    assert_eq!(active(&g), 1);
}

#[test]
fn ruling_c5_useless_cards() {
    let park = "building lincoln_park 15 16 by 1\n";
    let mut g = city(&format!("{HALL}{park}hand 0 15 16 17\n"));
    refused(&mut g, 0, Move::DiscardUseless { card: 17 }, "not_useless");
    refused(
        &mut g,
        0,
        Move::DiscardUseless { card: 18 },
        "cards_not_held",
    );
    let ev = ok(&mut g, 0, Move::DiscardUseless { card: 15 });
    // Face up: the event names the card.
    assert_eq!(
        ev[0].kind,
        EventKind::UselessDiscarded { seat: 0, card: 15 }
    );
    assert!(spectator(&g).discards.contains(&15));
    ok(&mut g, 0, Move::DiscardUseless { card: 16 });
    assert_eq!(stage(&g), Stage::Action, "still the start of the turn");
    // The replacements are drawn at the end of the turn, with the action's draws.
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[17]));
    assert_eq!(stage(&g), Stage::Drawing { remaining: 3 });
    // Variant: must be exchanged.
    let mut g = city(&format!(
        "options useless_must_be_exchanged\n{HALL}{park}hand 0 15\n"
    ));
    refused(
        &mut g,
        0,
        Move::DiscardUseless { card: 15 },
        "discard_not_allowed",
    );
    ok(&mut g, 0, Move::Exchange { cards: vec![15] });
    assert_eq!(
        pos(&g).stacks[0].last(),
        Some(&15),
        "back under its stack, can be drawn again"
    );
}

#[test]
fn ruling_c6_exchange() {
    let mut g = city("hand 0 11 12 21 22 31\n");
    let before = pos(&g).stacks[1].len();
    ok(
        &mut g,
        0,
        Move::Exchange {
            cards: vec![21, 22],
        },
    );
    let stack2 = pos(&g).stacks[1].clone();
    assert_eq!(stack2.len(), before + 2);
    assert!(
        stack2.ends_with(&[21, 22]),
        "each card under the previous one: {stack2:?}"
    );
    assert_eq!(stage(&g), Stage::Drawing { remaining: 2 });
    ok(&mut g, 0, Move::Draw { stack: 5 });
    ok(&mut g, 0, Move::Draw { stack: 5 });
    assert_eq!(hand(&g, 0).len(), 5);
    assert_eq!(active(&g), 1);
    // Draws up to the hand size even when the hand was short.
    let mut g = city("hand 0 11 12\n");
    ok(&mut g, 0, Move::Exchange { cards: vec![11] });
    assert_eq!(stage(&g), Stage::Drawing { remaining: 4 });
    refused(&mut g, 0, Move::Pass {}, "wrong_phase");
    let mut g = city("hand 0 11\n");
    refused(&mut g, 0, Move::Exchange { cards: vec![] }, "too_few_cards");
    refused(
        &mut g,
        0,
        Move::Exchange { cards: vec![12] },
        "cards_not_held",
    );
}

// ---------- A: actions ----------

#[test]
fn ruling_a1_build() {
    let mut g = city("hand 0 11 12 33\n");
    refused(
        &mut g,
        0,
        build(Piece::ResidenceDouble, &[11, 13]),
        "wrong_shape",
    );
    refused(
        &mut g,
        0,
        build(Piece::ResidenceDouble, &[12, 13]),
        "cards_not_held",
    );
    refused(&mut g, 0, build(Piece::Cinema, &[11]), "needs_city_hall");
    let ev = ok(&mut g, 0, build(Piece::BusinessDouble, &[11, 12]));
    assert!(matches!(ev[0].kind, EventKind::Built { points: 6, .. }));
    let v = spectator(&g);
    assert_eq!(v.scores[0], 6);
    let left = |v: &View, piece| v.supply.iter().find(|s| s.piece == piece).unwrap().left;
    assert_eq!(left(&v, Piece::BusinessDouble), 5);
    assert_eq!(hand(&g, 0), vec![33]);
    assert_eq!(v.discards, vec![11, 12]);
    assert_eq!(stage(&g), Stage::Drawing { remaining: 2 });
    // Supply exhausted: the eight single businesses are in the city.
    let businesses: String = [13, 14, 16, 17, 19, 21, 22, 23]
        .iter()
        .map(|c| format!("building business_single {c} by 1\n"))
        .collect();
    // Covered and unplaced properties: a park covers 12, whose card stays useful
    // only for an exchange.
    let mut g = city(&format!(
        "{HALL}{businesses}building lincoln_park 12 15 by 1\nhand 0 11 12 41\n"
    ));
    assert_eq!(left(&spectator(&g), Piece::BusinessSingle), 0);
    refused(
        &mut g,
        0,
        build(Piece::BusinessSingle, &[11]),
        "piece_unavailable",
    );
    refused(
        &mut g,
        0,
        build(Piece::ResidenceSingle, &[12]),
        "cell_covered",
    );
    refused(
        &mut g,
        0,
        build(Piece::ResidenceSingle, &[41]),
        "cell_not_in_city",
    );
}

#[test]
fn ruling_a2_park_or_factory() {
    let mut g = city("hand 0 29\n");
    refused(
        &mut g,
        0,
        build(Piece::LincolnPark, &[15, 16]),
        "needs_city_hall",
    );
    let mut g = city(&format!("{HALL}hand 0 29\n"));
    refused(
        &mut g,
        0,
        build(Piece::CentralPark, &[15, 16, 34]),
        "special_card_not_held",
    );
    // Park: at most one outskirts cell (11, 12 are both outskirts).
    refused(
        &mut g,
        0,
        build(Piece::LincolnPark, &[11, 12]),
        "park_outskirts",
    );
    ok(&mut g, 0, build(Piece::LincolnPark, &[12, 15]));
    assert_eq!(stage(&g), Stage::Drawing { remaining: 1 });
    assert_eq!(spectator(&g).scores[0], 0);
    assert!(!hand(&g, 0).contains(&29));
    // Factory: at least two outskirts cells, no property cards needed.
    let mut g = city(&format!("{HALL}hand 0 69\n"));
    refused(
        &mut g,
        0,
        build(Piece::StanfordCorporation, &[15, 16, 19]),
        "factory_outskirts",
    );
    // 17, 18 and 21 form an L: (0,2), (1,2), (0,3).
    ok(&mut g, 0, build(Piece::StanfordCorporation, &[17, 18, 21]));
}

#[test]
fn ruling_a3_streetcar_action_listed() {
    let mut g = city(HALL);
    let cars = g
        .legal_moves(0)
        .iter()
        .filter(|m| matches!(m, Move::Streetcar { .. }))
        .count();
    // Every unit edge of the 26 cells, minus none closed: count distinct edges.
    let mut edges: Vec<Edge> = spectator(&g)
        .cells
        .iter()
        .flat_map(|c| Cell::new(c.x, c.y).edges())
        .collect();
    edges.sort_unstable();
    edges.dedup();
    assert_eq!(cars, edges.len());
    ok(&mut g, 0, streetcar(0, 5, 1, 5));
    assert_eq!(spectator(&g).streetcars_left, 16);
}

#[test]
fn ruling_a4_place_neighborhood_after_city_hall() {
    let mv = Move::PlaceNeighborhood {
        neighborhood: 5,
        x: 4,
        y: 3,
        rotation: 0,
    };
    let mut g = city("");
    refused(&mut g, 0, mv.clone(), "needs_city_hall");
    let mut g = city(HALL);
    ok(&mut g, 0, mv);
    assert_eq!(spectator(&g).unplaced, vec![4, 6, 7, 8]);
    assert_eq!(active(&g), 1);
}

#[test]
fn ruling_a5_exchange_any_number() {
    let mut g = city("hand 0 11 12 13 14 15\n");
    let n = g
        .legal_moves(0)
        .iter()
        .filter(|m| matches!(m, Move::Exchange { .. }))
        .count();
    assert_eq!(n, 31, "every non-empty subset of five cards");
    ok(
        &mut g,
        0,
        Move::Exchange {
            cards: vec![11, 12, 13, 14, 15],
        },
    );
    assert_eq!(stage(&g), Stage::Drawing { remaining: 5 });
}

#[test]
fn ruling_a6_pass_even_with_legal_moves() {
    let mut g = city("hand 0 11\n");
    assert!(g.legal_moves(0).len() > 1);
    let ev = ok(&mut g, 0, Move::Pass {});
    assert_eq!(ev[0].kind, EventKind::Passed { seat: 0 });
    assert_eq!(passes(&g), 1);
    assert_eq!(active(&g), 1);
    // One action per turn: after a build, no second action.
    let mut g = city("hand 0 11 12\n");
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[11]));
    refused(
        &mut g,
        0,
        build(Piece::ResidenceSingle, &[12]),
        "wrong_phase",
    );
}

/// A7's table: three seats with the trade variant (a 20 s answer window), seat 0
/// to act holding 11 and 12, seat 1 holding 21 and 22, seat 2 holding 31.
fn trade_table() -> BigCity {
    load(
        "
seats 3
options trade_cards trade_window_ms=20000
tile 3 3 0
tile 2 0 3
hand 0 11 12
hand 1 21 22
hand 2 31
",
    )
}

#[test]
fn ruling_a7_trade_cards() {
    let mut g = trade_table();
    refused(
        &mut g,
        0,
        Move::TradeOffer {
            cards: vec![11],
            wanted: vec![3, 2],
        },
        "bad_wanted",
    );
    let ev = ok(
        &mut g,
        0,
        Move::TradeOffer {
            cards: vec![11, 12],
            wanted: vec![2],
        },
    );
    assert_eq!(
        ev[0].kind,
        EventKind::TradeOffered {
            seat: 0,
            neighborhoods: vec![1, 1],
            wanted: vec![2]
        }
    );
    let aw = g.awaiting();
    assert_eq!(aw.seats, vec![1, 2]);
    assert_eq!(aw.window_ms, Some(20_000));
    ok(
        &mut g,
        1,
        Move::TradeAnswer {
            cards: vec![21, 22],
        },
    );
    // The others see only neighborhoods, and only after the window closes.
    let v2 = g.view(Viewer::Seat(2));
    let t = v2.trade.clone().unwrap();
    assert_eq!(t.offered, vec![1, 1]);
    assert_eq!(t.offered_cards, None);
    assert_eq!(t.waiting, vec![2]);
    assert!(t.answers.is_empty());
    // Seat 2 times out: declined.
    let period = g.awaiting().period;
    g.timeout();
    assert_ne!(g.awaiting().period, period);
    assert_eq!(stage(&g), Stage::TradeAccept);
    let t = g.view(Viewer::Seat(0)).trade.unwrap();
    assert_eq!(
        t.answers,
        vec![
            TradeAnswerView {
                seat: 1,
                neighborhoods: vec![2, 2]
            },
            TradeAnswerView {
                seat: 2,
                neighborhoods: vec![]
            }
        ]
    );
    refused(
        &mut g,
        0,
        Move::TradeAccept {
            picks: vec![TradePick {
                give: 11,
                seat: 2,
                index: 0,
            }],
        },
        "bad_pick",
    );
    // Both cards from one player.
    ok(
        &mut g,
        0,
        Move::TradeAccept {
            picks: vec![
                TradePick {
                    give: 11,
                    seat: 1,
                    index: 0,
                },
                TradePick {
                    give: 12,
                    seat: 1,
                    index: 1,
                },
            ],
        },
    );
    assert_eq!(hand(&g, 0), vec![21, 22]);
    assert_eq!(hand(&g, 1), vec![11, 12]);
    assert_eq!(hand(&g, 2), vec![31]);
    assert_eq!(active(&g), 1, "a trade ends the turn, no exchange follows");
    // No answer at all: exchange up to two cards, or done.
    ok(
        &mut g,
        1,
        Move::TradeOffer {
            cards: vec![11],
            wanted: vec![],
        },
    );
    ok(&mut g, 0, Move::TradeAnswer { cards: vec![] });
    ok(&mut g, 2, Move::TradeAnswer { cards: vec![] });
    assert_eq!(stage(&g), Stage::TradeExchange);
    refused(
        &mut g,
        1,
        Move::Exchange {
            cards: vec![11, 12, 31],
        },
        "too_many_cards",
    );
    ok(
        &mut g,
        1,
        Move::Exchange {
            cards: vec![11, 12],
        },
    );
    assert_eq!(stage(&g), Stage::Drawing { remaining: 5 });
    // Trading is off by default.
    let mut g = city("hand 0 11\n");
    refused(
        &mut g,
        0,
        Move::TradeOffer {
            cards: vec![11],
            wanted: vec![],
        },
        "trade_disabled",
    );
}

// ---------- P: prerequisites ----------

#[test]
fn ruling_p1_city_hall_in_the_center_from_the_first_turn() {
    let mut g = city("hand 0 11 15\n");
    refused(
        &mut g,
        0,
        build(Piece::CityHall, &[11]),
        "city_hall_outskirts",
    );
    ok(&mut g, 0, build(Piece::CityHall, &[15]));
    let v = spectator(&g);
    let hall = v
        .supply
        .iter()
        .find(|s| s.piece == Piece::CityHall)
        .unwrap();
    assert_eq!(hall.left, 0);
    assert_eq!(points_of_last(&g), 0);
}

#[test]
fn ruling_p2_city_hall_first() {
    let board = "
building residence_single 12 by 1
building residence_single 14 by 1
hand 0 11 15 29 69
";
    let mut g = city(board);
    for (piece, cells, code) in [
        (Piece::Cinema, vec![15], "needs_city_hall"),
        (Piece::Church, vec![11], "needs_city_hall"),
        (Piece::PostOffice, vec![15], "needs_city_hall"),
        (Piece::Bank, vec![15], "needs_city_hall"),
        (Piece::ShoppingCenter, vec![15, 16], "needs_city_hall"),
        (Piece::LincolnPark, vec![15, 16], "needs_city_hall"),
        (
            Piece::StanfordCorporation,
            vec![17, 18, 21],
            "needs_city_hall",
        ),
    ] {
        refused(&mut g, 0, build(piece, &cells), code);
    }
    assert!(
        !g.legal_moves(0)
            .iter()
            .any(|m| matches!(m, Move::Streetcar { .. } | Move::PlaceNeighborhood { .. }))
    );
    let mut g = city(&format!("{board}{HALL}"));
    assert!(
        g.legal_moves(0)
            .iter()
            .any(|m| matches!(m, Move::Streetcar { .. }))
    );
    assert!(
        g.legal_moves(0)
            .iter()
            .any(|m| matches!(m, Move::PlaceNeighborhood { .. }))
    );
    ok(&mut g, 0, build(Piece::Cinema, &[15]));
}

#[test]
fn ruling_p3_church_double_number_and_last() {
    let mut g = city(&format!("{HALL}hand 0 11 12\n"));
    refused(&mut g, 0, build(Piece::Church, &[12]), "church_not_double");
    refused(&mut g, 0, build(Piece::Church, &[11]), "church_not_last");
    // Every property of neighborhood 1 but 11 and 12 is covered.
    let covered: String = (13..=19)
        .map(|c| format!("building residence_single {c} by 1\n"))
        .collect();
    let mut g = city(&format!("{HALL}{covered}hand 0 11 12\n"));
    refused(&mut g, 0, build(Piece::Church, &[11]), "church_not_last");
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[12]));
    ok(&mut g, 0, Move::Draw { stack: 4 });
    ok(&mut g, 1, Move::Pass {});
    ok(&mut g, 0, build(Piece::Church, &[11]));
    assert_eq!(points_of_last(&g), 15);
}

#[test]
fn ruling_p4_cinema_post_office_bank() {
    // A double residence next to 16 counts once.
    let double = format!("{HALL}building residence_double 12 13 by 1\nhand 0 15 16\n");
    let mut g = city(&double);
    refused(
        &mut g,
        0,
        build(Piece::Cinema, &[16]),
        "cinema_prerequisite",
    );
    let mut g = city(&format!("{double}building residence_single 19 by 1\n"));
    refused(
        &mut g,
        0,
        build(Piece::PostOffice, &[16]),
        "post_office_prerequisite",
    );
    // Cinema on 16: residences 12-13 (above) and 19 (below); 16's neighbors are
    // 13, 15, 19, 34, so not city hall (35).
    ok(&mut g, 0, build(Piece::Cinema, &[16]));
    assert_eq!(points_of_last(&g), 5);
    // Post office: a residence and a business.
    let mut g = city(&format!(
        "{HALL}building residence_single 12 by 1\nbuilding business_single 14 by 1\nhand 0 15\n"
    ));
    refused(&mut g, 0, build(Piece::Bank, &[15]), "bank_prerequisite");
    ok(&mut g, 0, build(Piece::PostOffice, &[15]));
    // Bank: two distinct businesses; a double business counts once.
    let double = format!("{HALL}building business_double 12 13 by 1\nhand 0 16\n");
    let mut g = city(&double);
    refused(&mut g, 0, build(Piece::Bank, &[16]), "bank_prerequisite");
    let mut g = city(&format!("{double}building business_single 19 by 1\n"));
    ok(&mut g, 0, build(Piece::Bank, &[16]));
    // Next to city hall? 16 is not next to 35, so 5 points.
    assert_eq!(points_of_last(&g), 5);
}

#[test]
fn ruling_p5_shopping_center() {
    // 15-16: 12 above 15 (residence), 19 below 16 (business), 34 right of 16.
    let base = format!(
        "{HALL}building residence_single 12 by 1\nbuilding business_single 19 by 1\nhand 0 15 16\n"
    );
    let shop = build(Piece::ShoppingCenter, &[15, 16]);
    // A special building missing, the line missing.
    let mut g = city(&base);
    refused(&mut g, 0, shop.clone(), "shopping_center_prerequisite");
    let cinema = "building cinema 34 by 1\n";
    let mut g = city(&format!("{base}{cinema}"));
    refused(&mut g, 0, shop.clone(), "shopping_center_prerequisite");
    // A streetcar touching only a corner (of 16) does not count (G9).
    let mut g = city(&format!("{base}{cinema}streetcar 3 0 3 1\n"));
    refused(&mut g, 0, shop.clone(), "shopping_center_prerequisite");
    let mut g = city(&format!(
        "{base}{cinema}streetcar 1 2 2 2  # bottom of 15\n"
    ));
    ok(&mut g, 0, shop);
    assert_eq!(points_of_last(&g), 30);
}

// ---------- V: scoring ----------

#[test]
fn ruling_v1_residence_and_business_values() {
    let s = |piece, f: &dyn Fn(&mut Surroundings)| {
        let mut x = Surroundings::default();
        f(&mut x);
        score(piece, &x)
    };
    assert_eq!(s(Piece::ResidenceSingle, &|_| {}), 2);
    assert_eq!(s(Piece::ResidenceTriple, &|x| x.outskirts = true), 11);
    assert_eq!(s(Piece::BusinessTriple, &|_| {}), 11, "center bonus");
    assert_eq!(s(Piece::BusinessTriple, &|x| x.outskirts = true), 10);
    assert_eq!(s(Piece::ResidenceDouble, &|x| x.park = true), 7);
    assert_eq!(s(Piece::ResidenceDouble, &|x| x.factory = true), 4);
    assert_eq!(
        s(Piece::ResidenceDouble, &|x| x.city_hall = true),
        6,
        "no hall bonus"
    );
    assert_eq!(s(Piece::BusinessDouble, &|x| x.city_hall = true), 14);
    assert_eq!(
        s(Piece::BusinessDouble, &|x| {
            x.city_hall = true;
            x.line = true
        }),
        21
    );
    // Through the game: a park next to a business in the center.
    let mut g = city(&format!(
        "{HALL}building lincoln_park 13 16 by 1\nhand 0 34\n"
    ));
    ok(&mut g, 0, build(Piece::BusinessSingle, &[34]));
    // 2 + 1 (park 16) + 1 (center) = 4, x2 city hall (35) = 8.
    assert_eq!(points_of_last(&g), 8);
}

#[test]
fn ruling_v2_cinema_post_office_bank_values() {
    let mut g = city(&format!(
        "{HALL}building residence_single 31 by 1\nbuilding residence_single 33 by 1\n\
         streetcar 4 0 5 0  # top of 32\nhand 0 32\n"
    ));
    ok(&mut g, 0, build(Piece::Cinema, &[32]));
    assert_eq!(points_of_last(&g), 15, "5 x3: city hall and line");
    let x = Surroundings {
        line: true,
        ..Default::default()
    };
    assert_eq!(score(Piece::Bank, &x), 10);
    assert_eq!(score(Piece::PostOffice, &Default::default()), 5);
}

#[test]
fn ruling_v3_fixed_values() {
    let all = Surroundings {
        line: true,
        city_hall: true,
        park: true,
        outskirts: true,
        ..Default::default()
    };
    assert_eq!(score(Piece::Church, &all), 15);
    assert_eq!(score(Piece::ShoppingCenter, &all), 30);
    for p in [
        Piece::CityHall,
        Piece::LincolnPark,
        Piece::CentralPark,
        Piece::StanfordCorporation,
        Piece::RockwellIndustries,
    ] {
        assert_eq!(score(p, &all), 0);
    }
    // Later placements never change a score.
    let mut g = city(&format!("{HALL}hand 0 11 29\n"));
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[11]));
    let before = spectator(&g).scores[0];
    ok(&mut g, 0, Move::Draw { stack: 3 });
    ok(&mut g, 1, Move::Pass {});
    ok(&mut g, 0, build(Piece::LincolnPark, &[12, 15]));
    assert_eq!(spectator(&g).scores[0], before);
    assert_eq!(pos(&g).buildings[1].points, 3);
}

#[test]
fn ruling_v4_worked_examples() {
    // (6+1)x2 = 14: double residence on the outskirts next to the line.
    let mut g = city("streetcar 0 0 1 0\nhand 0 11 12\n");
    let ev = ok(&mut g, 0, build(Piece::ResidenceDouble, &[11, 12]));
    assert_eq!(points_of_last(&g), 14);
    assert_eq!(
        ev[0].kind,
        EventKind::Built {
            seat: 0,
            piece: Piece::ResidenceDouble,
            cells: vec![11, 12],
            points: 14
        }
    );
    // Setting for the next two: factory 14-17-18, city hall 15, line on top of 11.
    let setting = "
building city_hall 15 by 1
building stanford_corporation 14 17 18 by 1
streetcar 0 0 1 0
hand 0 11 12
";
    // (6+0-2)x3 = 12: double business on the outskirts next to factory, hall, line.
    let mut g = city(setting);
    ok(&mut g, 0, build(Piece::BusinessDouble, &[11, 12]));
    assert_eq!(points_of_last(&g), 12);
    // (6+1-2)x2 = 10: a double residence there.
    let mut g = city(setting);
    ok(&mut g, 0, build(Piece::ResidenceDouble, &[11, 12]));
    assert_eq!(points_of_last(&g), 10);
    // A single residence next to a factory only, in the center, scores 1 (and no
    // multiplier applies even next to the line).
    let mut g = city("building stanford_corporation 14 17 18 by 1\nstreetcar 1 1 2 1\nhand 0 15\n");
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[15]));
    assert_eq!(points_of_last(&g), 1);
}

// ---------- F: setup, flow, end ----------

#[test]
fn ruling_f1_players_and_starting_city() {
    for seats in [0u8, 1, 6] {
        assert!(BigCity::new(&setup(seats, Options::default())).is_err());
    }
    let starting_set = |g: &BigCity| match spectator(g).phase {
        Phase::StartingCity { neighborhoods, .. } => neighborhoods,
        other => panic!("not the starting round: {other:?}"),
    };
    for (seats, set, order) in [
        (2u8, vec![2u8, 3, 4, 5], vec![1u8, 0, 1, 0]),
        (3, vec![2, 3, 4], vec![1, 2, 0]),
        (4, vec![2, 3, 4, 5], vec![1, 2, 3, 0]),
        (5, vec![2, 3, 4, 5, 6], vec![1, 2, 3, 4, 0]),
    ] {
        let mut g = BigCity::new(&Setup {
            seats,
            seed: 9,
            options: Options::default(),
            first_seat: Some(1),
        })
        .unwrap();
        assert_eq!(starting_set(&g), set);
        let mut seen = Vec::new();
        while stage(&g) == Stage::StartingCity {
            let seat = g.awaiting().seats[0];
            seen.push(seat);
            // Only the starting set may be placed, and no other action.
            let moves = g.legal_moves(seat);
            let left = starting_set(&g);
            assert!(moves.iter().all(|m| matches!(
                m,
                Move::PlaceNeighborhood { neighborhood, .. } if left.contains(neighborhood)
            )));
            refused(&mut g, seat, Move::Pass {}, "wrong_phase");
            let last = moves.last().cloned().unwrap();
            ok(&mut g, seat, last);
        }
        assert_eq!(seen, order);
        assert_eq!(spectator(&g).tiles.len(), set.len() + 1);
        assert_eq!(stage(&g), Stage::Action);
        assert_eq!(active(&g), 1, "turns start with the starting player");
    }
    // Outside the set: refused.
    let mut g = BigCity::new(&setup(3, Options::default())).unwrap();
    refused(
        &mut g,
        0,
        Move::PlaceNeighborhood {
            neighborhood: 5,
            x: 0,
            y: 3,
            rotation: 0,
        },
        "not_in_starting_set",
    );
}

/// All eight neighborhoods, every property but 11 covered by buildings placed
/// from the left of each row (a triple where three free cells follow, else a
/// double, else a single), seat 0 holding 11. Stanford Corporation and Rockwell Industries stay unused, so stacks 6 and 8
/// still hold their cards.
fn complete_city_but_11() -> String {
    let mut text = String::from("seats 2\n");
    let tiles = [
        (2, 3, 0),
        (3, 7, 0),
        (4, 3, 2),
        (5, 7, 3),
        (6, -1, 3),
        (7, -3, 0),
        (8, 0, 5),
    ];
    let mut map = CityMap::starting();
    for (n, x, y) in tiles {
        text.push_str(&format!("tile {n} {x} {y}\n"));
        let t = big_city::geometry::TilePlacement {
            neighborhood: n,
            x,
            y,
            rotation: 0,
        };
        map.place(t).unwrap();
    }
    let mut free: Vec<u8> = map.props().iter().copied().filter(|&p| p != 11).collect();
    let mut triples = vec![
        "residence_triple",
        "residence_triple",
        "residence_triple",
        "business_triple",
        "business_triple",
        "business_triple",
        "central_park",
    ];
    let mut doubles = vec!["lincoln_park", "shopping_center", "shopping_center"];
    doubles.extend(["residence_double"; 6]);
    doubles.extend(["business_double"; 6]);
    // One single residence stays in the supply, for 11.
    let mut singles = vec!["residence_single"; 7];
    singles.extend([
        "city_hall",
        "church",
        "church",
        "post_office",
        "post_office",
    ]);
    singles.extend(["cinema"; 4]);
    singles.extend(["bank"; 3]);
    singles.extend(["business_single"; 8]);
    // Row by row, left to right.
    free.sort_by_key(|&p| {
        let c = map.cell_of(p).unwrap();
        (c.y, c.x)
    });
    while let Some(&p) = free.first() {
        let c = map.cell_of(p).unwrap();
        let run: Vec<u8> = (0..3)
            .map_while(|dx| map.prop_at(Cell::new(c.x + dx, c.y)))
            .take_while(|q| free.contains(q))
            .collect();
        let (piece, cells) = if run.len() == 3 && !triples.is_empty() {
            (triples.pop().unwrap(), run)
        } else if run.len() >= 2 && !doubles.is_empty() {
            (doubles.pop().unwrap(), run[..2].to_vec())
        } else {
            (singles.pop().expect("enough pieces"), vec![p])
        };
        let cells_text: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        text.push_str(&format!("building {piece} {} by 1\n", cells_text.join(" ")));
        free.retain(|q| !cells.contains(q));
    }
    text.push_str("hand 0 11\n");
    text
}

#[test]
fn ruling_f2_end_conditions() {
    // A full round of passes.
    let mut g = city("hand 1 11\n");
    ok(&mut g, 0, Move::Pass {});
    ok(&mut g, 1, build(Piece::ResidenceSingle, &[11]));
    ok(&mut g, 1, Move::Draw { stack: 1 });
    ok(&mut g, 0, Move::Pass {});
    assert!(g.outcome().is_none(), "the streak was broken");
    let ev = ok(&mut g, 1, Move::Pass {});
    assert!(g.outcome().is_some());
    assert!(ev.iter().any(|e| matches!(
        e.kind,
        EventKind::GameOver {
            reason: EndReason::AllPassed,
            ..
        }
    )));
    assert!(g.legal_moves(0).is_empty());
    assert_eq!(code(&g.apply(0, &Move::Pass {}).unwrap_err()), "game_over");
    // The city complete: all eight neighborhoods, every property covered.
    let mut g = load(&complete_city_but_11());
    assert!(spectator(&g).unplaced.is_empty());
    ok(&mut g, 0, build(Piece::ResidenceSingle, &[11]));
    // Stacks allow drawing; the game ends after the draw.
    assert_eq!(stage(&g), Stage::Drawing { remaining: 1 });
    ok(&mut g, 0, Move::Draw { stack: 6 });
    assert_eq!(stage(&g), Stage::Over(EndReason::CityComplete));
}

#[test]
fn ruling_f3_most_points_wins_ties_share() {
    let table = |a: i32, b: i32| {
        city(&format!(
            "building business_single 31 by 0 points {a}\nbuilding business_single 33 by 1 points {b}\n"
        ))
    };
    let mut g = table(10, 10);
    assert_eq!(spectator(&g).scores, vec![10, 10]);
    ok(&mut g, 0, Move::Pass {});
    ok(&mut g, 1, Move::Pass {});
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![0, 1]);
    let mut g = table(3, 10);
    ok(&mut g, 0, Move::Pass {});
    ok(&mut g, 1, Move::Pass {});
    assert_eq!(g.outcome().unwrap().winners, vec![1]);
    assert_eq!(spectator(&g).winners, vec![1]);
}

// ---------- O: online play ----------

#[test]
fn ruling_o1_timeout_passes_and_draws_lowest() {
    let mut g = city("");
    let p = g.awaiting().period;
    let ev = g.timeout();
    assert!(ev.iter().any(|e| e.kind == EventKind::TimedOut { seat: 0 }));
    assert!(ev.iter().any(|e| e.kind == EventKind::Passed { seat: 0 }));
    assert_eq!(passes(&g), 1);
    assert_eq!(active(&g), 1);
    assert_ne!(g.awaiting().period, p);
    // Mid-draw: the lowest-numbered allowed stacks, two per stack.
    let mut g = city("hand 0 11 12 13\n");
    ok(&mut g, 0, build(Piece::ResidenceTriple, &[11, 12, 13]));
    ok(&mut g, 0, Move::Draw { stack: 5 });
    let ev = g.timeout();
    assert!(ev.iter().any(|e| e.kind == EventKind::TimedOut { seat: 0 }));
    let stacks: Vec<u8> = ev
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Drew { stack, .. } => Some(stack),
            _ => None,
        })
        .collect();
    assert_eq!(stacks, vec![1, 1]);
    assert_eq!(active(&g), 1);
    assert_eq!(hand(&g, 0).len(), 3);
    // The starting round: a placement is made for the seat.
    let mut g = BigCity::new(&setup(2, Options::default())).unwrap();
    g.timeout();
    assert_eq!(spectator(&g).tiles.len(), 2);
    // The second streetcar: done.
    let mut g = city(&format!("{HALL}streetcar 0 0 1 0\n"));
    ok(&mut g, 0, streetcar(1, 0, 2, 0));
    g.timeout();
    assert_eq!(active(&g), 1);
    assert_eq!(line_len(&g), 2);
}

#[test]
fn ruling_o2_hidden_information() {
    let opts = Options {
        trade_cards: true,
        ..Options::default()
    };
    let mut g = BigCity::new(&Setup {
        seats: 3,
        seed: 77,
        options: opts,
        first_seat: Some(0),
    })
    .unwrap();
    // Finish the starting city.
    while stage(&g) == Stage::StartingCity {
        g.timeout();
    }
    let mine = hand(&g, 0);
    let offer = Move::TradeOffer {
        cards: mine[..2].to_vec(),
        wanted: vec![],
    };
    let ev = g.apply(0, &offer).unwrap();
    // Views of seats 1 and 2 and of spectators: no face of seat 0, no stack order.
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let v = g.view(viewer);
        for h in &v.hands {
            if Some(h.seat) != v.viewer {
                assert!(h.cards.is_none());
            }
        }
        let t = v.trade.unwrap();
        assert!(t.offered_cards.is_none());
        assert_eq!(v.stacks.len(), 8, "sizes only");
    }
    assert_eq!(
        g.view(Viewer::Seat(0)).trade.unwrap().offered_cards,
        Some(mine[..2].to_vec())
    );
    // Events carry neighborhoods, not faces.
    let json = serde_json::to_string(&ev).unwrap();
    assert!(!json.contains(&format!("\"cards\":[{}", mine[0])));
    // An error about another seat's card does not reveal it.
    let theirs = hand(&g, 1)[0];
    let err = g
        .apply(
            0,
            &Move::Exchange {
                cards: vec![theirs],
            },
        )
        .unwrap_err();
    assert!(!format!("{err:?}").contains("seat"), "{err:?}");
}

#[test]
fn extreme_coordinates_are_refused_not_panics() {
    let mut g = city(HALL);
    for (x, y) in [
        (i16::MAX, i16::MAX),
        (i16::MIN, i16::MIN),
        (i16::MAX, 0),
        (0, i16::MIN),
    ] {
        for rotation in [0, 90] {
            let mv = Move::PlaceNeighborhood {
                neighborhood: 5,
                x,
                y,
                rotation,
            };
            refused(&mut g, 0, mv, "out_of_grid");
        }
        for segment in [
            seg(x, y, x, y.saturating_add(1)),
            seg(x, y, x.saturating_add(1), y),
            seg(x.saturating_sub(1), y, x, y),
        ] {
            let before = g.clone();
            let err = g
                .apply(0, &Move::Streetcar { segment })
                .expect_err("refused");
            assert!(["street_not_in_city", "bad_segment"].contains(&code(&err)));
            assert_eq!(g, before);
        }
    }
    refused(&mut g, 0, build(Piece::ResidenceSingle, &[]), "wrong_shape");
    refused(
        &mut g,
        0,
        Move::DiscardUseless { card: 0 },
        "cards_not_held",
    );
    refused(
        &mut g,
        0,
        Move::Exchange {
            cards: vec![255; 40],
        },
        "too_many_cards",
    );
}

#[test]
fn legal_move_counts_in_fixed_positions() {
    // Counted by hand: hand 11, 12, 15 in the fixture city without city hall.
    // Singles: 11 and 12 (outskirts) residence/business = 4; 15 (center) residence,
    // business, city hall = 3. Doubles 11-12 and 12-15: residence/business = 4.
    // Exchanges: 7 subsets. Pass: 1.
    let g = city("hand 0 11 12 15\n");
    let moves = g.legal_moves(0);
    let count = |f: fn(&Move) -> bool| moves.iter().filter(|m| f(m)).count();
    assert_eq!(count(|m| matches!(m, Move::Build { .. })), 11);
    assert_eq!(count(|m| matches!(m, Move::Exchange { .. })), 7);
    assert_eq!(count(|m| matches!(m, Move::Pass {})), 1);
    assert_eq!(moves.len(), 19);
    assert!(g.legal_moves(1).is_empty());
    // With city hall on 35: no second city hall, but streetcars on every street and
    // every placement of the five unplaced neighborhoods become possible.
    let mut g = city(&format!("{HALL}hand 0 11 12 15\n"));
    let moves = g.legal_moves(0);
    let builds = moves
        .iter()
        .filter(|m| matches!(m, Move::Build { .. }))
        .count();
    assert_eq!(builds, 10);
    let placements = moves
        .iter()
        .filter(|m| matches!(m, Move::PlaceNeighborhood { .. }))
        .count();
    let mut map = CityMap::starting();
    for t in &pos(&g).tiles {
        map.place(*t).unwrap();
    }
    let expected: usize = (4..=8).map(|n| map.legal_placements(n).len()).sum();
    assert_eq!(placements, expected);
    assert!(placements > 0);
    // Drawing: every non-empty stack until two were drawn from it.
    ok(&mut g, 0, build(Piece::ResidenceDouble, &[11, 12]));
    assert_eq!(g.legal_moves(0).len(), 8);
    ok(&mut g, 0, Move::Draw { stack: 8 });
    refused(&mut g, 0, Move::Draw { stack: 0 }, "bad_stack");
    ok(&mut g, 0, Move::Draw { stack: 8 });
    assert_eq!(active(&g), 1, "two cards played, two drawn");
}

#[test]
fn one_period_per_turn_and_trade_timeouts() {
    // Build then draw one card at a time: one decision period.
    let mut g = city("hand 0 11 12\n");
    let p = g.awaiting().period;
    ok(&mut g, 0, build(Piece::ResidenceDouble, &[11, 12]));
    assert_eq!(g.awaiting().period, p);
    ok(&mut g, 0, Move::Draw { stack: 3 });
    assert_eq!(g.awaiting().period, p);
    ok(&mut g, 0, Move::Draw { stack: 3 });
    assert_ne!(g.awaiting().period, p, "the next turn is a new period");
    // Trade: the accept step times out -> no trade, the turn ends as a pass.
    let mut g = city("options trade_cards\nhand 0 11\nhand 1 21\n");
    ok(
        &mut g,
        0,
        Move::TradeOffer {
            cards: vec![11],
            wanted: vec![],
        },
    );
    assert_eq!(g.awaiting().window_ms, Some(30_000));
    ok(&mut g, 1, Move::TradeAnswer { cards: vec![21] });
    assert_eq!(stage(&g), Stage::TradeAccept);
    assert_eq!(g.awaiting().window_ms, None);
    g.timeout();
    assert_eq!(hand(&g, 0), vec![11], "nothing changed hands");
    assert_eq!(active(&g), 1);
    assert_eq!(passes(&g), 1);
    // The exchange step after a failed trade times out the same way.
    ok(
        &mut g,
        1,
        Move::TradeOffer {
            cards: vec![21],
            wanted: vec![1],
        },
    );
    ok(&mut g, 0, Move::TradeAnswer { cards: vec![] });
    assert_eq!(stage(&g), Stage::TradeExchange);
    g.timeout();
    assert!(
        g.outcome().is_some(),
        "two passes in a row end a 2-player game"
    );
}

/// A7: while the window is open, nothing another seat receives (the answer's
/// events, any other seat's view, a spectator's view) depends on whether a seat
/// answered with cards or declined. When the window closes, all answers are
/// revealed together.
#[test]
fn ruling_a7_trade_answers_stay_hidden_until_the_window_closes() {
    let start = || {
        let mut g = trade_table();
        ok(
            &mut g,
            0,
            Move::TradeOffer {
                cards: vec![11],
                wanted: vec![],
            },
        );
        g
    };
    let json = |v: &View| serde_json::to_string(v).unwrap();
    let mut declined = start();
    let mut answered = start();
    let ev_declined = ok(&mut declined, 1, Move::TradeAnswer { cards: vec![] });
    let ev_answered = ok(&mut answered, 1, Move::TradeAnswer { cards: vec![21] });
    assert_eq!(
        serde_json::to_string(&ev_declined).unwrap(),
        serde_json::to_string(&ev_answered).unwrap(),
        "the answer's events tell whether seat 1 declined"
    );
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        assert_eq!(
            json(&declined.view(viewer)),
            json(&answered.view(viewer)),
            "{viewer:?}'s view tells whether seat 1 declined"
        );
    }
    // The window closes: every answer is revealed at once.
    for g in [&mut declined, &mut answered] {
        let ev = g.timeout();
        assert!(ev.iter().any(|e| matches!(
            &e.kind,
            EventKind::TradeAnswersRevealed { answers } if answers.len() == 2
        )));
    }
    let revealed = |g: &BigCity| spectator(g).trade.unwrap().answers;
    assert_eq!(
        revealed(&answered),
        vec![
            TradeAnswerView {
                seat: 1,
                neighborhoods: vec![2]
            },
            TradeAnswerView {
                seat: 2,
                neighborhoods: vec![]
            },
        ]
    );
    assert!(
        revealed(&declined)
            .iter()
            .all(|a| a.neighborhoods.is_empty())
    );
}
