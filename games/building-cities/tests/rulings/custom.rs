//! Ruling H: the five blank cards of each deck are the room's own. A host
//! writes objectives, events and challenges in the lobby options; each is
//! checked like the handbook's cards, joins its deck and plays like any card.

use super::*;
use building_cities::handbook::cards::{Effect, Goal};
use building_cities::handbook::custom::{CustomCard, CustomObjective};
use building_cities::handbook::model::Target;
use serde_json::json;

fn setup(seats: u8, seed: u64, options: serde_json::Value) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: serde_json::from_value(options).expect("options"),
        first_seat: None,
    }
}

fn start(options: serde_json::Value) -> Result<BuildingCities, SetupError> {
    BuildingCities::new(&setup(1, 7, options))
}

/// The refusal's option, entry, problem and bound.
fn refusal(options: serde_json::Value) -> (&'static str, Option<u32>, &'static str, Option<u64>) {
    match start(options) {
        Err(SetupError::OptionInvalid {
            name,
            item,
            problem,
            limit,
        }) => (name, item, problem, limit),
        other => panic!("not refused as invalid: {:?}", other.map(|_| ())),
    }
}

fn card(title: &str, effect: serde_json::Value) -> serde_json::Value {
    json!({"title": title, "effect": effect})
}

/// The rulebook's own example: "reach 5000 Maya in 50 turns".
fn five_thousand() -> serde_json::Value {
    json!({"title": "Five thousand", "goals": [{"kind": "bank", "amount": 5000}], "turn_limit": 50})
}

#[test]
fn ruling_h_the_hosts_objective_is_named_and_played() {
    let mut g = start(json!({
        "objective": "obj_blank_1",
        "custom_objectives": [five_thousand()],
    }))
    .expect("the rulebook's example fits");
    assert_eq!(view(&g).objective, "obj_blank_1");
    let o = g.handbook().objective("obj_blank_1").expect("written");
    assert_eq!(o.goals, vec![Goal::Bank { amount: 5000 }]);
    assert_eq!(
        (o.turn_limit, o.name.en.as_str()),
        (Some(50), "Five thousand")
    );
    // Not met with 4,999 Maya after the district value; met with 5,000.
    first_turn(&mut g, 0);
    g.test_set_bank(0, 4_990);
    next_turn(&mut g);
    assert_eq!(g.outcome(), None);
    g.test_set_bank(0, 5_000);
    let events = next_turn(&mut g);
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::GameOver {
            reason: EndReason::Objective,
            winners
        } if *winners == vec![0]
    )));
}

#[test]
fn ruling_h_the_hosts_objective_keeps_its_turn_limit() {
    let mut g = start(json!({
        "objective": "obj_blank_1",
        "custom_objectives": [{"title": "Quick", "goals": [{"kind": "bank", "amount": 90000}], "turn_limit": 3}],
    }))
    .expect("fits");
    for _ in 0..2 {
        quiet_turn(&mut g);
        assert_eq!(g.outcome(), None);
    }
    let events = quiet_turn(&mut g);
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::GameOver {
            reason: EndReason::TurnLimit,
            ..
        }
    )));
}

#[test]
fn ruling_h_an_impossible_objective_is_refused() {
    // 13 Offices with a cap of 12: the fit check refuses it.
    let offices = json!({"title": "Offices", "goals": [{"kind": "build", "target": {"building": "office"}, "count": 13}]});
    assert_eq!(
        refusal(json!({"custom_objectives": [five_thousand(), offices]})),
        ("custom_objectives", Some(2), "unfit_city_limit", Some(12))
    );
    // An Observatory in 3 turns needs more moves than 30.
    let rushed = json!({"title": "Rushed", "goals": [{"kind": "build", "target": {"building": "observatory"}, "count": 1}], "turn_limit": 3});
    assert_eq!(
        refusal(json!({"custom_objectives": [rushed]})),
        ("custom_objectives", Some(1), "unfit_moves", Some(30))
    );
    // Ten cargo ships in one district: no sea room.
    let ships = json!({"title": "Fleet", "goals": [{"kind": "build", "target": {"building": "cargo_ship"}, "count": 10}], "max_districts": 1});
    assert_eq!(
        refusal(json!({"custom_objectives": [ships]})).2,
        "unfit_districts"
    );
    // Goals: none, or targets that name nothing, or counts out of bounds.
    for (goals, problem) in [
        (json!([]), "goals"),
        (
            json!([{"kind": "build", "target": {"building": "castle"}, "count": 1}]),
            "reference",
        ),
        (
            json!([{"kind": "build", "target": {"building": "house"}, "count": 0}]),
            "amount",
        ),
        (json!([{"kind": "bank", "amount": 2000000}]), "amount"),
        (json!([{"kind": "districts", "count": 7}]), "amount"),
    ] {
        let o = json!({"title": "Bad", "goals": goals});
        assert_eq!(
            refusal(json!({"custom_objectives": [o]})).2,
            problem,
            "{goals}"
        );
    }
    // Six objectives for five blanks.
    let six = vec![five_thousand(); 6];
    assert_eq!(
        refusal(json!({"custom_objectives": six})),
        ("custom_objectives", None, "too_many", Some(5))
    );
}

