//! One or more tests per ruling of `shared/rules/big-cityz.md`, named after it,
//! through the public API only, with invented cities (so that they do not depend
//! on how complete `data/cities.json` is).

#![allow(clippy::unwrap_used)]

use big_cityz::cities::{Airport, Continent, Sourced};
use big_cityz::{
    BigCityz, City, Color, Event, EventKind, Evidence, Move, Options, Phase, Refill, Rule, Slot,
    Square, Statement, View,
};
use engine::{Game, Illegal, Seat, Setup, SetupError, Viewer};

/// A city for which exactly the statements `truth` says hold.
fn city(n: usize, truth: impl Fn(Statement) -> bool) -> City {
    let t = |s| truth(s);
    let src = "test";
    City {
        id: Box::leak(format!("city_{n}").into_boxed_str()),
        name_en: "Testville",
        name_fr: "Testville",
        country: "XX",
        continent: if t(Statement::EuropeOrAsia) {
            Continent::Europe
        } else {
            Continent::Africa
        },
        founded: Sourced {
            value: if t(Statement::FoundedBefore1700) {
                1500
            } else {
                1850
            },
            source: "founded source",
        },
        latitude: if t(Statement::SouthOfEquator) {
            -20.0
        } else {
            20.0
        },
        longitude: 0.0,
        location_source: src,
        elevation_m: Sourced {
            value: if t(Statement::Above708m) { 1200 } else { 100 },
            source: src,
        },
        temperature_c: Sourced {
            value: if t(Statement::Mean11COrMore) {
                15.0
            } else {
                8.0
            },
            source: src,
        },
        station: src,
        time_zone: "Etc/Test",
        utc_offset_minutes: if t(Statement::FiveHoursFromBerlin) {
            420
        } else {
            60
        },
        airport: t(Statement::InternationalAirport).then_some(Airport {
            iata: "TST",
            name: "Test Airport",
        }),
        airport_source: src,
        population: Sourced {
            value: if t(Statement::MillionInhabitants) {
                2_000_000
            } else {
                50_000
            },
            source: src,
        },
        population_year: 2020,
        area_km2: Sourced {
            value: if t(Statement::LargerThan310Km2) {
                500.0
            } else {
                100.0
            },
            source: src,
        },
        drives_left: Sourced {
            value: t(Statement::DrivesOnTheLeft),
            source: src,
        },
        coast: Sourced {
            value: t(Statement::OnTheSeaCoast),
            source: src,
        },
        capital: Sourced {
            value: t(Statement::Capital),
            source: src,
        },
    }
}

/// `n` cities, all with the same truths.
fn cities(n: usize, truth: impl Fn(Statement) -> bool + Copy) -> &'static [City] {
    Box::leak(
        (0..n)
            .map(|i| city(i, truth))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

fn setup(seats: u8, seed: u64) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: Options::default(),
        first_seat: Some(0),
    }
}

fn game(seats: u8, seed: u64, list: &'static [City]) -> BigCityz {
    BigCityz::with_cities(&setup(seats, seed), list).unwrap()
}

fn spectator(g: &BigCityz) -> View {
    g.view(Viewer::Spectator)
}

/// The statements on the boards for a seed (they do not depend on the cities).
fn boards(seed: u64) -> Vec<Statement> {
    let g = game(2, seed, cities(1, |_| false));
    spectator(&g).boards.iter().map(|b| b.statement).collect()
}

fn active(g: &BigCityz) -> Seat {
    match spectator(g).phase {
        Phase::Placing { seat, .. } | Phase::Objections { seat, .. } => seat,
        Phase::GameOver { .. } => panic!("over"),
    }
}

fn on(board: u8, slot: Slot) -> Square {
    Square::Board { board, slot }
}

fn risk(pair: u8, color: Color) -> Square {
    Square::Risk { pair, color }
}

/// The active seat plays `mv`; every other seat then declines. Returns all events.
fn play(g: &mut BigCityz, mv: Move) -> Vec<Event> {
    let seat = active(g);
    let mut events = g.apply(seat, &mv).unwrap();
    while let Phase::Objections { waiting, .. } = spectator(g).phase {
        events.extend(g.apply(waiting[0], &Move::Decline {}).unwrap());
    }
    events
}

fn judged(events: &[Event]) -> big_cityz::Judgment {
    events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Judged { judgment } => Some(judgment.clone()),
            _ => None,
        })
        .expect("a judgment")
}

fn rule(r: Rule) -> Result<Vec<Event>, Illegal<Rule>> {
    Err(Illegal::Rule(r))
}

