//! The city map of `shared/rules/building-cities.md` (M1-M4, B2, B3, B6, B8), one
//! or more tests per ruling, named after it, through the public API only; then
//! property tests over random sequences of legal placements, checked by an
//! independent block-by-block reading of the rulings (no masks).
//!
//! Most tests start from [`spine`]: D1 with the road `J(3,0)` down column 3 to
//! row 5, the Power Grid at (4,1) and the Water Grid at (4,2):
//!
//! ```text
//!        x=0 1 2 3 4 5
//!   y=0   . . . J . .
//!   y=1   . . . r P .
//!   y=2   . . . r W .
//!   y=3   . . . r . .
//!   y=4   . . . r . .
//!   y=5   . . . r . .
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use building_cities::city::protected;
use building_cities::*;
use std::collections::{BTreeSet, VecDeque};

fn b(x: u8, y: u8) -> Block {
    Block::new(x, y)
}

fn house() -> TileKind {
    TileKind::Building("house".into())
}

fn roads(city: &mut City, blocks: &[(u8, u8)]) {
    for &(x, y) in blocks {
        city.place_road(b(x, y))
            .unwrap_or_else(|e| panic!("road ({x},{y}): {e:?}"));
    }
}

fn one(city: &mut City, kind: TileKind, x: u8, y: u8) -> Result<u32, Refusal> {
    city.place_tile(kind, Footprint::OneByOne, Rotation::R0, b(x, y))
}

/// The module-docs fixture.
fn spine() -> City {
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5)]);
    one(&mut city, TileKind::PowerGrid, 4, 1).unwrap();
    one(&mut city, TileKind::WaterGrid, 4, 2).unwrap();
    city
}

// ---------------------------------------------------------------- M1

#[test]
fn ruling_m1_six_districts_of_eight_by_eight_in_two_rows() {
    assert_eq!(b(0, 0).district(), Some(District::D1));
    assert_eq!(b(7, 7).district(), Some(District::D1));
    assert_eq!(b(8, 0).district(), Some(District::D2));
    assert_eq!(b(23, 0).district(), Some(District::D3));
    assert_eq!(b(7, 8).district(), Some(District::D4));
    assert_eq!(b(8, 8).district(), Some(District::D5));
    assert_eq!(b(23, 15).district(), Some(District::D6));
    assert_eq!(b(24, 0).district(), None);
    assert_eq!(b(0, 16).district(), None);
    for d in District::ALL {
        assert_eq!(d.blocks().count(), 64);
        assert!(d.blocks().all(|x| x.district() == Some(d)));
    }
}

#[test]
fn ruling_m1_districts_touch_in_a_cross_never_diagonally() {
    use District::*;
    let n = |d: District| d.neighbours().collect::<Vec<_>>();
    assert_eq!(n(D1), vec![D2, D4]);
    assert_eq!(n(D2), vec![D1, D3, D5]);
    assert_eq!(n(D6), vec![D3, D5]);
    assert!(!D1.adjacent(D5));
    assert!(!D2.adjacent(D6));

    let mut city = City::new(CityRules::default(), &[]);
    assert_eq!(city.districts(), &[D1]);
    assert_eq!(city.buyable_districts(), vec![D2, D4]);
    assert_eq!(
        city.buy_district(D5),
        Err(Refusal::DistrictNotAdjacent { district: D5 })
    );
    city.buy_district(D4).unwrap();
    city.buy_district(D5).unwrap();
    assert_eq!(
        city.buy_district(D4),
        Err(Refusal::DistrictOwned { district: D4 })
    );
    assert_eq!(city.districts(), &[D1, D4, D5], "in the order bought");
}

#[test]
fn ruling_m1_a_tile_never_straddles_a_border_or_leaves_the_map() {
    let city = spine();
    let h = house();
    let fits = |fp, rot, x, y| city.can_place_tile(&h, fp, rot, b(x, y));
    assert_eq!(
        fits(Footprint::TwoByOne, Rotation::R0, 7, 3),
        Err(Refusal::StraddlesBorder { origin: b(7, 3) })
    );
    assert_eq!(
        fits(Footprint::ThreeByTwo, Rotation::R90, 4, 6),
        Err(Refusal::StraddlesBorder { origin: b(4, 6) })
    );
    assert_eq!(
        fits(Footprint::ThreeByOne, Rotation::R0, 22, 3),
        Err(Refusal::OffMap { block: b(24, 3) })
    );
    // The same footprint inside D1, touching the spine below the Water Grid.
    assert_eq!(fits(Footprint::TwoByOne, Rotation::R0, 4, 3), Ok(()));
}

