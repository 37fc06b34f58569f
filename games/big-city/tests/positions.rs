//! The text position format through the public API: every state of random games
//! writes to a text that reads back to the same position and loads to the same
//! game, and the loader refuses inconsistent positions with a typed error.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use big_city::position::{CardProblem, Stage, TileError};
use big_city::{BigCity, Move, Options, Position, PositionError};
use engine::{BotLevel, GameRng, Setup, Viewer};

/// Checks one state: the text round trip, and that the loaded game behaves the
/// same. `exact`: no timeout happened yet, so the loaded state must equal it
/// outright (the loader starts every seat's timeout streak at zero).
fn check(g: &BigCity, exact: bool) {
    let p = g.to_position();
    let text = p.to_string();
    let back = Position::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, p, "{text}");
    let h = BigCity::from_position(&p).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(h.to_position(), p, "{text}");
    if exact {
        assert_eq!(&h, g, "{text}");
    }
    assert_eq!(h.awaiting(), g.awaiting());
    assert_eq!(h.outcome(), g.outcome());
    let seats = g.view(Viewer::Spectator).seats;
    for s in 0..seats {
        assert_eq!(h.legal_moves(s), g.legal_moves(s), "seat {s}\n{text}");
    }
}

/// Every how many moves a state is checked besides the rarer steps (trades, a
/// second streetcar, timeouts): often enough to meet every kind of turn, rarely
/// enough to keep the test quick in debug builds.
const CHECK_EVERY: usize = 97;

/// How many states right after a rare move are checked per game.
const RARE_CHECKS: usize = 12;

/// Random games with every option, seats timing out now and then in odd games
/// (one game in four with greedy bots, whose games last longer and build more).
#[test]
fn positions_round_trip_over_random_games() {
    let mut states = 0;
    for seed in 0..16u64 {
        let options = Options {
            trade_cards: seed % 2 == 0 || seed % 5 == 1,
            trade_window_ms: 1_000 + seed as u32,
            useless_must_be_exchanged: seed % 3 == 0,
            single_streetcar_line: seed % 4 == 1,
            limited_streetcar_line: seed % 5 == 2,
            limited_card_drawing: seed % 3 == 1,
        };
        let setup = Setup {
            seats: 2 + (seed % 4) as u8,
            seed,
            options,
            first_seat: None,
        };
        let mut g = BigCity::new(&setup).unwrap();
        let mut rng = GameRng::new(seed);
        let mut exact = true;
        let level = if seed % 4 != 3 {
            BotLevel::Random
        } else {
            BotLevel::Greedy
        };
        let mut rare = false;
        let mut rare_checks = 0;
        for step in 0..4_000 {
            if rare && rare_checks < RARE_CHECKS {
                rare_checks += 1;
                check(&g, exact);
                states += 1;
            } else if step % CHECK_EVERY == 0 {
                check(&g, exact);
                states += 1;
            }
            if g.outcome().is_some() {
                check(&g, exact);
                break;
            }
            // Now and then the clock runs out instead.
            if seed % 2 == 1 && rng.below(40) == 0 {
                g.timeout();
                exact = false;
                rare = true;
                continue;
            }
            let seats = g.awaiting().seats;
            let seat = seats[rng.below(seats.len())];
            let mv = g.bot_move(seat, level, &mut rng).expect("a move");
            g.apply(seat, &mv).expect("bot moves are legal");
            rare = matches!(
                mv,
                Move::Streetcar { .. }
                    | Move::TradeOffer { .. }
                    | Move::TradeAnswer { .. }
                    | Move::TradeAccept { .. }
                    | Move::DiscardUseless { .. }
            );
        }
    }
    assert!(states > 250, "{states} states checked");
}

/// A game loaded from its own position mid-game plays on exactly like the
/// original: same events, same state after every move.
#[test]
fn a_loaded_game_plays_on_like_the_original() {
    let setup = Setup {
        seats: 4,
        seed: 3,
        options: Options {
            trade_cards: true,
            ..Options::default()
        },
        first_seat: Some(2),
    };
    let mut g = BigCity::new(&setup).unwrap();
    let mut rng = GameRng::new(3);
    for _ in 0..120 {
        if g.outcome().is_some() {
            break;
        }
        let mut h = BigCity::from_position(&g.to_position()).unwrap();
        let seat = g.awaiting().seats[0];
        let mv = g.bot_move(seat, BotLevel::Greedy, &mut rng).unwrap();
        let a = g.apply(seat, &mv).unwrap();
        let b = h.apply(seat, &mv).unwrap();
        assert_eq!(a, b);
        assert_eq!(h, g);
    }
}

