//! One test (or more) per ruling of `shared/rules/building-cities.md` that the
//! state machine carries (B1, B4, B5, B7, B8, E1-E8, W1-W4); the map rulings are
//! in `tests/city.rs`, the handbook's in `tests/handbook.rs`. Positions are
//! reached through public moves; the test-setup API only sets a bank or puts a
//! card on top of a deck.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use building_cities::{
    BankReason, Block, BuildingCities, District, EndReason, Event, EventKind, GridSide, Mode, Move,
    Options, Phase, Rotation, Status, View,
};
use engine::{Game, Seat, Setup, SetupError, Viewer};

fn game(mode: Mode, seats: u8, objective: &str) -> BuildingCities {
    BuildingCities::new(&Setup {
        seats,
        seed: 7,
        options: Options {
            mode,
            objective: Some(objective.to_string()),
            ..Options::default()
        },
        first_seat: None,
    })
    .unwrap()
}

fn solo(objective: &str) -> BuildingCities {
    game(Mode::Solo, 1, objective)
}

fn view(g: &BuildingCities) -> View {
    g.view(Viewer::Spectator)
}

fn ok(g: &mut BuildingCities, seat: Seat, mv: Move) -> Vec<Event> {
    g.apply(seat, &mv)
        .unwrap_or_else(|e| panic!("{mv:?} refused: {e:?}"))
}

fn code(g: &mut BuildingCities, seat: Seat, mv: Move) -> &'static str {
    g.apply(seat, &mv).unwrap_err().code()
}

fn road(x: u8, y: u8) -> Move {
    Move::Road {
        block: Block::new(x, y),
    }
}

fn tile(building: &str, x: u8, y: u8) -> Move {
    Move::Tile {
        building: building.to_string(),
        rotation: Rotation::R0,
        origin: Block::new(x, y),
        preview: None,
    }
}

/// The rulebook's first turn: a road of 3, the two grids, a house (60 Maya, 10 moves).
fn first_turn(g: &mut BuildingCities, seat: Seat) {
    for mv in [
        road(3, 0),
        tile("power_grid", 2, 0),
        tile("water_grid", 4, 0),
        road(3, 1),
        road(3, 2),
        tile("house", 2, 1),
    ] {
        ok(g, seat, mv);
    }
}

/// Ends the turn with a calm event on top.
fn end_calm(g: &mut BuildingCities, seat: Seat) -> Vec<Event> {
    assert!(g.test_stack_event("ev_calm"));
    ok(g, seat, Move::EndTurn {})
}

/// The legal road block that leaves the most legal road blocks after it.
fn first_road(g: &BuildingCities, seat: Seat) -> Option<Move> {
    g.legal_moves(seat)
        .into_iter()
        .filter(|m| matches!(m, Move::Road { .. }))
        .max_by_key(|m| {
            let mut copy = g.clone();
            copy.apply(seat, m).unwrap();
            copy.city(seat).legal_road_blocks().len()
        })
}

/// Builds `n` road blocks (the first legal ones).
fn roads(g: &mut BuildingCities, seat: Seat, n: usize) {
    for _ in 0..n {
        let mv = first_road(g, seat).expect("a road block");
        ok(g, seat, mv);
    }
}

/// A quiet turn: a small bank, one road if any, a calm event.
fn quiet_turn(g: &mut BuildingCities) -> Vec<Event> {
    g.test_set_bank(0, 45);
    if let Some(mv) = first_road(g, 0) {
        ok(g, 0, mv);
    }
    end_calm(g, 0)
}

fn bank_amounts(events: &[Event], reason: BankReason) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Bank {
                amount, reason: r, ..
            } if *r == reason => Some(*amount),
            _ => None,
        })
        .collect()
}

#[test]
fn ruling_b1_moves_and_prices_of_the_first_turn() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    assert_eq!(g.bank(0), 140);
    assert_eq!(g.moves_left(0), 0);
    assert_eq!(code(&mut g, 0, road(3, 3)), "not_enough_moves");
}

#[test]
fn ruling_b1_a_tile_is_paid_within_one_phase() {
    let mut g = solo("obj_tutorial");
    for mv in [
        road(3, 0),
        tile("power_grid", 2, 0),
        tile("water_grid", 4, 0),
    ] {
        ok(&mut g, 0, mv);
    }
    roads(&mut g, 0, 3);
    // 4 moves left: a house (5 moves) does not fit.
    let legal = g.legal_moves(0);
    assert!(
        !legal
            .iter()
            .any(|m| matches!(m, Move::Tile { building, .. } if building == "house"))
    );
}

