//! Bots through the public API: greedy clearly beats random, and every bot move is
//! a listed legal move.

use big_city::{BigCity, Options};
use engine::{BotLevel, GameRng, Setup};

#[test]
fn greedy_beats_random_in_at_least_90_percent_of_100_games() {
    let games = 100u64;
    let mut wins = 0;
    for seed in 0..games {
        let greedy_seat = (seed % 2) as u8;
        let levels = if greedy_seat == 0 {
            [BotLevel::Greedy, BotLevel::Random]
        } else {
            [BotLevel::Random, BotLevel::Greedy]
        };
        let setup = Setup {
            seats: 2,
            seed: 10_000 + seed,
            options: Options::default(),
            first_seat: None,
        };
        let (g, _) = engine::play_out::<BigCity>(&setup, &levels, seed, 1_000_000)
            .expect("bot moves are legal");
        let outcome = g.outcome().expect("the game finishes");
        if outcome.winners == vec![greedy_seat] {
            wins += 1;
        }
    }
    assert!(wins >= 90, "greedy won only {wins} of {games}");
}

#[test]
fn bot_moves_are_listed_moves() {
    for (seed, bits) in [(1u64, 0u8), (2, 31), (3, 5)] {
        let options = Options {
            trade_cards: bits & 1 != 0,
            useless_must_be_exchanged: bits & 2 != 0,
            single_streetcar_line: bits & 4 != 0,
            limited_streetcar_line: bits & 8 != 0,
            limited_card_drawing: bits & 16 != 0,
            ..Options::default()
        };
        let setup = Setup {
            seats: 3,
            seed,
            options,
            first_seat: None,
        };
        let mut g = BigCity::new(&setup).expect("setup");
        let mut rng = GameRng::new(seed);
        for step in 0..1500 {
            if g.outcome().is_some() {
                break;
            }
            let seat = g.awaiting().seats[0];
            let level = if step % 2 == 0 {
                BotLevel::Random
            } else {
                BotLevel::Greedy
            };
            let m = g
                .bot_move(seat, level, &mut rng)
                .expect("awaited seat moves");
            assert!(
                g.legal_moves(seat).iter().any(|l| l.played() == m),
                "{level:?} chose unlisted {m:?}"
            );
            // Bots never move for seats that are not awaited.
            for other in 0..3 {
                if !g.awaiting().seats.contains(&other) {
                    assert!(g.bot_move(other, level, &mut rng).is_none());
                }
            }
            g.apply(seat, &m).expect("listed moves apply");
        }
    }
}
