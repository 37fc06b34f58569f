//! The bots' knowledge model makes the stronger level win more often, and no bot
//! needs more than the public face of a card to move legally.

#![allow(clippy::unwrap_used)]

use big_cityz::synthetic::synthetic_cities;
use big_cityz::{BigCityz, Options, knowledge};
use engine::{BotLevel, Game, GameRng, Setup};

#[test]
fn the_stronger_level_knows_more_and_wins_more() {
    assert!(knowledge(BotLevel::Greedy) > knowledge(BotLevel::Random));
    let cities = synthetic_cities(200, 7);
    let games = 200u64;
    let mut strong_wins = 0;
    let mut weak_wins = 0;
    for seed in 0..games {
        let strong = (seed % 2) as u8;
        let setup = Setup {
            seats: 2,
            seed,
            options: Options::default(),
            first_seat: None,
        };
        let mut game = BigCityz::with_cities(&setup, cities).unwrap();
        let mut rng = GameRng::new(seed ^ 0xB07);
        while game.outcome().is_none() {
            let seat = game.awaiting().seats[0];
            let level = if seat == strong {
                BotLevel::Greedy
            } else {
                BotLevel::Random
            };
            let mv = game.bot_move(seat, level, &mut rng).unwrap();
            assert!(game.legal_moves(seat).contains(&mv));
            game.apply(seat, &mv).unwrap();
        }
        let winners = game.outcome().unwrap().winners;
        if winners == vec![strong] {
            strong_wins += 1;
        } else if winners == vec![1 - strong] {
            weak_wins += 1;
        }
    }
    assert!(strong_wins > 2 * weak_wins, "{strong_wins} to {weak_wins}");
}

#[test]
fn bots_are_deterministic_for_a_bot_seed() {
    let cities = synthetic_cities(100, 3);
    let setup = Setup {
        seats: 3,
        seed: 9,
        options: Options::default(),
        first_seat: None,
    };
    let game = BigCityz::with_cities(&setup, cities).unwrap();
    let seat = game.awaiting().seats[0];
    let a = game.bot_move(seat, BotLevel::Greedy, &mut GameRng::new(5));
    let b = game.bot_move(seat, BotLevel::Greedy, &mut GameRng::new(5));
    assert_eq!(a, b);
    assert!(
        game.bot_move((seat + 1) % 3, BotLevel::Greedy, &mut GameRng::new(5))
            .is_none()
    );
}
