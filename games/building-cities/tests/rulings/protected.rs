//! M4: a Despicable Annihilation room may lay out its own protected blocks
//! (rulebook: "you can customize the placement of protected areas"), the same
//! in every city, checked like the six die layouts.

use super::*;
use building_cities::{Refusal, Rule};
use engine::Illegal;
use serde_json::json;
use std::collections::BTreeSet;

fn start(mode: &str, seats: u8, options: serde_json::Value) -> Result<BuildingCities, SetupError> {
    let mut options = options;
    options["mode"] = json!(mode);
    BuildingCities::new(&Setup {
        seats,
        seed: 3,
        options: serde_json::from_value(options).expect("options"),
        first_seat: None,
    })
}

fn blocks(list: &[(u8, u8)]) -> serde_json::Value {
    json!(
        list.iter()
            .map(|&(x, y)| json!({"x": x, "y": y}))
            .collect::<Vec<_>>()
    )
}

/// The refusal's entry, problem and bound (the option is `protected_layout`).
fn refused(mode: &str, options: serde_json::Value) -> (Option<u32>, &'static str, Option<u64>) {
    let seats = if mode == "solo" { 1 } else { 2 };
    match start(mode, seats, options) {
        Err(SetupError::OptionInvalid {
            name: "protected_layout",
            item,
            problem,
            limit,
        }) => (item, problem, limit),
        other => panic!("not refused: {:?}", other.map(|_| ())),
    }
}

#[test]
fn ruling_m4_a_room_layout_protects_the_same_blocks_in_every_city() {
    let layout = [(3, 1), (5, 5), (6, 5), (12, 3)];
    let mut g = start(
        "despicable",
        3,
        json!({"protected_layout": blocks(&layout)}),
    )
    .expect("an open layout");
    let want: BTreeSet<Block> = layout.iter().map(|&(x, y)| Block::new(x, y)).collect();
    for seat in 0..3 {
        let got: BTreeSet<Block> = g.city(seat).protected_blocks().into_iter().collect();
        assert_eq!(got, want, "seat {seat}");
        assert_eq!(view(&g).players[usize::from(seat)].city.protected.len(), 4);
    }
    // Neither roads nor buildings on them.
    ok(&mut g, 0, road(3, 0));
    assert_eq!(
        g.apply(0, &road(3, 1)).unwrap_err(),
        Illegal::Rule(Rule::Map {
            refusal: Refusal::Protected {
                block: Block::new(3, 1)
            }
        })
    );
    ok(&mut g, 0, road(4, 0));
    assert_eq!(
        g.apply(0, &tile("power_grid", 5, 5)).unwrap_err(),
        Illegal::Rule(Rule::Map {
            refusal: Refusal::Protected {
                block: Block::new(5, 5)
            }
        })
    );
}

#[test]
fn ruling_m4_a_room_layout_must_leave_the_city_open() {
    // The junction itself.
    assert_eq!(
        refused(
            "despicable",
            json!({"protected_layout": blocks(&[(5, 5), (3, 0)])})
        ),
        (Some(2), "junction", None)
    );
    // A corner cut off: (0,0) is reached only through (1,0) and (0,1).
    assert_eq!(
        refused(
            "despicable",
            json!({"protected_layout": blocks(&[(1, 0), (0, 1)])})
        ),
        (None, "closed", None)
    );
    // The D1-D2 edge: open while one facing pair is, closed once none is.
    let wall: Vec<(u8, u8)> = (0..6).map(|y| (7, y)).collect();
    assert!(start("despicable", 2, json!({"protected_layout": blocks(&wall)})).is_ok());
    let sealed: Vec<(u8, u8)> = wall.iter().copied().chain([(8, 6), (8, 7)]).collect();
    assert_eq!(
        refused("despicable", json!({"protected_layout": blocks(&sealed)})),
        (None, "closed", None)
    );
}

#[test]
fn ruling_m4_a_room_layout_is_bounded() {
    // Off the 24 x 16 blocks, twice the same block, more than the handbook's
    // six per district (the fit check counts on it), more than six districts'
    // worth in all.
    assert_eq!(
        refused(
            "despicable",
            json!({"protected_layout": blocks(&[(5, 5), (24, 0)])})
        ),
        (Some(2), "off_map", None)
    );
    assert_eq!(
        refused(
            "despicable",
            json!({"protected_layout": blocks(&[(5, 5), (5, 16)])})
        ),
        (Some(2), "off_map", None)
    );
    assert_eq!(
        refused(
            "despicable",
            json!({"protected_layout": blocks(&[(5, 5), (6, 6), (5, 5)])})
        ),
        (Some(3), "duplicate", None)
    );
    let seven: Vec<(u8, u8)> = (0..7).map(|x| (x, 6)).collect();
    assert_eq!(
        refused("despicable", json!({"protected_layout": blocks(&seven)})),
        (Some(7), "district_full", Some(6))
    );
    let many: Vec<(u8, u8)> = (0..37).map(|i| (i % 24, 4 + i / 24 * 8)).collect();
    assert_eq!(
        refused("despicable", json!({"protected_layout": blocks(&many)})),
        (None, "too_many", Some(36))
    );
    // Not with the die's layouts, and only in Despicable Annihilation.
    assert_eq!(
        refused(
            "despicable",
            json!({"protected_layout": blocks(&[(5, 5)]), "protected_areas": true})
        ),
        (None, "exclusive", None)
    );
    assert_eq!(
        refused("solo", json!({"protected_layout": blocks(&[(5, 5)])})),
        (None, "mode", None)
    );
    assert_eq!(
        refused("fair_play", json!({"protected_layout": blocks(&[(5, 5)])})),
        (None, "mode", None)
    );
}
