//! What a viewer may see (C3, O2): own hand faces only, card backs of other hands,
//! stack sizes but never stack order.

use crate::game::{BigCity, Step};
use crate::pieces::{ALL_PIECES, stack_of};
use crate::wire::*;
use engine::Viewer;

impl BigCity {
    /// The faces `seat` sees and spectators do not: its hand, its own trade offer.
    pub fn private_view(&self, seat: u8) -> Private {
        let me = (seat < self.seats).then_some(seat);
        Private {
            viewer: me,
            hands: me
                .map(|s| {
                    (
                        s,
                        PrivateHand {
                            cards: self.hand(s).to_vec(),
                        },
                    )
                })
                .into_iter()
                .collect(),
            trade: self
                .trade
                .as_ref()
                .filter(|_| me == Some(self.active))
                .map(|t| PrivateTrade {
                    offered_cards: t.offered.clone(),
                }),
        }
    }

    pub fn view(&self, viewer: Viewer) -> View {
        let me = match viewer {
            Viewer::Seat(s) if s < self.seats => Some(s),
            _ => None,
        };
        let phase = match &self.step {
            Step::StartingCity => Phase::StartingCity {
                seat: self.active,
                neighborhoods: self.setup_set.clone(),
            },
            Step::Action => Phase::Action { seat: self.active },
            Step::SecondStreetcar => Phase::SecondStreetcar { seat: self.active },
            Step::Drawing { remaining } => Phase::Drawing {
                seat: self.active,
                remaining: *remaining,
            },
            Step::TradeAnswers => Phase::TradeAnswers {
                seat: self.active,
                window_ms: self.options.trade_window_ms,
            },
            Step::TradeAccept => Phase::TradeAccept { seat: self.active },
            Step::TradeExchange => Phase::TradeExchange { seat: self.active },
            Step::Over(reason) => Phase::GameOver { reason: *reason },
        };
        let tiles = self
            .map
            .tiles
            .iter()
            .map(|t| TileView {
                neighborhood: t.neighborhood,
                x: t.x,
                y: t.y,
                rotation: t.rotation,
                cells: crate::geometry::tile_cells(t.neighborhood, t.x, t.y, t.rotation)
                    .into_iter()
                    .map(|(c, property)| TileCell {
                        property,
                        x: c.x,
                        y: c.y,
                    })
                    .collect(),
            })
            .collect();
        let cells = self
            .map
            .props()
            .iter()
            .filter_map(|&p| {
                let c = self.map.cell_of(p)?;
                let b = self.cover[usize::from(p)];
                Some(CellView {
                    property: p,
                    x: c.x,
                    y: c.y,
                    outskirts: self.map.outskirts(p),
                    building: if b == 0 { None } else { Some(b - 1) },
                })
            })
            .collect();
        let buildings = self
            .buildings
            .iter()
            .map(|b| BuildingView {
                piece: b.piece,
                cells: b.cells.clone(),
                owner: b.owner,
                points: b.points,
            })
            .collect();
        let hands = (0..self.seats)
            .map(|s| {
                let h = self.hand(s);
                let mut backs = vec![0u8; 8];
                for &c in h {
                    backs[usize::from(stack_of(c) - 1)] += 1;
                }
                HandView {
                    seat: s,
                    backs,
                    cards: if me == Some(s) {
                        Some(h.to_vec())
                    } else {
                        None
                    },
                }
            })
            .collect();
        let trade = self.trade.as_ref().map(|t| {
            let resolved = self.step != Step::TradeAnswers;
            let others = (0..self.seats).filter(|&s| s != self.active);
            TradeView {
                seat: self.active,
                offered: t.offered.iter().map(|&c| stack_of(c)).collect(),
                offered_cards: if me == Some(self.active) {
                    Some(t.offered.clone())
                } else {
                    None
                },
                wanted: t.wanted.clone(),
                answered: others
                    .clone()
                    .filter(|&s| t.answers[usize::from(s)].is_some())
                    .collect(),
                waiting: others
                    .clone()
                    .filter(|&s| t.answers[usize::from(s)].is_none())
                    .collect(),
                answers: if resolved {
                    others
                        .map(|s| TradeAnswerView {
                            seat: s,
                            neighborhoods: t.answers[usize::from(s)]
                                .as_deref()
                                .unwrap_or(&[])
                                .iter()
                                .map(|&c| stack_of(c))
                                .collect(),
                        })
                        .collect()
                } else {
                    Vec::new()
                },
            }
        });
        View {
            viewer: me,
            seats: self.seats,
            options: self.options.clone(),
            hand_size: crate::game::hand_size(self.seats) as u8,
            first_seat: self.first_seat,
            phase,
            tiles,
            cells,
            unplaced: (1..=8).filter(|&n| !self.map.has_neighborhood(n)).collect(),
            buildings,
            streetcars: self.line.edges().iter().map(|e| e.segment()).collect(),
            streetcars_left: self.streetcars_left,
            supply: ALL_PIECES
                .iter()
                .map(|&p| SupplyView {
                    piece: p,
                    left: self.supply[p.index()],
                })
                .collect(),
            scores: self.scores.clone(),
            hands,
            stacks: self.stacks.iter().map(|s| s.len() as u8).collect(),
            discards: self.discards.clone(),
            drawn_this_turn: self.drawn.to_vec(),
            useless_discarded: self.useless_pending,
            passes_in_a_row: self.passes,
            trade,
            turn_number: self.turn_number,
            winners: self.winners.clone(),
        }
    }
}