#[test]
fn defaults_fill_what_is_not_written() {
    let p =
        Position::parse("seats 2\nbuilding residence_single 11 by 1 points 3\nhand 0 15").unwrap();
    assert_eq!(p.first_seat, 0);
    assert_eq!(p.turn, 0);
    assert_eq!(p.stage, Stage::Action);
    assert_eq!(p.turn_number, 1);
    assert_eq!(p.discards, vec![11], "the played card");
    assert_eq!(p.hands, vec![vec![15], vec![]]);
    assert_eq!(
        p.stacks[0],
        vec![12, 13, 14, 16, 17, 18, 19],
        "lowest on top"
    );
    assert_eq!(p.stacks[1].len(), 9);
    let g = BigCity::from_position(&p).unwrap();
    let v = g.view(Viewer::Seat(0));
    assert_eq!(v.scores, vec![0, 3]);
    assert_eq!(v.hands[0].cards, Some(vec![15]));
    assert_eq!(v.stacks, vec![7, 9, 9, 9, 9, 9, 9, 9]);
    // The starting round: who places next follows from the tiles placed.
    let p = Position::parse("seats 3\nfirst 1\nstep starting_city\ntile 2 0 3").unwrap();
    assert_eq!(p.turn, 2);
    assert_eq!(p.turn_number, 0);
    let g = BigCity::from_position(&p).unwrap();
    assert_eq!(g.awaiting().seats, vec![2]);
    match g.view(Viewer::Spectator).phase {
        big_city::Phase::StartingCity {
            seat,
            neighborhoods,
        } => {
            assert_eq!(seat, 2);
            assert_eq!(neighborhoods, vec![3, 4]);
        }
        other => panic!("{other:?}"),
    }
}

fn load(text: &str) -> Result<BigCity, PositionError> {
    BigCity::from_position(&Position::parse(text)?)
}

