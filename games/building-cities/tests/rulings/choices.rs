//! The choices a card leaves to a player: E6 (the Despicable drawer picks his
//! trade partner), E5 (the player who played a challenge picks what it
//! removes), B5 (a demand accepted or refused for its price).

use super::*;

/// Every seat plays the first turn and, but `without`, builds a factory (E6 goods).
fn traders(seats: u8, without: Option<Seat>) -> BuildingCities {
    let mut g = game(Mode::Despicable, seats, "obj_six_districts");
    for s in 0..seats {
        first_turn(&mut g, s);
    }
    for s in 0..seats {
        end_calm(&mut g, s);
    }
    for s in 0..seats {
        g.test_set_bank(s, 1000);
        if Some(s) != without {
            ok(&mut g, s, tile("factory", 4, 1));
        }
    }
    g
}

/// Stacks trade cards until seat 0's roll asks him for a partner.
fn until_partner_choice(g: &mut BuildingCities) -> Option<Vec<Event>> {
    let mut log = Vec::new();
    for _ in 0..40 {
        while view(g).phase != Phase::Building {
            g.timeout();
        }
        assert!(g.test_stack_event("ev_trade_road"));
        log.extend(g.timeout());
        if matches!(view(g).phase, Phase::TradePartner { .. }) {
            return Some(log);
        }
    }
    None
}

/// Seat 0's trade rolls (the other seats' own event cards may trade too).
fn drawer_rolls(events: &[Event]) -> Vec<(Seat, u8, Option<Seat>)> {
    let mut rolls = trade_rolls(events);
    rolls.retain(|r| r.0 == 0);
    rolls
}

fn trade_rolls(events: &[Event]) -> Vec<(Seat, u8, Option<Seat>)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TradeRoll {
                seat,
                roll,
                partner,
            } => Some((*seat, *roll, *partner)),
            _ => None,
        })
        .collect()
}

#[test]
fn ruling_e6_despicable_drawer_chooses_his_partner() {
    let mut g = traders(3, None);
    until_partner_choice(&mut g).expect("a trade on 2-6 within 40 turns");
    assert_eq!(
        view(&g).phase,
        Phase::TradePartner {
            seat: 0,
            partners: vec![1, 2]
        }
    );
    assert_eq!(g.awaiting().seats, vec![0]);
    assert_eq!(
        g.legal_moves(0),
        vec![
            Move::TradePartner { seat: 1 },
            Move::TradePartner { seat: 2 }
        ]
    );
    assert_eq!(
        code(&mut g, 0, Move::TradePartner { seat: 0 }),
        "no_such_target"
    );
    let goods: Vec<Vec<String>> = (0..3).map(|s| view(&g).players[s].goods.clone()).collect();
    let lacks = |o: usize| goods[0].iter().filter(|x| !goods[o].contains(x)).count() as i32;
    let events = ok(&mut g, 0, Move::TradePartner { seat: 2 });
    assert!(matches!(drawer_rolls(&events)[..], [(0, _, Some(2))]));
    let to_two: Vec<i32> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Bank {
                seat: 2,
                amount,
                reason: BankReason::Trade,
                ..
            } => Some(*amount),
            _ => None,
        })
        .collect();
    assert_eq!(to_two.iter().sum::<i32>(), 100 * lacks(2));
    // A timeout picks the partner lacking most of his goods (lowest seat on a tie).
    until_partner_choice(&mut g).expect("a second trade");
    let events = g.timeout();
    let want = if lacks(2) > lacks(1) { 2 } else { 1 };
    assert!(matches!(drawer_rolls(&events)[..], [(0, _, Some(p))] if p == want));
}

#[test]
fn ruling_e6_despicable_a_lone_partner_is_chosen_at_once() {
    let mut g = traders(3, Some(2));
    assert!(until_partner_choice(&mut g).is_none());
    let mut g = traders(3, Some(2));
    let mut partners = Vec::new();
    for _ in 0..10 {
        while view(&g).phase != Phase::Building {
            g.timeout();
        }
        assert!(g.test_stack_event("ev_trade_road"));
        let events = g.timeout();
        partners.extend(
            trade_rolls(&events)
                .into_iter()
                .filter(|(s, _, _)| *s == 0)
                .filter_map(|(_, _, p)| p),
        );
    }
    assert!(!partners.is_empty());
    assert!(partners.iter().all(|&p| p == 1));
}

/// Builds `building` for `seat` at its first legal spot, laying roads until one fits.
fn build_any(g: &mut BuildingCities, seat: Seat, building: &str) {
    for _ in 0..12 {
        let found = g
            .legal_moves(seat)
            .into_iter()
            .find(|m| matches!(m, Move::Tile { building: b, .. } if b == building));
        if let Some(mv) = found {
            ok(g, seat, mv);
            return;
        }
        let road = first_road(g, seat).expect("a road block");
        ok(g, seat, road);
    }
    panic!("no spot for {building}");
}

fn destroyed(events: &[Event]) -> Vec<(Seat, u32)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Destroyed { seat, tile, .. } => Some((*seat, *tile)),
            _ => None,
        })
        .collect()
}

