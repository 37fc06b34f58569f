//! Listing every legal move of the current decision.
//!
//! The lists agree with [`BigCity::apply`]: every listed move is accepted, and a
//! move is accepted only if it is listed, with one convenience: `exchange` and
//! `trade_answer` list each set of cards once, in hand order, while `apply` also
//! accepts the same set in another order (the order cards go under their stacks).

use crate::game::{BigCity, LazySurroundings, Step};
use crate::geometry::{Cell, Shape};
use crate::pieces::is_special_card;
use crate::wire::{Move, Piece, TradePick};
use engine::Seat;

/// Single-cell pieces that need property cards.
const SINGLES: [Piece; 7] = [
    Piece::ResidenceSingle,
    Piece::BusinessSingle,
    Piece::CityHall,
    Piece::Church,
    Piece::Cinema,
    Piece::PostOffice,
    Piece::Bank,
];
const DOUBLES: [Piece; 3] = [
    Piece::ResidenceDouble,
    Piece::BusinessDouble,
    Piece::ShoppingCenter,
];
const TRIPLES: [Piece; 2] = [Piece::ResidenceTriple, Piece::BusinessTriple];
const SPECIALS: [Piece; 4] = [
    Piece::LincolnPark,
    Piece::CentralPark,
    Piece::StanfordCorporation,
    Piece::RockwellIndustries,
];

/// Every non-empty subset of `items` with at most `max` elements, in order.
pub(crate) fn subsets(items: &[u8], min: usize, max: usize) -> Vec<Vec<u8>> {
    let n = items.len();
    let mut out = Vec::new();
    for mask in 1u32..(1u32 << n) {
        let k = mask.count_ones() as usize;
        if k < min.max(1) || k > max {
            continue;
        }
        out.push(
            (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| items[i])
                .collect(),
        );
    }
    out
}

/// Every allowed `wanted` list of a trade offer: none, one or two neighborhoods.
pub(crate) fn wanted_lists() -> Vec<Vec<u8>> {
    let mut wanted: Vec<Vec<u8>> = vec![Vec::new()];
    for a in 1..=8u8 {
        wanted.push(vec![a]);
        for b in (a + 1)..=8 {
            wanted.push(vec![a, b]);
        }
    }
    wanted
}

impl Move {
    /// The move as played: without what the legal-move list adds to it (the
    /// points of a build).
    pub fn played(&self) -> Move {
        match self {
            Move::Build { piece, cells, .. } => Move::Build {
                piece: *piece,
                cells: cells.clone(),
                points: None,
            },
            other => other.clone(),
        }
    }
}