#[test]
fn ruling_b4_per_district_limit() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 1000);
    ok(&mut g, 0, tile("tennis_court", 4, 1));
    assert_eq!(code(&mut g, 0, tile("tennis_court", 4, 2)), "limit");
}

#[test]
fn ruling_b5_housing_priority_allows_only_the_needs() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 45);
    ok(&mut g, 0, tile("house", 2, 2));
    ok(&mut g, 0, tile("house", 4, 1));
    end_calm(&mut g, 0);
    g.test_set_bank(0, 45);
    ok(&mut g, 0, tile("house", 4, 2));
    ok(&mut g, 0, road(3, 3));
    end_calm(&mut g, 0);
    g.test_set_bank(0, 1000);
    // Before the fifth housing unit a grocery would be fine.
    let mut before = g.clone();
    ok(&mut before, 0, tile("grocery", 4, 3));
    ok(&mut g, 0, tile("house", 2, 3));
    assert_eq!(code(&mut g, 0, tile("grocery", 4, 3)), "priority");
    ok(&mut g, 0, tile("elementary_school", 4, 3));
}

#[test]
fn ruling_b7_must_build_with_a_rich_bank() {
    let mut g = solo("obj_tutorial");
    assert_eq!(g.bank(0), 200);
    assert_eq!(code(&mut g, 0, Move::EndTurn {}), "must_build");
    ok(&mut g, 0, road(3, 0));
    assert_eq!(code(&mut g, 0, Move::EndTurn {}), "must_spend");
    assert!(!g.legal_moves(0).contains(&Move::EndTurn {}));
}

#[test]
fn ruling_b7_three_inactive_turns_at_most() {
    let mut g = solo("obj_tutorial");
    g.test_set_bank(0, 150);
    for _ in 0..3 {
        end_calm(&mut g, 0);
    }
    assert_eq!(view(&g).players[0].inactive_turns, 3);
    assert_eq!(code(&mut g, 0, Move::EndTurn {}), "must_build");
}

#[test]
fn ruling_b7_a_timeout_is_an_inactive_turn() {
    let mut g = solo("obj_six_districts");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 1000);
    let round = g.round();
    assert!(g.test_stack_event("ev_calm"));
    g.timeout();
    assert_eq!(g.round(), round + 1);
    assert_eq!(view(&g).players[0].inactive_turns, 1);
}

#[test]
fn ruling_e1_start_bank_and_objective() {
    let g = solo("obj_three_hotels");
    assert_eq!(g.bank(0), 200);
    assert_eq!(view(&g).objective, "obj_three_hotels");
    let setup = |seed| Setup {
        seats: 1,
        seed,
        options: Options {
            protected_areas: true,
            ..Options::default()
        },
        first_seat: None,
    };
    let a = BuildingCities::new(&setup(3)).unwrap();
    let b = BuildingCities::new(&setup(3)).unwrap();
    assert_eq!(view(&a).objective, view(&b).objective);
    assert!(!view(&a).objective.starts_with("obj_blank"));
    assert!(!view(&a).players[0].city.protected.is_empty());
}

#[test]
fn ruling_e2_event_to_the_bottom_then_value_collected() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    let left = view(&g).events_left;
    let events = end_calm(&mut g, 0);
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::EventCard { card, .. } if card == "ev_calm"))
    );
    assert_eq!(bank_amounts(&events, BankReason::DistrictValue), vec![2]);
    assert_eq!(view(&g).events_left, left);
    assert_eq!(g.bank(0), 142);
    assert_eq!(g.round(), 2);
}

#[test]
fn ruling_e2_turn_track_multiplier_once() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    let mut seen = Vec::new();
    while g.round() <= 13 {
        let round = g.round();
        let events = quiet_turn(&mut g);
        seen.push((round, bank_amounts(&events, BankReason::DistrictValue)));
    }
    let at = |r: u32| seen.iter().find(|(x, _)| *x == r).unwrap().1.clone();
    assert_eq!(at(12), vec![4]);
    assert_eq!(at(11), vec![2]);
    assert_eq!(at(13), vec![2]);
}

