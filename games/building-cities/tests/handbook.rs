//! Checks the Engineer's Handbook (`handbook/*.json`, ruling H): the rulebook's
//! counts and numbers, every example card and objective of the rulebook, the
//! shape of every entry and its references, and that every objective can be met
//! within the caps and the 8 × 8 grids.

use building_cities::handbook::cards::{Card, Effect, Goal};
use building_cities::handbook::fit::{self, Unfit};
use building_cities::handbook::model::{
    Category, Colour, Placement, Requirement, Scope, Size, Target,
};
use building_cities::handbook::rules::PriceStep;
use building_cities::{Handbook, Variant};
use std::collections::HashSet;

fn hb() -> &'static Handbook {
    Handbook::standard()
}

fn copies(cards: &[Card]) -> u32 {
    cards
        .iter()
        .filter(|c| c.effect != Effect::Blank)
        .map(|c| c.copies)
        .sum()
}

fn blanks(cards: &[Card]) -> usize {
    cards.iter().filter(|c| c.effect == Effect::Blank).count()
}

#[test]
fn the_embedded_files_parse() {
    let parsed = Handbook::parse(building_cities::handbook::FILES);
    assert!(parsed.is_ok(), "{parsed:?}");
}

#[test]
fn ruling_h_counts_of_the_rulebook() {
    let h = hb();
    assert!(h.buildings.len() >= 40, "{} buildings", h.buildings.len());
    let colours: HashSet<Colour> = h.buildings.iter().filter_map(|b| b.colour).collect();
    for colour in Colour::ALL {
        assert!(colours.contains(&colour), "no {colour:?} tile");
    }
    let real_objectives = h.objectives.iter().filter(|o| !o.blank).count();
    assert_eq!(real_objectives, 20);
    // The rulebook's 120 events and 65 challenges hold the five blank cards of
    // each deck (H): 115 and 60 printed ones.
    assert_eq!(copies(&h.events), 115);
    assert_eq!(copies(&h.challenges), 60);
    assert_eq!(copies(&h.events) + blanks(&h.events) as u32, 120);
    assert_eq!(copies(&h.challenges) + blanks(&h.challenges) as u32, 65);
    assert_eq!(h.goods.len(), 6);
    let dice: HashSet<u32> = h.goods.iter().map(|g| g.die).collect();
    assert_eq!(dice, (1..=6).collect());
    // E5: the Task Forces come on top of the 65 challenges.
    assert_eq!(h.task_force.effect, Effect::TaskForce);
    assert!(h.challenges.iter().all(|c| c.effect != Effect::TaskForce));
    assert_eq!([1, 2, 3, 4].map(|p| h.task_forces(p)), [4, 8, 12, 15]);
    assert_eq!(h.task_forces(0), 0);
    assert_eq!(h.task_forces(5), 0);
    // Five blank cards per deck.
    assert_eq!(h.economy.blank_cards_per_deck, 5);
    assert_eq!(h.objectives.iter().filter(|o| o.blank).count(), 5);
    assert!(
        h.objectives
            .iter()
            .filter(|o| o.blank)
            .all(|o| o.goals.is_empty())
    );
    assert_eq!(blanks(&h.events), 5);
    assert_eq!(blanks(&h.challenges), 5);
}

#[test]
fn ruling_h_standees_and_tokens_are_buildable_with_the_component_counts() {
    let h = hb();
    let city = |id: &str| h.building(id).and_then(|b| b.limit(Scope::City));
    assert_eq!(city("building"), Some(18));
    assert_eq!(city("hotel"), Some(6));
    assert_eq!(city("office"), Some(12));
    assert_eq!(city("cargo_ship"), Some(14));
    assert_eq!(city("truck"), Some(18));
    let legendary: Vec<_> = h
        .buildings
        .iter()
        .filter(|b| b.category == Category::Legendary)
        .collect();
    // The 42 standees are 18 Buildings, 6 Hotels, 12 Offices and 6 legendary.
    assert_eq!(legendary.len(), 6);
    for b in &legendary {
        assert_eq!(b.limit(Scope::City), Some(1), "{}", b.id);
    }
    for id in [
        "symbol_of_freedom",
        "tower_of_the_brotherhood",
        "bc_university",
        "amphitheatre",
        "pyramid_museum",
        "h_skyscraper",
    ] {
        assert_eq!(
            h.building(id).map(|b| b.category),
            Some(Category::Legendary),
            "{id}"
        );
    }
    // "Some of them take 2 tiles".
    for id in [
        "bc_university",
        "amphitheatre",
        "pyramid_museum",
        "h_skyscraper",
    ] {
        assert_eq!(
            h.building(id).and_then(|b| b.size),
            Some(Size::S2x1),
            "{id}"
        );
    }
    assert_eq!(
        h.building("truck").map(|b| b.placement),
        Some(Placement::Road)
    );
    assert_eq!(
        h.building("cargo_ship").map(|b| b.placement),
        Some(Placement::Sea)
    );
    // "Yellow/Blue Tiles: The Airport (6x4) and the Protected Areas."
    assert_eq!(h.building("airport").and_then(|b| b.size), Some(Size::S3x2));
    assert_eq!(
        h.building("airport").and_then(|b| b.colour),
        Some(Colour::YellowBlue)
    );
}