#[test]
fn ruling_e5_despicable_the_player_who_played_it_chooses() {
    let mut g = game(Mode::Despicable, 2, "obj_six_districts");
    two_districts(&mut g);
    g.test_set_bank(1, 10_000);
    build_any(&mut g, 1, "grocery");
    build_any(&mut g, 1, "grocery");
    for _ in 0..3 {
        g.test_stack_event("ev_calm");
        g.timeout();
    }
    assert!(g.test_stack_challenge("ch_store_bankrupt"));
    g.test_stack_event("ev_calm");
    g.timeout();
    assert_eq!(view(&g).phase, Phase::PlayChallenge { seat: 0 });
    ok(&mut g, 0, Move::PlayChallenge { card: 0, target: 1 });
    if matches!(view(&g).phase, Phase::TaskForcePrompt { .. }) {
        ok(&mut g, 1, Move::AcceptChallenge {});
    }
    let Phase::ChooseDestroyed {
        seat: 0,
        target: 1,
        tiles,
    } = view(&g).phase
    else {
        panic!("no choice: {:?}", view(&g).phase);
    };
    assert_eq!(tiles.len(), 2);
    assert_eq!(g.awaiting().seats, vec![0]);
    assert_eq!(
        g.legal_moves(0),
        tiles
            .iter()
            .map(|&tile| Move::DestroyBuilding { tile })
            .collect::<Vec<_>>()
    );
    assert_eq!(
        code(&mut g, 0, Move::DestroyBuilding { tile: 9_999 }),
        "no_such_target"
    );
    // A timeout removes the least valuable (listed first).
    let mut timed_out = g.clone();
    assert_eq!(destroyed(&timed_out.timeout()), vec![(1, tiles[0])]);
    let events = ok(&mut g, 0, Move::DestroyBuilding { tile: tiles[1] });
    assert_eq!(destroyed(&events), vec![(1, tiles[1])]);
    assert!(g.city(1).tiles().iter().any(|t| t.id == tiles[0]));
    assert!(!g.city(1).tiles().iter().any(|t| t.id == tiles[1]));
}

fn tile_moves(g: &BuildingCities) -> usize {
    g.legal_moves(0)
        .iter()
        .filter(|m| matches!(m, Move::Tile { .. }))
        .count()
}

fn answered(events: &[Event]) -> Vec<bool> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::DemandAnswered { accepted, .. } => Some(*accepted),
            _ => None,
        })
        .collect()
}

#[test]
fn ruling_b5_a_demand_is_accepted_or_refused_for_its_price() {
    let mut g = solo("obj_six_districts");
    two_districts(&mut g);
    g.test_set_bank(0, 10_000);
    place_in(&mut g, "clinic", District::D1);
    for _ in 0..3 {
        next_turn(&mut g);
    }
    assert!(g.test_stack_challenge("ch_hospital_wanted"));
    next_turn(&mut g);
    let Phase::Demand {
        seat: 0, refused, ..
    } = view(&g).phase
    else {
        panic!("no demand: {:?}", view(&g).phase);
    };
    assert_eq!(refused, 1500);
    assert_eq!(g.awaiting().seats, vec![0]);
    assert_eq!(
        g.legal_moves(0),
        vec![Move::AcceptDemand {}, Move::RefuseDemand {}]
    );
    g.test_set_bank(0, 10_000);
    let mut accepted = g.clone();
    let mut timed_out = g.clone();
    let events = ok(&mut g, 0, Move::RefuseDemand {});
    assert_eq!(answered(&events), vec![false]);
    assert_eq!(bank_amounts(&events, BankReason::Challenge), vec![-1500]);
    let events = ok(&mut accepted, 0, Move::AcceptDemand {});
    assert_eq!(answered(&events), vec![true]);
    assert!(bank_amounts(&events, BankReason::Challenge).is_empty());
    // A timeout accepts.
    assert_eq!(answered(&timed_out.timeout()), vec![true]);
    // Accepted, the hospital is a priority: fewer buildings are allowed.
    assert_eq!(view(&g).phase, Phase::Building);
    assert_eq!(view(&accepted).phase, Phase::Building);
    assert!(tile_moves(&accepted) < tile_moves(&g));
}

/// B5, W1, W4: a demand drawn with the end-of-turn challenge is part of that
/// challenge: it is answered before the loan and the objective are checked, so
/// its refused price counts for the objective of that same end of turn.
#[test]
fn ruling_b5_a_drawn_demand_is_answered_before_the_objective_check() {
    let mut g = solo("obj_first_to_3000");
    two_districts(&mut g);
    g.test_set_bank(0, 10_000);
    place_in(&mut g, "clinic", District::D1);
    g.test_set_bank(0, 500);
    for _ in 0..3 {
        next_turn(&mut g);
    }
    assert_eq!(g.outcome(), None);
    // 3,500 Maya would meet "3,000 Maya": the hospital demand comes first.
    g.test_set_bank(0, 3_500);
    assert!(g.test_stack_challenge("ch_hospital_wanted"));
    let events = next_turn(&mut g);
    assert!(matches!(view(&g).phase, Phase::Demand { seat: 0, .. }));
    assert_eq!(g.outcome(), None, "the objective waits for the answer");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.kind, EventKind::GameOver { .. }))
    );
    let mut accepted = g.clone();
    let mut timed_out = g.clone();
    // Refused: 1,500 Maya paid, the bank is under 3,000, the game goes on.
    let events = ok(&mut g, 0, Move::RefuseDemand {});
    assert_eq!(answered(&events), vec![false]);
    assert!(g.bank(0) < 3_000, "{}", g.bank(0));
    assert_eq!(g.outcome(), None);
    assert_eq!(view(&g).phase, Phase::Building);
    // Accepted (or timed out): nothing paid, the objective is met at once.
    let by_move = ok(&mut accepted, 0, Move::AcceptDemand {});
    for events in [by_move, timed_out.timeout()] {
        assert_eq!(answered(&events), vec![true]);
        assert!(events.iter().any(|e| matches!(
            &e.kind,
            EventKind::GameOver {
                reason: EndReason::Objective,
                winners
            } if *winners == vec![0]
        )));
    }
}