// D1 ------------------------------------------------------------------------

#[test]
fn ruling_d1_statements_at_both_sides_of_each_threshold() {
    let base = city(0, |_| false);
    for st in Statement::ALL {
        assert!(!st.holds(&base), "{st:?}");
    }
    let mut c = base;
    let check = |c: &City, st: Statement, expected: bool| {
        assert_eq!(st.holds(c), expected, "{st:?} {c:?}");
    };
    c.founded.value = 1699;
    check(&c, Statement::FoundedBefore1700, true);
    c.founded.value = 1700;
    check(&c, Statement::FoundedBefore1700, false);
    c.founded.value = -500;
    check(&c, Statement::FoundedBefore1700, true);
    c.latitude = -0.01;
    check(&c, Statement::SouthOfEquator, true);
    c.latitude = 0.01;
    check(&c, Statement::SouthOfEquator, false);
    c.elevation_m.value = 709;
    check(&c, Statement::Above708m, true);
    c.elevation_m.value = 708;
    check(&c, Statement::Above708m, false);
    c.temperature_c.value = 11.0;
    check(&c, Statement::Mean11COrMore, true);
    c.temperature_c.value = 10.9;
    check(&c, Statement::Mean11COrMore, false);
    for (offset, expected) in [
        (360, true),  // UTC+6: 5 h
        (359, false), // just short
        (330, false), // Delhi, 4.5 h
        (570, true),  // Adelaide, 8.5 h
        (-240, true), // UTC-4: 5 h west
        (-239, false),
    ] {
        c.utc_offset_minutes = offset;
        check(&c, Statement::FiveHoursFromBerlin, expected);
    }
    c.airport = Some(Airport {
        iata: "TST",
        name: "Test",
    });
    check(&c, Statement::InternationalAirport, true);
    c.airport = None;
    check(&c, Statement::InternationalAirport, false);
    c.population.value = 1_000_000;
    check(&c, Statement::MillionInhabitants, true);
    c.population.value = 999_999;
    check(&c, Statement::MillionInhabitants, false);
    c.area_km2.value = 310.1;
    check(&c, Statement::LargerThan310Km2, true);
    c.area_km2.value = 310.0;
    check(&c, Statement::LargerThan310Km2, false);
    c.drives_left.value = true;
    check(&c, Statement::DrivesOnTheLeft, true);
    for (continent, expected) in [
        (Continent::Europe, true),
        (Continent::Asia, true),
        (Continent::Africa, false),
        (Continent::NorthAmerica, false),
        (Continent::SouthAmerica, false),
        (Continent::Oceania, false),
    ] {
        c.continent = continent;
        check(&c, Statement::EuropeOrAsia, expected);
    }
    c.coast.value = true;
    check(&c, Statement::OnTheSeaCoast, true);
    c.capital.value = true;
    check(&c, Statement::Capital, true);
}

// B1 ------------------------------------------------------------------------

#[test]
fn ruling_b1_four_boards_in_a_ring_with_eight_risk_fields() {
    let g = game(3, 7, cities(30, |_| true));
    let v = spectator(&g);
    assert_eq!(v.boards.len(), 4);
    assert!(v.boards.iter().all(|b| b.squares.len() == 4));
    let mut statements: Vec<Statement> = v.boards.iter().map(|b| b.statement).collect();
    statements.sort();
    statements.dedup();
    assert_eq!(statements.len(), 4, "four different statements");
    assert_eq!(v.risks.len(), 4);
    assert_eq!(v.statement_pile, 8);
    // 16 point squares and 8 risk fields are free; no "no free square" while free
    // squares exist and no board may be replaced... it is allowed (B6), so 25 moves.
    let moves = g.legal_moves(0);
    let places = moves
        .iter()
        .filter(|m| matches!(m, Move::Place { .. }))
        .count();
    assert_eq!(places, 24);
    assert!(moves.contains(&Move::NoFreeSquare {}));
    assert_eq!(moves.len(), 25);
}

// B2 ------------------------------------------------------------------------