#[test]
fn b4_limits_per_district() {
    let h = hb();
    let group = |target: Target| {
        h.group_limits
            .iter()
            .find(|g| g.target == target && g.scope == Scope::District)
            .map(|g| g.max)
    };
    assert_eq!(group(Target::Colour(Colour::Blue)), Some(9));
    assert_eq!(group(Target::Colour(Colour::Orange)), Some(3));
    assert_eq!(group(Target::Category(Category::Industry)), Some(3));
    assert_eq!(group(Target::Building("truck".into())), Some(3));
    // Grey and green industries share the industry cap.
    for b in &h.buildings {
        if matches!(b.colour, Some(Colour::Grey | Colour::Green)) {
            assert_eq!(b.category, Category::Industry, "{}", b.id);
        }
        if b.category == Category::Industry {
            assert!(
                matches!(b.colour, Some(Colour::Grey | Colour::Green)),
                "{}",
                b.id
            );
        }
    }
}

#[test]
fn b1_e_rulebook_numbers() {
    let h = hb();
    let e = &h.economy;
    let b = |id: &str| h.building(id).unwrap_or_else(|| panic!("no {id}"));
    assert_eq!(
        (b("road").cost, b("road").moves, b("road").size),
        (10, 1, Some(Size::S1x1))
    );
    for grid in ["power_grid", "water_grid"] {
        assert_eq!((b(grid).cost, b(grid).moves), (10, 1), "{grid}");
        assert_eq!(b(grid).colour, Some(Colour::Red), "these two red tiles");
        assert_eq!(b(grid).limit(Scope::District), Some(1));
    }
    assert_eq!(
        (b("house").cost, b("house").moves, b("house").value),
        (10, 5, 2)
    );
    assert_eq!(b("house").colour, Some(Colour::Blue));
    // The tutorial's first turn: a road of 3, the grids, a house = 60 Maya, 10 moves.
    let first = 3 * b("road").cost + b("power_grid").cost + b("water_grid").cost + b("house").cost;
    let moves =
        3 * b("road").moves + b("power_grid").moves + b("water_grid").moves + b("house").moves;
    assert_eq!((first, moves), (60, e.moves_per_turn));
    // The rulebook's bonus and malus examples.
    let own = |id: &str| {
        b(id)
            .bonuses
            .iter()
            .filter(|x| x.target.is_none())
            .map(|x| x.value)
            .sum::<i32>()
    };
    assert_eq!(own("tennis_court"), 10);
    assert_eq!(own("library"), 10);
    assert_eq!(own("factory"), -20);
    assert_eq!(b("symbol_of_freedom").cost, 600);
    assert_eq!(e.start_bank, 200);
    assert_eq!(e.moves_per_turn, 10);
    assert_eq!(e.min_spend_per_turn, 50);
    assert_eq!(e.max_inactive_turns, 3);
    assert_eq!(e.inactive_bank_below, 200);
    assert_eq!(e.max_intersections_per_district, 2);
    assert_eq!(
        (e.district_side, e.land_districts, e.sea_areas.len()),
        (8, 6, 7)
    );
    assert_eq!(e.ships_per_sea_area, 2);
    let second = e.district_step(2).expect("a step for D2/D4");
    assert_eq!((second.bank_more_than, second.tiles_more_than), (700, 25));
    for nth in 3..=6 {
        let (prev, step) = (
            e.district_step(nth - 1).expect("step"),
            e.district_step(nth).expect("step"),
        );
        assert!(
            step.bank_more_than >= prev.bank_more_than
                && step.tiles_more_than >= prev.tiles_more_than
        );
        assert!(
            step.price > 0 && step.price < step.bank_more_than,
            "a district is affordable when it may be bought"
        );
    }
    assert_eq!(
        (
            e.loan.amount,
            e.loan.repay,
            e.loan.within_turns,
            e.loan.per_game
        ),
        (300, 500, 15, 1)
    );
    let levels: Vec<u32> = e.upgrades.iter().map(|u| u.level).collect();
    assert_eq!(levels, [2, 3], "E8: up to level 3, one level per attempt");
    for u in &e.upgrades {
        assert!(
            u.cost > 0
                && (1..=e.moves_per_turn).contains(&u.moves)
                && (2..=6).contains(&u.success_from)
        );
    }
    assert_eq!(
        (
            e.challenges.from_districts,
            e.challenges.every_turns,
            e.challenges.hand_max
        ),
        (2, 4, 6)
    );
    assert_eq!(
        (
            e.trade.goods_drawn,
            e.trade.per_good,
            e.trade.partner_percent
        ),
        (2, 200, 50)
    );
    assert_eq!(
        (e.turn_cap, e.final_rounds, e.auction_min_raise),
        (150, 5, 50)
    );
    // E2: x2, x3 and x5, each once, on the track.
    let mut factors: Vec<u32> = e.turn_track.multipliers.iter().map(|m| m.factor).collect();
    factors.sort_unstable();
    assert_eq!(factors, [2, 3, 5]);
    let turns: HashSet<u32> = e.turn_track.multipliers.iter().map(|m| m.turn).collect();
    assert_eq!(turns.len(), 3);
    assert!(turns.iter().all(|t| (1..=e.turn_track.length).contains(t)));
    assert_eq!(
        (1..=e.turn_track.length)
            .map(|t| e.turn_track.factor(t))
            .filter(|&f| f > 1)
            .count(),
        3
    );
}

