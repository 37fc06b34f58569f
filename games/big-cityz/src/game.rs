//! The game state and a turn's flow: draw (B7), replace a board (B5), place (B2)
//! or declare "no free square" (B6), the objection window (B3), judging (B4), the
//! end of the game (B8) and the turn order (B9).
//!
//! Cards are numbers into the game's city list (`cities`). Every card is always
//! in exactly one place: the draw pile (`deck`), the box (`unused`), the current
//! turn (`current`), a square, or the cards that left the game (`left`).

use crate::board::{self, BOARDS, OBJECTION, RISK_RIGHT, RISK_WRONG, SQUARES};
use crate::cities::{City, Statement};
use crate::wire::{
    CityCard, EndReason, Event, EventKind, Judgment, Move, Options, Refill, Rule, ScoreChange,
    Square,
};
use engine::{Awaiting, GameRng, Illegal, Outcome, Seat, Setup, SetupError};

/// Cities drawn into a game at setup (B7).
pub const DECK_SIZE: usize = 100;
/// B8: the score that starts the final round.
pub const TARGET: i32 = 36;
/// B3: veto markers per player and game.
pub const VETOES: u8 = 2;
/// The range of [`Options::objection_ms`].
pub const OBJECTION_MS: std::ops::RangeInclusive<u32> = 1_000..=120_000;

/// An open objection window (B3).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Window {
    /// The placed card's square; `None`: "no free square" (the card is `current`).
    pub(crate) target: Option<usize>,
    pub(crate) card: u16,
    /// Seats that objected, in order.
    pub(crate) objectors: Vec<Seat>,
    /// Seats that still have to decide, in seat order from the placer.
    pub(crate) waiting: Vec<Seat>,
}

/// A game of Big Cityz. Equal states compare equal, RNG included.
#[derive(Clone, Debug, PartialEq)]
pub struct BigCityz {
    pub(crate) cities: &'static [City],
    pub(crate) options: Options,
    pub(crate) first_seat: Seat,
    /// Shuffles the city cards and the statement boards. Part of the state so
    /// that equal states stay equal.
    rng: GameRng,
    /// The draw pile; the top card is the last element. Never shown.
    pub(crate) deck: Vec<u16>,
    /// Cities not drawn into the game at setup (B7).
    pub(crate) unused: Vec<u16>,
    /// Cards that left the game, oldest first.
    pub(crate) left: Vec<u16>,
    pub(crate) boards: [Statement; BOARDS],
    /// Statement draw pile, top last. Never shown.
    pub(crate) statement_pile: Vec<Statement>,
    pub(crate) statement_discards: Vec<Statement>,
    pub(crate) squares: [Option<u16>; SQUARES],
    pub(crate) scores: Vec<i32>,
    pub(crate) vetoes: Vec<u8>,
    pub(crate) turns: Vec<u32>,
    /// Whose turn it is.
    pub(crate) active: Seat,
    /// The card drawn this turn while it is on no square.
    pub(crate) current: Option<u16>,
    /// The board replaced this turn (B5).
    pub(crate) replaced: Option<usize>,
    pub(crate) window: Option<Window>,
    pub(crate) period: u64,
    pub(crate) final_round: bool,
    pub(crate) last_judgment: Option<Judgment>,
    pub(crate) end: Option<EndReason>,
    pub(crate) winners: Vec<Seat>,
}

impl BigCityz {
    /// A game over `cities` (the real game uses [`crate::CITIES`]; tests and
    /// examples their own lists). With fewer than 100 cities, all are used.
    pub fn with_cities(
        setup: &Setup<Options>,
        cities: &'static [City],
    ) -> Result<Self, SetupError> {
        if !(2..=6).contains(&setup.seats) {
            return Err(SetupError::Seats { min: 2, max: 6 });
        }
        if setup.first_seat.is_some_and(|s| s >= setup.seats) {
            return Err(SetupError::FirstSeat);
        }
        if !OBJECTION_MS.contains(&setup.options.objection_ms) {
            return Err(SetupError::OptionRange {
                name: "objection_ms",
                min: u64::from(*OBJECTION_MS.start()),
                max: u64::from(*OBJECTION_MS.end()),
            });
        }
        let mut rng = GameRng::new(setup.seed);
        let mut statements = Statement::ALL.to_vec();
        rng.shuffle(&mut statements);
        let boards = [statements[11], statements[10], statements[9], statements[8]];
        statements.truncate(8);
        let count = cities.len().min(usize::from(u16::MAX));
        let mut all: Vec<u16> = (0..count as u16).collect();
        rng.shuffle(&mut all);
        let unused = all.split_off(all.len().min(DECK_SIZE));
        let first_seat = match setup.first_seat {
            Some(s) => s,
            None => rng.below(usize::from(setup.seats)) as Seat,
        };
        let seats = usize::from(setup.seats);
        let mut game = BigCityz {
            cities,
            options: setup.options.clone(),
            first_seat,
            rng,
            deck: all,
            unused,
            left: Vec::new(),
            boards,
            statement_pile: statements,
            statement_discards: Vec::new(),
            squares: [None; SQUARES],
            scores: vec![0; seats],
            vetoes: vec![VETOES; seats],
            turns: vec![0; seats],
            active: first_seat,
            current: None,
            replaced: None,
            window: None,
            period: 0,
            final_round: false,
            last_judgment: None,
            end: None,
            winners: Vec::new(),
        };
        game.start_turn(&mut Vec::new());
        Ok(game)
    }

