//! The game state and the rules of a round (rulings R1-R7).

use crate::board::{self, CELLS};
use crate::pieces;
use crate::score::{self, START_POINTS};
use crate::wire::{
    Action, Card, Cell, Color, EndReason, Event, Move, Placement, PlayerView, Private,
    RevealedDecision, Rule, ScoreBreakdown, View,
};
use engine::{Awaiting, GameRng, Illegal, Outcome, Seat, Viewer};

/// A building on a player's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) piece: u8,
    pub(crate) color: Color,
    pub(crate) x: u8,
    pub(crate) y: u8,
    pub(crate) rotation: u8,
    /// Covered cell indices (row-major).
    pub(crate) cells: Vec<usize>,
    pub(crate) round: u32,
}

impl Placed {
    fn to_wire(&self) -> Placement {
        Placement {
            piece: self.piece,
            color: self.color,
            x: self.x,
            y: self.y,
            rotation: self.rotation,
            cells: self.cells.iter().map(|&i| cell(i)).collect(),
            round: self.round,
        }
    }
}

fn cell(i: usize) -> Cell {
    let (x, y) = board::coords(i);
    Cell {
        x: x as u8,
        y: y as u8,
    }
}

/// One player's board and track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerState {
    /// Has not ended participation.
    pub(crate) active: bool,
    pub(crate) passes: u32,
    pub(crate) gold_bonus: bool,
    /// Per cell: index into `placed` of the building covering it.
    pub(crate) cover: Vec<Option<u8>>,
    pub(crate) placed: Vec<Placed>,
}

impl PlayerState {
    fn new() -> Self {
        PlayerState {
            active: true,
            passes: 0,
            gold_bonus: false,
            cover: vec![None; CELLS],
            placed: Vec::new(),
        }
    }

    /// Still taking part (has not ended participation).
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// The buildings on this board.
    pub fn placements(&self) -> Vec<Placement> {
        self.placed.iter().map(Placed::to_wire).collect()
    }

    /// The live score breakdown (rulings S1, S2).
    pub fn score(&self) -> ScoreBreakdown {
        score::breakdown(self)
    }

    /// Points on the scoring track (ruling S1).
    pub fn points(&self) -> i32 {
        START_POINTS - self.passes as i32
            + if self.gold_bonus {
                score::GOLD_POINTS
            } else {
                0
            }
    }

    /// The cells `piece` would cover at `(x, y)` turned `rotation` times, if that
    /// placement is legal on this board (ruling R2).
    pub(crate) fn placement_cells(
        &self,
        piece: u8,
        x: u8,
        y: u8,
        rotation: u8,
    ) -> Result<Vec<usize>, Illegal<Rule>> {
        let Some(shape) = pieces::shape(piece, rotation) else {
            return Err(Illegal::Rule(Rule::BadRotation));
        };
        let fits = shape.iter().all(|&(dx, dy)| {
            usize::from(x) + usize::from(dx) < board::WIDTH
                && usize::from(y) + usize::from(dy) < board::HEIGHT
        });
        if !fits {
            return Err(Illegal::Rule(Rule::OffBoard));
        }
        let mut cells = Vec::with_capacity(shape.len());
        let mut bank = None;
        for &(dx, dy) in shape {
            let cx = usize::from(x) + usize::from(dx);
            let cy = usize::from(y) + usize::from(dy);
            let i = board::index(cx, cy);
            if !board::buildable(board::terrain_at(i)) {
                return Err(Illegal::Rule(Rule::NotBuildable));
            }
            if self.cover[i].is_some() {
                return Err(Illegal::Rule(Rule::Occupied));
            }
            let west = board::west_bank(cx, cy);
            if *bank.get_or_insert(west) != west {
                return Err(Illegal::Rule(Rule::AcrossRiver));
            }
            cells.push(i);
        }
        if self.placed.is_empty() {
            if !cells.iter().any(|&i| board::along_river(i)) {
                return Err(Illegal::Rule(Rule::NotAlongRiver));
            }
        } else if !cells
            .iter()
            .any(|&i| board::neighbours(i).any(|n| self.cover[n].is_some()))
        {
            return Err(Illegal::Rule(Rule::NotAdjacent));
        }
        Ok(cells)
    }