#[test]
fn ruling_h_ids_unique_names_filled_sizes_costs_and_moves() {
    let h = hb();
    let mut ids = HashSet::new();
    let all_ids = h
        .buildings
        .iter()
        .map(|b| (&b.id, &b.name))
        .chain(h.objectives.iter().map(|o| (&o.id, &o.name)))
        .chain(
            h.events
                .iter()
                .chain(&h.challenges)
                .chain([&h.task_force])
                .map(|c| (&c.id, &c.name)),
        )
        .chain(h.goods.iter().map(|g| (&g.id, &g.name)));
    for (id, name) in all_ids {
        assert!(ids.insert(id.clone()), "duplicate id {id}");
        assert!(
            !id.is_empty()
                && id
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_'),
            "{id}"
        );
        assert!(
            !name.en.trim().is_empty() && !name.fr.trim().is_empty(),
            "{id}"
        );
    }
    for c in h.events.iter().chain(&h.challenges).chain([&h.task_force]) {
        assert!(
            !c.text.en.trim().is_empty() && !c.text.fr.trim().is_empty(),
            "{}",
            c.id
        );
        assert!(c.copies >= 1, "{}", c.id);
    }
    for o in &h.objectives {
        assert!(
            !o.text.en.trim().is_empty() && !o.text.fr.trim().is_empty(),
            "{}",
            o.id
        );
        assert_eq!(o.blank, o.goals.is_empty(), "{}", o.id);
    }
    for b in &h.buildings {
        match b.placement {
            Placement::Ground => {
                assert!(b.size.is_some_and(|s| Size::ALL.contains(&s)), "{}", b.id)
            }
            Placement::Road | Placement::Sea => assert_eq!(b.size, None, "{}", b.id),
        }
        if b.buildable {
            assert!(b.cost > 0 && b.moves > 0, "{}", b.id);
            assert!(
                b.moves <= h.economy.moves_per_turn,
                "B1: {} paid within one phase",
                b.id
            );
        } else {
            assert_eq!(b.category, Category::Protected, "{}", b.id);
        }
        for bonus in &b.bonuses {
            assert!(
                bonus.value != 0 || bonus.percent != 0,
                "{}: empty bonus",
                b.id
            );
            assert!(bonus.range <= h.economy.district_side, "{}", b.id);
            assert_eq!(
                bonus.target.is_none(),
                bonus.range == 0,
                "{}: a range needs a target",
                b.id
            );
        }
    }
}

fn targets_exist(h: &Handbook, target: &Target, at: &str) {
    let any = h.buildings.iter().any(|b| b.is(target));
    assert!(any, "{at}: {target:?} names no building");
}