#[test]
fn ruling_b2_green_is_true_red_is_not_and_risk_fields_need_both() {
    let list = cities(30, |_| true);
    let mut g = game(2, 1, list);
    // Green 4 on a true statement: right, +4.
    let j = judged(&play(
        &mut g,
        Move::Place {
            square: on(0, Slot::Green4),
        },
    ));
    assert!(j.right);
    assert_eq!(spectator(&g).scores, vec![4, 0]);
    // Red 4 on a true statement: wrong, nothing.
    let j = judged(&play(
        &mut g,
        Move::Place {
            square: on(1, Slot::Red4),
        },
    ));
    assert!(!j.right);
    assert_eq!(spectator(&g).scores, vec![4, 0]);
    // Green risk field, both neighbours true: +8.
    let j = judged(&play(
        &mut g,
        Move::Place {
            square: risk(2, Color::Green),
        },
    ));
    assert!(j.right);
    assert_eq!(j.facts.len(), 2, "both statements are shown");
    assert_eq!(spectator(&g).scores, vec![12, 0]);
    // Red risk field, both true: wrong, −2 (from 0 stays 0).
    let j = judged(&play(
        &mut g,
        Move::Place {
            square: risk(3, Color::Red),
        },
    ));
    assert!(!j.right);
    assert_eq!(spectator(&g).scores, vec![12, 0]);
    // The cards stay; a taken square is refused.
    let v = spectator(&g);
    assert!(v.boards[0].squares[0].is_some());
    assert!(v.risks[2].green.is_some());
    let seat = active(&g);
    assert_eq!(
        g.apply(
            seat,
            &Move::Place {
                square: on(0, Slot::Green4)
            }
        ),
        rule(Rule::SquareTaken {
            square: on(0, Slot::Green4)
        })
    );
    assert_eq!(
        g.apply(
            seat,
            &Move::Place {
                square: on(4, Slot::Green4)
            }
        ),
        rule(Rule::NoSuchBoard { board: 4 })
    );
}

#[test]
fn ruling_b2_a_risk_field_with_one_true_and_one_false_statement_is_wrong() {
    let seed = 3;
    let b = boards(seed);
    let (t0, t1) = (b[0], b[1]);
    // Board 0 true, board 1 false, the rest false.
    let list = cities(30, move |s| s == t0);
    let mut g = game(2, seed, list);
    for color in [Color::Green, Color::Red] {
        let j = judged(&play(
            &mut g,
            Move::Place {
                square: risk(0, color),
            },
        ));
        assert!(!j.right, "{color:?}");
        let statements: Vec<bool> = j.facts.iter().map(|f| f.holds).collect();
        assert_eq!(statements, vec![true, false], "{t0:?} {t1:?}");
    }
}

#[test]
fn ruling_b2_the_drawn_card_shows_its_name_and_country_only() {
    let g = game(2, 1, cities(30, |_| true));
    let v = spectator(&g);
    let card = v.current.clone().unwrap();
    assert_eq!(card.country, "XX");
    let json = serde_json::to_string(&v).unwrap();
    assert!(!json.contains("founded source"));
    assert!(v.last_judgment.is_none());
}

// B3 ------------------------------------------------------------------------

#[test]
fn ruling_b3_other_players_object_or_decline_within_the_window() {
    let mut g = game(3, 1, cities(30, |_| true));
    g.apply(
        0,
        &Move::Place {
            square: on(0, Slot::Green2),
        },
    )
    .unwrap();
    let a = g.awaiting();
    assert_eq!(a.seats, vec![1, 2]);
    assert_eq!(a.window_ms, Some(10_000));
    // The placer cannot object, nor place again.
    assert_eq!(
        g.apply(0, &Move::Object {}),
        rule(Rule::CannotObjectOwnCard)
    );
    assert_eq!(
        g.apply(
            1,
            &Move::Place {
                square: on(1, Slot::Green2)
            }
        ),
        rule(Rule::WrongPhase)
    );
    // Objections are public as made.
    let events = g.apply(2, &Move::Object {}).unwrap();
    assert!(matches!(events[0].kind, EventKind::Objected { seat: 2 }));
    match spectator(&g).phase {
        Phase::Objections {
            objectors, waiting, ..
        } => {
            assert_eq!(objectors, vec![2]);
            assert_eq!(waiting, vec![1]);
        }
        p => panic!("{p:?}"),
    }
    assert_eq!(g.apply(2, &Move::Object {}), rule(Rule::AlreadyDecided));
    let period = g.awaiting().period;
    // The last answer closes the window.
    g.apply(1, &Move::Decline {}).unwrap();
    assert_ne!(g.awaiting().period, period);
    assert_eq!(spectator(&g).vetoes_left, vec![2, 2, 1]);
}