#[test]
fn ruling_m1_a_quarter_turn_swaps_width_and_height() {
    let mut city = spine();
    let id = city
        .place_tile(house(), Footprint::ThreeByOne, Rotation::R90, b(2, 1))
        .unwrap();
    assert_eq!(
        city.tile(id).unwrap().blocks(),
        vec![b(2, 1), b(2, 2), b(2, 3)]
    );
    let spots = city.legal_tile_spots(&house(), Footprint::ThreeByTwo);
    assert!(spots.iter().any(|s| s.rotation == Rotation::R0));
    assert!(spots.iter().any(|s| s.rotation == Rotation::R90));
    assert_eq!(Footprint::TwoByTwo.rotations(), &[Rotation::R0]);
    assert_eq!(Footprint::ThreeByTwo.size(Rotation::R90), (2, 3));
}

// ---------------------------------------------------------------- M2

#[test]
fn ruling_m2_each_sea_area_borders_its_district() {
    use District::*;
    let seas = |d: District| d.sea_areas().collect::<Vec<_>>();
    assert_eq!(seas(D1), vec![Sea::S1]);
    assert_eq!(seas(D2), vec![]);
    assert_eq!(seas(D3), vec![Sea::S7]);
    assert_eq!(seas(D4), vec![Sea::S2, Sea::S3]);
    assert_eq!(seas(D5), vec![Sea::S4]);
    assert_eq!(seas(D6), vec![Sea::S5, Sea::S6]);
}

#[test]
fn ruling_m2_a_sea_area_is_bought_only_next_to_an_owned_district() {
    let mut city = City::new(CityRules::default(), &[]);
    assert_eq!(city.buyable_seas(), vec![Sea::S1]);
    assert_eq!(
        city.buy_sea(Sea::S3),
        Err(Refusal::SeaNotAdjacent { sea: Sea::S3 })
    );
    city.buy_district(District::D4).unwrap();
    assert_eq!(city.buyable_seas(), vec![Sea::S1, Sea::S2, Sea::S3]);
    city.buy_sea(Sea::S3).unwrap();
    assert_eq!(
        city.buy_sea(Sea::S3),
        Err(Refusal::SeaOwned { sea: Sea::S3 })
    );
    assert_eq!(city.seas(), &[Sea::S3]);
}

#[test]
fn ruling_m2_at_most_two_cargo_ships_per_sea_area() {
    let mut city = City::new(CityRules::default(), &[]);
    assert_eq!(
        city.place_ship(Sea::S1),
        Err(Refusal::SeaNotOwned { sea: Sea::S1 })
    );
    city.buy_sea(Sea::S1).unwrap();
    city.place_ship(Sea::S1).unwrap();
    city.place_ship(Sea::S1).unwrap();
    assert_eq!(
        city.place_ship(Sea::S1),
        Err(Refusal::SeaFull {
            sea: Sea::S1,
            limit: 2
        })
    );
    assert_eq!(city.ships(Sea::S1), 2);
}

#[test]
fn ruling_b4_trucks_stand_on_a_district_roads_three_at_most() {
    let mut city = City::new(CityRules::default(), &[]);
    let d1 = District::D1;
    assert_eq!(
        city.place_truck(d1),
        Err(Refusal::NoRoadForTruck { district: d1 })
    );
    assert_eq!(
        city.place_truck(District::D2),
        Err(Refusal::DistrictNotOwned {
            district: District::D2
        })
    );
    roads(&mut city, &[(3, 0)]);
    for _ in 0..3 {
        city.place_truck(d1).unwrap();
    }
    assert_eq!(
        city.place_truck(d1),
        Err(Refusal::TrucksFull {
            district: d1,
            limit: 3
        })
    );
}

// ---------------------------------------------------------------- M3