    /// Puts a building on the board (the cells were checked).
    pub(crate) fn build(
        &mut self,
        piece: u8,
        x: u8,
        y: u8,
        rotation: u8,
        cells: Vec<usize>,
        round: u32,
    ) {
        let id = self.placed.len() as u8;
        for &i in &cells {
            self.cover[i] = Some(id);
        }
        self.placed.push(Placed {
            piece,
            color: pieces::color(piece),
            x,
            y,
            rotation,
            cells,
            round,
        });
    }

    /// Covers both veins of gold.
    fn covers_gold(&self) -> bool {
        board::gold_cells()
            .into_iter()
            .all(|i| self.cover[i].is_some())
    }

    fn to_view(&self, seat: u8, decided: bool) -> PlayerView {
        PlayerView {
            seat,
            active: self.active,
            decided,
            points: self.points(),
            gold_bonus: self.gold_bonus,
            placements: self.placed.iter().map(Placed::to_wire).collect(),
            score: score::breakdown(self),
            empty_by_row: score::empty_by_row(self),
        }
    }
}

/// A decision waiting for the reveal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pending {
    mv: Move,
    timed_out: bool,
}

/// A game of My City (Eternal Game). Equal states compare equal, RNG included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyCity {
    /// The game's randomness (it shuffles the deck at setup). Part of the state so
    /// that equal states stay equal.
    rng: GameRng,
    /// Face-down cards, shuffled with `rng` at setup; the top card is the last
    /// element. Never shown.
    deck: Vec<Card>,
    revealed: Vec<Card>,
    /// The card decided on this round; `None` once the game is over.
    card: Option<Card>,
    blocked: Option<Card>,
    round: u32,
    players: Vec<PlayerState>,
    /// Hidden decisions of this round, by seat.
    pending: Vec<Option<Pending>>,
    gold_claimed: bool,
    end: Option<EndReason>,
    final_scores: Option<Vec<ScoreBreakdown>>,
    winners: Vec<u8>,
}

/// The 28 construction cards in catalogue order (ruling P2).
pub fn full_deck() -> Vec<Card> {
    let mut deck: Vec<Card> = (0..pieces::PIECES as u8)
        .map(|piece| Card::Building {
            piece,
            color: pieces::color(piece),
        })
        .collect();
    deck.push(Card::Blocking);
    deck
}

impl MyCity {
    pub(crate) fn start(seats: u8, seed: u64) -> Self {
        let mut rng = GameRng::new(seed);
        let mut deck = full_deck();
        rng.shuffle(&mut deck);
        let mut game = MyCity {
            rng,
            deck,
            revealed: Vec::new(),
            card: None,
            blocked: None,
            round: 0,
            players: (0..seats).map(|_| PlayerState::new()).collect(),
            pending: vec![None; usize::from(seats)],
            gold_claimed: false,
            end: None,
            final_scores: None,
            winners: Vec::new(),
        };
        let mut events = Vec::new();
        game.reveal_next(&mut events);
        game
    }

    /// The card players decide on now.
    pub fn current_card(&self) -> Option<Card> {
        self.card
    }

    /// Round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Cards still face down.
    pub fn deck_count(&self) -> usize {
        self.deck.len()
    }

    /// A player's board and track (public information).
    pub fn player(&self, seat: Seat) -> Option<&PlayerState> {
        self.players.get(usize::from(seat))
    }

    /// Number of seats.
    pub fn seats(&self) -> u8 {
        self.players.len() as u8
    }

    /// Whether `seat` may pass now.
    pub fn can_pass(&self, seat: Seat) -> bool {
        let Some(p) = self.player(seat) else {
            return false;
        };
        matches!(self.card, Some(Card::Building { color, .. }) if color != Color::Church)
            && p.points() > 0
    }

    pub(crate) fn awaiting_seats(&self) -> Vec<Seat> {
        if self.end.is_some() {
            return Vec::new();
        }
        (0..self.players.len())
            .filter(|&s| self.players[s].active && self.pending[s].is_none())
            .map(|s| s as Seat)
            .collect()
    }

    pub(crate) fn awaiting(&self) -> Awaiting {
        Awaiting {
            seats: self.awaiting_seats(),
            period: u64::from(self.round),
            window_ms: None,
        }
    }

