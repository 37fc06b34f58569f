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
use proptest::prelude::*;
use std::collections::BTreeMap;
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
fn ruling_m4_a_room_layout_is_checked_like_the_six() {
    for face in 1..=6 {
        assert!(protected::leaves_city_open(
            &protected::layout(face).unwrap()
        ));
    }
    assert!(protected::leaves_city_open(&[]));
    assert!(!protected::leaves_city_open(&[JUNCTION]));
    // A ring around (5,5) leaves a pocket.
    let ring = [(5, 4), (4, 5), (6, 5), (5, 6)].map(|(x, y)| b(x, y));
    assert!(!protected::leaves_city_open(&ring));
    // A whole shared edge closed (D1's side of D1-D2) is refused too.
    let wall: Vec<Block> = (0..8).map(|y| b(7, y)).collect();
    assert!(!protected::leaves_city_open(&wall));
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
fn ruling_b3_the_rulebook_first_turn_fits() {
    // "a road of 3 tiles", the Power Grid, the Water Grid, then a blue tile.
    let mut city = City::new(CityRules::default(), &[]);
    roads(&mut city, &[(3, 0), (3, 1), (3, 2)]);
    one(&mut city, TileKind::PowerGrid, 4, 1).unwrap();
    one(&mut city, TileKind::WaterGrid, 4, 2).unwrap();
    one(&mut city, house(), 2, 1).unwrap();
    assert_eq!(city.built_in(District::D1), 6);
    assert_eq!(city.to_data().tiles.len(), 3);
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
    assert!(one(&mut city, house(), 4, 3).is_ok());
}

#[test]
fn ruling_b3_a_road_across_a_border_is_no_road_contact() {
    let mut city = City::new(CityRules::default(), &[]);
    let spine: Vec<(u8, u8)> = (0..8).map(|y| (3, y)).collect();
    roads(&mut city, &spine);
    city.buy_district(District::D4).unwrap();
    // (3,8) is the first block of D4, under D1's road (3,7).
    assert_eq!(
        one(&mut city, TileKind::PowerGrid, 3, 8),
        Err(Refusal::NoRoadContact {
            district: District::D4
        })
    );
    roads(&mut city, &[(3, 8)]);
    assert!(one(&mut city, TileKind::PowerGrid, 2, 8).is_ok());
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
    // Two steps reach across the road; (9,2) is three steps away.
    assert_eq!(city.neighbours_within(water2, 2), vec![at(&city, 10, 2)]);
    assert_eq!(
        city.neighbours_within(water2, 3),
        vec![at(&city, 10, 2), at(&city, 9, 2)]
    );
    // Still never across the border.
    assert_eq!(
        city.neighbours_within(edge, 2),
        vec![at(&city, 5, 2), at(&city, 6, 2)]
    );
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

// ---------------------------------------------------------------- properties

/// One random step: an action (0-4 road, 5 Power Grid, 6 Water Grid, 7-8 a
/// building, 9 buy a district), a footprint and a pick among the legal choices.
type Step = (u8, u8, u16);

fn pick<T: Copy>(items: &[T], n: u16) -> Option<T> {
    (!items.is_empty()).then(|| items[usize::from(n) % items.len()])
}

fn kind_of(action: u8) -> TileKind {
    match action {
        5 => TileKind::PowerGrid,
        6 => TileKind::WaterGrid,
        _ => house(),
    }
}

/// Plays the steps, each one legal by the city's own lists, checking B6 on the
/// way.
fn play(face: Option<u8>, limit: u8, steps: &[Step]) -> City {
    let rules = CityRules {
        max_intersections: limit,
        ..CityRules::default()
    };
    let mut city = City::with_layout(rules, face);
    for &(action, fp, n) in steps {
        let (tiles, roads) = (city.tiles().to_vec(), city.roads());
        match action {
            0..=4 => {
                if let Some(r) = pick(&city.legal_road_blocks(), n) {
                    city.place_road(r).unwrap();
                }
            }
            5..=8 => {
                let kind = kind_of(action);
                let fp = Footprint::ALL[usize::from(fp) % 5];
                if let Some(s) = pick(&city.legal_tile_spots(&kind, fp), n) {
                    city.place_tile(kind, fp, s.rotation, s.origin).unwrap();
                }
            }
            _ => {
                if n % 3 == 0
                    && let Some(d) = pick(&city.buyable_districts(), n / 3)
                {
                    city.buy_district(d).unwrap();
                }
            }
        }
        // B6: placing never moves or removes anything.
        assert_eq!(&city.tiles()[..tiles.len()], &tiles[..]);
        assert!(roads.iter().all(|r| city.is_road(*r)));
    }
    city
}

/// The test's own footprint sizes.
fn size(fp: Footprint, rotation: Rotation) -> (u8, u8) {
    let (w, h) = match fp {
        Footprint::OneByOne => (1, 1),
        Footprint::TwoByOne => (2, 1),
        Footprint::TwoByTwo => (2, 2),
        Footprint::ThreeByOne => (3, 1),
        Footprint::ThreeByTwo => (3, 2),
    };
    if rotation == Rotation::R0 {
        (w, h)
    } else {
        (h, w)
    }
}

fn step(at: Block, dx: i8, dy: i8) -> Option<Block> {
    let x = at.x.checked_add_signed(dx)?;
    let y = at.y.checked_add_signed(dy)?;
    Some(b(x, y)).filter(|n| n.x < 24 && n.y < 16)
}

const DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The rulings read block by block, without the crate's masks.
fn check(city: &City) {
    let limit = usize::from(city.rules().max_intersections);
    let roads: BTreeSet<Block> = city.roads().into_iter().collect();
    let road = |p: Option<Block>| p.is_some_and(|p| roads.contains(&p));
    // Tiles: inside an owned district, on free, unprotected blocks, no overlap.
    let mut owner: BTreeMap<Block, u32> = BTreeMap::new();
    for t in city.tiles() {
        let d = t.origin.district().unwrap();
        assert!(city.owns(d));
        let (w, h) = size(t.footprint, t.rotation);
        assert_eq!(t.blocks().len(), usize::from(w * h));
        for dy in 0..h {
            for dx in 0..w {
                let p = b(t.origin.x + dx, t.origin.y + dy);
                assert_eq!(p.district(), Some(d), "tile {} leaves {d:?}", t.id);
                assert!(!city.is_protected(p) && !roads.contains(&p) && p != JUNCTION);
                assert!(owner.insert(p, t.id).is_none(), "overlap at {p:?}");
            }
        }
    }
    // Roads: owned, unprotected, all reaching the junction.
    for r in &roads {
        assert!(city.owns(r.district().unwrap()) && !city.is_protected(*r));
    }
    if !roads.is_empty() {
        let mut reached = BTreeSet::from([JUNCTION]);
        let mut queue = VecDeque::from([JUNCTION]);
        while let Some(at) = queue.pop_front() {
            for n in at.neighbours() {
                if roads.contains(&n) && reached.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        assert_eq!(reached, roads, "a road block off the junction's road");
    }
    // Side by side: no square of road, no corner-only contact.
    for &r in &roads {
        let square = [(1, 0), (0, 1), (1, 1)].map(|(dx, dy)| road(step(r, dx, dy)));
        assert!(!square.iter().all(|x| *x), "square at {r:?}");
        for (dx, dy) in [(1, 1), (1, -1)] {
            if road(step(r, dx, dy)) {
                assert!(
                    road(step(r, dx, 0)) || road(step(r, 0, dy)),
                    "corner at {r:?}"
                );
            }
        }
    }
    // Intersections per district.
    for d in District::ALL {
        let count = roads
            .iter()
            .filter(|r| r.district() == Some(d) && **r != JUNCTION)
            .filter(|r| {
                DIRS.iter()
                    .filter_map(|&(dx, dy)| step(**r, dx, dy))
                    .filter(|n| n.district() == Some(d) && roads.contains(n))
                    .count()
                    >= 3
            })
            .count();
        assert!(count <= limit, "{d:?}: {count} intersections");
        assert_eq!(city.intersections(d).len(), count);
    }
    // Every tile touches a road of its district and chains to both grids.
    let in_d = |p: Option<Block>, d: District| p.filter(|p| p.district() == Some(d));
    for d in District::ALL {
        let tiles: Vec<&Tile> = city.tiles_in_district(d).collect();
        for t in &tiles {
            let touches = t
                .blocks()
                .iter()
                .any(|&p| DIRS.iter().any(|&(dx, dy)| road(in_d(step(p, dx, dy), d))));
            assert!(touches, "tile {} touches no road", t.id);
        }
        let power = tiles.iter().find(|t| t.kind == TileKind::PowerGrid);
        let water = tiles.iter().find(|t| t.kind == TileKind::WaterGrid);
        let Some(seed) = power.or(water) else {
            assert!(tiles.is_empty(), "{d:?} has tiles before its grids");
            continue;
        };
        if tiles
            .iter()
            .any(|t| matches!(t.kind, TileKind::Building(_)))
        {
            assert!(power.is_some() && water.is_some(), "{d:?}: grids first");
        }
        let mut reached = BTreeSet::from([seed.id]);
        let mut queue = VecDeque::from([seed.id]);
        while let Some(id) = queue.pop_front() {
            let t = city.tile(id).unwrap();
            for p in t.blocks() {
                for (dx, dy) in DIRS {
                    let side = in_d(step(p, dx, dy), d);
                    let beyond = in_d(step(p, 2 * dx, 2 * dy), d).filter(|_| road(side));
                    for q in [side, beyond].into_iter().flatten() {
                        if let Some(&other) = owner.get(&q)
                            && reached.insert(other)
                        {
                            queue.push_back(other);
                        }
                    }
                }
            }
        }
        assert_eq!(
            reached.len(),
            tiles.len(),
            "{d:?}: a tile off the grids' chain"
        );
    }
}

/// `legal_tile_spots` and `legal_road_blocks` agree with the `can_place_*`
/// checks on every origin and rotation.
fn check_lists(city: &City, kinds: &[TileKind], footprints: &[Footprint]) {
    let every = || (0..24u8).flat_map(|x| (0..16u8).map(move |y| b(x, y)));
    let legal: BTreeSet<Block> = city.legal_road_blocks().into_iter().collect();
    for p in every() {
        assert_eq!(
            city.can_place_road(p).is_ok(),
            legal.contains(&p),
            "road {p:?}"
        );
    }
    for kind in kinds {
        for &fp in footprints {
            let spots: BTreeSet<Spot> = city.legal_tile_spots(kind, fp).into_iter().collect();
            for &rotation in fp.rotations() {
                for origin in every() {
                    let ok = city.can_place_tile(kind, fp, rotation, origin).is_ok();
                    let listed = spots.contains(&Spot { rotation, origin });
                    assert_eq!(ok, listed, "{kind:?} {fp:?} {rotation:?} {origin:?}");
                }
            }
        }
    }
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec((0u8..10, 0u8..5, any::<u16>()), 0..160)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_legal_placements_keep_every_ruling(
        face in prop::option::of(1u8..=6),
        limit in 0u8..=3,
        steps in steps(),
    ) {
        let city = play(face, limit, &steps);
        check(&city);
        let kinds = [TileKind::PowerGrid, TileKind::WaterGrid, house()];
        check_lists(&city, &kinds, &Footprint::ALL);
        let json = serde_json::to_string(&city).unwrap();
        let back: City = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, city);
    }

    #[test]
    fn the_legal_lists_agree_with_the_checks_midway(
        face in prop::option::of(1u8..=6),
        steps in steps(),
        cut in any::<u16>(),
        kind in 5u8..=8,
        fp in 0usize..5,
    ) {
        let cut = usize::from(cut) % (steps.len() + 1);
        let city = play(face, 2, &steps[..cut]);
        check_lists(&city, &[kind_of(kind)], &[Footprint::ALL[fp]]);
    }
}

/// The random play is not vacuous: a long game builds roads and tiles in more
/// than one district.
#[test]
fn random_play_builds_a_city() {
    let mut seed = 7u64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) as u16
    };
    let steps: Vec<Step> = (0..400)
        .map(|_| ((next() % 10) as u8, (next() % 5) as u8, next()))
        .collect();
    let city = play(Some(3), 2, &steps);
    check(&city);
    assert!(city.road_count() >= 30, "{} roads", city.road_count());
    assert!(city.tiles().len() >= 15, "{} tiles", city.tiles().len());
    let built = city
        .districts()
        .iter()
        .filter(|d| city.has_grids(**d))
        .count();
    assert!(built >= 2, "{built} districts with grids");
}

#[test]
fn typescript_declarations_are_plain_and_prefixed() {
    use ts_rs::TS;
    let cfg = ts_rs::Config::new();
    for decl in [
        CityData::decl(&cfg),
        CityRules::decl(&cfg),
        Tile::decl(&cfg),
        TileKind::decl(&cfg),
        Spot::decl(&cfg),
        Refusal::decl(&cfg),
        Block::decl(&cfg),
        District::decl(&cfg),
        Sea::decl(&cfg),
        Footprint::decl(&cfg),
        Rotation::decl(&cfg),
    ] {
        assert!(!decl.contains("bigint"), "{decl}");
        assert!(decl.contains("BuildingCities"), "{decl}");
    }
    assert!(Refusal::decl(&cfg).contains("\"code\": \"roads_side_by_side\""));
}