#[test]
fn ruling_h_references_name_existing_buildings_and_goods() {
    let h = hb();
    for b in &h.buildings {
        for bonus in &b.bonuses {
            if let Some(t) = &bonus.target {
                targets_exist(h, t, &b.id);
            }
        }
        for r in &b.requirements {
            match r {
                Requirement::Count { target, min, .. } => {
                    targets_exist(h, target, &b.id);
                    assert!(*min > 0, "{}", b.id);
                }
                Requirement::OwnsDistrict { district } => assert!((1..=6).contains(district)),
                Requirement::Districts { min } => assert!((2..=6).contains(min)),
                Requirement::SeaAreas { min } | Requirement::GridLevel { min } => {
                    assert!(*min >= 1)
                }
            }
        }
    }
    for g in &h.group_limits {
        targets_exist(h, &g.target, "group limit");
    }
    for s in &h.economy.prebuilt {
        assert!(h.building(&s.building).is_some(), "prebuilt {}", s.building);
    }
    let goods: HashSet<&str> = h.goods.iter().map(|g| g.id.as_str()).collect();
    for c in h.events.iter().chain(&h.challenges) {
        // The checks a room's own card passes (H).
        assert_eq!(c.effect.check(h), Ok(()), "{}", c.id);
        assert_eq!(c.condition.check(h), Ok(()), "{}", c.id);
        for t in c.effect.targets() {
            targets_exist(h, &t, &c.id);
        }
        match &c.effect {
            Effect::GoodMarket { good, .. } => assert!(goods.contains(good.as_str()), "{}", c.id),
            Effect::Legendary { building } => {
                assert_eq!(
                    h.building(building).map(|b| b.category),
                    Some(Category::Legendary),
                    "{}",
                    c.id
                );
            }
            Effect::Trade { faces } => {
                let dice: Vec<u32> = faces.iter().map(|f| f.die).collect();
                assert_eq!(dice, [1, 2, 3, 4, 5, 6], "{}", c.id);
            }
            _ => {}
        }
    }
    for o in &h.objectives {
        for t in o.forbids.iter() {
            targets_exist(h, t, &o.id);
        }
        for g in &o.goals {
            if let Goal::Build { target, count } = g {
                targets_exist(h, target, &o.id);
                assert!(*count > 0);
            }
        }
    }
    // E7: one legendary offer per legendary building, in the event deck.
    for b in h
        .buildings
        .iter()
        .filter(|b| b.category == Category::Legendary)
    {
        let offered = h.events.iter().any(|c| {
            c.effect
                == Effect::Legendary {
                    building: b.id.clone(),
                }
        });
        assert!(offered, "no offer of {}", b.id);
    }
}

#[test]
fn ruling_h_every_rulebook_example_is_a_card() {
    let h = hb();
    for id in [
        "obj_twelve_offices",
        "obj_two_legendary",
        "obj_stadium_observatory_airport",
        "obj_three_hotels",
        "obj_concert_hall_three_districts",
        "obj_first_to_5000",
        "obj_labor_city",
        "obj_study_city",
        "obj_fun_city",
        "obj_tutorial",
    ] {
        assert!(h.objective(id).is_some(), "missing objective {id}");
    }
    let tutorial = h.objective("obj_tutorial").expect("tutorial");
    assert_eq!(tutorial.goals, [Goal::Bank { amount: 1000 }]);
    assert_eq!(tutorial.turn_limit, Some(14));
    let race = h.objective("obj_first_to_5000").expect("5000");
    assert!(race.race && race.turn_limit == Some(50));
    assert_eq!(
        h.objective("obj_concert_hall_three_districts")
            .and_then(|o| o.max_districts),
        Some(3)
    );
    let offices = h.objective("obj_twelve_offices").expect("offices");
    assert_eq!(
        offices.goals,
        [Goal::Build {
            target: Target::Building("office".into()),
            count: 12
        }]
    );

    let effect = |id: &str| {
        h.card(id)
            .map(|c| c.effect.clone())
            .unwrap_or_else(|| panic!("missing card {id}"))
    };
    let is_event = |id: &str| h.events.iter().any(|c| c.id == id);
    let is_challenge = |id: &str| h.challenges.iter().any(|c| c.id == id);
    let b = |id: &str| Target::Building(id.into());
    for id in [
        "ev_tycoon_donation",
        "ev_stocks_falling",
        "ev_arsonists",
        "ev_postal_complaints",
        "ev_crime_rising",
        "ev_agriculture_low",
        "ev_trade_road",
    ] {
        assert!(is_event(id), "{id}");
    }
    assert_eq!(
        effect("ev_tycoon_donation"),
        Effect::GainMaya { amount: 300 }
    );
    assert_eq!(
        effect("ev_stocks_falling"),
        Effect::LoseMaya { amount: 300 }
    );
    assert!(matches!(
        effect("ev_arsonists"),
        Effect::Coverage {
            adjacent: 200,
            farther: 400,
            ..
        }
    ));
    assert_eq!(
        h.card("ev_arsonists").map(|c| c.condition.min_districts),
        Some(2)
    );
    assert_eq!(
        effect("ev_postal_complaints"),
        Effect::PerDistrictWithout {
            target: b("post_office"),
            amount: 200
        }
    );
    assert_eq!(
        effect("ev_crime_rising"),
        Effect::UnlessBuilt {
            target: b("detention_center"),
            amount: 300
        }
    );
    assert_eq!(
        effect("ev_agriculture_low"),
        Effect::GoodMarket {
            good: "agricultural_products".into(),
            amount: -500
        }
    );
    // The trade example: a 2 pays 20 Maya per truck; a 1 counts industries only.
    let Effect::Trade { faces } = effect("ev_trade_road") else {
        panic!("trade")
    };
    assert!(faces.iter().any(|f| f.die == 2
        && f.per_unit == 20
        && f.route == building_cities::handbook::cards::Route::Trucks));
    assert!(
        faces
            .iter()
            .any(|f| f.die == 1 && f.route == building_cities::handbook::cards::Route::Industries)
    );

    for id in [
        "ch_offices_bombed",
        "ch_hackers",
        "ch_truck_stolen",
        "ch_poisoned_water",
        "ch_hotel_wanted",
        "ch_infamous_district",
    ] {
        assert!(is_challenge(id), "{id}");
    }
    use building_cities::handbook::cards::{Chooser, DistrictPick};
    assert_eq!(
        effect("ch_offices_bombed"),
        Effect::Destroy {
            target: b("office"),
            chooser: Chooser::Player
        }
    );
    assert_eq!(effect("ch_hackers"), Effect::LoseMaya { amount: 600 });
    assert_eq!(
        effect("ch_truck_stolen"),
        Effect::Destroy {
            target: b("truck"),
            chooser: Chooser::Owner
        }
    );
    assert_eq!(
        effect("ch_poisoned_water"),
        Effect::LoseBankPercent { percent: 70 }
    );
    assert_eq!(
        effect("ch_hotel_wanted"),
        Effect::Demand {
            target: b("hotel"),
            impossible: 500,
            refused: 2000
        }
    );
    assert_eq!(
        effect("ch_infamous_district"),
        Effect::DistrictPenalty {
            pick: DistrictPick::Roll,
            percent: 50
        }
    );
}

