//! Undo (`Game::may_take_back`): a player takes back his decision until the
//! round's decisions are revealed.

use engine::{Entry, Game, Played, Setup, Viewer, check_take_backs};
use my_city::{MyCity, Options};

fn setup(seats: u8, seed: u64) -> Setup<Options> {
    Setup {
        seats,
        seed,
        options: Options {},
        first_seat: None,
    }
}

#[test]
fn an_undo_gives_back_the_state_before_the_decision() {
    let mut taken_back = 0;
    for seed in 0..12u64 {
        let counts =
            check_take_backs::<MyCity>(&setup(1 + (seed % 4) as u8, seed), seed, 300, |_| false)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(counts.refused > 0);
        taken_back += counts.taken_back;
    }
    assert!(taken_back > 20, "only {taken_back} decisions taken back");
}

#[test]
fn a_decision_is_taken_back_before_the_reveal_and_not_after() {
    let mut played = Played::new(MyCity::new(&setup(2, 9)).expect("starts"));
    let decide = |played: &Played<MyCity>, seat| Entry::Move {
        seat,
        mv: played.game().legal_moves(seat)[0],
    };
    let spectator =
        |played: &Played<MyCity>| format!("{:?}", played.game().view(Viewer::Spectator));
    let before = (
        spectator(&played),
        format!("{:?}", played.game().view(Viewer::Seat(0))),
    );
    let first = decide(&played, 0);
    played.apply(&first).expect("a decision");
    assert_eq!(played.undo_seat(), Some(0));
    played.apply(&Entry::Undo { seat: 0 }).expect("the undo");
    assert_eq!(
        (
            spectator(&played),
            format!("{:?}", played.game().view(Viewer::Seat(0)))
        ),
        before
    );
    assert_eq!(played.game().awaiting().seats, vec![0, 1]);
    // Decided again; the other seat's decision reveals the round.
    played.apply(&first).expect("the decision again");
    let second = decide(&played, 1);
    played.apply(&second).expect("the last decision");
    let revealed = spectator(&played);
    for seat in 0..2 {
        let refused = played
            .apply(&Entry::Undo { seat })
            .expect_err("no undo after the reveal");
        assert_eq!(refused.code(), "nothing_to_undo");
    }
    assert_eq!(spectator(&played), revealed);
}