#[test]
fn ruling_e3_conditions_and_forced_purchase() {
    let mut g = solo("obj_six_districts");
    first_turn(&mut g, 0);
    assert_eq!(
        code(
            &mut g,
            0,
            Move::BuyDistrict {
                district: District::D2
            }
        ),
        "district_conditions"
    );
    end_calm(&mut g, 0);
    g.test_set_bank(0, 45);
    roads(&mut g, 0, 4);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 200);
    roads(&mut g, 0, 10);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 900);
    roads(&mut g, 0, 10);
    end_calm(&mut g, 0);
    assert_eq!(view(&g).phase, Phase::ForcedPurchase { seat: 0 });
    assert!(
        g.legal_moves(0)
            .iter()
            .all(|m| matches!(m, Move::BuyDistrict { .. }))
    );
    let bank = g.bank(0);
    ok(
        &mut g,
        0,
        Move::BuyDistrict {
            district: District::D4,
        },
    );
    assert_eq!(g.bank(0), bank - 300);
    assert_eq!(g.city(0).districts(), &[District::D1, District::D4]);
    assert_eq!(view(&g).phase, Phase::Building);
}

#[test]
fn ruling_e4_loan_repayment_and_bankruptcy() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    g.test_set_bank(0, -100);
    let events = end_calm(&mut g, 0);
    assert_eq!(bank_amounts(&events, BankReason::Loan), vec![300]);
    let v = view(&g);
    assert_eq!(v.players[0].loan_due, Some(16));
    assert_eq!(g.bank(0), 202);
    assert_eq!(code(&mut g, 0, Move::RepayLoan {}), "cannot_repay");
    g.test_set_bank(0, 600);
    ok(&mut g, 0, Move::RepayLoan {});
    assert_eq!(g.bank(0), 100);
    assert_eq!(view(&g).players[0].loan_due, None);
    // The loan is once per game: below 0 again is bankruptcy.
    g.test_set_bank(0, -10);
    end_calm(&mut g, 0);
    assert_eq!(view(&g).players[0].status, Status::Bankrupt);
    assert_eq!(g.outcome().unwrap().winners, Vec::<Seat>::new());
}

#[test]
fn ruling_e4_unpaid_for_fifteen_turns_is_bankruptcy() {
    let mut g = solo("obj_six_districts");
    first_turn(&mut g, 0);
    g.test_set_bank(0, -100);
    end_calm(&mut g, 0);
    for _ in 0..14 {
        quiet_turn(&mut g);
        assert!(g.outcome().is_none(), "round {}", g.round());
    }
    quiet_turn(&mut g);
    assert_eq!(view(&g).players[0].status, Status::Bankrupt);
}

#[test]
fn ruling_e6_goods_with_the_first_industry() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 1000);
    let events = ok(&mut g, 0, tile("factory", 4, 1));
    let goods = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Goods { goods, .. } => Some(goods.clone()),
            _ => None,
        })
        .expect("goods rolled");
    assert_eq!(goods.len(), 2);
    assert_ne!(goods[0], goods[1]);
    assert_eq!(view(&g).players[0].goods, goods);
}

#[test]
fn ruling_e7_legendary_offer_then_back_to_the_challenge_deck() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    assert_eq!(
        code(&mut g, 0, tile("symbol_of_freedom", 4, 1)),
        "not_offered"
    );
    assert!(g.test_stack_event("ev_legendary_symbol_of_freedom"));
    ok(&mut g, 0, Move::EndTurn {});
    assert_eq!(
        view(&g).players[0].legendary_offer.as_deref(),
        Some("symbol_of_freedom")
    );
    // It needs two districts.
    g.test_set_bank(0, 5000);
    assert_eq!(
        code(&mut g, 0, tile("symbol_of_freedom", 4, 1)),
        "requirement"
    );
    let challenges = view(&g).challenges_left;
    g.test_set_bank(0, 150);
    let events = end_calm(&mut g, 0);
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::LegendaryReturned { .. }))
    );
    assert_eq!(view(&g).challenges_left, challenges + 1);
    assert_eq!(view(&g).players[0].legendary_offer, None);
}