#[test]
fn ruling_b3_a_timeout_declines_for_those_who_did_not_answer() {
    let mut g = game(3, 1, cities(30, |_| false));
    g.apply(
        0,
        &Move::Place {
            square: on(0, Slot::Green4),
        },
    )
    .unwrap();
    g.apply(1, &Move::Object {}).unwrap();
    let events = g.timeout();
    assert!(
        matches!(&events[0].kind, EventKind::ObjectionsTimedOut { seats } if seats == &vec![2])
    );
    let j = judged(&events);
    assert_eq!(j.objectors, vec![1]);
    assert!(!j.right);
    assert_eq!(spectator(&g).scores, vec![0, 3, 0]);
}

#[test]
fn ruling_b3_two_markers_per_player_and_game() {
    let mut g = game(2, 1, cities(30, |_| false));
    for k in 0..2 {
        let seat = active(&g);
        let other = 1 - seat;
        let square = on(k, Slot::Green4);
        g.apply(seat, &Move::Place { square }).unwrap();
        g.apply(other, &Move::Object {}).unwrap();
        // Seat 0 places, seat 1 objects; then seat 1 places, seat 0 declines.
        let seat = active(&g);
        g.apply(
            seat,
            &Move::Place {
                square: on(k + 2, Slot::Red4),
            },
        )
        .unwrap();
        g.apply(1 - seat, &Move::Decline {}).unwrap();
    }
    assert_eq!(spectator(&g).vetoes_left, vec![2, 0]);
    // Seat 1 has no marker left: seat 0's placement is judged at once.
    let events = g
        .apply(
            0,
            &Move::Place {
                square: risk(0, Color::Red),
            },
        )
        .unwrap();
    assert!(judged(&events).objectors.is_empty());
    // Seat 1 places; seat 0 may still object.
    g.apply(
        1,
        &Move::Place {
            square: risk(1, Color::Red),
        },
    )
    .unwrap();
    assert_eq!(g.awaiting().seats, vec![0]);
    g.apply(0, &Move::Decline {}).unwrap();

    // With three players, a seat without markers is not asked and is refused.
    let mut h = game(3, 1, cities(30, |_| false));
    h.apply(
        0,
        &Move::Place {
            square: on(0, Slot::Green4),
        },
    )
    .unwrap();
    h.apply(1, &Move::Object {}).unwrap();
    h.apply(2, &Move::Decline {}).unwrap();
    h.apply(
        1,
        &Move::Place {
            square: on(0, Slot::Red4),
        },
    )
    .unwrap();
    h.apply(0, &Move::Decline {}).unwrap();
    h.apply(2, &Move::Decline {}).unwrap();
    h.apply(
        2,
        &Move::Place {
            square: on(1, Slot::Green4),
        },
    )
    .unwrap();
    h.apply(0, &Move::Decline {}).unwrap();
    h.apply(1, &Move::Object {}).unwrap();
    assert_eq!(spectator(&h).vetoes_left, vec![2, 0, 2]);
    h.apply(
        0,
        &Move::Place {
            square: on(1, Slot::Red4),
        },
    )
    .unwrap();
    assert_eq!(h.awaiting().seats, vec![2]);
    assert_eq!(h.apply(1, &Move::Object {}), rule(Rule::NoVetoesLeft));
}

// B4 ------------------------------------------------------------------------

#[test]
fn ruling_b4_right_placement_costs_objectors_three_wrong_pays_them_three() {
    let mut g = game(3, 1, cities(30, |_| true));
    // Seat 1 and 2 earn something first: seat 0 wrong, seats 1, 2 object.
    g.apply(
        0,
        &Move::Place {
            square: on(0, Slot::Red4),
        },
    )
    .unwrap();
    g.apply(1, &Move::Object {}).unwrap();
    let j = judged(&g.apply(2, &Move::Object {}).unwrap());
    assert!(!j.right);
    assert_eq!(j.changes.len(), 3);
    assert_eq!(spectator(&g).scores, vec![0, 3, 3]);
    // Seat 1 right on green 4; seat 0 objects (0 − 3 stays 0), seat 2 objects (3 − 3).
    g.apply(
        1,
        &Move::Place {
            square: on(1, Slot::Green4),
        },
    )
    .unwrap();
    g.apply(2, &Move::Object {}).unwrap();
    let j = judged(&g.apply(0, &Move::Object {}).unwrap());
    assert!(j.right);
    assert_eq!(j.changes[1].points, -3);
    assert_eq!(spectator(&g).scores, vec![0, 7, 0]);
}