#[test]
fn ruling_m3_roads_start_at_the_junction_on_d1_top_edge() {
    assert_eq!(JUNCTION.district(), Some(District::D1));
    assert_eq!(JUNCTION.y, 0);
    let mut city = City::new(CityRules::default(), &[]);
    assert_eq!(city.legal_road_blocks(), vec![JUNCTION]);
    assert_eq!(
        city.place_road(b(0, 0)),
        Err(Refusal::FirstRoadAtJunction { junction: JUNCTION })
    );
    // Only a road goes on the junction.
    assert_eq!(
        one(&mut city, TileKind::PowerGrid, JUNCTION.x, JUNCTION.y),
        Err(Refusal::JunctionReserved { block: JUNCTION })
    );
    city.place_road(JUNCTION).unwrap();
    assert!(city.is_road(JUNCTION));
}

#[test]
fn ruling_m3_owning_d3_unlocks_the_railway() {
    let mut city = City::new(CityRules::default(), &[]);
    city.buy_district(District::D2).unwrap();
    assert!(!city.has_railway());
    city.buy_district(District::D3).unwrap();
    assert!(city.has_railway());
}

// ---------------------------------------------------------------- M4

/// The seven shared district edges, as the pairs of blocks across them.
fn shared_edges() -> Vec<Vec<(Block, Block)>> {
    let mut edges = Vec::new();
    for (col, row) in [(1u8, 0u8), (2, 0), (1, 1), (2, 1)] {
        let x = col * 8;
        edges.push(
            (0..8)
                .map(|i| (b(x - 1, row * 8 + i), b(x, row * 8 + i)))
                .collect(),
        );
    }
    for col in 0..3u8 {
        edges.push(
            (0..8)
                .map(|i| (b(col * 8 + i, 7), b(col * 8 + i, 8)))
                .collect(),
        );
    }
    edges
}

#[test]
fn ruling_m4_every_layout_leaves_the_junction_and_every_shared_edge_reachable() {
    let mut seen = BTreeSet::new();
    for face in 1..=6 {
        let layout = protected::layout(face).unwrap();
        assert!(!layout.is_empty(), "face {face}");
        assert!(seen.insert(layout.clone()), "face {face} repeats another");
        let blocked: BTreeSet<Block> = layout.iter().copied().collect();
        assert!(!blocked.contains(&JUNCTION), "face {face}");
        // Flood fill over all 384 blocks, across borders, avoiding protected ones.
        let mut reached = BTreeSet::from([JUNCTION]);
        let mut queue = VecDeque::from([JUNCTION]);
        while let Some(at) = queue.pop_front() {
            for n in at.neighbours() {
                if !blocked.contains(&n) && reached.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        assert_eq!(
            reached.len() + blocked.len(),
            16 * 24,
            "face {face}: a pocket"
        );
        for (i, edge) in shared_edges().iter().enumerate() {
            let open = edge
                .iter()
                .filter(|(a, c)| reached.contains(a) && reached.contains(c))
                .count();
            assert!(
                open >= 4,
                "face {face}: shared edge {i} has {open} open pairs"
            );
        }
    }
    assert_eq!(protected::layout(0), None);
    assert_eq!(protected::layout(7), None);
}

#[test]
fn ruling_m4_protected_blocks_take_neither_buildings_nor_roads() {
    // Face 2 protects D1 (0,5)-(1,6); the road runs down column 3 to (3,6), then (2,6).
    let layout = protected::layout(2).unwrap();
    assert!(layout.contains(&b(1, 5)));
    let mut city = City::with_layout(CityRules::default(), Some(2));
    let spine: Vec<(u8, u8)> = (0..7).map(|y| (3, y)).chain([(2, 6)]).collect();
    roads(&mut city, &spine);
    one(&mut city, TileKind::PowerGrid, 2, 5).unwrap();
    one(&mut city, TileKind::WaterGrid, 2, 4).unwrap();
    assert_eq!(
        city.place_road(b(1, 6)),
        Err(Refusal::Protected { block: b(1, 6) })
    );
    assert_eq!(
        city.can_place_tile(&house(), Footprint::TwoByOne, Rotation::R0, b(1, 7)),
        Ok(())
    );
    assert_eq!(
        city.can_place_tile(&house(), Footprint::TwoByTwo, Rotation::R0, b(0, 6)),
        Err(Refusal::Protected { block: b(0, 6) })
    );
    for fp in Footprint::ALL {
        for spot in city.legal_tile_spots(&house(), fp) {
            let (w, h) = fp.size(spot.rotation);
            for dy in 0..h {
                for dx in 0..w {
                    assert!(!city.is_protected(b(spot.origin.x + dx, spot.origin.y + dy)));
                }
            }
        }
    }
    assert!(
        city.legal_road_blocks()
            .iter()
            .all(|r| !city.is_protected(*r))
    );
    // Without the layout the same road block is fine.
    let mut open = City::new(CityRules::default(), &[]);
    roads(&mut open, &spine);
    assert_eq!(open.place_road(b(1, 6)), Ok(()));
}

// ---------------------------------------------------------------- B2

#[test]
fn ruling_b2_every_road_block_continues_the_road() {
    let mut city = City::new(CityRules::default(), &[]);
    assert_eq!(
        city.place_road(b(3, 1)),
        Err(Refusal::FirstRoadAtJunction { junction: JUNCTION })
    );
    roads(&mut city, &[(3, 0), (3, 1)]);
    assert_eq!(
        city.place_road(b(3, 3)),
        Err(Refusal::RoadNotConnected { block: b(3, 3) })
    );
    assert_eq!(
        city.place_road(b(3, 1)),
        Err(Refusal::Occupied { block: b(3, 1) })
    );
    let legal: BTreeSet<Block> = city.legal_road_blocks().into_iter().collect();
    assert_eq!(
        legal,
        BTreeSet::from([b(2, 0), b(4, 0), b(2, 1), b(4, 1), b(3, 2)])
    );
}

#[test]
fn ruling_b2_roads_cross_a_border_only_into_an_owned_district() {
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]);
    assert_eq!(
        city.place_road(b(8, 1)),
        Err(Refusal::DistrictNotOwned {
            district: District::D2
        })
    );
    city.buy_district(District::D2).unwrap();
    assert_eq!(
        city.place_road(b(8, 3)),
        Err(Refusal::RoadNotConnected { block: b(8, 3) })
    );
    assert!(city.legal_road_blocks().contains(&b(8, 1)));
    roads(&mut city, &[(8, 1), (9, 1)]);
    assert_eq!(city.roads_in_district(District::D2), vec![b(8, 1), b(9, 1)]);
}

