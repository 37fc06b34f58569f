//! The legal-move list, over seeded random playouts in the three modes: in
//! parts, `legal_moves_of` a building lists exactly that building's tile moves
//! of the full list, in its order; `of` [`OTHER`] lists every other move; an
//! id that is no ground building lists nothing. Each listed tile's preview is
//! what playing it does: the Maya it takes from the bank, the moves, and the
//! change of the seat's district value. The palette is there exactly in the
//! seat's building phase, and says a building may be built exactly when
//! `legal_moves_of` lists a spot for it, and otherwise why.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use building_cities::{BuildingCities, Mode, Move, OTHER, Options, Phase, Preview, Rule};
use engine::{BotLevel, Entry, Game, GameRng, Seat, Setup, Viewer};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn setup(mode: Mode, seats: u8, seed: u64) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: Options {
            mode,
            protected_areas: seed.is_multiple_of(2),
            ..Options::default()
        },
        first_seat: None,
    }
}

/// Plays random bot moves (now and then a timeout) and calls `check` on every
/// seat before each step.
fn playout(
    mode: Mode,
    seats: u8,
    seed: u64,
    steps: usize,
    mut check: impl FnMut(&BuildingCities, Seat),
) {
    let mut g = BuildingCities::new(&setup(mode, seats, seed)).unwrap();
    let mut rng = GameRng::new(seed ^ 0x1157);
    for _ in 0..steps {
        if g.outcome().is_some() {
            break;
        }
        for seat in 0..seats {
            check(&g, seat);
        }
        let awaiting = g.awaiting();
        let seat = awaiting.seats[rng.below(awaiting.seats.len())];
        let entry = match g.bot_move(seat, BotLevel::Random, &mut rng) {
            Some(mv) if rng.below(40) > 0 => Entry::Move { seat, mv },
            _ => Entry::Timeout {
                period: awaiting.period,
            },
        };
        engine::apply_entry(&mut g, &entry).unwrap();
    }
}

fn tile_of(m: &Move) -> Option<&str> {
    match m {
        Move::Tile { building, .. } => Some(building),
        _ => None,
    }
}

fn parts_make_the_whole(g: &BuildingCities, seat: Seat) {
    let full = g.legal_moves(seat);
    let others: Vec<Move> = full
        .iter()
        .filter(|m| tile_of(m).is_none())
        .cloned()
        .collect();
    assert_eq!(g.legal_moves_of(seat, OTHER), others);
    let mut listed = others.len();
    for b in &g.handbook().buildings {
        let tiles: Vec<Move> = full
            .iter()
            .filter(|m| tile_of(m) == Some(b.id.as_str()))
            .cloned()
            .collect();
        let part = g.legal_moves_of(seat, &b.id);
        assert_eq!(part, tiles, "{}", b.id);
        listed += part.len();
    }
    assert_eq!(listed, full.len());
    for nothing in ["", "nope", "truck", "end_turn"] {
        assert_eq!(g.legal_moves_of(seat, nothing), [], "{nothing}");
    }
}

/// What the previews showed, for the coverage checks.
#[derive(Default)]
struct Seen {
    tiles: usize,
    /// Previews whose value differs from the building's own value: a
    /// neighbour's bonus or malus, a grid level, a metro's pair, a penalty.
    around: usize,
}

fn previews_are_what_playing_does(g: &BuildingCities, seat: Seat, seen: &mut Seen) {
    for mv in g.legal_moves(seat) {
        let Move::Tile {
            building, preview, ..
        } = &mv
        else {
            continue;
        };
        let Some(Preview { cost, moves, value }) = *preview else {
            panic!("a listed tile without its preview: {mv:?}");
        };
        let mut after = g.clone();
        after.apply(seat, &mv).unwrap();
        assert_eq!(after.bank(seat), g.bank(seat) - cost as i32, "{mv:?}");
        assert_eq!(after.moves_left(seat), g.moves_left(seat) - moves, "{mv:?}");
        assert_eq!(
            after.district_value_now(seat),
            g.district_value_now(seat) + value,
            "{mv:?}"
        );
        seen.tiles += 1;
        let own = g.handbook().building(building).unwrap().value;
        seen.around += usize::from(value != own);
    }
}

