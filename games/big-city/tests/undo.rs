//! Undo (`Game::may_take_back`): a player takes back the moves of his turn
//! before its draws, and nothing that revealed or drew anything.

use big_city::{BigCity, Move, Options};
use engine::{Entry, Played, Setup, check_take_backs};

fn setup(seats: u8, seed: u64) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: Options::default(),
        first_seat: None,
    }
}

/// A draw shows a card; an exchange and a trade show cards or answers.
fn reveals(mv: &Move) -> bool {
    matches!(
        mv,
        Move::Draw { .. } | Move::Exchange { .. } | Move::TradeOffer { .. } | Move::Pass {}
    )
}

#[test]
fn an_undo_gives_back_the_state_before_the_move_and_never_crosses_a_draw() {
    let mut taken_back = 0;
    for seed in 0..12u64 {
        let counts =
            check_take_backs::<BigCity>(&setup(2 + (seed % 4) as u8, seed), seed, 400, reveals)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(counts.refused > 0);
        taken_back += counts.taken_back;
    }
    assert!(taken_back > 20, "only {taken_back} moves taken back");
}

#[test]
fn a_build_is_taken_back_before_the_draw_and_not_after() {
    let mut played = Played::new(BigCity::new(&setup(3, 5)).expect("starts"));
    let mut rng = engine::GameRng::new(1);
    // Bots play until a seat may build.
    let (seat, build) = loop {
        let seat = played.game().awaiting().seats[0];
        if let Some(build) = played
            .game()
            .legal_moves(seat)
            .into_iter()
            .find(|m| matches!(m, Move::Build { .. }))
        {
            break (seat, build);
        }
        let mv = played
            .game()
            .bot_move(seat, engine::BotLevel::Random, &mut rng)
            .expect("a move");
        played.apply(&Entry::Move { seat, mv }).expect("legal");
    };
    let before = format!("{:?}", played.game().view(engine::Viewer::Seat(seat)));
    played
        .apply(&Entry::Move {
            seat,
            mv: build.clone(),
        })
        .expect("the build");
    assert_eq!(played.undo_seat(), Some(seat));
    played.apply(&Entry::Undo { seat }).expect("the undo");
    assert_eq!(
        format!("{:?}", played.game().view(engine::Viewer::Seat(seat))),
        before
    );
    // Built again, then a card drawn: the build stays.
    played
        .apply(&Entry::Move { seat, mv: build })
        .expect("the build again");
    let draw = played
        .game()
        .legal_moves(seat)
        .into_iter()
        .find(|m| matches!(m, Move::Draw { .. }))
        .expect("a draw follows the build");
    played
        .apply(&Entry::Move { seat, mv: draw })
        .expect("the draw");
    let drawn = format!("{:?}", played.game().view(engine::Viewer::Seat(seat)));
    let refused = played
        .apply(&Entry::Undo { seat })
        .expect_err("no undo across a draw");
    assert_eq!(refused.code(), "nothing_to_undo");
    assert_eq!(
        format!("{:?}", played.game().view(engine::Viewer::Seat(seat))),
        drawn
    );
}