#[test]
fn ruling_b4_the_judgment_shows_the_numbers_and_their_sources() {
    let seed = 5;
    let b = boards(seed);
    let mut g = game(2, seed, cities(30, |_| true));
    let j = judged(&play(
        &mut g,
        Move::Place {
            square: on(0, Slot::Green4),
        },
    ));
    assert_eq!(j.facts.len(), 1);
    assert!(j.facts[0].holds);
    let json = serde_json::to_value(&j.facts[0].evidence).unwrap();
    assert_eq!(
        json["statement"],
        serde_json::to_value(b[0]).unwrap(),
        "the evidence is the board's statement"
    );
    assert_eq!(spectator(&g).last_judgment, Some(j.clone()));
    // The evidence carries the numbers and their source (the continent is M49's).
    if let Evidence::FoundedBefore1700 { year, source } = &j.facts[0].evidence {
        assert_eq!((*year, source.as_str()), (1500, "founded source"));
    } else {
        assert!(
            ["source", "continent", "time_zone"]
                .iter()
                .any(|k| json.get(k).is_some())
        );
    }
}

#[test]
fn ruling_b4_no_score_goes_below_zero() {
    let mut g = game(2, 1, cities(30, |_| true));
    play(
        &mut g,
        Move::Place {
            square: risk(0, Color::Red),
        },
    );
    assert_eq!(spectator(&g).scores, vec![0, 0]);
    g.apply(
        1,
        &Move::Place {
            square: on(0, Slot::Green4),
        },
    )
    .unwrap();
    g.apply(0, &Move::Object {}).unwrap();
    assert_eq!(spectator(&g).scores, vec![0, 4]);
}

// B5 ------------------------------------------------------------------------

#[test]
fn ruling_b5_a_board_with_three_cards_may_be_replaced_then_the_card_goes_on_it() {
    let mut g = game(2, 1, cities(40, |_| true));
    assert_eq!(
        g.apply(0, &Move::Replace { board: 0 }),
        rule(Rule::BoardNotReplaceable { board: 0 })
    );
    for slot in [Slot::Green4, Slot::Green2, Slot::Red4] {
        play(
            &mut g,
            Move::Place {
                square: on(0, slot),
            },
        );
    }
    play(
        &mut g,
        Move::Place {
            square: risk(0, Color::Green),
        },
    );
    play(
        &mut g,
        Move::Place {
            square: risk(3, Color::Red),
        },
    );
    play(
        &mut g,
        Move::Place {
            square: risk(1, Color::Red),
        },
    );
    let seat = active(&g);
    let before = spectator(&g);
    // "No free square" is refused while a board may be replaced (B6).
    assert_eq!(
        g.apply(seat, &Move::NoFreeSquare {}),
        rule(Rule::BoardReplaceable { board: 0 })
    );
    let events = g.apply(seat, &Move::Replace { board: 0 }).unwrap();
    let EventKind::BoardReplaced {
        removed,
        cards,
        statement,
        ..
    } = &events[0].kind
    else {
        panic!("{events:?}")
    };
    assert_eq!(*removed, before.boards[0].statement);
    assert_eq!(
        cards.len(),
        5,
        "three on the board, one on each side's risk fields"
    );
    let v = spectator(&g);
    assert_eq!(v.boards[0].statement, *statement);
    assert!(v.boards[0].squares.iter().all(Option::is_none));
    assert!(v.risks[1].red.is_some(), "pair 1 is not beside board 0");
    assert_eq!(v.left_game.len(), 5);
    assert_eq!(v.statement_discards, vec![*removed]);
    assert_eq!(v.statement_pile, 7);
    // Now only the new board's squares.
    assert_eq!(
        g.apply(
            seat,
            &Move::Place {
                square: on(1, Slot::Green4)
            }
        ),
        rule(Rule::MustPlaceOnNewBoard { board: 0 })
    );
    assert_eq!(
        g.apply(seat, &Move::Replace { board: 0 }),
        rule(Rule::AlreadyReplaced)
    );
    assert_eq!(
        g.apply(seat, &Move::NoFreeSquare {}),
        rule(Rule::MustPlaceOnNewBoard { board: 0 })
    );
    let legal = g.legal_moves(seat);
    assert_eq!(legal.len(), 4);
    play(
        &mut g,
        Move::Place {
            square: on(0, Slot::Red2),
        },
    );
}