impl BigCity {
    /// Every legal move of `seat` now.
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let mut out = Vec::new();
        if !self.is_awaited(seat) {
            return out;
        }
        match &self.step {
            Step::StartingCity => {
                for t in &self.placements {
                    if self.setup_set.contains(&t.neighborhood) {
                        out.push(Move::PlaceNeighborhood {
                            neighborhood: t.neighborhood,
                            x: t.x,
                            y: t.y,
                            rotation: t.rotation,
                        });
                    }
                }
            }
            Step::Action => self.action_moves(seat, &mut out),
            Step::SecondStreetcar => {
                out.push(Move::Done {});
                for e in self.streetcar_edges() {
                    out.push(Move::Streetcar {
                        segment: e.segment(),
                    });
                }
            }
            Step::Drawing { .. } => {
                for stack in self.drawable() {
                    out.push(Move::Draw { stack });
                }
            }
            Step::TradeAnswers => {
                out.push(Move::TradeAnswer { cards: Vec::new() });
                for cards in subsets(self.hand(seat), 1, 2) {
                    out.push(Move::TradeAnswer { cards });
                }
            }
            Step::TradeAccept => self.accept_moves(&mut out),
            Step::TradeExchange => {
                out.push(Move::Done {});
                for cards in subsets(self.hand(seat), 1, 2) {
                    out.push(Move::Exchange { cards });
                }
            }
            Step::Over(_) => {}
        }
        out
    }

    fn accept_moves(&self, out: &mut Vec<Move>) {
        out.push(Move::TradeAccept { picks: Vec::new() });
        let Some(t) = &self.trade else { return };
        let mut answer_cards: Vec<(u8, u8)> = Vec::new();
        for s in 0..self.seats {
            if s == self.active {
                continue;
            }
            if let Some(a) = &t.answers[usize::from(s)] {
                for i in 0..a.len() {
                    answer_cards.push((s, i as u8));
                }
            }
        }
        for &give in &t.offered {
            for &(seat, index) in &answer_cards {
                out.push(Move::TradeAccept {
                    picks: vec![TradePick { give, seat, index }],
                });
            }
        }
        if t.offered.len() == 2 {
            let (g0, g1) = (t.offered[0], t.offered[1]);
            for (i, &(s0, i0)) in answer_cards.iter().enumerate() {
                for (j, &(s1, i1)) in answer_cards.iter().enumerate() {
                    if i != j {
                        out.push(Move::TradeAccept {
                            picks: vec![
                                TradePick {
                                    give: g0,
                                    seat: s0,
                                    index: i0,
                                },
                                TradePick {
                                    give: g1,
                                    seat: s1,
                                    index: i1,
                                },
                            ],
                        });
                    }
                }
            }
        }
    }

    fn action_moves(&self, seat: Seat, out: &mut Vec<Move>) {
        let hand = self.hand(seat);
        if !self.options.useless_must_be_exchanged {
            for &c in hand {
                if self.is_useless(c) {
                    out.push(Move::DiscardUseless { card: c });
                }
            }
        }
        self.build_moves(seat, out);
        for e in self.streetcar_edges() {
            out.push(Move::Streetcar {
                segment: e.segment(),
            });
        }
        if self.city_hall_built() {
            for t in &self.placements {
                out.push(Move::PlaceNeighborhood {
                    neighborhood: t.neighborhood,
                    x: t.x,
                    y: t.y,
                    rotation: t.rotation,
                });
            }
        }
        for cards in subsets(hand, 1, hand.len()) {
            out.push(Move::Exchange { cards });
        }
        if self.options.trade_cards {
            let wanted = wanted_lists();
            for cards in subsets(hand, 1, 2) {
                for w in &wanted {
                    out.push(Move::TradeOffer {
                        cards: cards.clone(),
                        wanted: w.clone(),
                    });
                }
            }
        }
        out.push(Move::Pass {});
    }

    /// Build moves: footprints made of held property cards, and parks/factories,
    /// each with the points it would score now (the board's preview).
    pub(crate) fn build_moves(&self, seat: Seat, out: &mut Vec<Move>) {
        self.for_each_build(seat, |piece, cells| {
            let points = self.check_build(seat, piece, cells).ok();
            out.push(Move::Build {
                piece,
                cells: cells.to_vec(),
                points: points.and_then(|p| u16::try_from(p).ok()),
            })
        });
    }

    /// Calls `f` with every legal build of `seat` (piece and property numbers).
    pub(crate) fn for_each_build(&self, seat: Seat, mut f: impl FnMut(Piece, &[u8])) {
        let hand = self.hand(seat);
        // Held property cards that lie in the city and are free.
        let usable: Vec<(u8, Cell)> = hand
            .iter()
            .filter(|&&c| !is_special_card(c) && !self.covered(c))
            .filter_map(|&c| self.map.cell_of(c).map(|cell| (c, cell)))
            .collect();
        // Each footprint is checked once; then each piece that fits its shape.
        let mut try_group = |pieces: &[Piece], cells: &[u8]| {
            let Some(&first) = pieces.first() else { return };
            let Ok(pos) = self.check_footprint(first, cells) else {
                return;
            };
            let mut ctx = LazySurroundings::new(pos);
            for &piece in pieces {
                if self
                    .check_piece(seat, piece, cells, &mut ctx, false)
                    .is_ok()
                {
                    f(piece, cells);
                }
            }
        };
        for &(p, _) in &usable {
            try_group(&SINGLES, &[p]);
        }
        for (i, &(p, c)) in usable.iter().enumerate() {
            for &(q, d) in &usable[i + 1..] {
                if c.adjacent(d) {
                    try_group(&DOUBLES, &[p, q]);
                }
            }
        }
        for (i, &(p, c)) in usable.iter().enumerate() {
            for (j, &(q, d)) in usable.iter().enumerate().skip(i + 1) {
                for &(r, e) in &usable[j + 1..] {
                    let straight = (c.x == d.x && d.x == e.x) || (c.y == d.y && d.y == e.y);
                    if straight && Shape::Line3.matches(&[c, d, e]) {
                        try_group(&TRIPLES, &[p, q, r]);
                    }
                }
            }
        }
        if self.city_hall_built() {
            for piece in SPECIALS {
                let Some(card) = piece.special_card() else {
                    continue;
                };
                if self.supply[piece.index()] == 0 || !hand.contains(&card) {
                    continue;
                }
                // Every free footprint, anchored at its first cell in (y, x) order.
                for &anchor in self.map.props() {
                    if self.covered(anchor) {
                        continue;
                    }
                    let Some(a) = self.map.cell_of(anchor) else {
                        continue;
                    };
                    // Supply, city hall and the card are checked above; the cells
                    // are free by construction: what remains is G8 and A2's site rule.
                    'shape: for o in piece.shape().orientations() {
                        let mut props = [0u8; 4];
                        let mut cells = [Cell::default(); 4];
                        for (k, &(dx, dy)) in o.iter().enumerate() {
                            let c = Cell::new(a.x + dx, a.y + dy);
                            match self.map.prop_at(c) {
                                Some(p) if !self.covered(p) => {
                                    props[k] = p;
                                    cells[k] = c;
                                }
                                _ => continue 'shape,
                            }
                        }
                        let props = &props[..o.len()];
                        if !self.crosses_line(&cells[..o.len()])
                            && self.check_special_site(piece, props).is_ok()
                        {
                            f(piece, props);
                        }
                    }
                }
            }
        }
    }
}
