//! Computer players. `Random` picks uniformly among the legal moves; `Greedy` takes
//! the best-scoring build, prepares the city for its own cards otherwise, and
//! exchanges cards it cannot use. Both look only at what their seat may know.

use crate::game::{BigCity, Step};
use crate::pieces::{is_special_card, stack_of};
use crate::wire::{Move, Piece};
use engine::{BotLevel, GameRng, Seat};

impl BigCity {
    pub fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Move> {
        if !self.is_awaited(seat) {
            return None;
        }
        match level {
            BotLevel::Random if self.step == Step::Action => Some(self.random_action(seat, rng)),
            BotLevel::Random if matches!(self.step, Step::Drawing { .. }) => {
                // Same list and order as `legal_moves`, without building the moves.
                let stacks = self.drawable();
                rng.choose(&stacks).map(|&stack| Move::Draw { stack })
            }
            BotLevel::Random => {
                let moves = self.legal_moves(seat);
                rng.choose(&moves).cloned()
            }
            // A move as played: without the points the list adds to builds.
            BotLevel::Greedy => self.greedy(seat, rng).map(|m| m.played()),
        }
    }

    /// A uniform choice among the legal actions, without building the long lists
    /// (placements, exchanges, trade offers) that the choice does not need.
    fn random_action(&self, seat: Seat, rng: &mut GameRng) -> Move {
        let hand = self.hand(seat);
        let mut small: Vec<Move> = Vec::new();
        if !self.options.useless_must_be_exchanged {
            for &c in hand {
                if self.is_useless(c) {
                    small.push(Move::DiscardUseless { card: c });
                }
            }
        }
        let mut builds: Vec<(Piece, [u8; 4], usize)> = Vec::new();
        self.for_each_build(seat, |piece, cells| {
            let mut a = [0u8; 4];
            a[..cells.len()].copy_from_slice(cells);
            builds.push((piece, a, cells.len()));
        });
        let cars = self.streetcar_edges();
        let places = if self.city_hall_built() {
            self.placements.len()
        } else {
            0
        };
        let h = hand.len();
        let exchanges = (1usize << h) - 1;
        let offers = if self.options.trade_cards {
            (h + h * h.saturating_sub(1) / 2) * 37
        } else {
            0
        };
        let total = small.len() + builds.len() + cars.len() + places + exchanges + offers + 1;
        let mut r = rng.below(total);
        if r < small.len() {
            return small.swap_remove(r);
        }
        r -= small.len();
        if let Some((piece, cells, n)) = builds.get(r) {
            return Move::Build {
                piece: *piece,
                cells: cells[..*n].to_vec(),
                points: None,
            };
        }
        r -= builds.len();
        if let Some(e) = cars.get(r) {
            return Move::Streetcar {
                segment: e.segment(),
            };
        }
        r -= cars.len();
        if r < places {
            let t = self.placements[r];
            return Move::PlaceNeighborhood {
                neighborhood: t.neighborhood,
                x: t.x,
                y: t.y,
                rotation: t.rotation,
            };
        }
        r -= places;
        if r < exchanges {
            let mask = r + 1;
            let cards = (0..h)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| hand[i])
                .collect();
            return Move::Exchange { cards };
        }
        r -= exchanges;
        if r < offers {
            let subsets = crate::moves::subsets(hand, 1, 2);
            let wanted = crate::moves::wanted_lists();
            if let (Some(cards), Some(w)) = (subsets.get(r / 37), wanted.get(r % 37)) {
                return Move::TradeOffer {
                    cards: cards.clone(),
                    wanted: w.clone(),
                };
            }
        }
        Move::Pass {}
    }

    fn greedy(&self, seat: Seat, rng: &mut GameRng) -> Option<Move> {
        let moves = self.legal_moves(seat);
        match &self.step {
            Step::Action => self.greedy_action(seat, moves, rng),
            Step::Drawing { .. } => {
                // Prefer stacks of neighborhoods in the city with many free properties.
                moves.into_iter().max_by_key(|m| match m {
                    Move::Draw { stack } => {
                        let free = if self.map.has_neighborhood(*stack) {
                            crate::geometry::tile_properties(*stack)
                                .filter(|&p| !self.covered(p))
                                .count() as i32
                        } else {
                            0
                        };
                        // Even stacks hide a park or factory card: a little extra.
                        free * 4 + if stack % 2 == 0 { 1 } else { 0 } - i32::from(*stack)
                    }
                    _ => i32::MIN,
                })
            }
            Step::TradeAnswers => Some(Move::TradeAnswer { cards: Vec::new() }),
            Step::TradeAccept => Some(Move::TradeAccept { picks: Vec::new() }),
            Step::SecondStreetcar | Step::TradeExchange => Some(Move::Done {}),
            Step::StartingCity => self.best_placement(seat, moves, rng),
            Step::Over(_) => None,
        }
    }

    /// Value of a property card to its holder right now (0 = dead).
    fn card_use(&self, card: u8) -> i32 {
        if is_special_card(card) {
            return if self.city_hall_built() { 2 } else { 1 };
        }
        if self.covered(card) {
            return 0;
        }
        if !self.map.is_placed_prop(card) {
            return 1;
        }
        2
    }

    fn greedy_action(&self, seat: Seat, moves: Vec<Move>, rng: &mut GameRng) -> Option<Move> {
        // 1. Free useless discards first.
        if let Some(m) = moves
            .iter()
            .find(|m| matches!(m, Move::DiscardUseless { .. }))
        {
            return Some(m.clone());
        }
        // 2. The best build.
        let mut best: Option<(i32, &Move)> = None;
        for m in &moves {
            if let Move::Build {
                piece,
                cells,
                points,
            } = m
            {
                let pts = points.map_or(0, i32::from);
                let value = match piece {
                    Piece::CityHall => 5,
                    p if p.special_card().is_some() => 1,
                    _ => pts * 10 / (cells.len() as i32).max(1) + pts,
                };
                if best.is_none_or(|(v, _)| value > v) {
                    best = Some((value, m));
                }
            }
        }
        if let Some((v, m)) = best
            && v >= 2
        {
            return Some(m.clone());
        }
        // 3. Bring a neighborhood we hold cards of into the city.
        let hand = self.hand(seat);
        let want: Vec<u8> = hand
            .iter()
            .filter(|&&c| !is_special_card(c) && !self.map.has_neighborhood(stack_of(c)))
            .map(|&c| stack_of(c))
            .collect();
        if !want.is_empty() {
            let placements: Vec<Move> = moves
                .iter()
                .filter(|m| matches!(m, Move::PlaceNeighborhood { neighborhood, .. } if want.contains(neighborhood)))
                .cloned()
                .collect();
            if !placements.is_empty() {
                return self.best_placement(seat, placements, rng);
            }
        }
        // 4. Streetcars next to our own free properties.
        let mut best_car: Option<(i32, &Move)> = None;
        for m in &moves {
            if let Move::Streetcar { segment } = m
                && let Some(e) = crate::geometry::Edge::from_segment(segment)
            {
                let v: i32 = e
                    .sides()
                    .iter()
                    .filter_map(|&c| self.map.prop_at(c))
                    .filter(|&p| hand.contains(&p) && !self.covered(p))
                    .count() as i32;
                if v > 0 && best_car.is_none_or(|(b, _)| v > b) {
                    best_car = Some((v, m));
                }
            }
        }
        if let Some((_, m)) = best_car {
            return Some(m.clone());
        }
        if let Some((_, m)) = best {
            return Some(m.clone());
        }
        // 5. Exchange dead cards if any properties are still free; otherwise pass.
        let free_left =
            self.map.props().iter().any(|&p| !self.covered(p)) || self.map.tiles.len() < 8;
        let dead: Vec<u8> = hand
            .iter()
            .copied()
            .filter(|&c| self.card_use(c) == 0 || !self.map.is_placed_prop(c))
            .filter(|&c| !is_special_card(c))
            .collect();
        let stacks_left: usize = self.stacks.iter().map(|s| s.len()).sum();
        if free_left && stacks_left > 0 && self.turn_number < 400 {
            let to_swap = if dead.is_empty() {
                // Keep nothing that cannot be built: swap everything unplayable.
                hand.to_vec()
            } else {
                dead
            };
            let m = Move::Exchange { cards: to_swap };
            if moves.contains(&m) {
                return Some(m);
            }
        }
        Some(Move::Pass {})
    }

    /// A placement that puts our cards next to each other, else any.
    fn best_placement(&self, seat: Seat, moves: Vec<Move>, rng: &mut GameRng) -> Option<Move> {
        let hand = self.hand(seat);
        let mut best: Vec<&Move> = Vec::new();
        let mut best_v = i32::MIN;
        for m in &moves {
            let Move::PlaceNeighborhood {
                neighborhood,
                x,
                y,
                rotation,
            } = m
            else {
                continue;
            };
            let cells = crate::geometry::tile_cells(*neighborhood, *x, *y, *rotation);
            let mut v = 0;
            for &(c, p) in &cells {
                if !hand.contains(&p) {
                    continue;
                }
                for n in c.neighbors() {
                    if let Some(q) = self.map.prop_at(n)
                        && hand.contains(&q)
                        && !self.covered(q)
                    {
                        v += 1;
                    }
                }
            }
            if v > best_v {
                best_v = v;
                best.clear();
            }
            if v == best_v {
                best.push(m);
            }
        }
        rng.choose(&best).map(|m| (*m).clone())
    }
}