#[test]
fn ruling_b2_two_road_lines_never_run_side_by_side() {
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (3, 1), (4, 1)]);
    // A 2 × 2 square of road.
    assert_eq!(
        city.place_road(b(4, 0)),
        Err(Refusal::RoadsSideBySide { corner: b(3, 0) })
    );
    // Two lines touching corner to corner.
    let mut city = City::new(CityRules::default(), &[]);
    roads(
        &mut city,
        &[
            (3, 0),
            (3, 1),
            (3, 2),
            (3, 3),
            (4, 3),
            (5, 3),
            (5, 2),
            (5, 1),
        ],
    );
    assert_eq!(
        city.place_road(b(4, 0)),
        Err(Refusal::RoadsTouchAtCorner {
            block: b(4, 0),
            other: b(5, 1)
        })
    );
    assert!(!city.legal_road_blocks().contains(&b(4, 0)));
    // With one building row between them, lines are fine: a U around (4,1)-(4,2).
    assert_eq!(city.place_road(b(5, 0)), Ok(()));
    // Side by side across a border counts too.
    let mut city = City::new(CityRules::default(), &[]);
    city.buy_district(District::D2).unwrap();
    roads(
        &mut city,
        &[(3, 0), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1)],
    );
    roads(&mut city, &[(7, 2)]);
    assert_eq!(
        city.place_road(b(8, 2)),
        Err(Refusal::RoadsSideBySide { corner: b(7, 1) })
    );
}

#[test]
fn ruling_b2_at_most_two_intersections_per_district() {
    let spine: Vec<(u8, u8)> = (0..8).map(|y| (3, y)).collect();
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &spine);
    roads(&mut city, &[(4, 2), (4, 4)]);
    assert_eq!(city.intersections(District::D1), vec![b(3, 2), b(3, 4)]);
    assert_eq!(
        city.place_road(b(4, 6)),
        Err(Refusal::TooManyIntersections {
            district: District::D1,
            limit: 2
        })
    );
    // A road block making no new intersection is still fine.
    assert_eq!(city.place_road(b(5, 2)), Ok(()));
    // The limit is a room setting.
    let rules = CityRules {
        max_intersections: 3,
        ..CityRules::default()
    };
    let mut city = City::new(rules, &[]);
    roads(&mut city, &spine);
    roads(&mut city, &[(4, 2), (4, 4), (4, 6)]);
    assert_eq!(city.intersections(District::D1).len(), 3);
}