#[test]
fn b6_only_cards_remove_buildings() {
    // Destroy appears only as a card effect; no building requirement removes one.
    let h = hb();
    let destroyers = h
        .events
        .iter()
        .chain(&h.challenges)
        .filter(|c| matches!(c.effect, Effect::Destroy { .. }))
        .count();
    assert!(destroyers >= 3);
}

#[test]
fn ruling_h_every_objective_fits_the_caps_and_grids() {
    let h = hb();
    for o in h.objectives.iter().filter(|o| !o.blank) {
        // The checks a room's own objective passes (H), the fit check included.
        assert_eq!(o.check(h), Ok(()), "{}", o.id);
        let fit = fit::check(h, o);
        assert!(fit.is_ok(), "{}: {fit:?}", o.id);
        if let (Ok(fit), Some(max)) = (&fit, o.max_districts) {
            assert!(fit.districts.len() as u32 <= max, "{}", o.id);
        }
    }
}

#[test]
fn ruling_h_fit_counts_what_objectives_imply() {
    let h = hb();
    let get = |id: &str| fit::check(h, h.objective(id).expect("objective")).expect("fits");
    // 6 factories: 3 industries per district, two districts.
    let labor = get("obj_labor_city");
    assert!(labor.districts.len() >= 2);
    assert!(labor.sea_areas >= 3, "6 ships need 3 sea areas");
    assert!(labor.needs.get("office").copied() >= Some(6));
    // The Stadium and the Airport need 3 districts; the Observatory a High School chain.
    let landmarks = get("obj_stadium_observatory_airport");
    assert!(landmarks.districts.len() >= 3);
    for id in ["high_school", "middle_school", "elementary_school"] {
        assert!(
            landmarks.needs.contains_key(id),
            "{id} implied by the Observatory"
        );
    }
    // 10 ships: 5 sea areas, which only four land districts reach.
    let port = get("obj_port_city");
    assert_eq!(port.sea_areas, 5);
    assert!(port.districts.len() >= 4);
    // The green city may not fall back on grey industries.
    let green = get("obj_green_city");
    assert!(green.needs.keys().all(|id| {
        h.building(id)
            .is_some_and(|b| b.colour != Some(Colour::Grey))
    }));
    // The railway needs D3.
    let mut train = h.objective("obj_three_hotels").expect("o").clone();
    train.goals = vec![Goal::Build {
        target: Target::Building("train_station".into()),
        count: 1,
    }];
    assert!(get_fit(h, &train).districts.contains(&3));
}

fn get_fit(h: &Handbook, o: &building_cities::handbook::cards::Objective) -> fit::Fit {
    fit::check(h, o).expect("fits")
}