#[test]
fn ruling_b5_two_cards_suffice_with_two_on_the_neighbouring_risk_fields() {
    let mut g = game(2, 1, cities(40, |_| true));
    play(
        &mut g,
        Move::Place {
            square: on(1, Slot::Green4),
        },
    );
    play(
        &mut g,
        Move::Place {
            square: on(1, Slot::Green2),
        },
    );
    play(
        &mut g,
        Move::Place {
            square: risk(0, Color::Green),
        },
    );
    assert!(
        !g.legal_moves(active(&g))
            .contains(&Move::Replace { board: 1 })
    );
    play(
        &mut g,
        Move::Place {
            square: risk(1, Color::Red),
        },
    );
    assert!(
        g.legal_moves(active(&g))
            .contains(&Move::Replace { board: 1 })
    );
    // Risk fields not beside board 1 do not count.
    let mut h = game(2, 1, cities(40, |_| true));
    play(
        &mut h,
        Move::Place {
            square: on(1, Slot::Green4),
        },
    );
    play(
        &mut h,
        Move::Place {
            square: on(1, Slot::Green2),
        },
    );
    play(
        &mut h,
        Move::Place {
            square: risk(2, Color::Green),
        },
    );
    play(
        &mut h,
        Move::Place {
            square: risk(3, Color::Red),
        },
    );
    assert!(
        !h.legal_moves(active(&h))
            .contains(&Move::Replace { board: 1 })
    );
}

#[test]
fn ruling_b5_the_discard_pile_is_shuffled_into_a_new_draw_pile() {
    let mut g = game(2, 1, cities(80, |_| true));
    let mut reshuffled = false;
    for _ in 0..9 {
        for slot in [Slot::Green4, Slot::Green2, Slot::Red4] {
            play(
                &mut g,
                Move::Place {
                    square: on(2, slot),
                },
            );
        }
        let seat = active(&g);
        let events = g.apply(seat, &Move::Replace { board: 2 }).unwrap();
        reshuffled |= events
            .iter()
            .any(|e| matches!(e.kind, EventKind::StatementsReshuffled { count: 9 }));
        play(
            &mut g,
            Move::Place {
                square: on(2, Slot::Red2),
            },
        );
        let v = spectator(&g);
        assert_eq!(
            usize::from(v.statement_pile) + v.statement_discards.len() + 4,
            12
        );
        g.timeout();
    }
    assert!(reshuffled);
}

// B6 ------------------------------------------------------------------------

/// Boards 0 and 2 true, 1 and 3 false for the cities of this seed: every risk
/// field is wrong, and the right squares are the greens of 0, 2 and the reds of 1, 3.
fn alternating(seed: u64) -> &'static [City] {
    let b = boards(seed);
    let (x, y) = (b[0], b[2]);
    cities(40, move |s| s == x || s == y)
}

#[test]
fn ruling_b6_no_free_square_is_right_when_every_free_square_is_wrong() {
    let seed = 11;
    let mut g = game(2, seed, alternating(seed));
    for (board, slots) in [
        (0, [Slot::Green4, Slot::Green2]),
        (1, [Slot::Red4, Slot::Red2]),
        (2, [Slot::Green4, Slot::Green2]),
        (3, [Slot::Red4, Slot::Red2]),
    ] {
        for slot in slots {
            assert!(
                judged(&play(
                    &mut g,
                    Move::Place {
                        square: on(board, slot)
                    }
                ))
                .right
            );
        }
    }
    assert_eq!(spectator(&g).scores, vec![16, 8]);
    let seat = active(&g);
    assert!(
        g.legal_moves(seat)
            .iter()
            .all(|m| !matches!(m, Move::Replace { .. }))
    );
    let events = g.apply(seat, &Move::NoFreeSquare {}).unwrap();
    assert!(matches!(
        events[0].kind,
        EventKind::DeclaredNoFreeSquare { .. }
    ));
    let j = judged(&play_rest(&mut g, events));
    assert!(j.right);
    assert_eq!(j.square, None);
    assert_eq!(j.facts.len(), 4, "every statement beside a free square");
    assert!(j.right_squares.is_empty());
    let v = spectator(&g);
    assert_eq!(v.scores[usize::from(seat)], 24);
    assert_eq!(v.left_game.len(), 1, "the card left the game");
}

fn play_rest(g: &mut BigCityz, mut events: Vec<Event>) -> Vec<Event> {
    while let Phase::Objections { waiting, .. } = spectator(g).phase {
        events.extend(g.apply(waiting[0], &Move::Decline {}).unwrap());
    }
    events
}

#[test]
fn ruling_b6_no_free_square_is_wrong_when_a_free_square_would_be_right() {
    let seed = 11;
    let mut g = game(2, seed, alternating(seed));
    // Declaring is allowed though free squares are right; the objector wins 3.
    g.apply(0, &Move::NoFreeSquare {}).unwrap();
    let j = judged(&g.apply(1, &Move::Object {}).unwrap());
    assert!(!j.right);
    assert_eq!(j.right_squares.len(), 8);
    assert_eq!(spectator(&g).scores, vec![0, 3]);
}