#[test]
fn ruling_b2_the_junction_and_border_crossings_are_not_intersections() {
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (2, 0), (4, 0), (3, 1)]);
    assert_eq!(city.intersections(District::D1), vec![]);
    let mut city = City::new(CityRules::default(), &[]);
    city.buy_district(District::D2).unwrap();
    roads(
        &mut city,
        &[
            (3, 0),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
            (7, 2),
            (7, 3),
            (7, 4),
            (8, 3),
        ],
    );
    assert_eq!(city.intersections(District::D1), vec![]);
    assert_eq!(city.intersections(District::D2), vec![]);
    // The same T inside a district is one.
    roads(&mut city, &[(6, 3)]);
    assert_eq!(city.intersections(District::D1), vec![b(7, 3)]);
}

// ---------------------------------------------------------------- B3

#[test]
fn ruling_b3_the_grids_come_first_in_every_district() {
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (3, 1), (3, 2), (3, 3)]);
    let d1 = District::D1;
    assert_eq!(
        one(&mut city, house(), 4, 1),
        Err(Refusal::GridsFirst { district: d1 })
    );
    assert!(
        city.legal_tile_spots(&house(), Footprint::OneByOne)
            .is_empty()
    );
    one(&mut city, TileKind::WaterGrid, 4, 1).unwrap();
    assert_eq!(
        one(&mut city, house(), 4, 2),
        Err(Refusal::GridsFirst { district: d1 })
    );
    assert_eq!(
        one(&mut city, TileKind::WaterGrid, 4, 2),
        Err(Refusal::GridAlreadyBuilt { district: d1 })
    );
    one(&mut city, TileKind::PowerGrid, 4, 2).unwrap();
    assert!(city.has_grids(d1));
    assert_eq!(one(&mut city, house(), 4, 3).map(|_| ()), Ok(()));
    // A new district starts again with its own grids.
    city.buy_district(District::D4).unwrap();
    assert!(!city.has_grids(District::D4));
    assert!(
        city.legal_tile_spots(&house(), Footprint::OneByOne)
            .iter()
            .all(|s| s.origin.district() == Some(d1))
    );
}

#[test]
fn ruling_b3_the_second_grid_chains_to_the_first() {
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]);
    one(&mut city, TileKind::PowerGrid, 4, 1).unwrap();
    assert_eq!(
        one(&mut city, TileKind::WaterGrid, 2, 4),
        Err(Refusal::NotChained {
            district: District::D1
        })
    );
    // Across the road from the Power Grid.
    assert!(one(&mut city, TileKind::WaterGrid, 2, 1).is_ok());
}

#[test]
fn ruling_b3_every_building_touches_a_road() {
    let mut city = spine();
    assert_eq!(
        one(&mut city, house(), 5, 1),
        Err(Refusal::NoRoadContact {
            district: District::D1
        })
    );
    // A building touching a road only across a border does not count.
    assert!(one(&mut city, house(), 4, 3).is_ok());
}

#[test]
fn ruling_b3_every_building_chains_to_the_grids_without_holes() {
    let mut city = spine();
    let chained = Err(Refusal::NotChained {
        district: District::D1,
    });
    assert_eq!(one(&mut city, house(), 4, 4), chained);
    assert_eq!(one(&mut city, house(), 2, 5), chained);
    one(&mut city, house(), 4, 3).unwrap();
    one(&mut city, house(), 4, 4).unwrap();
    assert!(
        !city
            .legal_tile_spots(&house(), Footprint::OneByOne)
            .iter()
            .any(|s| s.origin == b(2, 5)),
        "(2,5) has no link yet"
    );
    assert!(
        city.legal_tile_spots(&house(), Footprint::OneByOne)
            .iter()
            .any(|s| s.origin == b(2, 4)),
        "(2,4) faces (4,4) across the road"
    );
}

#[test]
fn ruling_b3_across_a_road_counts_as_touching() {
    let mut city = spine();
    // (2,1) road (3,1) Power Grid (4,1).
    assert!(one(&mut city, house(), 2, 1).is_ok());
    // (2,3) faces the empty (4,3) across the road, but touches (2,2)? Not yet.
    assert_eq!(
        one(&mut city, house(), 2, 3),
        Err(Refusal::NotChained {
            district: District::D1
        })
    );
    one(&mut city, house(), 2, 2).unwrap();
    assert!(one(&mut city, house(), 2, 3).is_ok());
}

