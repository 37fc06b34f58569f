//! The view: the same for every viewer. It shows a card's public face (name and
//! country) wherever it lies and its facts only inside a [`crate::Judgment`];
//! the order of the draw piles is never shown, only their sizes.

use crate::board::{self, BOARDS};
use crate::game::BigCityz;
use crate::wire::{BoardView, Phase, RiskView, View};
use engine::Viewer;

impl BigCityz {
    pub(crate) fn phase(&self) -> Phase {
        if let Some(reason) = self.end {
            return Phase::GameOver { reason };
        }
        match &self.window {
            Some(w) => Phase::Objections {
                seat: self.active,
                square: w.target.map(board::square),
                objectors: w.objectors.clone(),
                waiting: w.waiting.clone(),
                window_ms: self.options.objection_ms,
            },
            None => Phase::Placing {
                seat: self.active,
                replaced: self.replaced.map(|b| b as u8),
            },
        }
    }

    pub(crate) fn view(&self, viewer: Viewer) -> View {
        let at = |i: usize| self.squares[i].map(|c| self.card(c));
        View {
            viewer: match viewer {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator => None,
            },
            seats: self.seats(),
            options: self.options.clone(),
            first_seat: self.first_seat,
            phase: self.phase(),
            current: self.current.map(|c| self.card(c)),
            boards: (0..BOARDS)
                .map(|b| BoardView {
                    statement: self.boards[b],
                    squares: (4 * b..4 * b + 4).map(at).collect(),
                })
                .collect(),
            risks: (0..BOARDS)
                .map(|p| RiskView {
                    pair: p as u8,
                    green: at(16 + 2 * p),
                    red: at(17 + 2 * p),
                })
                .collect(),
            scores: self.scores.clone(),
            vetoes_left: self.vetoes.clone(),
            turns: self.turns.clone(),
            deck_count: self.deck.len() as u16,
            box_count: self.unused.len() as u16,
            left_game: self.left.iter().map(|&c| self.card(c)).collect(),
            statement_pile: self.statement_pile.len() as u8,
            statement_discards: self.statement_discards.clone(),
            last_judgment: self.last_judgment.clone(),
            final_round: self.final_round,
            winners: self.winners.clone(),
        }
    }
}
