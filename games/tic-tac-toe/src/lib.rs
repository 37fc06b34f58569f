//! Tic-tac-toe on the engine contract.
//!
//! The smallest complete [`engine::Game`]: it exercises the server's room machinery
//! in tests and serves as the like-for-like reference game in benchmarks.

use engine::{
    Awaiting, BotLevel, Game, GameRng, Illegal, NothingPrivate, Outcome, Seat, Setup, SetupError,
    Viewer,
};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Tic-tac-toe has no variants.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "TicTacToeOptions")]
pub struct Options {}

/// Mark cell `cell` (0..9, row by row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "TicTacToeMove")]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub cell: u8,
}

/// Public event: a seat marked a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "TicTacToeEvent")]
pub struct Event {
    pub seat: Seat,
    pub cell: u8,
}

/// Why tic-tac-toe refuses a move (beside the engine's shared refusals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "TicTacToeRule")]
#[serde(tag = "code", content = "args", rename_all = "snake_case")]
pub enum Rule {
    /// Cells are numbered 0 to 8.
    NoSuchCell,
    /// That cell is already marked.
    CellTaken,
}

impl engine::Rule for Rule {
    fn code(&self) -> &'static str {
        match self {
            Rule::NoSuchCell => "no_such_cell",
            Rule::CellTaken => "cell_taken",
        }
    }
}

/// Everything is public in tic-tac-toe: every viewer sees the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "TicTacToeView")]
pub struct View {
    /// Each cell's owner, row by row.
    pub cells: [Option<Seat>; 9],
    pub to_move: Option<Seat>,
    pub winner: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [Option<Seat>; 9],
    to_move: Seat,
    moves: u64,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    fn winner(&self) -> Option<Seat> {
        LINES.iter().find_map(|line| {
            let first = self.cells[line[0]]?;
            line.iter()
                .all(|&i| self.cells[i] == Some(first))
                .then_some(first)
        })
    }

    fn is_over(&self) -> bool {
        self.winner().is_some() || self.cells.iter().all(Option::is_some)
    }

    fn free_cells(&self) -> impl Iterator<Item = u8> + '_ {
        (0u8..9).filter(|&c| self.cells[usize::from(c)].is_none())
    }
}

impl Game for TicTacToe {
    const ID: &'static str = "tic-tac-toe";
    const NAME: &'static str = "Tic-tac-toe";
    const SEATS: std::ops::RangeInclusive<u8> = 2..=2;

    type Options = Options;
    type Move = Move;
    type View = View;
    type Event = Event;
    type Rule = Rule;
    type Private = NothingPrivate;

    fn new(setup: &Setup<Options>) -> Result<Self, SetupError> {
        if !Self::SEATS.contains(&setup.seats) {
            return Err(SetupError::Seats {
                min: *Self::SEATS.start(),
                max: *Self::SEATS.end(),
            });
        }
        let to_move = match setup.first_seat {
            Some(seat) if seat < 2 => seat,
            Some(_) => return Err(SetupError::FirstSeat),
            None => (GameRng::new(setup.seed).next_u64() % 2) as Seat,
        };
        Ok(TicTacToe {
            cells: [None; 9],
            to_move,
            moves: 0,
        })
    }

    fn awaiting(&self) -> Awaiting {
        if self.is_over() {
            Awaiting::nobody(self.moves)
        } else {
            Awaiting {
                seats: vec![self.to_move],
                period: self.moves,
                window_ms: None,
            }
        }
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        if self.is_over() || seat != self.to_move {
            return Vec::new();
        }
        self.free_cells().map(|cell| Move { cell }).collect()
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        if self.is_over() {
            return Err(Illegal::game_over());
        }
        if seat != self.to_move {
            return Err(Illegal::not_your_turn());
        }
        let Some(slot) = self.cells.get_mut(usize::from(mv.cell)) else {
            return Err(Rule::NoSuchCell.into());
        };
        if slot.is_some() {
            return Err(Rule::CellTaken.into());
        }
        *slot = Some(seat);
        self.to_move = 1 - seat;
        self.moves += 1;
        Ok(vec![Event {
            seat,
            cell: mv.cell,
        }])
    }

    /// A player out of time loses his turn's choice: the lowest free cell is marked.
    fn timeout(&mut self) -> Vec<Event> {
        let seat = self.to_move;
        let lowest_free = self.free_cells().next();
        match lowest_free {
            Some(cell) => self.apply(seat, &Move { cell }).unwrap_or_default(),
            None => Vec::new(),
        }
    }

    fn view(&self, _viewer: Viewer) -> View {
        View {
            cells: self.cells,
            to_move: (!self.is_over()).then_some(self.to_move),
            winner: self.winner(),
        }
    }