    pub fn seats(&self) -> u8 {
        self.scores.len() as u8
    }

    /// The public face of card `card`.
    pub(crate) fn card(&self, card: u16) -> CityCard {
        let c = &self.cities[usize::from(card)];
        CityCard {
            card,
            id: c.id.to_owned(),
            name_en: c.name_en.to_owned(),
            name_fr: c.name_fr.to_owned(),
            country: c.country.to_owned(),
        }
    }

    pub(crate) fn city(&self, card: u16) -> &'static City {
        &self.cities[usize::from(card)]
    }

    /// The card this turn is about (drawn, placed or declared).
    pub(crate) fn card_in_play(&self) -> Option<u16> {
        self.window.as_ref().map(|w| w.card).or(self.current)
    }

    /// The first board that may be replaced now (B5), if any.
    pub(crate) fn replaceable_board(&self) -> Option<usize> {
        (0..BOARDS).find(|&b| board::replaceable(&self.squares, b))
    }

    pub(crate) fn awaiting_seats(&self) -> Vec<Seat> {
        if self.end.is_some() {
            return Vec::new();
        }
        match &self.window {
            Some(w) => w.waiting.clone(),
            None => vec![self.active],
        }
    }

    pub(crate) fn awaiting(&self) -> Awaiting {
        Awaiting {
            seats: self.awaiting_seats(),
            period: self.period,
            window_ms: self
                .window
                .as_ref()
                .filter(|_| self.end.is_none())
                .map(|_| u64::from(self.options.objection_ms)),
        }
    }

    /// Checks a move completely without changing anything.
    pub(crate) fn check(&self, seat: Seat, mv: &Move) -> Result<(), Illegal<Rule>> {
        if self.end.is_some() {
            return Err(Illegal::game_over());
        }
        if usize::from(seat) >= self.scores.len() {
            return Err(Illegal::not_your_turn());
        }
        if let Some(w) = &self.window {
            let objecting = matches!(mv, Move::Object {} | Move::Decline {});
            if seat == self.active {
                return Err(if matches!(mv, Move::Object {}) {
                    Illegal::Rule(Rule::CannotObjectOwnCard)
                } else {
                    Illegal::not_your_turn()
                });
            }
            if !w.waiting.contains(&seat) {
                return Err(if !objecting {
                    Illegal::not_your_turn()
                } else if w.objectors.contains(&seat) {
                    Illegal::Rule(Rule::AlreadyDecided)
                } else if self.vetoes[usize::from(seat)] == 0 {
                    Illegal::Rule(Rule::NoVetoesLeft)
                } else {
                    Illegal::Rule(Rule::AlreadyDecided)
                });
            }
            return if objecting {
                Ok(())
            } else {
                Err(Illegal::Rule(Rule::WrongPhase))
            };
        }
        if seat != self.active {
            return Err(Illegal::not_your_turn());
        }
        match *mv {
            Move::Object {} | Move::Decline {} => Err(Illegal::Rule(Rule::WrongPhase)),
            Move::Replace { board } => {
                let b = usize::from(board);
                if b >= BOARDS {
                    Err(Illegal::Rule(Rule::NoSuchBoard { board }))
                } else if self.replaced.is_some() {
                    Err(Illegal::Rule(Rule::AlreadyReplaced))
                } else if !board::replaceable(&self.squares, b) {
                    Err(Illegal::Rule(Rule::BoardNotReplaceable { board }))
                } else {
                    Ok(())
                }
            }
            Move::Place { square } => {
                let Some(i) = board::index(square) else {
                    return Err(Illegal::Rule(Rule::NoSuchBoard {
                        board: match square {
                            Square::Board { board, .. } => board,
                            Square::Risk { pair, .. } => pair,
                        },
                    }));
                };
                if let Some(b) = self.replaced
                    && !(4 * b..4 * b + 4).contains(&i)
                {
                    return Err(Illegal::Rule(Rule::MustPlaceOnNewBoard { board: b as u8 }));
                }
                if self.squares[i].is_some() {
                    return Err(Illegal::Rule(Rule::SquareTaken { square }));
                }
                Ok(())
            }
            Move::NoFreeSquare {} => {
                if let Some(b) = self.replaced {
                    Err(Illegal::Rule(Rule::MustPlaceOnNewBoard { board: b as u8 }))
                } else if let Some(b) = self.replaceable_board() {
                    Err(Illegal::Rule(Rule::BoardReplaceable { board: b as u8 }))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Every move `seat` may make now: exactly the moves [`BigCityz::check`] accepts.
    pub(crate) fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        if !self.awaiting_seats().contains(&seat) {
            return Vec::new();
        }
        let mut candidates: Vec<Move> = (0..BOARDS as u8)
            .map(|board| Move::Replace { board })
            .collect();
        candidates.extend((0..SQUARES).map(|i| Move::Place {
            square: board::square(i),
        }));
        candidates.extend([Move::NoFreeSquare {}, Move::Object {}, Move::Decline {}]);
        candidates
            .into_iter()
            .filter(|mv| self.check(seat, mv).is_ok())
            .collect()
    }

    pub(crate) fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        self.check(seat, mv)?;
        let mut events = Vec::new();
        match *mv {
            Move::Replace { board } => self.replace(seat, usize::from(board), &mut events),
            Move::Place { square } => {
                let i = board::index(square).expect("checked");
                let card = self.current.take().expect("a card is drawn");
                self.squares[i] = Some(card);
                events.push(EventKind::Placed { seat, square }.into());
                self.open_window(Some(i), card, &mut events);
            }
            Move::NoFreeSquare {} => {
                let card = self.current.expect("a card is drawn");
                events.push(EventKind::DeclaredNoFreeSquare { seat }.into());
                self.open_window(None, card, &mut events);
            }
            Move::Object {} | Move::Decline {} => {
                let w = self.window.as_mut().expect("checked");
                w.waiting.retain(|&s| s != seat);
                if matches!(mv, Move::Object {}) {
                    w.objectors.push(seat);
                    self.vetoes[usize::from(seat)] -= 1;
                    events.push(EventKind::Objected { seat }.into());
                } else {
                    events.push(EventKind::Declined { seat }.into());
                }
                if w.waiting.is_empty() {
                    self.resolve(&mut events);
                }
            }
        }
        Ok(events)
    }

    /// The period's time ran out. Objections: every seat still waiting declines
    /// (B3). Placing: the drawn card leaves the game unjudged, nobody scores, and
    /// the turn ends (our choice; the card may come back, B7).
    pub(crate) fn timeout(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if self.end.is_some() {
            return events;
        }
        if let Some(w) = self.window.as_mut() {
            let seats = std::mem::take(&mut w.waiting);
            events.push(EventKind::ObjectionsTimedOut { seats }.into());
            self.resolve(&mut events);
        } else {
            let seat = self.active;
            if let Some(card) = self.current.take() {
                self.left.push(card);
                events.push(
                    EventKind::TurnTimedOut {
                        seat,
                        city: self.card(card),
                    }
                    .into(),
                );
            }
            self.end_turn(&mut events);
        }
        events
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.end.map(|_| Outcome {
            scores: self.scores.clone(),
            winners: self.winners.clone(),
        })
    }

    /// B5: the board's cards and those on its risk fields leave the game; the
    /// board goes onto the discard pile and the top board of the pile replaces it.
    fn replace(&mut self, seat: Seat, b: usize, events: &mut Vec<Event>) {
        let mut cards = Vec::new();
        for i in board::cleared_by(b) {
            if let Some(card) = self.squares[i].take() {
                self.left.push(card);
                cards.push(self.card(card));
            }
        }
        let removed = self.boards[b];
        self.statement_discards.push(removed);
        if self.statement_pile.is_empty() {
            let mut pile = std::mem::take(&mut self.statement_discards);
            self.rng.shuffle(&mut pile);
            events.push(
                EventKind::StatementsReshuffled {
                    count: pile.len() as u8,
                }
                .into(),
            );
            self.statement_pile = pile;
        }
        let statement = self
            .statement_pile
            .pop()
            .expect("twelve boards, four in play");
        self.boards[b] = statement;
        self.replaced = Some(b);
        events.push(
            EventKind::BoardReplaced {
                seat,
                board: b as u8,
                removed,
                statement,
                cards,
            }
            .into(),
        );
    }

    /// B3: every other seat with a veto marker left decides; with none, the card
    /// is judged at once.
    fn open_window(&mut self, target: Option<usize>, card: u16, events: &mut Vec<Event>) {
        let n = self.seats();
        let waiting: Vec<Seat> = (1..n)
            .map(|k| (self.active + k) % n)
            .filter(|&s| self.vetoes[usize::from(s)] > 0)
            .collect();
        let empty = waiting.is_empty();
        self.window = Some(Window {
            target,
            card,
            objectors: Vec::new(),
            waiting,
        });
        if empty {
            self.resolve(events);
        } else {
            self.period += 1;
        }
    }

    /// B4 / B6: turns the card over, scores, and ends the turn.
    fn resolve(&mut self, events: &mut Vec<Event>) {
        let Some(w) = self.window.take() else {
            return;
        };
        let city = self.city(w.card);
        let mut facts = Vec::new();
        let mut right_squares = Vec::new();
        let (right, win, loss) = match w.target {
            Some(i) => {
                for b in board::boards_of(i) {
                    facts.push(board::fact(self.boards[b], city));
                }
                let loss = if i < 16 { 0 } else { RISK_WRONG };
                (board::right(&self.boards, i, city), board::value(i), loss)
            }
            None => {
                let free: Vec<usize> = (0..SQUARES)
                    .filter(|&i| self.squares[i].is_none())
                    .collect();
                let mut statements: Vec<usize> =
                    free.iter().flat_map(|&i| board::boards_of(i)).collect();
                statements.sort_unstable();
                statements.dedup();
                for b in statements {
                    facts.push(board::fact(self.boards[b], city));
                }
                right_squares = free
                    .into_iter()
                    .filter(|&i| board::right(&self.boards, i, city))
                    .map(board::square)
                    .collect();
                self.current = None;
                self.left.push(w.card);
                (right_squares.is_empty(), RISK_RIGHT, RISK_WRONG)
            }
        };
        let placer = self.active;
        let mut changes = vec![self.change(placer, if right { win } else { loss })];
        for &s in &w.objectors {
            changes.push(self.change(s, if right { -OBJECTION } else { OBJECTION }));
        }
        let judgment = Judgment {
            seat: placer,
            city: self.card(w.card),
            square: w.target.map(board::square),
            right,
            objectors: w.objectors,
            facts,
            right_squares,
            changes,
        };
        self.last_judgment = Some(judgment.clone());
        events.push(EventKind::Judged { judgment }.into());
        if !self.final_round
            && let Some(seat) = (0..self.seats()).find(|&s| self.scores[usize::from(s)] >= TARGET)
        {
            self.final_round = true;
            events.push(EventKind::FinalRound { seat }.into());
        }
        self.end_turn(events);
    }

    /// B4: no score goes below 0.
    fn change(&mut self, seat: Seat, points: i32) -> ScoreChange {
        let score = &mut self.scores[usize::from(seat)];
        *score = (*score + points).max(0);
        ScoreChange {
            seat,
            points,
            score: *score,
        }
    }

    /// B8, B9: the round ends after the seat before the first player; then the
    /// game ends if someone has reached 36.
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let n = self.seats();
        let last = (self.first_seat + n - 1) % n;
        if self.final_round && self.active == last {
            self.finish(EndReason::ScoreReached, events);
            return;
        }
        self.active = (self.active + 1) % n;
        self.start_turn(events);
    }

    /// Draws the top card for the active seat, refilling the pile first (B7).
    fn start_turn(&mut self, events: &mut Vec<Event>) {
        self.replaced = None;
        self.period += 1;
        if self.deck.is_empty() {
            let (from, mut pile) = if !self.unused.is_empty() {
                (Refill::Box, std::mem::take(&mut self.unused))
            } else {
                (Refill::LeftGame, std::mem::take(&mut self.left))
            };
            if pile.is_empty() {
                self.finish(EndReason::OutOfCards, events);
                return;
            }
            self.rng.shuffle(&mut pile);
            events.push(
                EventKind::DeckRefilled {
                    from,
                    count: pile.len() as u16,
                }
                .into(),
            );
            self.deck = pile;
        }
        let card = self.deck.pop().expect("refilled");
        self.current = Some(card);
        let seat = self.active;
        self.turns[usize::from(seat)] += 1;
        events.push(
            EventKind::TurnStarted {
                seat,
                city: self.card(card),
            }
            .into(),
        );
    }

    /// Most points win; ties share (B8).
    fn finish(&mut self, reason: EndReason, events: &mut Vec<Event>) {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        self.winners = (0..self.seats())
            .filter(|&s| self.scores[usize::from(s)] == best)
            .collect();
        self.end = Some(reason);
        self.window = None;
        events.push(
            EventKind::GameOver {
                reason,
                scores: self.scores.clone(),
                winners: self.winners.clone(),
            }
            .into(),
        );
    }
}
