//! The wire types: moves refuse unknown fields, every rule code is its serde
//! tag, and the browser declarations carry no `bigint`.

#![allow(clippy::unwrap_used)]

use building_cities::{
    Block, District, Move, Options, PlayerView, Preview, Private, Rotation, Rule, View,
};
use engine::Rule as _;
use ts_rs::TS;

#[test]
fn typescript_declarations_are_plain_and_named() {
    let cfg = ts_rs::Config::new();
    for decl in [
        Options::decl(&cfg),
        Move::decl(&cfg),
        View::decl(&cfg),
        PlayerView::decl(&cfg),
        Private::decl(&cfg),
        Rule::decl(&cfg),
    ] {
        assert!(!decl.contains("bigint"), "{decl}");
        assert!(decl.contains("BuildingCities"), "{decl}");
    }
}

#[test]
fn moves_with_unknown_fields_are_refused() {
    for text in [
        r#"{"type":"road","block":{"x":3,"y":0},"extra":1}"#,
        r#"{"type":"end_turn","x":1}"#,
        r#"{"type":"repay_loan","amount":500}"#,
    ] {
        assert!(serde_json::from_str::<Move>(text).is_err(), "{text}");
    }
    for text in [
        r#"{"type":"road","block":{"x":3,"y":0}}"#,
        r#"{"type":"tile","building":"house","rotation":"R0","origin":{"x":2,"y":1}}"#,
        r#"{"type":"end_turn"}"#,
        r#"{"type":"buy_district","district":"D2"}"#,
        r#"{"type":"upgrade","district":"D1","grid":"power"}"#,
    ] {
        assert!(serde_json::from_str::<Move>(text).is_ok(), "{text}");
    }
    let o: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(o, Options::default());
}

#[test]
fn a_listed_preview_is_written_and_never_read() {
    let listed = Move::Tile {
        building: "house".into(),
        rotation: Rotation::R0,
        origin: Block::new(2, 1),
        preview: Some(Preview {
            cost: 10,
            moves: 5,
            value: 2,
        }),
    };
    let text = serde_json::to_string(&listed).unwrap();
    assert_eq!(
        text,
        r#"{"type":"tile","building":"house","rotation":"R0","origin":{"x":2,"y":1},"preview":{"cost":10,"moves":5,"value":2}}"#
    );
    // A listed move sent back plays as the move without its preview, whatever
    // the preview says.
    let read: Move = serde_json::from_str(&text).unwrap();
    assert_eq!(read, listed.played());
    let forged: Move = serde_json::from_str(
        r#"{"type":"tile","building":"house","rotation":"R0","origin":{"x":2,"y":1},"preview":"free"}"#,
    )
    .unwrap();
    assert_eq!(forged, listed.played());
    assert_eq!(
        serde_json::to_string(&listed.played()).unwrap(),
        r#"{"type":"tile","building":"house","rotation":"R0","origin":{"x":2,"y":1}}"#
    );
}

#[test]
fn each_rule_code_is_its_serde_tag() {
    for rule in [
        Rule::WrongPhase,
        Rule::Map {
            refusal: building_cities::Refusal::Occupied {
                block: Block::new(1, 1),
            },
        },
        Rule::UnknownBuilding {
            building: "x".into(),
        },
        Rule::SquareRotation,
        Rule::NotEnoughMoves { needed: 5, left: 1 },
        Rule::NotEnoughMaya {
            needed: 50,
            bank: 10,
        },
        Rule::Limit {
            building: "gym".into(),
            max: 1,
        },
        Rule::Priority {
            building: "gym".into(),
        },
        Rule::MetroPairing,
        Rule::NoSpot {
            building: "house".into(),
        },
        Rule::DistrictConditions {
            bank_more_than: 700,
            tiles_more_than: 25,
        },
        Rule::NoMoreDistricts,
        Rule::MustSpend { spent: 10, min: 50 },
        Rule::MustBuild,
        Rule::HandFull,
        Rule::BadBid { min: 650 },
    ] {
        let v = serde_json::to_value(&rule).unwrap();
        assert_eq!(v["code"], rule.code(), "{rule:?}");
    }
    let _ = District::D1;
}