    fn private_view(&self, _seat: Seat) -> NothingPrivate {
        NothingPrivate {}
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.winner() {
            Some(w) => Outcome {
                scores: (0..2).map(|s| i32::from(s == w)).collect(),
                winners: vec![w],
            },
            None => Outcome {
                scores: vec![0, 0],
                winners: vec![0, 1],
            },
        })
    }

    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Move> {
        let moves = self.legal_moves(seat);
        if level == BotLevel::Greedy {
            // Win if possible, else block the opponent's win.
            for target in [seat, 1 - seat] {
                for mv in &moves {
                    let mut next = self.clone();
                    next.cells[usize::from(mv.cell)] = Some(target);
                    if next.winner() == Some(target) {
                        return Some(*mv);
                    }
                }
            }
        }
        rng.choose(&moves).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Entry, play_out, replay};

    #[test]
    fn moves_with_unknown_fields_are_refused() {
        let refused = serde_json::from_str::<Move>(r#"{"cell":4,"seat":1}"#);
        assert!(refused.is_err());
        let mv: Move = serde_json::from_str(r#"{"cell":4}"#).expect("a move");
        assert_eq!(mv, Move { cell: 4 });
    }

    fn setup(seed: u64) -> Setup<Options> {
        Setup {
            seats: 2,
            seed,
            options: Options::default(),
            first_seat: Some(0),
        }
    }

    #[test]
    fn a_row_wins() {
        let mut g = TicTacToe::new(&setup(1)).expect("setup");
        for (seat, cell) in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)] {
            g.apply(seat, &Move { cell }).expect("legal");
        }
        assert_eq!(g.outcome().map(|o| o.winners), Some(vec![0]));
        assert!(g.awaiting().seats.is_empty());
        assert_eq!(g.apply(1, &Move { cell: 5 }), Err(Illegal::game_over()));
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut g = TicTacToe::new(&setup(1)).expect("setup");
        g.apply(0, &Move { cell: 4 }).expect("legal");
        let before = g.clone();
        assert_eq!(
            g.apply(0, &Move { cell: 0 }).map_err(|e| e.code()),
            Err("not_your_turn")
        );
        assert_eq!(
            g.apply(1, &Move { cell: 4 }).map_err(|e| e.code()),
            Err("cell_taken")
        );
        assert_eq!(
            g.apply(1, &Move { cell: 9 }).map_err(|e| e.code()),
            Err("no_such_cell")
        );
        assert_eq!(g, before);
    }

    #[test]
    fn legal_moves_agree_with_apply() {
        for seed in 0..50 {
            let (game, log) =
                play_out::<TicTacToe>(&setup(seed), &[BotLevel::Random; 2], seed, 100)
                    .expect("play");
            assert!(game.outcome().is_some());
            let mut g = TicTacToe::new(&setup(seed)).expect("setup");
            for entry in &log {
                let Entry::Move { seat, mv } = entry else {
                    continue;
                };
                for cell in 0..10 {
                    let m = Move { cell };
                    let listed = g.legal_moves(*seat).contains(&m);
                    assert_eq!(listed, g.clone().apply(*seat, &m).is_ok());
                }
                g.apply(*seat, mv).expect("listed move");
            }
        }
    }

    #[test]
    fn replay_rebuilds_the_state() {
        let (game, log) =
            play_out::<TicTacToe>(&setup(9), &[BotLevel::Greedy, BotLevel::Random], 3, 100)
                .expect("play");
        assert_eq!(replay::<TicTacToe>(&setup(9), &log).expect("replay"), game);
    }

    #[test]
    fn timeout_marks_the_lowest_free_cell() {
        let mut g = TicTacToe::new(&setup(1)).expect("setup");
        g.apply(0, &Move { cell: 0 }).expect("legal");
        let events = g.timeout();
        assert_eq!(events, vec![Event { seat: 1, cell: 1 }]);
        assert_eq!(g.awaiting().seats, vec![0]);
    }

    #[test]
    fn greedy_never_loses_to_random_often() {
        let mut greedy_losses = 0;
        for seed in 0..200 {
            let (game, _) = play_out::<TicTacToe>(
                &setup(seed),
                &[BotLevel::Greedy, BotLevel::Random],
                seed,
                100,
            )
            .expect("play");
            if game.outcome().expect("over").winners == vec![1] {
                greedy_losses += 1;
            }
        }
        assert!(greedy_losses < 20, "greedy lost {greedy_losses} of 200");
    }

    #[test]
    fn moves_travel_as_plain_json() {
        let mv: Move = serde_json::from_str(r#"{"cell":4}"#).expect("decode");
        assert_eq!(mv, Move { cell: 4 });
        assert!(serde_json::from_str::<Move>(r#"{"cell":400}"#).is_err());
    }
}
