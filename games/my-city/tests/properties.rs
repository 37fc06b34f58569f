//! Property tests over seeded random games, through the public `engine::Game`
//! API only: no panic, replay rebuilds the state, `legal_moves` and `apply`
//! agree, refused moves change nothing, and no view or event shows a pending
//! decision of another seat.

#![allow(clippy::unwrap_used)]

use engine::{BotLevel, Entry, Game, GameRng, Seat, Setup, Viewer};
use my_city::{Card, Move, MyCity, Options};
use proptest::prelude::*;

fn viewers(seats: u8) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..seats).map(Viewer::Seat).collect();
    v.push(Viewer::Spectator);
    v
}

fn random_move(rng: &mut GameRng) -> Move {
    match rng.below(10) {
        0 => Move::Pass {},
        1 => Move::EndParticipation {},
        _ => Move::Place {
            x: rng.below(256) as u8,
            y: rng.below(256) as u8,
            rotation: rng.below(256) as u8,
        },
    }
}

/// Plays one seeded game, checking the invariants at every step.
fn check_game(seats: u8, seed: u64, bot_seed: u64, timeout_one_in: usize, greedy_mask: u8) {
    let setup = Setup {
        seats,
        seed,
        options: Options {},
        first_seat: None,
    };
    let mut game = MyCity::new(&setup).expect("setup");
    let mut rng = GameRng::new(bot_seed);
    let mut log: Vec<Entry<Move>> = Vec::new();
    let mut steps = 0;
    while game.outcome().is_none() {
        steps += 1;
        assert!(steps < 400, "the game must end");
        let awaiting = game.awaiting();
        assert!(!awaiting.seats.is_empty(), "a running game awaits someone");
        let view = game.view(Viewer::Spectator);
        let on_table = usize::from(view.deck_count) + view.revealed.len();
        assert_eq!(on_table, 28);
        assert_eq!(view.awaiting, awaiting.seats);

        // Moves by seats that are not awaited are refused and change nothing.
        for seat in 0..seats + 1 {
            if !awaiting.includes(seat) {
                assert!(game.legal_moves(seat).is_empty());
                let mut probe = game.clone();
                assert!(probe.apply(seat, &Move::EndParticipation {}).is_err());
                assert_eq!(probe, game);
            }
        }

        if timeout_one_in > 0 && rng.below(timeout_one_in) == 0 {
            let entry = Entry::Timeout {
                period: awaiting.period,
            };
            engine::apply_entry(&mut game, &entry).expect("timeout applies");
            assert!(game.outcome().is_some() || game.awaiting().period != awaiting.period);
            log.push(entry);
            continue;
        }

        let seat: Seat = *rng.choose(&awaiting.seats).expect("someone");
        let legal = game.legal_moves(seat);
        assert!(legal.contains(&Move::EndParticipation {}));

        // `apply` accepts exactly the listed moves, and refusals leave the state
        // untouched: every listed move at every step, plus pass and end, plus the
        // whole on-board move space at one step in four.
        let mut space = legal.clone();
        space.extend([Move::Pass {}, Move::EndParticipation {}]);
        let whole_space = rng.below(4) == 0;
        for rotation in (0..4u8).filter(|_| whole_space) {
            for y in 0..11u8 {
                for x in 0..14u8 {
                    space.push(Move::Place { x, y, rotation });
                }
            }
        }
        for mv in &space {
            let mut probe = game.clone();
            match probe.apply(seat, mv) {
                Ok(_) => assert!(legal.contains(mv), "unlisted {mv:?} accepted"),
                Err(_) => {
                    assert!(!legal.contains(mv), "listed {mv:?} refused");
                    assert_eq!(probe, game);
                }
            }
        }
        // Random (mostly off-board) moves not listed are refused with a code,
        // and the state is untouched.
        for _ in 0..12 {
            let mv = random_move(&mut rng);
            if legal.contains(&mv) {
                continue;
            }
            let mut probe = game.clone();
            let err = probe.apply(seat, &mv).expect_err("unlisted move accepted");
            assert!(!err.code().is_empty());
            assert_eq!(probe, game);
        }

        let level = if greedy_mask & (1 << seat) != 0 {
            BotLevel::Greedy
        } else {
            BotLevel::Random
        };
        let mv = game.bot_move(seat, level, &mut rng).expect("bot decides");
        assert!(legal.contains(&mv));

        // Before the reveal, nobody else can tell this decision from another one.
        if awaiting.seats.len() > 1
            && let Some(other) = legal.iter().find(|m| **m != mv)
        {
            let mut a = game.clone();
            let mut b = game.clone();
            let ea = a.apply(seat, &mv).expect("legal");
            let eb = b.apply(seat, other).expect("legal");
            assert_eq!(ea, eb, "events leak a pending decision");
            for viewer in viewers(seats) {
                if viewer == Viewer::Seat(seat) {
                    assert_eq!(a.view(viewer).my_decision, Some(mv));
                    assert_eq!(b.view(viewer).my_decision, Some(*other));
                } else {
                    assert_eq!(a.view(viewer), b.view(viewer), "view leaks to {viewer:?}");
                }
            }
        }

        let entry = Entry::Move { seat, mv };
        engine::apply_entry(&mut game, &entry).expect("bot move applies");
        log.push(entry);
    }

    assert!(game.awaiting().seats.is_empty());
    let out = game.outcome().expect("over");
    assert_eq!(out.scores.len(), usize::from(seats));
    assert!(!out.winners.is_empty());
    let final_view = game.view(Viewer::Spectator);
    let finals = final_view.final_scores.expect("final scores in the view");
    assert_eq!(
        finals.iter().map(|s| s.total).collect::<Vec<_>>(),
        out.scores
    );
    assert!(final_view.card.is_none() || matches!(final_view.card, Some(Card::Blocking)));

    let rebuilt: MyCity = engine::replay(&setup, &log).expect("replay");
    assert_eq!(rebuilt, game);
    assert_eq!(game.view(Viewer::Spectator).my_decision, None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn seeded_random_games_hold_the_invariants(
        seats in 1u8..=4,
        seed in any::<u64>(),
        bot_seed in any::<u64>(),
        timeout_one_in in prop_oneof![Just(0usize), 3usize..20],
        greedy_mask in prop_oneof![Just(0u8), 0u8..16],
    ) {
        check_game(seats, seed, bot_seed, timeout_one_in, greedy_mask);
    }
}

#[test]
fn same_seed_and_moves_give_the_same_state() {
    for seats in 1..=4u8 {
        let setup = Setup {
            seats,
            seed: 42 + u64::from(seats),
            options: Options {},
            first_seat: None,
        };
        let levels = [
            BotLevel::Greedy,
            BotLevel::Random,
            BotLevel::Greedy,
            BotLevel::Random,
        ];
        let (a, log) = engine::play_out::<MyCity>(&setup, &levels, 7, 500).expect("play-out");
        let (b, _) = engine::play_out::<MyCity>(&setup, &levels, 7, 500).expect("play-out");
        assert_eq!(a, b);
        assert!(a.outcome().is_some());
        let rebuilt: MyCity = engine::replay(&setup, &log).expect("replay");
        assert_eq!(rebuilt, a);
    }
}