// B7 ------------------------------------------------------------------------

#[test]
fn ruling_b7_a_hundred_cities_then_the_box_then_the_cards_that_left() {
    let list = cities(103, |_| true);
    let mut g = game(2, 1, list);
    let v = spectator(&g);
    assert_eq!((v.deck_count, v.box_count), (99, 3));
    let mut refills = Vec::new();
    for _ in 0..104 {
        for e in g.timeout() {
            if let EventKind::DeckRefilled { from, count } = e.kind {
                refills.push((from, count));
            }
        }
    }
    assert_eq!(refills, vec![(Refill::Box, 3), (Refill::LeftGame, 103)]);
    let v = spectator(&g);
    assert_eq!(usize::from(v.deck_count) + v.left_game.len() + 1, 103);
}

#[test]
fn ruling_b7_the_deck_is_drawn_from_the_seed() {
    let list = cities(150, |_| true);
    let first = |seed| spectator(&game(2, seed, list)).current.unwrap().card;
    assert_eq!(first(4), first(4));
    assert!(
        (0..20)
            .map(first)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            > 5
    );
}

// B8 ------------------------------------------------------------------------

#[test]
fn ruling_b8_reaching_36_finishes_the_round_then_most_points_win() {
    let mut g = game(3, 1, cities(60, |_| true));
    // Seat 1 places on the green risk fields (8 each) and then a green 4; the
    // others place wrong.
    let mut turn = 0;
    let seat1 = [
        risk(0, Color::Green),
        risk(1, Color::Green),
        risk(2, Color::Green),
        risk(3, Color::Green),
        on(0, Slot::Green4),
    ];
    let wrong = [
        on(0, Slot::Red4),
        on(0, Slot::Red2),
        on(1, Slot::Red4),
        on(1, Slot::Red2),
        on(2, Slot::Red4),
        on(2, Slot::Red2),
        on(3, Slot::Red4),
        on(3, Slot::Red2),
        risk(0, Color::Red),
        risk(1, Color::Red),
    ];
    let mut w = 0;
    let mut final_round_at = None;
    while g.outcome().is_none() {
        let seat = active(&g);
        let square = if seat == 1 {
            seat1[turn / 3]
        } else {
            w += 1;
            wrong[w - 1]
        };
        let events = play(&mut g, Move::Place { square });
        if events
            .iter()
            .any(|e| matches!(e.kind, EventKind::FinalRound { seat: 1 }))
        {
            final_round_at = Some(turn);
        }
        turn += 1;
    }
    assert_eq!(final_round_at, Some(13), "seat 1's fifth turn");
    let v = spectator(&g);
    assert_eq!(v.turns, vec![5, 5, 5], "the round was finished");
    let o = g.outcome().unwrap();
    assert_eq!(o.scores, vec![0, 36, 0]);
    assert_eq!(o.winners, vec![1]);
    assert!(g.legal_moves(2).is_empty());
    assert_eq!(g.apply(2, &Move::Decline {}), Err(Illegal::game_over()));
}