#[test]
fn ruling_e7_no_legendary_without_a_card() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 5000);
    assert_eq!(code(&mut g, 0, tile("pyramid_museum", 4, 1)), "not_offered");
}

#[test]
fn ruling_e8_upgrade_pays_and_rolls() {
    let mut g = solo("obj_grid_masters");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    g.test_set_bank(0, 1000);
    let mv = Move::Upgrade {
        district: District::D1,
        grid: GridSide::Power,
    };
    let events = ok(&mut g, 0, mv);
    assert_eq!(bank_amounts(&events, BankReason::Upgrade), vec![-150]);
    assert_eq!(g.moves_left(0), 8);
    let (roll, level) = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Upgrade { roll, level, .. } => Some((*roll, *level)),
            _ => None,
        })
        .unwrap();
    assert_eq!(level, if roll >= 3 { 2 } else { 1 });
    assert_eq!(view(&g).players[0].grid_levels[0][0], level);
    let no_grid = Move::Upgrade {
        district: District::D2,
        grid: GridSide::Water,
    };
    assert_eq!(code(&mut g, 0, no_grid), "no_upgrade");
}

#[test]
fn ruling_w1_objective_met_wins() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    g.test_set_bank(0, 2000);
    assert_eq!(view(&g).end, None);
    end_calm(&mut g, 0);
    assert_eq!(g.outcome().unwrap().winners, vec![0]);
    assert_eq!(view(&g).end, Some(EndReason::Objective));
    assert_eq!(code(&mut g, 0, Move::EndTurn {}), "game_over");
}

#[test]
fn ruling_w1_turn_limit_passes() {
    let mut g = solo("obj_tutorial");
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    let mut last = Vec::new();
    while g.outcome().is_none() {
        last = quiet_turn(&mut g);
    }
    assert_eq!(g.round(), 14);
    assert_eq!(view(&g).end, Some(EndReason::TurnLimit));
    assert!(last.iter().any(|e| matches!(
        e.kind,
        EventKind::GameOver {
            reason: EndReason::TurnLimit,
            ..
        }
    )));
    assert!(g.outcome().unwrap().winners.is_empty());
}

#[test]
fn ruling_w2_frozen_then_five_rounds() {
    let mut g = game(Mode::FairPlay, 2, "obj_tutorial");
    first_turn(&mut g, 0);
    first_turn(&mut g, 1);
    g.test_set_bank(0, 3000);
    end_calm(&mut g, 0);
    end_calm(&mut g, 1);
    let v = view(&g);
    assert_eq!(v.players[0].frozen_round, Some(1));
    assert_eq!(g.awaiting().seats, vec![1]);
    let bank = g.bank(0);
    for _ in 0..5 {
        if g.outcome().is_some() {
            break;
        }
        g.test_set_bank(1, 45);
        let mv = first_road(&g, 1).unwrap();
        ok(&mut g, 1, mv);
        end_calm(&mut g, 1);
    }
    assert_eq!(g.bank(0), bank, "a frozen city collects nothing");
    assert_eq!(g.outcome().unwrap().winners, vec![0]);
    assert_eq!(g.round(), 6);
}

#[test]
fn ruling_w2_race_ends_at_once_higher_bank_wins() {
    let mut g = game(Mode::FairPlay, 2, "obj_first_to_3000");
    first_turn(&mut g, 0);
    first_turn(&mut g, 1);
    g.test_set_bank(0, 3500);
    g.test_set_bank(1, 4000);
    end_calm(&mut g, 0);
    end_calm(&mut g, 1);
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![1]);
}

#[test]
fn ruling_w3_modes_and_seats() {
    let try_new = |mode, seats| {
        BuildingCities::new(&Setup {
            seats,
            seed: 1,
            options: Options {
                mode,
                ..Options::default()
            },
            first_seat: None,
        })
        .err()
    };
    assert_eq!(
        try_new(Mode::Solo, 2),
        Some(SetupError::Seats { min: 1, max: 1 })
    );
    assert_eq!(
        try_new(Mode::FairPlay, 1),
        Some(SetupError::Seats { min: 2, max: 4 })
    );
    assert_eq!(
        try_new(Mode::Despicable, 5),
        Some(SetupError::Seats { min: 2, max: 4 })
    );
    assert_eq!(try_new(Mode::Despicable, 3), None);
}