    /// Checks a decision completely without changing anything; returns the cells
    /// a placement would cover.
    pub(crate) fn check(&self, seat: Seat, mv: &Move) -> Result<Option<Vec<usize>>, Illegal<Rule>> {
        if self.end.is_some() {
            return Err(Illegal::game_over());
        }
        let s = usize::from(seat);
        let Some(player) = self.players.get(s) else {
            return Err(Illegal::not_your_turn());
        };
        if !player.active {
            return Err(Illegal::Rule(Rule::ParticipationEnded));
        }
        if self.pending.get(s).is_some_and(Option::is_some) {
            return Err(Illegal::Rule(Rule::AlreadyDecided));
        }
        let Some(Card::Building { piece, color }) = self.card else {
            return Err(Illegal::game_over());
        };
        match *mv {
            Move::EndParticipation {} => Ok(None),
            Move::Pass {} => {
                if color == Color::Church {
                    Err(Illegal::Rule(Rule::ChurchCannotPass))
                } else if player.points() <= 0 {
                    Err(Illegal::Rule(Rule::NoPointsToPass))
                } else {
                    Ok(None)
                }
            }
            Move::Place { x, y, rotation } => {
                player.placement_cells(piece, x, y, rotation).map(Some)
            }
        }
    }

    pub(crate) fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        if !self.awaiting_seats().contains(&seat) {
            return Vec::new();
        }
        let Some(Card::Building { piece, .. }) = self.card else {
            return Vec::new();
        };
        let Some(player) = self.player(seat) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        for rotation in 0..4u8 {
            for y in 0..board::HEIGHT as u8 {
                for x in 0..board::WIDTH as u8 {
                    if player.placement_cells(piece, x, y, rotation).is_ok() {
                        moves.push(Move::Place { x, y, rotation });
                    }
                }
            }
        }
        if self.can_pass(seat) {
            moves.push(Move::Pass {});
        }
        moves.push(Move::EndParticipation {});
        moves
    }

    pub(crate) fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        self.check(seat, mv)?;
        self.pending[usize::from(seat)] = Some(Pending {
            mv: *mv,
            timed_out: false,
        });
        let mut events = vec![Event::Decided { seat }];
        if self.awaiting_seats().is_empty() {
            self.resolve(&mut events);
        }
        Ok(events)
    }

    /// Ruling R7: every undecided player passes, or ends participation where
    /// passing is not allowed.
    pub(crate) fn timeout(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if self.end.is_some() {
            return events;
        }
        for seat in self.awaiting_seats() {
            let mv = if self.can_pass(seat) {
                Move::Pass {}
            } else {
                Move::EndParticipation {}
            };
            self.pending[usize::from(seat)] = Some(Pending {
                mv,
                timed_out: true,
            });
        }
        self.resolve(&mut events);
        events
    }

    /// Reveals all decisions of the round and applies them together.
    fn resolve(&mut self, events: &mut Vec<Event>) {
        let Some(Card::Building { piece, .. }) = self.card else {
            return;
        };
        let round = self.round;
        let mut decisions = Vec::new();
        for s in 0..self.players.len() {
            let Some(pending) = self.pending[s].take() else {
                continue;
            };
            let player = &mut self.players[s];
            let mut placement = None;
            let action = match pending.mv {
                Move::Place { x, y, rotation } => {
                    // Checked when decided; boards only change here, so it still holds.
                    if let Ok(cells) = player.placement_cells(piece, x, y, rotation) {
                        player.build(piece, x, y, rotation, cells, round);
                        placement = player.placed.last().map(Placed::to_wire);
                    }
                    Action::Place
                }
                Move::Pass {} => {
                    player.passes += 1;
                    Action::Pass
                }
                Move::EndParticipation {} => {
                    player.active = false;
                    Action::EndParticipation
                }
            };
            decisions.push(RevealedDecision {
                seat: s as u8,
                action,
                placement,
                timed_out: pending.timed_out,
            });
        }
        events.push(Event::DecisionsRevealed { round, decisions });
        if !self.gold_claimed {
            let seats: Vec<u8> = (0..self.players.len())
                .filter(|&s| self.players[s].covers_gold())
                .map(|s| s as u8)
                .collect();
            if !seats.is_empty() {
                self.gold_claimed = true;
                for &s in &seats {
                    self.players[usize::from(s)].gold_bonus = true;
                }
                events.push(Event::GoldBonus {
                    seats,
                    points: score::GOLD_POINTS,
                });
            }
        }
        if self.players.iter().all(|p| !p.active) {
            self.finish(EndReason::AllEnded, events);
        } else {
            self.reveal_next(events);
        }
    }

    /// Takes the top card of the deck.
    fn draw(&mut self) -> Option<Card> {
        self.deck.pop()
    }

    /// Test fixture: replaces the face-down deck; `top_first[0]` is drawn next.
    #[cfg(test)]
    pub(crate) fn stack_deck(&mut self, top_first: &[Card]) {
        self.deck = top_first.iter().rev().copied().collect();
    }

    /// Test fixture: replaces the card of the current round.
    #[cfg(test)]
    pub(crate) fn set_card(&mut self, card: Card) {
        self.card = Some(card);
    }

    /// Test fixture: a player's board and track.
    #[cfg(test)]
    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut PlayerState {
        &mut self.players[usize::from(seat)]
    }

    /// Reveals the next card; a blocking card blocks the card after it (ruling R4).
    fn reveal_next(&mut self, events: &mut Vec<Event>) {
        self.blocked = None;
        let mut next = self.draw();
        if next == Some(Card::Blocking) {
            self.revealed.push(Card::Blocking);
            if let Some(blocked) = self.draw() {
                self.revealed.push(blocked);
                self.blocked = Some(blocked);
                events.push(Event::CardBlocked { card: blocked });
            }
            next = self.draw();
        }
        let Some(card) = next else {
            self.finish(EndReason::DeckExhausted, events);
            return;
        };
        self.revealed.push(card);
        self.round += 1;
        self.card = Some(card);
        events.push(Event::CardRevealed {
            round: self.round,
            card,
            deck_count: self.deck.len() as u8,
        });
    }

    fn finish(&mut self, reason: EndReason, events: &mut Vec<Event>) {
        self.card = None;
        self.end = Some(reason);
        let scores: Vec<ScoreBreakdown> = self.players.iter().map(score::breakdown).collect();
        let totals: Vec<i32> = scores.iter().map(|s| s.total).collect();
        let rows: Vec<Vec<u8>> = self.players.iter().map(score::empty_by_row).collect();
        self.winners = score::winners(&totals, &rows);
        self.final_scores = Some(scores.clone());
        events.push(Event::GameOver {
            reason,
            scores,
            winners: self.winners.clone(),
        });
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        let scores = self.final_scores.as_ref()?;
        Some(Outcome {
            scores: scores.iter().map(|s| s.total).collect(),
            winners: self.winners.iter().map(|&s| s as Seat).collect(),
        })
    }

    pub(crate) fn view(&self, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(s) if usize::from(s) < self.players.len() => Some(s),
            _ => None,
        };
        let decided: Vec<u8> = (0..self.players.len())
            .filter(|&s| self.pending[s].is_some())
            .map(|s| s as u8)
            .collect();
        View {
            seat,
            board: board::board_info(),
            pieces: pieces::catalogue(),
            round: self.round,
            card: self.card,
            blocked: self.blocked,
            revealed: self.revealed.clone(),
            deck_count: self.deck.len() as u8,
            players: self
                .players
                .iter()
                .enumerate()
                .map(|(s, p)| p.to_view(s as u8, self.pending[s].is_some()))
                .collect(),
            awaiting: self.awaiting_seats(),
            decided,
            my_decision: self.my_decision(seat),
            can_pass: self.may_pass(seat),
            gold_claimed: self.gold_claimed,
            game_over: self.end.is_some(),
            end_reason: self.end,
            final_scores: self.final_scores.clone(),
            winners: self.winners.clone(),
        }
    }

    /// What `seat`'s view shows beyond the spectators' (the fields of [`View`] that
    /// depend on the viewer).
    pub(crate) fn private_view(&self, seat: Seat) -> Private {
        let seat = (usize::from(seat) < self.players.len()).then_some(seat);
        Private {
            seat,
            my_decision: self.my_decision(seat),
            can_pass: self.may_pass(seat),
        }
    }

    fn my_decision(&self, seat: Option<Seat>) -> Option<Move> {
        seat.and_then(|s| self.pending.get(usize::from(s)))
            .and_then(|p| p.as_ref())
            .map(|p| p.mv)
    }

    fn may_pass(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| self.awaiting_seats().contains(&s) && self.can_pass(s))
    }

    /// Test and bot support: the revealed cards so far.
    pub fn revealed(&self) -> &[Card] {
        &self.revealed
    }

    /// Whether someone already gained the gold bonus.
    pub fn gold_claimed(&self) -> bool {
        self.gold_claimed
    }

    /// Why the game ended, once it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }
}