#[test]
fn ruling_b8_ties_share_the_win_and_objections_count() {
    let mut g = game(2, 1, cities(60, |_| true));
    // Seat 0 and seat 1 both score 8 four times: 32 each.
    for pair in 0..4 {
        play(
            &mut g,
            Move::Place {
                square: risk(pair, Color::Green),
            },
        );
        let sq = [
            on(0, Slot::Green4),
            on(1, Slot::Green4),
            on(2, Slot::Green4),
            on(3, Slot::Green4),
        ][pair as usize];
        play(&mut g, Move::Place { square: sq });
        play(
            &mut g,
            Move::Place {
                square: on(pair, Slot::Red4),
            },
        );
        play(
            &mut g,
            Move::Place {
                square: on(pair, Slot::Red2),
            },
        );
    }
    // 32/4/0/0 per cycle...: seat 0 placed risk + red4, seat 1 green4 + red2.
    let v = spectator(&g);
    assert_eq!(v.scores, vec![32, 16]);
    // Seat 0 places on a green 2: 34. Seat 1 places wrong and seat 0 objects:
    // seat 0 reaches 36 on seat 1's turn, the last of the round.
    g.apply(
        0,
        &Move::Place {
            square: on(0, Slot::Green2),
        },
    )
    .unwrap();
    g.apply(1, &Move::Decline {}).unwrap();
    assert_eq!(spectator(&g).scores, vec![34, 16]);
    g.apply(
        1,
        &Move::Place {
            square: risk(1, Color::Red),
        },
    )
    .unwrap();
    let events = g.apply(0, &Move::Object {}).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::FinalRound { seat: 0 }))
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.scores, vec![37, 14]);
    assert_eq!(o.winners, vec![0]);

    // A shared win.
    let mut h = game(2, 1, cities(60, |_| true));
    let mut moves = vec![
        risk(0, Color::Green),
        risk(1, Color::Green),
        risk(2, Color::Green),
        risk(3, Color::Green),
    ];
    for slot in [Slot::Green4, Slot::Green2] {
        moves.extend((0..4).map(|b| on(b, slot)));
    }
    for square in moves {
        play(&mut h, Move::Place { square });
    }
    assert_eq!(spectator(&h).scores, vec![28, 28]);
    for board in [0, 2] {
        play(&mut h, Move::Replace { board });
        h.apply(
            active(&h),
            &Move::Place {
                square: on(board, Slot::Green4),
            },
        )
        .unwrap();
        play_rest(&mut h, Vec::new());
    }
    for square in [
        on(0, Slot::Green2),
        on(2, Slot::Green2),
        risk(0, Color::Green),
        risk(1, Color::Green),
    ] {
        play(&mut h, Move::Place { square });
    }
    let o = h.outcome().unwrap();
    assert_eq!(o.scores, vec![42, 42]);
    assert_eq!(o.winners, vec![0, 1]);
}

#[test]
fn ruling_b8_two_to_six_players() {
    let list = cities(10, |_| true);
    for seats in [0, 1, 7] {
        assert_eq!(
            BigCityz::with_cities(&setup(seats, 1), list).err(),
            Some(SetupError::Seats { min: 2, max: 6 })
        );
    }
    for seats in 2..=6 {
        assert!(BigCityz::with_cities(&setup(seats, 1), list).is_ok());
    }
}

// B9 ------------------------------------------------------------------------

#[test]
fn ruling_b9_the_host_chooses_the_first_player_or_chance_does() {
    let list = cities(30, |_| true);
    let mut s = setup(4, 9);
    s.first_seat = Some(2);
    let mut g = BigCityz::with_cities(&s, list).unwrap();
    assert_eq!(spectator(&g).first_seat, 2);
    let mut order = Vec::new();
    for _ in 0..5 {
        order.push(active(&g));
        g.timeout();
    }
    assert_eq!(order, vec![2, 3, 0, 1, 2]);
    s.first_seat = Some(4);
    assert_eq!(
        BigCityz::with_cities(&s, list).err(),
        Some(SetupError::FirstSeat)
    );
    let firsts: std::collections::BTreeSet<Seat> = (0..40)
        .map(|seed| {
            let setup = Setup {
                first_seat: None,
                ..setup(4, seed)
            };
            let g = BigCityz::with_cities(&setup, list).unwrap();
            assert_eq!(active(&g), spectator(&g).first_seat);
            active(&g)
        })
        .collect();
    assert_eq!(firsts.len(), 4);
}

#[test]
fn a_turn_timeout_sends_the_card_out_of_the_game_unjudged() {
    let mut g = game(2, 1, cities(30, |_| true));
    let card = spectator(&g).current.unwrap();
    let events = g.timeout();
    assert!(matches!(&events[0].kind, EventKind::TurnTimedOut { seat: 0, city } if *city == card));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Judged { .. }))
    );
    let v = spectator(&g);
    assert_eq!(v.left_game, vec![card]);
    assert_eq!(v.scores, vec![0, 0]);
    assert_eq!(active(&g), 1);
}

#[test]
fn options_are_checked() {
    let mut s = setup(2, 1);
    s.options.objection_ms = 500;
    assert!(matches!(
        BigCityz::with_cities(&s, cities(5, |_| true)),
        Err(SetupError::OptionRange {
            name: "objection_ms",
            ..
        })
    ));
    s.options.objection_ms = 4_000;
    let mut g = BigCityz::with_cities(&s, cities(5, |_| true)).unwrap();
    g.apply(
        0,
        &Move::Place {
            square: on(0, Slot::Green4),
        },
    )
    .unwrap();
    assert_eq!(g.awaiting().window_ms, Some(4_000));
}

#[test]
fn the_game_over_the_real_cities_starts() {
    let g = BigCityz::new(&setup(2, 1)).unwrap();
    assert!(spectator(&g).current.is_some());
}