#[test]
fn ruling_w4_everyone_builds_at_the_same_time() {
    let mut g = game(Mode::FairPlay, 3, "obj_tutorial");
    assert_eq!(g.awaiting().seats, vec![0, 1, 2]);
    ok(&mut g, 1, road(3, 0));
    assert!(g.city(1).is_road(Block::new(3, 0)));
    assert!(!g.city(0).is_road(Block::new(3, 0)));
    first_turn(&mut g, 0);
    end_calm(&mut g, 0);
    assert_eq!(g.awaiting().seats, vec![1, 2]);
    assert_eq!(code(&mut g, 0, road(3, 3)), "not_your_turn");
    let round = g.round();
    g.timeout();
    assert_eq!(g.round(), round + 1);
    assert_eq!(g.awaiting().seats, vec![0, 1, 2]);
}

/// Ends the seat's turn with a calm event on top, whatever B7 says (a timeout).
fn next_turn(g: &mut BuildingCities) -> Vec<Event> {
    assert!(g.test_stack_event("ev_calm"));
    g.timeout()
}

/// Grows every seat's city to its second district (D4) through the E3
/// forced purchase.
fn two_districts(g: &mut BuildingCities) {
    let seats = g.seats();
    for s in 0..seats {
        first_turn(g, s);
    }
    for s in 0..seats {
        end_calm(g, s);
    }
    for (bank, n) in [(45, 4), (200, 10), (900, 10)] {
        for s in 0..seats {
            g.test_set_bank(s, bank);
            roads(g, s, n);
        }
        for s in 0..seats {
            if g.awaiting().includes(s) {
                end_calm(g, s);
            }
        }
    }
    while let Phase::ForcedPurchase { seat } = view(g).phase {
        ok(
            g,
            seat,
            Move::BuyDistrict {
                district: District::D4,
            },
        );
    }
    for s in 0..seats {
        assert_eq!(g.city(s).districts().len(), 2);
    }
}

fn challenge_events(events: &[Event]) -> Vec<EventKind> {
    events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::ChallengeCard { .. }
                    | EventKind::TaskForceKept { .. }
                    | EventKind::ChallengeKept { .. }
            )
        })
        .map(|e| e.kind.clone())
        .collect()
}

#[test]
fn ruling_e5_challenges_every_fourth_turn_after_the_second_district() {
    let mut g = solo("obj_six_districts");
    two_districts(&mut g);
    for _ in 0..3 {
        assert!(challenge_events(&next_turn(&mut g)).is_empty());
    }
    assert!(g.test_stack_challenge("ch_bridge_collapse"));
    let events = next_turn(&mut g);
    assert_eq!(
        challenge_events(&events),
        vec![EventKind::ChallengeCard {
            seat: 0,
            card: "ch_bridge_collapse".into(),
            cancelled: false
        }]
    );
    assert_eq!(bank_amounts(&events, BankReason::Challenge), vec![-300]);
    for _ in 0..3 {
        next_turn(&mut g);
    }
    assert!(g.test_stack_challenge("ch_task_force"));
    let events = next_turn(&mut g);
    assert_eq!(
        challenge_events(&events),
        vec![EventKind::TaskForceKept { seat: 0 }]
    );
    for _ in 0..3 {
        next_turn(&mut g);
    }
    assert!(g.test_stack_challenge("ch_bridge_collapse"));
    let events = next_turn(&mut g);
    assert!(matches!(
        challenge_events(&events)[..],
        [EventKind::ChallengeCard {
            cancelled: true,
            ..
        }]
    ));
    assert!(bank_amounts(&events, BankReason::Challenge).is_empty());
    assert_eq!(view(&g).players[0].task_forces, 0);
}