/// The palette's reasons met, by code (`none` for no palette), for the
/// coverage check.
type Reasons = BTreeMap<&'static str, usize>;

fn palette_agrees_with_the_list(g: &BuildingCities, seat: Seat, reasons: &mut Reasons) {
    assert_eq!(g.view(Viewer::Spectator).palette, None);
    // A palette exactly in the seat's own building phase.
    let building =
        g.awaiting().includes(seat) && g.view(Viewer::Spectator).phase == Phase::Building;
    let Some(palette) = g.private_view(seat).palette else {
        assert!(!building);
        *reasons.entry("none").or_default() += 1;
        for b in &g.handbook().buildings {
            assert_eq!(g.legal_moves_of(seat, &b.id), [], "{}", b.id);
        }
        return;
    };
    assert!(building);
    let mut tiles: Vec<&str> = g
        .handbook()
        .buildings
        .iter()
        .filter(|b| b.is_tile())
        .map(|b| b.id.as_str())
        .collect();
    tiles.sort_unstable();
    assert_eq!(
        palette.keys().map(String::as_str).collect::<Vec<_>>(),
        tiles
    );
    assert!(!tiles.contains(&"road") && tiles.contains(&"house"));
    for (id, refused) in &palette {
        let listed = g.legal_moves_of(seat, id);
        assert_eq!(refused.is_none(), !listed.is_empty(), "{id}: {refused:?}");
        if let Some(rule) = refused {
            assert_ne!(*rule, Rule::WrongPhase, "{id}");
            *reasons.entry(engine::Rule::code(rule)).or_default() += 1;
            // A reason names the building when it names one.
            let v = serde_json::to_value(rule).unwrap();
            if let Some(named) = v["args"]["building"].as_str() {
                assert_eq!(named, id);
            }
        }
    }
}

fn palettes_hold(mode: Mode, seats: u8, seed: u64) -> Reasons {
    let mut reasons = Reasons::new();
    playout(mode, seats, seed, 300, |g, seat| {
        palette_agrees_with_the_list(g, seat, &mut reasons)
    });
    reasons
}