#[test]
fn ruling_h_the_checker_rejects_impossible_objectives() {
    let h = hb();
    let mut o = h.objective("obj_twelve_offices").expect("offices").clone();
    let office = Target::Building("office".into());
    o.goals = vec![Goal::Build {
        target: office.clone(),
        count: 13,
    }];
    let err = fit::check(h, &o).expect_err("13 Offices with a cap of 12");
    assert!(
        err.contains(&Unfit::CityLimit {
            target: office,
            need: 13,
            max: 12
        }),
        "{err:?}"
    );

    // 7 factories in 2 districts: 3 industries per district.
    o.goals = vec![Goal::Build {
        target: Target::Building("factory".into()),
        count: 7,
    }];
    o.max_districts = Some(2);
    let err = fit::check(h, &o).expect_err("7 industries in 2 districts");
    assert!(
        err.contains(&Unfit::Districts {
            need: 3,
            allowed: 2
        }),
        "{err:?}"
    );

    // 14 ships need the 7 sea areas, which D1, D4, D5, D6 and D3 border (M2).
    o.max_districts = None;
    o.goals = vec![Goal::Build {
        target: Target::Building("cargo_ship".into()),
        count: 14,
    }];
    let fit = fit::check(h, &o).expect("14 ships fit");
    assert_eq!(fit.districts, [1, 3, 4, 5, 6].into());
    assert_eq!(fit.sea_areas, 7);
    o.max_districts = Some(4);
    assert_eq!(
        fit::check(h, &o),
        Err(vec![Unfit::Districts {
            need: 5,
            allowed: 4
        }])
    );
    o.goals = vec![Goal::Build {
        target: Target::Building("cargo_ship".into()),
        count: 15,
    }];
    o.max_districts = None;
    assert!(fit::check(h, &o).is_err_and(|e| e.iter().any(|u| matches!(
        u,
        Unfit::CityLimit {
            need: 15,
            max: 14,
            ..
        }
    ))));

    // Blocks: 9 houses and 20 pools (49 blocks, with grids and roads more than
    // the 58 usable) do not fit in one 8x8 grid.
    o.max_districts = Some(1);
    o.goals = vec![
        Goal::Build {
            target: Target::Colour(Colour::Blue),
            count: 9,
        },
        Goal::Build {
            target: Target::Building("swimming_pool".into()),
            count: 20,
        },
    ];
    assert!(
        fit::check(h, &o).is_err(),
        "9 houses and 20 pools in one district"
    );

    // Moves: the Stadium alone cannot be built in 3 turns.
    o.max_districts = None;
    o.turn_limit = Some(3);
    o.goals = vec![Goal::Build {
        target: Target::Building("stadium".into()),
        count: 1,
    }];
    assert!(fit::check(h, &o).is_err_and(|e| e.iter().any(|u| matches!(u, Unfit::Moves { .. }))));

    // Forbidding what is needed.
    o.turn_limit = None;
    o.forbids = vec![Target::Building("stadium".into())];
    assert!(
        fit::check(h, &o).is_err_and(|e| e.contains(&Unfit::Forbidden {
            building: "stadium".into()
        }))
    );
}

#[test]
fn m1_m2_district_sets() {
    assert!(fit::adjacent(1, 2) && fit::adjacent(1, 4) && fit::adjacent(3, 6));
    assert!(!fit::adjacent(1, 5) && !fit::adjacent(3, 4) && !fit::adjacent(2, 6));
    let sets = fit::connected_sets();
    assert!(sets.iter().all(|s| s.contains(&1)));
    assert!(!sets.iter().any(|s| s.len() == 2 && s.contains(&3)));
    assert_eq!(sets.iter().filter(|s| s.len() == 6).count(), 1);
}