#[test]
fn ruling_e5_despicable_hand_is_hidden_and_played_on_an_opponent() {
    let mut g = game(Mode::Despicable, 2, "obj_six_districts");
    two_districts(&mut g);
    for _ in 0..3 {
        g.test_stack_event("ev_calm");
        g.timeout();
    }
    // Seat 0 draws the collapse, seat 1 a Task Force.
    assert!(g.test_stack_challenge("ch_task_force"));
    assert!(g.test_stack_challenge("ch_bridge_collapse"));
    g.test_stack_event("ev_calm");
    g.timeout();
    assert_eq!(view(&g).phase, Phase::PlayChallenge { seat: 0 });
    let public = view(&g);
    assert_eq!(public.players[0].hand, 1);
    assert_eq!(
        g.private_view(0).hand,
        Some(vec!["ch_bridge_collapse".to_string()])
    );
    assert_eq!(g.private_view(1).hand, None);
    assert_eq!(
        serde_json::to_value(g.view(Viewer::Seat(1))).unwrap(),
        serde_json::to_value(&public).unwrap()
    );
    assert_eq!(
        code(&mut g, 0, Move::PlayChallenge { card: 0, target: 0 }),
        "no_such_target"
    );
    // The target is asked whether he holds a Task Force or not (the prompt
    // tells nobody what his hand holds); with none he can but accept.
    ok(&mut g, 0, Move::PlayChallenge { card: 0, target: 1 });
    assert_eq!(
        view(&g).phase,
        Phase::TaskForcePrompt {
            by: 0,
            target: 1,
            card: "ch_bridge_collapse".to_string()
        }
    );
    assert_eq!(g.legal_moves(1), vec![Move::AcceptChallenge {}]);
    assert_eq!(code(&mut g, 1, Move::UseTaskForce {}), "no_such_card");
    let events = ok(&mut g, 1, Move::AcceptChallenge {});
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Bank {
            seat: 1,
            amount: -300,
            reason: BankReason::Challenge,
            ..
        }
    )));
    // Seat 1 holds only a Task Force: he is asked to play all the same (the
    // decision tells nobody what his hand holds) and can but keep it.
    assert_eq!(view(&g).players[1].hand, 1);
    assert_eq!(view(&g).phase, Phase::PlayChallenge { seat: 1 });
    assert_eq!(g.legal_moves(1), vec![Move::KeepChallenges {}]);
    ok(&mut g, 1, Move::KeepChallenges {});
    assert_eq!(view(&g).phase, Phase::Building);
    for _ in 0..3 {
        g.test_stack_event("ev_calm");
        g.timeout();
        // Seat 1 keeps his Task Force.
        assert_eq!(view(&g).phase, Phase::PlayChallenge { seat: 1 });
        g.timeout();
    }
    assert!(g.test_stack_challenge("ch_bridge_collapse"));
    g.test_stack_event("ev_calm");
    g.timeout();
    ok(&mut g, 0, Move::PlayChallenge { card: 0, target: 1 });
    // The played card is face up in the prompt, as in its public event.
    assert_eq!(
        view(&g).phase,
        Phase::TaskForcePrompt {
            by: 0,
            target: 1,
            card: "ch_bridge_collapse".into()
        }
    );
    assert!(g.awaiting().window_ms.is_some());
    assert_eq!(
        g.legal_moves(1),
        vec![Move::UseTaskForce {}, Move::AcceptChallenge {}]
    );
    let events = ok(&mut g, 1, Move::UseTaskForce {});
    assert!(!events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Bank {
            seat: 1,
            reason: BankReason::Challenge,
            ..
        }
    )));
}

/// Places the first legal tile of `building` in `district`, laying roads in
/// the district until one fits.
fn place_in(g: &mut BuildingCities, building: &str, district: District) {
    for _ in 0..12 {
        let found = g.legal_moves(0).into_iter().find(|m| {
            matches!(m, Move::Tile { building: b, origin, .. }
                if b == building && origin.district() == Some(district))
        });
        if let Some(mv) = found {
            ok(g, 0, mv);
            return;
        }
        let road = g
            .legal_moves(0)
            .into_iter()
            .filter(|m| matches!(m, Move::Road { block } if block.district() == Some(district)))
            .max_by_key(|m| {
                let mut copy = g.clone();
                copy.apply(0, m).unwrap();
                copy.city(0).legal_road_blocks().len()
            })
            .expect("a road in the district");
        ok(g, 0, road);
    }
    panic!("no spot for {building}");
}