#[test]
fn ruling_h_undefined_blanks_stay_out_and_defined_ones_fill_the_decks() {
    // Without room cards: 115 events, 60 challenges and the 4 solo Task Forces.
    let plain = start(json!({})).expect("standard");
    assert_eq!(
        (view(&plain).events_left, view(&plain).challenges_left),
        (115, 64)
    );
    assert_eq!(
        start(json!({"objective": "obj_blank_1"})).err(),
        Some(SetupError::OptionRange {
            name: "objective",
            min: 0,
            max: 20
        })
    );
    // Five of each: the rulebook's 120 events and 65 challenges.
    let calm = card("Quiet day", json!({"kind": "nothing"}));
    let full = start(json!({
        "custom_events": vec![calm.clone(); 5],
        "custom_challenges": vec![calm.clone(); 5],
    }))
    .expect("five of each");
    assert_eq!(
        (view(&full).events_left, view(&full).challenges_left),
        (120, 69)
    );
    // Two events: the first two blanks, in order.
    let mut two = start(json!({"custom_events": [calm.clone(), card("Fair", json!({"kind": "gain_maya", "amount": 70}))]}))
        .expect("two events");
    assert_eq!(view(&two).events_left, 117);
    assert!(two.test_stack_event("ev_blank_2"));
    assert!(!two.test_stack_event("ev_blank_3"));
}

#[test]
fn ruling_h_a_room_event_is_drawn_and_applied_like_any_card() {
    let fair = card(
        "Street fair",
        json!({"kind": "per_building", "target": {"colour": "blue"}, "amount": 25}),
    );
    let late = json!({"title": "Late storm", "condition": {"min_turn": 5}, "effect": {"kind": "lose_maya", "amount": 400}});
    let mut g = start(json!({"objective": "obj_six_districts", "custom_events": [fair, late]}))
        .expect("events");
    first_turn(&mut g, 0);
    assert!(g.test_stack_event("ev_blank_1"));
    let events = ok(&mut g, 0, Move::EndTurn {});
    assert!(events.iter().any(|e| e.kind
        == EventKind::EventCard {
            seat: 0,
            card: "ev_blank_1".into(),
            applied: true
        }));
    // One house: 25 Maya.
    assert_eq!(bank_amounts(&events, BankReason::Event), vec![25]);
    let v = view(&g);
    assert_eq!(v.last_event.as_deref(), Some("ev_blank_1"));
    assert_eq!(
        v.last_event_effect,
        Some(Effect::PerBuilding {
            target: Target::Colour(building_cities::handbook::model::Colour::Blue),
            amount: 25
        })
    );
    // A condition not met: nothing happens (E2).
    g.test_set_bank(0, 45);
    assert!(g.test_stack_event("ev_blank_2"));
    let events = ok(&mut g, 0, Move::EndTurn {});
    assert!(events.iter().any(|e| e.kind
        == EventKind::EventCard {
            seat: 0,
            card: "ev_blank_2".into(),
            applied: false
        }));
    assert!(bank_amounts(&events, BankReason::Event).is_empty());
}

#[test]
fn ruling_h_a_room_challenge_hits_like_any_challenge() {
    let mut g = BuildingCities::new(&setup(
        1,
        7,
        json!({
            "objective": "obj_six_districts",
            "custom_challenges": [card("Flooded tunnel", json!({"kind": "lose_maya", "amount": 450}))],
        }),
    ))
    .expect("a challenge");
    two_districts(&mut g);
    for _ in 0..3 {
        next_turn(&mut g);
    }
    assert!(g.test_stack_challenge("ch_blank_1"));
    let events = next_turn(&mut g);
    assert_eq!(
        challenge_events(&events),
        vec![EventKind::ChallengeCard {
            seat: 0,
            card: "ch_blank_1".into(),
            cancelled: false
        }]
    );
    assert_eq!(bank_amounts(&events, BankReason::Challenge), vec![-450]);
    assert_eq!(view(&g).last_challenge.as_deref(), Some("ch_blank_1"));
}

#[test]
fn ruling_h_titles_are_cleaned_and_bounded() {
    let options: Options = serde_json::from_value(json!({
        "custom_events": [card("  Flood\n\tof\u{202e}  tourists\u{7} ", json!({"kind": "nothing"}))],
    }))
    .expect("options");
    assert_eq!(options.custom_events[0].title, "Flood of tourists");
    // What the table keeps and shows is the cleaned title.
    let kept = serde_json::to_value(&options).expect("serializes");
    assert_eq!(kept["custom_events"][0]["title"], "Flood of tourists");
    for title in ["", " \n\t ", &"x".repeat(41)] {
        assert_eq!(
            refusal(json!({"custom_events": [card(title, json!({"kind": "nothing"}))]})),
            ("custom_events", Some(1), "title", Some(40)),
            "{title:?}"
        );
    }
    assert!(
        start(json!({"custom_events": [card(&"é".repeat(40), json!({"kind": "nothing"}))]}))
            .is_ok()
    );
    // Fields the card does not have are refused when the options are read.
    assert!(
        serde_json::from_value::<Options>(json!({
            "custom_events": [{"title": "x", "effect": {"kind": "nothing"}, "text": "y"}],
        }))
        .is_err()
    );
}