#[test]
fn ruling_w3_variant_overrides_the_numbers() {
    let standard = Handbook::with_variant(&Variant::default());
    assert_eq!(&standard, hb());
    let v: Variant = serde_json::from_str("{}").expect("{} is the standard game");
    assert_eq!(v, Variant::default());

    let v: Variant = serde_json::from_str(r#"{"prebuilt_first_district": true}"#).expect("variant");
    let h = Handbook::with_variant(&v);
    assert!(h.economy.prebuilt_first_district);
    assert_eq!(
        h.economy.start_bank, 700,
        "the rulebook's example: a 700 Maya bank"
    );

    let v: Variant = serde_json::from_str(
        r#"{"start_bank": 500, "price_percent": 150, "price_steps": [{"from_districts": 3, "percent": 200}, {"from_districts": 5, "percent": 300}]}"#,
    )
    .expect("variant");
    let h = Handbook::with_variant(&v);
    assert_eq!(h.economy.start_bank, 500);
    assert_eq!(h.economy.price(100, 1), 150);
    assert_eq!(h.economy.price(100, 3), 300);
    assert_eq!(h.economy.price(100, 6), 450);
    assert_eq!(
        h.economy.price_steps,
        [
            PriceStep {
                from_districts: 3,
                percent: 200
            },
            PriceStep {
                from_districts: 5,
                percent: 300
            }
        ]
    );
    assert!(
        serde_json::from_str::<Variant>(r#"{"bank": 1}"#).is_err(),
        "unknown fields are refused"
    );
}

#[test]
fn b5_priority_buildings_exist() {
    let h = hb();
    for id in [
        "police_station",
        "fire_station",
        "elementary_school",
        "cemetery",
        "hospital",
        "waste_area",
        "post_office",
        "office",
        "truck",
        "cargo_ship",
    ] {
        assert!(h.building(id).is_some(), "{id}");
    }
    let housing: u32 = ["house", "building"]
        .iter()
        .filter_map(|id| h.building(id))
        .map(|b| b.housing)
        .sum();
    assert_eq!(
        housing, 2,
        "a blue tile or a Building standee is one housing unit"
    );
    assert_eq!(
        h.building("metro_station")
            .map(|b| b.requirements.contains(&Requirement::Districts { min: 2 })),
        Some(true),
        "B8"
    );
    assert_eq!(
        h.building("train_station").map(|b| b
            .requirements
            .contains(&Requirement::OwnsDistrict { district: 3 })),
        Some(true),
        "M3"
    );
}

#[test]
fn ruling_h_the_readme_lists_every_entry() {
    let readme = include_str!("../handbook/README.md");
    let h = hb();
    let ids = h
        .buildings
        .iter()
        .map(|b| &b.id)
        .chain(h.objectives.iter().map(|o| &o.id))
        .chain(
            h.events
                .iter()
                .chain(&h.challenges)
                .chain([&h.task_force])
                .map(|c| &c.id),
        );
    for id in ids {
        assert!(readme.contains(&format!("`{id}`")), "README misses {id}");
    }
    for o in h.objectives.iter().filter(|o| !o.blank) {
        let fit = fit::check(h, o).expect("fits");
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` | D", o.id)))
            .unwrap_or_else(|| panic!("no fit row for {}", o.id));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[4], fit.blocks.to_string(), "{}: README blocks", o.id);
        assert_eq!(cells[5], fit.moves.to_string(), "{}: README moves", o.id);
    }
}

#[test]
fn b5_priorities_are_the_rulebooks() {
    use building_cities::handbook::rules::Trigger;
    let h = hb();
    let p = &h.economy.priorities;
    let needs = |i: usize| -> Vec<(Target, u32, Scope)> {
        p[i].needs
            .iter()
            .map(|n| (n.target.clone(), n.count, n.scope))
            .collect()
    };
    let b = |id: &str| Target::Building(id.into());
    assert_eq!(p.len(), 4);
    assert_eq!(p[0].trigger, Trigger::Housing { units: 5 });
    assert_eq!(
        needs(0),
        [
            (Target::Category(Category::Service), 2, Scope::City),
            (b("elementary_school"), 1, Scope::City)
        ]
    );
    assert_eq!(p[1].trigger, Trigger::DistrictGrids { nth: 2 });
    assert_eq!(
        needs(1),
        [
            (Target::Colour(Colour::Orange), 3, Scope::District),
            (Target::Category(Category::Industry), 1, Scope::District)
        ]
    );
    assert_eq!(p[2].trigger, Trigger::DistrictGrids { nth: 4 });
    assert_eq!(needs(2), [(b("office"), 1, Scope::City)]);
    assert_eq!(p[3].trigger, Trigger::BeforeDistrict { nth: 6 });
    let before_sixth = needs(3);
    assert!(before_sixth.contains(&(b("truck"), 4, Scope::City)));
    assert!(before_sixth.contains(&(b("cargo_ship"), 2, Scope::City)));
    for id in [
        "cemetery",
        "police_station",
        "hospital",
        "fire_station",
        "waste_area",
        "post_office",
    ] {
        assert!(before_sixth.contains(&(b(id), 1, Scope::City)), "{id}");
    }
    // Red services are the red tiles other than the grids.
    for building in &h.buildings {
        if building.category == Category::Service {
            assert_eq!(building.colour, Some(Colour::Red), "{}", building.id);
        }
    }
    for need in p.iter().flat_map(|p| &p.needs) {
        targets_exist(h, &need.target, "priority");
    }
    // The fit check counts them: owning six districts brings the ships.
    let six = fit::check(h, h.objective("obj_six_districts").expect("o")).expect("fits");
    assert!(six.needs.get("cargo_ship").copied() >= Some(2));
    assert!(six.sea_areas >= 1);
    assert!(six.needs.get("office").copied() >= Some(1));
}

struct Names<'a> {
    cfg: &'a ts_rs::Config,
    out: &'a mut Vec<(String, String)>,
}

impl ts_rs::TypeVisitor for Names<'_> {
    fn visit<T: ts_rs::TS + 'static + ?Sized>(&mut self) {
        if ts_rs::Dependency::from_ty::<T>(self.cfg).is_none() {
            return;
        }
        let name = T::ident(self.cfg);
        if self.out.iter().any(|(n, _)| *n == name) {
            return;
        }
        self.out.push((name, T::decl(self.cfg)));
        T::visit_dependencies(self);
    }
}

#[test]
fn browser_types_are_prefixed_and_the_handbook_serializes() {
    use ts_rs::TS;
    let cfg = ts_rs::Config::new();
    let mut out = Vec::new();
    let mut names = Names {
        cfg: &cfg,
        out: &mut out,
    };
    ts_rs::TypeVisitor::visit::<Handbook>(&mut names);
    ts_rs::TypeVisitor::visit::<Variant>(&mut names);
    assert!(out.len() >= 30, "{} types", out.len());
    for (name, decl) in &out {
        assert!(name.starts_with("BuildingCities"), "{name}");
        assert!(!decl.is_empty());
    }
    assert_eq!(Handbook::ident(&cfg), "BuildingCitiesHandbook");
    // What the browser receives is the handbook itself, in the files' shapes.
    let json = serde_json::to_value(hb()).expect("serializes");
    assert_eq!(json["economy"]["start_bank"], 200);
    assert_eq!(json["buildings"][0]["size"], "1x1");
    let card = json["events"]
        .as_array()
        .and_then(|e| e.first())
        .expect("a card");
    assert_eq!(card["effect"]["kind"], "gain_maya");
}

#[test]
fn w3_variants_are_checked() {
    use building_cities::handbook::VariantError;
    let ok = |json: &str| {
        serde_json::from_str::<Variant>(json)
            .expect("variant")
            .check()
    };
    assert_eq!(ok("{}"), Ok(()));
    assert_eq!(
        ok(r#"{"start_bank": 700, "prebuilt_first_district": true}"#),
        Ok(())
    );
    assert_eq!(
        ok(
            r#"{"price_steps": [{"from_districts": 3, "percent": 200}, {"from_districts": 5, "percent": 300}]}"#
        ),
        Ok(())
    );
    assert_eq!(
        ok(r#"{"start_bank": 100001}"#),
        Err(VariantError::StartBank)
    );
    assert_eq!(ok(r#"{"price_percent": 0}"#), Err(VariantError::Percent));
    assert_eq!(
        ok(r#"{"price_steps": [{"from_districts": 3, "percent": 5000}]}"#),
        Err(VariantError::Percent)
    );
    assert_eq!(
        ok(
            r#"{"price_steps": [{"from_districts": 5, "percent": 200}, {"from_districts": 3, "percent": 300}]}"#
        ),
        Err(VariantError::Steps)
    );
    assert_eq!(
        ok(r#"{"price_steps": [{"from_districts": 1, "percent": 200}]}"#),
        Err(VariantError::Steps)
    );
    assert_eq!(
        ok(r#"{"price_steps": [{"from_districts": 7, "percent": 200}]}"#),
        Err(VariantError::Steps)
    );
}

#[test]
fn ruling_h_the_readme_buildings_table_matches_the_data() {
    let readme = include_str!("../handbook/README.md");
    for b in &hb().buildings {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` | {} /", b.id, b.name.en)))
            .unwrap_or_else(|| panic!("no README row for {}", b.id));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[6], b.cost.to_string(), "{}: Maya", b.id);
        assert_eq!(cells[7], b.moves.to_string(), "{}: moves", b.id);
        assert_eq!(cells[8], format!("{:+}", b.value), "{}: value", b.id);
    }
}

/// The fit check counts on at most `protected_blocks_max` protected blocks in a
/// district; every die layout of the map keeps to it (M4).
#[test]
fn ruling_m4_no_layout_protects_more_blocks_than_the_handbook_allows() {
    use building_cities::city::protected::layout;
    let max = hb().economy.protected_blocks_max as usize;
    for face in 1..=6 {
        let blocks = layout(face).expect("six layouts");
        for d in building_cities::District::ALL {
            let n = blocks.iter().filter(|b| b.district() == Some(d)).count();
            assert!(n <= max, "layout {face}: {n} protected blocks in {d:?}");
        }
    }
}
