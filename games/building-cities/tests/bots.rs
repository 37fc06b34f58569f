//! The bots finish games in every mode, the greedy bot beats the random one
//! on the tutorial objective and completes the transit objective, which needs
//! a second district and its B5 priority before the metros.

#![allow(clippy::unwrap_used)]

use building_cities::{BuildingCities, Mode, Options};
use engine::{BotLevel, Game, Setup};

fn setup(mode: Mode, seats: u8, seed: u64, objective: &str) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: Options {
            mode,
            objective: Some(objective.to_string()),
            ..Options::default()
        },
        first_seat: None,
    }
}

#[test]
fn bots_finish_games_in_every_mode() {
    for (mode, seats) in [(Mode::Solo, 1), (Mode::FairPlay, 3), (Mode::Despicable, 2)] {
        for seed in 0..2 {
            let levels = [BotLevel::Greedy, BotLevel::Random, BotLevel::Greedy];
            let (g, _) = engine::play_out::<BuildingCities>(
                &setup(mode, seats, seed, "obj_three_hotels"),
                &levels[..usize::from(seats)],
                seed,
                100_000,
            )
            .unwrap();
            assert!(g.outcome().is_some(), "{mode:?} seed {seed} unfinished");
        }
    }
}

#[test]
fn greedy_beats_random_on_the_tutorial() {
    let wins = |level| {
        (0..20)
            .filter(|&seed| {
                let (g, _) = engine::play_out::<BuildingCities>(
                    &setup(Mode::Solo, 1, seed, "obj_tutorial"),
                    &[level],
                    seed,
                    100_000,
                )
                .unwrap();
                g.outcome().unwrap().winners == vec![0]
            })
            .count()
    };
    let greedy = wins(BotLevel::Greedy);
    let random = wins(BotLevel::Random);
    assert!(greedy >= 10, "greedy {greedy}/20");
    assert!(random <= 5, "random {random}/20");
}

#[test]
fn greedy_plans_for_the_transit_objective() {
    let wins = (0..8)
        .filter(|&seed| {
            let (g, _) = engine::play_out::<BuildingCities>(
                &setup(Mode::Solo, 1, seed, "obj_transit_city"),
                &[BotLevel::Greedy],
                seed,
                100_000,
            )
            .unwrap();
            g.outcome().unwrap().winners == vec![0]
        })
        .count();
    assert!(wins >= 3, "greedy {wins}/8");
}