#[test]
fn ruling_h_effects_pass_the_handbooks_checks() {
    for (effect, problem, limit) in [
        (json!({"kind": "blank"}), "effect", None),
        (json!({"kind": "task_force"}), "effect", None),
        (
            json!({"kind": "destroy", "target": {"building": "castle"}, "chooser": "owner"}),
            "reference",
            None,
        ),
        (
            json!({"kind": "good_market", "good": "gold", "amount": 100}),
            "reference",
            None,
        ),
        (
            json!({"kind": "legendary", "building": "house"}),
            "reference",
            None,
        ),
        // A demand nothing can meet would block every building.
        (
            json!({"kind": "demand", "target": {"category": "road"}, "impossible": 10, "refused": 10}),
            "reference",
            None,
        ),
        (
            json!({"kind": "demand", "target": {"category": "protected"}, "impossible": 10, "refused": 10}),
            "reference",
            None,
        ),
        (
            json!({"kind": "gain_maya", "amount": 5001}),
            "amount",
            Some(5000),
        ),
        (
            json!({"kind": "per_building", "target": {"colour": "grey"}, "amount": -6000}),
            "amount",
            Some(5000),
        ),
        (
            json!({"kind": "lose_bank_percent", "percent": 101}),
            "amount",
            Some(100),
        ),
        (
            json!({"kind": "skip_building_phase", "turns": 6}),
            "amount",
            Some(5),
        ),
        (
            json!({"kind": "grid_failure", "grid": "both", "level": 4, "amount": 10}),
            "amount",
            Some(3),
        ),
        (
            json!({"kind": "trade", "faces": [{"die": 1, "route": "trucks", "per_unit": 10}]}),
            "trade_faces",
            None,
        ),
    ] {
        for deck in ["custom_events", "custom_challenges"] {
            let calm = card("Calm", json!({"kind": "nothing"}));
            let options = json!({deck: [calm, card("Bad", effect.clone())]});
            let (name, item, code, bound) = refusal(options);
            assert_eq!(
                (name, item, code, bound),
                (deck, Some(2), problem, limit),
                "{effect}"
            );
        }
    }
    let late =
        json!({"title": "Never", "condition": {"min_turn": 151}, "effect": {"kind": "nothing"}});
    assert_eq!(
        refusal(json!({"custom_events": [late]})),
        ("custom_events", Some(1), "amount", Some(150))
    );
    // The handbook's vocabulary, with its own numbers, is accepted.
    for effect in [
        json!({"kind": "demand", "target": {"building": "hospital"}, "impossible": 400, "refused": 1500}),
        json!({"kind": "legendary", "building": "pyramid_museum"}),
        json!({"kind": "value_percent", "percent": 200, "turns": 1}),
        json!({"kind": "coverage", "target": {"building": "fire_station"}, "pick": "roll", "adjacent": 100, "farther": 200}),
    ] {
        let cards = json!([card("Fine", effect.clone())]);
        assert!(
            start(json!({"custom_events": cards.clone(), "custom_challenges": cards})).is_ok(),
            "{effect}"
        );
    }
    let six = vec![card("Calm", json!({"kind": "nothing"})); 6];
    assert_eq!(
        refusal(json!({"custom_challenges": six})),
        ("custom_challenges", None, "too_many", Some(5))
    );
}

#[test]
fn ruling_h_the_draw_includes_the_hosts_objectives() {
    let options = json!({"custom_objectives": [five_thousand()]});
    let drawn: Vec<String> = (0..200)
        .map(|seed| {
            let g = BuildingCities::new(&setup(1, seed, options.clone())).expect("setup");
            view(&g).objective
        })
        .collect();
    assert!(drawn.iter().any(|o| o == "obj_blank_1"));
    assert!(!drawn.iter().any(|o| o == "obj_blank_2"));
}

#[test]
fn ruling_h_typed_faces_match_the_wire() {
    // The Rust types read what the lobby sends.
    let o = CustomObjective {
        title: "Five thousand".into(),
        goals: vec![Goal::Bank { amount: 5000 }],
        turn_limit: Some(50),
        max_districts: None,
        forbids: Vec::new(),
        race: false,
    };
    assert_eq!(
        serde_json::from_value::<CustomObjective>(five_thousand()).expect("objective"),
        o
    );
    let c: CustomCard =
        serde_json::from_value(card("Calm", json!({"kind": "nothing"}))).expect("card");
    assert_eq!(c.effect, Effect::Nothing);
}