/// The playouts meet the palette's main reasons.
#[test]
fn palettes_say_why() {
    let mut reasons = Reasons::new();
    for seed in 0..4 {
        for (code, n) in palettes_hold(Mode::Solo, 1, seed)
            .into_iter()
            .chain(palettes_hold(Mode::Despicable, 2, seed))
        {
            *reasons.entry(code).or_default() += n;
        }
    }
    for code in [
        "none",
        "not_enough_maya",
        "not_enough_moves",
        "requirement",
        "not_offered",
        "no_spot",
        "map",
        "limit",
    ] {
        assert!(reasons.contains_key(code), "{code}: {reasons:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn solo_parts_make_the_whole(seed in any::<u64>()) {
        playout(Mode::Solo, 1, seed, 400, parts_make_the_whole);
    }

    #[test]
    fn fair_play_parts_make_the_whole(seed in any::<u64>(), seats in 2u8..=3) {
        playout(Mode::FairPlay, seats, seed, 400, parts_make_the_whole);
    }

    #[test]
    fn despicable_parts_make_the_whole(seed in any::<u64>(), seats in 2u8..=4) {
        playout(Mode::Despicable, seats, seed, 400, parts_make_the_whole);
    }

    #[test]
    fn solo_previews_are_what_playing_does(seed in any::<u64>()) {
        previews_hold(Mode::Solo, 1, seed);
    }

    #[test]
    fn fair_play_previews_are_what_playing_does(seed in any::<u64>(), seats in 2u8..=3) {
        previews_hold(Mode::FairPlay, seats, seed);
    }

    #[test]
    fn despicable_previews_are_what_playing_does(seed in any::<u64>(), seats in 2u8..=4) {
        previews_hold(Mode::Despicable, seats, seed);
    }

    #[test]
    fn solo_palettes_agree_with_the_list(seed in any::<u64>()) {
        palettes_hold(Mode::Solo, 1, seed);
    }

    #[test]
    fn fair_play_palettes_agree_with_the_list(seed in any::<u64>(), seats in 2u8..=3) {
        palettes_hold(Mode::FairPlay, seats, seed);
    }

    #[test]
    fn despicable_palettes_agree_with_the_list(seed in any::<u64>(), seats in 2u8..=4) {
        palettes_hold(Mode::Despicable, seats, seed);
    }
}

fn previews_hold(mode: Mode, seats: u8, seed: u64) {
    let mut seen = Seen::default();
    playout(mode, seats, seed, 300, |g, seat| {
        previews_are_what_playing_does(g, seat, &mut seen)
    });
    assert!(seen.tiles >= seen.around);
}

/// The playouts reach previews that count more than the building alone.
#[test]
fn previews_count_the_neighbours() {
    let mut seen = Seen::default();
    for seed in 0..4 {
        playout(Mode::Solo, 1, seed, 300, |g, seat| {
            previews_are_what_playing_does(g, seat, &mut seen)
        });
    }
    assert!(seen.tiles > 100, "{} tiles", seen.tiles);
    assert!(seen.around > 10, "{} of {} tiles", seen.around, seen.tiles);
}

/// The lists are not all empty: the playouts reach tile moves of many
/// buildings and the other moves.
#[test]
fn playouts_list_tiles_of_many_buildings() {
    let mut seen = std::collections::BTreeSet::new();
    let mut others = 0;
    playout(Mode::Solo, 1, 11, 600, |g, seat| {
        for m in g.legal_moves(seat) {
            match tile_of(&m) {
                Some(id) => {
                    seen.insert(id.to_string());
                }
                None => others += 1,
            }
        }
    });
    assert!(seen.len() >= 5, "{seen:?}");
    assert!(
        seen.contains("power_grid") && seen.contains("house"),
        "{seen:?}"
    );
    assert!(others > 0);
}

/// A new city's palette: a grid wants a road to touch, a building its grids
/// first, a legendary building its card; then the junction's road opens the
/// grids, and an empty bank closes them.
#[test]
fn a_new_city_palette_says_why() {
    let setup = Setup {
        seats: 1,
        seed: 3,
        options: Options {
            objective: Some("obj_tutorial".into()),
            ..Options::default()
        },
        first_seat: None,
    };
    let mut g = BuildingCities::new(&setup).unwrap();
    let palette = |g: &BuildingCities| g.private_view(0).palette.unwrap();
    let grids_first = Some(Rule::Map {
        refusal: building_cities::Refusal::GridsFirst {
            district: building_cities::District::D1,
        },
    });
    let p = palette(&g);
    assert_eq!(p["house"], grids_first);
    assert_eq!(
        p["power_grid"],
        Some(Rule::NoSpot {
            building: "power_grid".into()
        })
    );
    assert_eq!(
        p["symbol_of_freedom"],
        Some(Rule::NotOffered {
            building: "symbol_of_freedom".into()
        })
    );
    assert!(!p.contains_key("road") && !p.contains_key("protected_area"));

    let road = g.legal_moves(0)[0].clone();
    g.apply(0, &road).unwrap();
    let p = palette(&g);
    assert_eq!((&p["power_grid"], &p["water_grid"]), (&None, &None));
    assert_eq!(p["house"], grids_first);
    g.test_set_bank(0, 5);
    assert_eq!(
        palette(&g)["power_grid"],
        Some(Rule::NotEnoughMaya {
            needed: 10,
            bank: 5
        })
    );
    assert_eq!(g.view(Viewer::Seat(0)).palette, Some(palette(&g)));
    assert_eq!(g.view(Viewer::Spectator).palette, None);
}