#[test]
fn inconsistent_positions_are_refused() {
    // Compared without the texts of syntax errors.
    let syntax = |line| PositionError::Syntax {
        line,
        text: String::new(),
    };
    let without_text = |e: PositionError| match e {
        PositionError::Syntax { line, .. } => syntax(line),
        e => e,
    };
    let cases: Vec<(&str, PositionError)> = vec![
        ("seats 2\nfoo 1", syntax(2)),
        ("seats 2\nseats 3", syntax(2)),
        ("seats 2\nbuilding castle 11 by 0", syntax(2)),
        ("seats 2\nbuilding residence_single 11", syntax(2)),
        ("seats 2\nstep flying", syntax(2)),
        ("first 1", PositionError::Missing { keyword: "seats" }),
        ("seats 2\nhand 2 11", PositionError::Seat { seat: 2 }),
        ("seats 2\nturn 3", PositionError::Seat { seat: 3 }),
        (
            "seats 2\ntile 3 5 5",
            PositionError::Tile {
                neighborhood: 3,
                error: TileError::Placement(big_city::geometry::PlacementError::NotConnected),
            },
        ),
        (
            "seats 2\ntile 9 3 0",
            PositionError::Tile {
                neighborhood: 9,
                error: TileError::UnknownNeighborhood,
            },
        ),
        (
            "seats 2\nbuilding residence_single 11 by 0\nbuilding residence_single 11 by 1",
            PositionError::Building {
                index: 1,
                code: "cell_covered",
            },
        ),
        (
            "seats 2\nbuilding residence_double 11 15 by 0",
            PositionError::Building {
                index: 0,
                code: "wrong_shape",
            },
        ),
        (
            "seats 2\nbuilding city_hall 15 by 0\nbuilding city_hall 18 by 0",
            PositionError::Building {
                index: 1,
                code: "piece_unavailable",
            },
        ),
        (
            "seats 2\nbuilding residence_double 11 12 by 0\nstreetcar 1 0 1 1",
            PositionError::Streetcar {
                index: 0,
                code: "street_closed",
            },
        ),
        (
            "seats 2\nstreetcar 0 0 1 0\nstreetcar 2 3 3 3",
            PositionError::Streetcar {
                index: 1,
                code: "streetcar_not_connected",
            },
        ),
        (
            "seats 2\nstreetcar 0 0 1 1",
            PositionError::Streetcar {
                index: 0,
                code: "bad_segment",
            },
        ),
        (
            "seats 2\nhand 0 11\nhand 1 11",
            PositionError::Card {
                card: 11,
                problem: CardProblem::Twice,
            },
        ),
        (
            "seats 2\nhand 0 10",
            PositionError::Card {
                card: 10,
                problem: CardProblem::NotACard,
            },
        ),
        (
            "seats 2\nstack 1 11 12",
            PositionError::Card {
                card: 13,
                problem: CardProblem::Missing,
            },
        ),
        (
            "seats 2\nhand 0 11\nstack 1 11 12 13 14 15 16 17 18 19",
            PositionError::Card {
                card: 11,
                problem: CardProblem::Twice,
            },
        ),
        (
            "seats 2\nstack 2 21 22 23 24 25 26 27 28 29 11\nhand 0 12 13 14 15\nhand 1 16 17 18 19\n",
            PositionError::Card {
                card: 11,
                problem: CardProblem::WrongStack,
            },
        ),
        (
            "seats 2\nbuilding residence_single 11 by 0\nhand 0 11\ndiscards",
            PositionError::Card {
                card: 11,
                problem: CardProblem::Played,
            },
        ),
        (
            "seats 2\nhand 0 11 12 13 14 15 16",
            PositionError::HandTooLarge { seat: 0, cards: 6 },
        ),
        (
            "seats 2\nstep starting_city\nturn 1",
            PositionError::Stage {
                code: "starting_city_turn",
            },
        ),
        (
            "seats 2\nstep starting_city\ntile 6 0 3",
            PositionError::Stage {
                code: "starting_city_tiles",
            },
        ),
        (
            "seats 2\nstep drawing 0",
            PositionError::Stage {
                code: "nothing_to_draw",
            },
        ),
        (
            "seats 2\noptions limited_card_drawing\nhand 0 11\nstack 1\nstack 2\nstack 3\n\
             discards 12 13 14 15 16 17 18 19 21 22 23 24 25 26 27 28 29 31 32 33 34 35 36 37 38 39\n\
             tile 3 3 0\ntile 2 0 3\nstep drawing 1",
            PositionError::Stage {
                code: "no_stack_to_draw",
            },
        ),
        (
            "seats 2\ndrawn 3 3 3",
            PositionError::Stage {
                code: "stack_limit",
            },
        ),
        (
            "seats 2\noptions trade_cards\nhand 0 11\ntrade 11",
            PositionError::Trade {
                code: "outside_a_trade_step",
            },
        ),
        (
            "seats 2\noptions trade_cards\nstep trade_answers",
            PositionError::Trade { code: "missing" },
        ),
        (
            "seats 2\nhand 0 11\nstep trade_answers\ntrade 11",
            PositionError::Trade {
                code: "trade_disabled",
            },
        ),
        (
            "seats 2\noptions trade_cards\nstep trade_answers\ntrade 11",
            PositionError::Card {
                card: 11,
                problem: CardProblem::NotHeld,
            },
        ),
        (
            "seats 2\noptions trade_cards\nhand 0 11\nhand 1 21\nstep trade_accept\ntrade 11",
            PositionError::Trade {
                code: "answers_missing",
            },
        ),
        (
            "seats 2\noptions trade_cards\nhand 0 11\nhand 1 21\nstep trade_answers\ntrade 11\nanswer 1 21",
            PositionError::Trade {
                code: "every_answer_in",
            },
        ),
    ];
    for (text, expected) in cases {
        match load(text) {
            Ok(_) => panic!("loaded:\n{text}"),
            Err(e) => assert_eq!(without_text(e), expected, "{text}"),
        }
    }
    assert!(matches!(load("seats 6"), Err(PositionError::Setup(_))));
    // The same texts, corrected, load.
    load("seats 2\noptions trade_cards\nhand 0 11\nhand 1 21\nstep trade_accept\ntrade 11\nanswer 1 21").unwrap();
    load("seats 2\nstep starting_city\nturn 0").unwrap();
}