#[test]
fn ruling_b8_metros_pair_on_consecutive_turns() {
    let mut g = solo("obj_transit_city");
    two_districts(&mut g);
    let d4 = District::D4;
    for step in [
        &["power_grid", "water_grid", "house"][..],
        &["grocery", "grocery"],
        &["grocery", "factory"],
    ] {
        g.test_set_bank(0, 10_000);
        for b in step {
            place_in(&mut g, b, d4);
        }
        next_turn(&mut g);
    }
    g.test_set_bank(0, 10_000);
    place_in(&mut g, "metro_station", District::D1);
    next_turn(&mut g);
    let alone = view(&g).players[0].district_value;
    g.test_set_bank(0, 10_000);
    place_in(&mut g, "metro_station", d4);
    next_turn(&mut g);
    let paired = view(&g).players[0].district_value;
    assert_eq!(paired - alone, 120, "both metros count once paired");
}

#[test]
fn ruling_e7_despicable_open_auction_tie_to_the_drawer() {
    let mut g = game(Mode::Despicable, 2, "obj_six_districts");
    two_districts(&mut g);
    g.test_set_bank(0, 2000);
    g.test_set_bank(1, 2000);
    assert!(g.test_stack_event("ev_legendary_symbol_of_freedom"));
    g.timeout();
    let Phase::Auction {
        building,
        drawer,
        high_bid,
        high_bidder,
    } = view(&g).phase
    else {
        panic!("no auction: {:?}", view(&g).phase);
    };
    assert_eq!((building.as_str(), drawer), ("symbol_of_freedom", 0));
    assert_eq!((high_bid, high_bidder), (600, 0));
    assert_eq!(g.awaiting().seats, vec![1]);
    assert!(g.awaiting().window_ms.is_some());
    assert_eq!(code(&mut g, 1, Move::Bid { amount: 620 }), "bad_bid");
    ok(&mut g, 1, Move::Bid { amount: 650 });
    assert_eq!(g.awaiting().seats, vec![0]);
    // The drawer may match: a tie goes to him.
    ok(&mut g, 0, Move::Bid { amount: 650 });
    let bank = g.bank(0);
    let events = ok(&mut g, 1, Move::PassAuction {});
    assert_eq!(bank_amounts(&events, BankReason::Auction), vec![-650]);
    assert_eq!(g.bank(0), bank - 650);
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::AuctionWon {
            seat: 0,
            price: 650,
            ..
        }
    )));
    // Placed in a later building phase for its moves only.
    while view(&g).phase != Phase::Building {
        g.timeout();
    }
    let mv = g
        .legal_moves(0)
        .into_iter()
        .find(|m| matches!(m, Move::Tile { building, .. } if building == "symbol_of_freedom"))
        .expect("the won building may be placed");
    let events = ok(&mut g, 0, mv);
    assert!(bank_amounts(&events, BankReason::Build).is_empty());
}

#[test]
fn ruling_e6_trade_pays_the_drawer_and_half_to_the_partner() {
    let mut g = game(Mode::FairPlay, 2, "obj_six_districts");
    first_turn(&mut g, 0);
    first_turn(&mut g, 1);
    end_calm(&mut g, 0);
    end_calm(&mut g, 1);
    for s in 0..2 {
        g.test_set_bank(s, 1000);
        ok(&mut g, s, tile("factory", 4, 1));
    }
    let goods: Vec<Vec<String>> = (0..2).map(|s| view(&g).players[s].goods.clone()).collect();
    let lacks = goods[0].iter().filter(|x| !goods[1].contains(x)).count() as i32;
    let mut traded = false;
    for _ in 0..30 {
        assert!(g.test_stack_event("ev_trade_road"));
        let events = g.timeout();
        let roll = events.iter().find_map(|e| match &e.kind {
            EventKind::TradeRoll {
                seat: 0,
                roll,
                partner,
            } => Some((*roll, *partner)),
            _ => None,
        });
        let (roll, partner) = roll.expect("seat 0 drew the trade card");
        let to = |seat: Seat| -> Vec<i32> {
            events
                .iter()
                .filter_map(|e| match &e.kind {
                    EventKind::Bank {
                        seat: s,
                        amount,
                        reason: BankReason::Trade,
                        ..
                    } if *s == seat => Some(*amount),
                    _ => None,
                })
                .collect()
        };
        if roll == 1 {
            assert_eq!(partner, None);
        } else if partner == Some(1) {
            if lacks > 0 {
                assert!(to(0).contains(&(200 * lacks)));
                assert!(to(1).contains(&(100 * lacks)));
            }
            traded = true;
            break;
        }
    }
    assert!(traded, "no trade in 30 turns");
}

mod choices;
mod custom;
mod protected;