/// D1 and D2 joined by the road along row 1, each with its grids, and D1's
/// houses at (6,2) and (7,2) on the border.
fn two_districts() -> City {
    let mut city = City::new(CityRules::default(), &[]);
    city.buy_district(District::D2).unwrap();
    roads(
        &mut city,
        &[
            (3, 0),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
            (8, 1),
            (9, 1),
            (10, 1),
        ],
    );
    one(&mut city, TileKind::PowerGrid, 4, 2).unwrap();
    one(&mut city, TileKind::WaterGrid, 5, 2).unwrap();
    one(&mut city, house(), 6, 2).unwrap();
    one(&mut city, house(), 7, 2).unwrap();
    one(&mut city, TileKind::PowerGrid, 10, 2).unwrap();
    one(&mut city, TileKind::WaterGrid, 10, 0).unwrap();
    city
}

#[test]
fn ruling_b3_the_chain_never_crosses_a_district_border() {
    let mut city = two_districts();
    // (8,2) touches D1's house (7,2) and D2's road, but not D2's grids.
    assert_eq!(
        one(&mut city, house(), 8, 2),
        Err(Refusal::NotChained {
            district: District::D2
        })
    );
    one(&mut city, house(), 9, 2).unwrap();
    assert!(one(&mut city, house(), 8, 2).is_ok());
}

#[test]
fn ruling_b3_neighbours_in_the_cross_stay_in_the_district() {
    let mut city = two_districts();
    let at = |city: &City, x, y| city.tile_at(b(x, y)).unwrap().id;
    one(&mut city, house(), 9, 2).unwrap();
    one(&mut city, house(), 8, 2).unwrap();
    let edge = at(&city, 7, 2);
    assert_eq!(city.neighbours_in_cross(edge), vec![at(&city, 6, 2)]);
    let power = at(&city, 4, 2);
    assert_eq!(city.neighbours_in_cross(power), vec![at(&city, 5, 2)]);
    // Across the road is linked for the chain but not a neighbour in the cross.
    let water2 = at(&city, 10, 0);
    assert_eq!(city.neighbours_in_cross(water2), Vec::<u32>::new());
    assert_eq!(
        city.tiles_in_district(District::D2).count(),
        4,
        "two grids and two houses"
    );
}

// ---------------------------------------------------------------- B6, B8

#[test]
fn ruling_b6_nothing_is_removed_except_explicitly() {
    let mut city = spine();
    let before = city.tiles().to_vec();
    let roads_before = city.roads();
    one(&mut city, house(), 4, 3).unwrap();
    let _ = one(&mut city, house(), 4, 3);
    let _ = city.place_road(b(4, 3));
    assert_eq!(&city.tiles()[..before.len()], &before[..]);
    assert_eq!(city.roads(), roads_before);
    let id = city.tile_at(b(4, 3)).unwrap().id;
    assert_eq!(city.remove_tile(id).map(|t| t.origin), Ok(b(4, 3)));
    assert_eq!(city.tile_at(b(4, 3)), None);
    assert_eq!(city.remove_tile(id), Err(Refusal::UnknownTile { id }));
    assert_eq!(city.remove_road(b(6, 6)), Err(Refusal::NothingToRemove));
    city.remove_road(b(3, 5)).unwrap();
    assert!(!city.is_road(b(3, 5)));
}

#[test]
fn ruling_b8_every_tile_knows_its_district() {
    let mut city = two_districts();
    let id = one(&mut city, house(), 9, 2).unwrap();
    assert_eq!(city.tile(id).unwrap().district(), Some(District::D2));
}

#[test]
fn city_round_trips_through_json() {
    let mut city = two_districts();
    city.buy_sea(Sea::S1).unwrap();
    city.place_ship(Sea::S1).unwrap();
    city.place_truck(District::D2).unwrap();
    let json = serde_json::to_string(&city).unwrap();
    let back: City = serde_json::from_str(&json).unwrap();
    assert_eq!(back, city);
    assert!(
        json.contains(r#""kind":"building","building":"house""#),
        "{json}"
    );
}
