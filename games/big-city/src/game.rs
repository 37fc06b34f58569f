//! The Big City state machine: setup (C2, F1), turns made of atomic moves, validation
//! with stable error codes, scoring (V1-V3), game end (F2, F3) and timeouts (O1).

use crate::geometry::{self, Cell, CityMap, Edge, Line, PlacementError, TilePlacement};
use crate::pieces::{self, ALL_PIECES, STREETCARS, is_special_card, stack_of};
use crate::wire::*;
use engine::{Awaiting, GameRng, Illegal, Outcome, Seat, Setup, SetupError};

/// A placed building, park or factory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Building {
    pub piece: Piece,
    pub cells: Vec<u8>,
    pub owner: u8,
    pub points: i32,
}

/// Which decision the game waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    StartingCity,
    Action,
    SecondStreetcar,
    Drawing { remaining: u8 },
    TradeAnswers,
    TradeAccept,
    TradeExchange,
    Over(EndReason),
}

/// A trade in progress (A7). Offered and answer cards stay in their hands until
/// accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trade {
    pub offered: Vec<u8>,
    pub wanted: Vec<u8>,
    /// Per seat: `None` until it answered.
    pub answers: Vec<Option<Vec<u8>>>,
}

/// The whole game state. Equal states compare equal. The shuffle happens in
/// [`BigCity::new`]; nothing later is random, so the state keeps no RNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigCity {
    pub(crate) seats: u8,
    pub(crate) options: Options,
    pub(crate) first_seat: u8,
    pub(crate) map: CityMap,
    /// Per property number: index + 1 of the building covering it, 0 when free.
    pub(crate) cover: [u16; 90],
    pub(crate) buildings: Vec<Building>,
    pub(crate) line: Line,
    pub(crate) supply: [u8; 16],
    pub(crate) streetcars_left: u8,
    pub(crate) scores: Vec<i32>,
    /// Hands, each sorted ascending.
    pub(crate) hands: Vec<Vec<u8>>,
    /// Stacks 1..=8 at index 0..=7; the top card is the last element.
    pub(crate) stacks: [Vec<u8>; 8],
    pub(crate) discards: Vec<u8>,
    pub(crate) step: Step,
    pub(crate) active: u8,
    pub(crate) drawn: [u8; 8],
    pub(crate) useless_pending: u8,
    pub(crate) passes: u8,
    pub(crate) period: u64,
    pub(crate) turn_number: u32,
    /// F1: seats still to place a starting neighborhood, in order.
    pub(crate) setup_queue: Vec<u8>,
    /// F1: neighborhoods of the starting set not yet placed.
    pub(crate) setup_set: Vec<u8>,
    /// Legal placements of every unplaced neighborhood (G6), refreshed when a tile is placed.
    pub(crate) placements: Vec<TilePlacement>,
    pub(crate) trade: Option<Trade>,
    pub(crate) winners: Vec<u8>,
}

fn wrong_step() -> Illegal<Rule> {
    Illegal::Rule(Rule::WrongPhase)
}

/// The cells of a footprint (at most four), without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Footprint {
    cells: [Cell; 4],
    len: usize,
}

impl Footprint {
    fn push(&mut self, c: Cell) {
        if self.len < 4 {
            self.cells[self.len] = c;
            self.len += 1;
        }
    }

    pub(crate) fn as_slice(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// Surroundings of a footprint, computed on first use.
pub(crate) struct LazySurroundings {
    pos: Footprint,
    ctx: Option<Surroundings>,
}

impl LazySurroundings {
    pub(crate) fn new(pos: Footprint) -> Self {
        LazySurroundings { pos, ctx: None }
    }

    fn get(&mut self, game: &BigCity, cells: &[u8]) -> Surroundings {
        if let Some(c) = self.ctx {
            return c;
        }
        let c = game.surroundings(self.pos.as_slice(), cells);
        self.ctx = Some(c);
        c
    }
}

/// Hand size (C2).
pub fn hand_size(seats: u8) -> usize {
    if seats >= 5 { 6 } else { 5 }
}

/// The starting set of neighborhoods and the placing order (F1).
pub(crate) fn starting_round(seats: u8, first: u8) -> (Vec<u8>, Vec<u8>) {
    let set: Vec<u8> = match seats {
        2 | 4 => vec![2, 3, 4, 5],
        3 => vec![2, 3, 4],
        _ => vec![2, 3, 4, 5, 6],
    };
    let queue = (0..set.len() as u8).map(|i| (first + i) % seats).collect();
    (set, queue)
}

impl BigCity {
    pub fn new(setup: &Setup<Options>) -> Result<Self, SetupError> {
        let seats = setup.seats;
        if !(2..=5).contains(&seats) {
            return Err(SetupError::Seats { min: 2, max: 5 });
        }
        if setup.options.trade_window_ms == 0 || setup.options.trade_window_ms > 600_000 {
            return Err(SetupError::OptionRange {
                name: "trade_window_ms",
                min: 1,
                max: 600_000,
            });
        }
        let mut rng = GameRng::new(setup.seed);
        let first_seat = match setup.first_seat {
            Some(s) if s < seats => s,
            Some(_) => return Err(SetupError::FirstSeat),
            None => rng.below(usize::from(seats)) as u8,
        };
        let mut stacks: [Vec<u8>; 8] = Default::default();
        for (i, stack) in stacks.iter_mut().enumerate() {
            *stack = pieces::stack_cards(i as u8 + 1);
            rng.shuffle(stack);
        }
        let per_hand = if seats >= 5 { 6 } else { 5 };
        let mut hands = vec![Vec::new(); usize::from(seats)];
        for hand in hands.iter_mut() {
            for stack in stacks.iter_mut().take(per_hand) {
                if let Some(c) = stack.pop() {
                    hand.push(c);
                }
            }
            hand.sort_unstable();
        }
        let (setup_set, setup_queue) = starting_round(seats, first_seat);
        let mut supply = [0u8; 16];
        for p in ALL_PIECES {
            supply[p.index()] = p.supply();
        }
        let mut g = BigCity {
            seats,
            options: setup.options.clone(),
            first_seat,
            map: CityMap::starting(),
            cover: [0; 90],
            buildings: Vec::new(),
            line: Line::default(),
            supply,
            streetcars_left: STREETCARS,
            scores: vec![0; usize::from(seats)],
            hands,
            stacks,
            discards: Vec::new(),
            step: Step::StartingCity,
            active: setup_queue.first().copied().unwrap_or(first_seat),
            drawn: [0; 8],
            useless_pending: 0,
            passes: 0,
            period: 0,
            turn_number: 0,
            setup_queue,
            setup_set,
            placements: Vec::new(),
            trade: None,
            winners: Vec::new(),
        };
        g.refresh_placements();
        Ok(g)
    }

    pub(crate) fn refresh_placements(&mut self) {
        self.placements.clear();
        for n in 1..=8 {
            if !self.map.has_neighborhood(n) {
                let p = self.map.legal_placements(n);
                self.placements.extend(p);
            }
        }
    }

    // ----- small queries -----

    pub(crate) fn hand(&self, seat: u8) -> &[u8] {
        self.hands
            .get(usize::from(seat))
            .map_or(&[], |h| h.as_slice())
    }

    fn holds(&self, seat: u8, card: u8) -> bool {
        self.hand(seat).binary_search(&card).is_ok()
    }

    pub(crate) fn city_hall_built(&self) -> bool {
        self.supply[Piece::CityHall.index()] == 0
    }

    pub(crate) fn covered(&self, prop: u8) -> bool {
        self.cover.get(usize::from(prop)).is_some_and(|&b| b != 0)
    }

    fn building_at(&self, prop: u8) -> Option<&Building> {
        let b = *self.cover.get(usize::from(prop))?;
        if b == 0 {
            None
        } else {
            self.buildings.get(usize::from(b - 1))
        }
    }

    pub(crate) fn building_at_cell(&self, c: Cell) -> u16 {
        self.map
            .prop_at(c)
            .map_or(0, |p| self.cover[usize::from(p)])
    }

    /// A property card whose property is covered by a park or factory (C5).
    pub(crate) fn is_useless(&self, card: u8) -> bool {
        !is_special_card(card)
            && self
                .building_at(card)
                .is_some_and(|b| b.piece.is_park() || b.piece.is_factory())
    }

    fn game_over(&self) -> bool {
        matches!(self.step, Step::Over(_))
    }

    pub(crate) fn awaiting_seats(&self) -> Vec<Seat> {
        match &self.step {
            Step::Over(_) => Vec::new(),
            Step::TradeAnswers => match &self.trade {
                Some(t) => (0..self.seats)
                    .filter(|&s| s != self.active && t.answers[usize::from(s)].is_none())
                    .collect(),
                None => Vec::new(),
            },
            _ => vec![self.active],
        }
    }

    /// Whether `seat`'s decision is awaited (without allocating).
    pub(crate) fn is_awaited(&self, seat: u8) -> bool {
        match &self.step {
            Step::Over(_) => false,
            Step::TradeAnswers => {
                seat != self.active
                    && self
                        .trade
                        .as_ref()
                        .and_then(|t| t.answers.get(usize::from(seat)))
                        .is_some_and(|a| a.is_none())
            }
            _ => seat == self.active,
        }
    }

    pub fn awaiting(&self) -> Awaiting {
        Awaiting {
            seats: self.awaiting_seats(),
            period: self.period,
            window_ms: if self.step == Step::TradeAnswers {
                Some(u64::from(self.options.trade_window_ms))
            } else {
                None
            },
        }
    }

    /// Stacks the active seat may draw from now (C4), ascending.
    pub(crate) fn drawable(&self) -> Vec<u8> {
        (1..=8u8)
            .filter(|&s| self.stack_allowed(s).is_ok())
            .collect()
    }

    fn stack_allowed(&self, stack: u8) -> Result<(), Rule> {
        if !(1..=8).contains(&stack) {
            return Err(Rule::BadStack);
        }
        let i = usize::from(stack - 1);
        if self.stacks[i].is_empty() {
            return Err(Rule::StackEmpty { stack });
        }
        if self.drawn[i] >= 2 {
            return Err(Rule::StackLimit { stack });
        }
        if self.options.limited_card_drawing && !self.map.has_neighborhood(stack) {
            return Err(Rule::StackNotInCity { stack });
        }
        Ok(())
    }

    // ----- building checks -----

    /// Validates a build (A1, A2) and returns its points.
    pub(crate) fn check_build(&self, seat: u8, piece: Piece, cells: &[u8]) -> Result<i32, Rule> {
        let pos = self.check_footprint(piece, cells)?;
        let mut ctx = LazySurroundings::new(pos);
        self.check_piece(seat, piece, cells, &mut ctx, true)
    }

    /// Cells part of a build: in the city, free, the piece's shape, not across a
    /// streetcar (G7, G8).
    pub(crate) fn check_footprint(&self, piece: Piece, cells: &[u8]) -> Result<Footprint, Rule> {
        let shape = piece.shape();
        if cells.len() != shape.size() {
            return Err(Rule::WrongShape { piece });
        }
        let mut pos = Footprint::default();
        for (i, &p) in cells.iter().enumerate() {
            if cells[..i].contains(&p) {
                return Err(Rule::DuplicateCells);
            }
            let Some(c) = self.map.cell_of(p) else {
                return Err(Rule::CellNotInCity { property: p });
            };
            if self.covered(p) {
                return Err(Rule::CellCovered { property: p });
            }
            pos.push(c);
        }
        if !shape.matches(pos.as_slice()) {
            return Err(Rule::WrongShape { piece });
        }
        if self.crosses_line(pos.as_slice()) {
            return Err(Rule::CrossesStreetcar);
        }
        Ok(pos)
    }

    /// Whether a streetcar runs between two cells of the footprint (G8).
    pub(crate) fn crosses_line(&self, cs: &[Cell]) -> bool {
        if self.line.is_empty() {
            return false;
        }
        cs.iter().any(|&c| {
            let right = Cell::new(c.x + 1, c.y);
            let below = Cell::new(c.x, c.y + 1);
            (cs.contains(&right) && self.line.contains(Edge::vertical(c.x + 1, c.y)))
                || (cs.contains(&below) && self.line.contains(Edge::horizontal(c.x, c.y + 1)))
        })
    }

    /// A2: a park may have at most one cell on the outskirts, a factory at least two.
    pub(crate) fn check_special_site(&self, piece: Piece, cells: &[u8]) -> Result<(), Rule> {
        let outskirts = cells.iter().filter(|&&p| self.map.outskirts(p)).count();
        if piece.is_park() && outskirts > 1 {
            return Err(Rule::ParkOutskirts);
        }
        if piece.is_factory() && outskirts < 2 {
            return Err(Rule::FactoryOutskirts);
        }
        Ok(())
    }

    /// The rules of the piece itself: supply, city hall, cards, prerequisites (P1-P5),
    /// and its points (V1-V3).
    /// Returns the points when `score_it` is set. Listing passes `false`: it needs
    /// only legality, and its footprints are made of held cards already.
    pub(crate) fn check_piece(
        &self,
        seat: u8,
        piece: Piece,
        cells: &[u8],
        lazy: &mut LazySurroundings,
        score_it: bool,
    ) -> Result<i32, Rule> {
        if self.supply[piece.index()] == 0 {
            return Err(Rule::PieceUnavailable { piece });
        }
        if piece != Piece::CityHall
            && !piece.is_residence()
            && !piece.is_business()
            && !self.city_hall_built()
        {
            return Err(Rule::NeedsCityHall { piece: Some(piece) });
        }
        if let Some(card) = piece.special_card() {
            if !self.holds(seat, card) {
                return Err(Rule::SpecialCardNotHeld { piece });
            }
            self.check_special_site(piece, cells)?;
            return Ok(0);
        }
        if score_it {
            for &p in cells {
                if !self.holds(seat, p) {
                    return Err(Rule::CardsNotHeld { card: p });
                }
            }
        }
        let needs_ctx = score_it
            || matches!(
                piece,
                Piece::Cinema | Piece::PostOffice | Piece::Bank | Piece::ShoppingCenter
            );
        let ctx = if needs_ctx {
            lazy.get(self, cells)
        } else {
            Surroundings::default()
        };
        let ctx = &ctx;
        match piece {
            Piece::CityHall if self.map.outskirts(cells[0]) => {
                return Err(Rule::CityHallOutskirts);
            }
            Piece::Church => {
                let p = cells[0];
                if p % 10 != p / 10 {
                    return Err(Rule::ChurchNotDouble);
                }
                let n = p / 10;
                if geometry::tile_properties(n).any(|q| q != p && !self.covered(q)) {
                    return Err(Rule::ChurchNotLast { neighborhood: n });
                }
            }
            Piece::Cinema if ctx.residences < 2 => {
                return Err(Rule::CinemaPrerequisite);
            }
            Piece::PostOffice if ctx.residences < 1 || ctx.businesses < 1 => {
                return Err(Rule::PostOfficePrerequisite);
            }
            Piece::Bank if ctx.businesses < 2 => {
                return Err(Rule::BankPrerequisite);
            }
            Piece::ShoppingCenter
                if ctx.residences < 1 || ctx.businesses < 1 || ctx.specials < 1 || !ctx.line =>
            {
                return Err(Rule::ShoppingCenterPrerequisite);
            }
            _ => {}
        }
        Ok(if score_it { score(piece, ctx) } else { 0 })
    }

    /// What lies around a footprint.
    pub(crate) fn surroundings(&self, pos: &[Cell], cells: &[u8]) -> Surroundings {
        let mut seen = [0u16; 16];
        let mut n_seen = 0;
        let mut line = false;
        for &c in pos {
            for (n, e) in c.neighbors().into_iter().zip(c.edges()) {
                if pos.contains(&n) {
                    continue;
                }
                // A boundary segment of the footprint (G9).
                if !line && self.line.contains(e) {
                    line = true;
                }
                let b = self.building_at_cell(n);
                if b != 0 && !seen[..n_seen].contains(&b) && n_seen < seen.len() {
                    seen[n_seen] = b;
                    n_seen += 1;
                }
            }
        }
        let mut s = Surroundings {
            outskirts: cells.iter().any(|&p| self.map.outskirts(p)),
            line,
            ..Surroundings::default()
        };
        for &b in &seen[..n_seen] {
            let piece = self.buildings[usize::from(b - 1)].piece;
            if piece.is_residence() {
                s.residences += 1;
            } else if piece.is_business() {
                s.businesses += 1;
            } else if piece.is_park() {
                s.park = true;
            } else if piece.is_factory() {
                s.factory = true;
            }
            if piece.is_special_building() {
                s.specials += 1;
            }
            if piece == Piece::CityHall {
                s.city_hall = true;
            }
        }
        s
    }

    // ----- streetcars -----

    /// Validates one streetcar segment (S1-S6, G8) for the current line.
    pub(crate) fn check_streetcar(&self, seg: &Segment) -> Result<Edge, Rule> {
        let Some(e) = Edge::from_segment(seg) else {
            return Err(Rule::BadSegment);
        };
        // Far outside the grid (also keeps the side cells' coordinates in range).
        if !geometry::in_grid(Cell::new(e.x, e.y)) {
            return Err(Rule::StreetNotInCity);
        }
        self.check_edge(e)?;
        Ok(e)
    }

    fn check_edge(&self, e: Edge) -> Result<(), Rule> {
        if !self.city_hall_built() {
            return Err(Rule::NeedsCityHall { piece: None });
        }
        if self.streetcars_left == 0 {
            return Err(Rule::NoStreetcarsLeft);
        }
        let [a, b] = e.sides();
        let (pa, pb) = (self.map.prop_at(a), self.map.prop_at(b));
        if pa.is_none() && pb.is_none() {
            return Err(Rule::StreetNotInCity);
        }
        let (ba, bb) = (self.building_at_cell(a), self.building_at_cell(b));
        if ba != 0 && ba == bb {
            return Err(Rule::StreetClosed);
        }
        if self.line.contains(e) {
            return Err(Rule::StreetcarTaken);
        }
        if !self.line.may_extend(e, false) {
            return Err(Rule::StreetcarNotConnected);
        }
        if self.options.single_streetcar_line && !self.line.may_extend(e, true) {
            return Err(Rule::SingleLine);
        }
        if self.options.limited_streetcar_line && ba == 0 && bb == 0 {
            return Err(Rule::LimitedLine);
        }
        Ok(())
    }

    /// Every segment that may take the next streetcar.
    pub(crate) fn streetcar_edges(&self) -> Vec<Edge> {
        let mut out = Vec::new();
        if !self.city_hall_built() || self.streetcars_left == 0 {
            return out;
        }
        if self.line.is_empty() {
            // Every street of the city once: a cell names its top and left edges, and
            // its bottom and right edges where no city cell lies beyond them.
            for &p in self.map.props() {
                let Some(c) = self.map.cell_of(p) else {
                    continue;
                };
                let [top, right, bottom, left] = c.edges();
                let mut consider = |e: Edge| {
                    if self.check_edge(e).is_ok() {
                        out.push(e);
                    }
                };
                consider(top);
                consider(left);
                if !self.map.is_city(Cell::new(c.x, c.y + 1)) {
                    consider(bottom);
                }
                if !self.map.is_city(Cell::new(c.x + 1, c.y)) {
                    consider(right);
                }
            }
            return out;
        }
        // Only segments touching the line can extend it.
        let mut vertices: Vec<geometry::Vertex> = Vec::with_capacity(self.line.len() + 1);
        for le in self.line.edges() {
            for v in le.ends() {
                if !vertices.contains(&v) {
                    vertices.push(v);
                }
            }
        }
        for v in vertices {
            for e in [
                Edge::horizontal(v.x, v.y),
                Edge::horizontal(v.x - 1, v.y),
                Edge::vertical(v.x, v.y),
                Edge::vertical(v.x, v.y - 1),
            ] {
                if !out.contains(&e) && self.check_edge(e).is_ok() {
                    out.push(e);
                }
            }
        }
        out
    }

    // ----- applying moves -----

    pub fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        if self.game_over() {
            return Err(Illegal::game_over());
        }
        if !self.is_awaited(seat) {
            return Err(Illegal::not_your_turn());
        }
        // Validate on a copy-free path: every branch checks before it mutates.
        let mut ev = Vec::new();
        match (&self.step, mv) {
            (
                Step::StartingCity,
                Move::PlaceNeighborhood {
                    neighborhood,
                    x,
                    y,
                    rotation,
                },
            ) => {
                let t = TilePlacement {
                    neighborhood: *neighborhood,
                    x: *x,
                    y: *y,
                    rotation: *rotation,
                };
                if !self.setup_set.contains(neighborhood) {
                    return Err(Illegal::Rule(Rule::NotInStartingSet {
                        neighborhood: *neighborhood,
                    }));
                }
                self.check_tile(t)?;
                self.place_tile(seat, t, &mut ev);
                self.setup_set.retain(|n| n != neighborhood);
                self.next_setup(&mut ev);
            }
            (Step::Action, _) => self.apply_action(seat, mv, &mut ev)?,
            (Step::SecondStreetcar, Move::Streetcar { segment }) => {
                let e = self.check_streetcar(segment)?;
                self.place_streetcar(seat, e, &mut ev);
                self.finish_action(self.useless_pending, &mut ev);
            }
            (Step::SecondStreetcar, Move::Done {}) => {
                self.finish_action(self.useless_pending, &mut ev);
            }
            (Step::Drawing { .. }, Move::Draw { stack }) => {
                self.stack_allowed(*stack)?;
                self.draw(*stack, &mut ev);
            }
            (Step::TradeAnswers, Move::TradeAnswer { cards }) => {
                self.check_cards(seat, cards, 0, 2)?;
                let t = self.trade.as_mut().ok_or_else(wrong_step)?;
                t.answers[usize::from(seat)] = Some(cards.clone());
                // Only that the seat answered (public anyway: it leaves the
                // awaited seats); what it answered waits for the window to close.
                ev.push(event(EventKind::TradeAnswered { seat }));
                if self.awaiting_seats().is_empty() {
                    self.resolve_answers(&mut ev);
                }
            }
            (Step::TradeAccept, Move::TradeAccept { picks }) => {
                self.check_picks(picks)?;
                self.accept_trade(picks, &mut ev);
            }
            (Step::TradeExchange, Move::Exchange { cards }) => {
                self.check_cards(seat, cards, 1, 2)?;
                self.acted();
                self.exchange(seat, cards, &mut ev);
            }
            (Step::TradeExchange, Move::Done {}) => {
                // Nothing changed hands: the turn counts as a pass (F2).
                self.passes += 1;
                self.finish_action(self.useless_pending, &mut ev);
            }
            _ => return Err(wrong_step()),
        }
        Ok(ev)
    }

    fn check_tile(&self, t: TilePlacement) -> Result<(), Illegal<Rule>> {
        if !(1..=8).contains(&t.neighborhood) {
            return Err(Illegal::Rule(Rule::UnknownNeighborhood));
        }
        self.map
            .check_placement(t)
            .map(|_| ())
            .map_err(|e| match e {
                PlacementError::BadRotation => Illegal::Rule(Rule::BadRotation),
                PlacementError::OutOfGrid => Illegal::Rule(Rule::OutOfGrid),
                PlacementError::AlreadyPlaced => Illegal::Rule(Rule::NeighborhoodPlaced {
                    neighborhood: t.neighborhood,
                }),
                PlacementError::Overlap => Illegal::Rule(Rule::Overlap),
                PlacementError::NotConnected => Illegal::Rule(Rule::NotConnected),
            })
    }

    fn check_cards(
        &self,
        seat: u8,
        cards: &[u8],
        min: usize,
        max: usize,
    ) -> Result<(), Illegal<Rule>> {
        if cards.len() < min {
            return Err(Illegal::Rule(Rule::TooFewCards { min: min as u8 }));
        }
        if cards.len() > max {
            return Err(Illegal::Rule(Rule::TooManyCards { max: max as u8 }));
        }
        for (i, &c) in cards.iter().enumerate() {
            if cards[..i].contains(&c) {
                return Err(Illegal::Rule(Rule::DuplicateCards));
            }
            if !self.holds(seat, c) {
                return Err(Illegal::Rule(Rule::CardsNotHeld { card: c }));
            }
        }
        Ok(())
    }

    fn apply_action(
        &mut self,
        seat: u8,
        mv: &Move,
        ev: &mut Vec<Event>,
    ) -> Result<(), Illegal<Rule>> {
        match mv {
            Move::PlaceNeighborhood {
                neighborhood,
                x,
                y,
                rotation,
            } => {
                if !self.city_hall_built() {
                    return Err(Illegal::Rule(Rule::NeedsCityHall { piece: None }));
                }
                let t = TilePlacement {
                    neighborhood: *neighborhood,
                    x: *x,
                    y: *y,
                    rotation: *rotation,
                };
                self.check_tile(t)?;
                self.acted();
                self.place_tile(seat, t, ev);
                self.finish_action(self.useless_pending, ev);
            }
            Move::Build { piece, cells, .. } => {
                let points = self.check_build(seat, *piece, cells)?;
                self.acted();
                let draws = if let Some(card) = piece.special_card() {
                    self.remove_card(seat, card);
                    self.discards.push(card);
                    1
                } else {
                    for &c in cells {
                        self.remove_card(seat, c);
                        self.discards.push(c);
                    }
                    cells.len() as u8
                };
                self.supply[piece.index()] -= 1;
                self.buildings.push(Building {
                    piece: *piece,
                    cells: cells.clone(),
                    owner: seat,
                    points,
                });
                let id = self.buildings.len() as u16;
                for &c in cells {
                    self.cover[usize::from(c)] = id;
                }
                self.scores[usize::from(seat)] += points;
                ev.push(event(EventKind::Built {
                    seat,
                    piece: *piece,
                    cells: cells.clone(),
                    points,
                }));
                self.finish_action(draws + self.useless_pending, ev);
            }
            Move::Streetcar { segment } => {
                let e = self.check_streetcar(segment)?;
                let first = self.line.is_empty();
                self.acted();
                self.place_streetcar(seat, e, ev);
                if !first && !self.streetcar_edges().is_empty() {
                    self.step = Step::SecondStreetcar;
                } else {
                    self.finish_action(self.useless_pending, ev);
                }
            }
            Move::Exchange { cards } => {
                self.check_cards(seat, cards, 1, self.hand(seat).len().max(1))?;
                self.acted();
                self.exchange(seat, cards, ev);
            }
            Move::Pass {} => {
                self.pass(seat, ev);
            }
            Move::DiscardUseless { card } => {
                if self.options.useless_must_be_exchanged {
                    return Err(Illegal::Rule(Rule::DiscardNotAllowed));
                }
                if !self.holds(seat, *card) {
                    return Err(Illegal::Rule(Rule::CardsNotHeld { card: *card }));
                }
                if !self.is_useless(*card) {
                    return Err(Illegal::Rule(Rule::NotUseless { card: *card }));
                }
                self.remove_card(seat, *card);
                self.discards.push(*card);
                self.useless_pending += 1;
                ev.push(event(EventKind::UselessDiscarded { seat, card: *card }));
            }
            Move::TradeOffer { cards, wanted } => {
                if !self.options.trade_cards {
                    return Err(Illegal::Rule(Rule::TradeDisabled));
                }
                self.check_cards(seat, cards, 1, 2)?;
                if wanted.len() > 2
                    || wanted.windows(2).any(|w| w[0] >= w[1])
                    || wanted.iter().any(|n| !(1..=8).contains(n))
                {
                    return Err(Illegal::Rule(Rule::BadWanted));
                }
                // The pass streak is decided when the trade ends: a trade in which
                // nothing changes hands counts as a pass (F2).
                let neighborhoods: Vec<u8> = cards.iter().map(|&c| stack_of(c)).collect();
                ev.push(event(EventKind::TradeOffered {
                    seat,
                    neighborhoods,
                    wanted: wanted.clone(),
                }));
                let mut answers = vec![None; usize::from(self.seats)];
                answers[usize::from(seat)] = Some(Vec::new());
                self.trade = Some(Trade {
                    offered: cards.clone(),
                    wanted: wanted.clone(),
                    answers,
                });
                self.step = Step::TradeAnswers;
                self.period += 1;
            }
            _ => return Err(wrong_step()),
        }
        Ok(())
    }

    /// A real action was chosen: the pass streak ends.
    fn acted(&mut self) {
        self.passes = 0;
    }

    fn pass(&mut self, seat: u8, ev: &mut Vec<Event>) {
        self.passes += 1;
        ev.push(event(EventKind::Passed { seat }));
        self.finish_action(self.useless_pending, ev);
    }

    fn remove_card(&mut self, seat: u8, card: u8) {
        if let Some(h) = self.hands.get_mut(usize::from(seat))
            && let Ok(i) = h.binary_search(&card)
        {
            h.remove(i);
        }
    }

    fn add_card(&mut self, seat: u8, card: u8) {
        if let Some(h) = self.hands.get_mut(usize::from(seat)) {
            let i = h.binary_search(&card).unwrap_or_else(|i| i);
            h.insert(i, card);
        }
    }

    fn place_tile(&mut self, seat: u8, t: TilePlacement, ev: &mut Vec<Event>) {
        if self.map.place(t).is_ok() {
            self.placements = self.map.update_placements(&self.placements, t);
            ev.push(event(EventKind::NeighborhoodPlaced {
                seat,
                neighborhood: t.neighborhood,
                x: t.x,
                y: t.y,
                rotation: t.rotation,
            }));
        }
    }

    fn place_streetcar(&mut self, seat: u8, e: Edge, ev: &mut Vec<Event>) {
        self.line.push(e);
        self.streetcars_left -= 1;
        ev.push(event(EventKind::StreetcarPlaced {
            seat,
            segment: e.segment(),
        }));
    }

    fn exchange(&mut self, seat: u8, cards: &[u8], ev: &mut Vec<Event>) {
        for &c in cards {
            self.remove_card(seat, c);
            // Face down under its stack, each under the previous one.
            self.stacks[usize::from(stack_of(c) - 1)].insert(0, c);
        }
        ev.push(event(EventKind::Exchanged {
            seat,
            stacks: cards.iter().map(|&c| stack_of(c)).collect(),
        }));
        let want = hand_size(self.seats).saturating_sub(self.hand(seat).len()) as u8;
        self.finish_action(want, ev);
    }

    fn next_setup(&mut self, ev: &mut Vec<Event>) {
        if !self.setup_queue.is_empty() {
            self.setup_queue.remove(0);
        }
        self.period += 1;
        if let Some(&s) = self.setup_queue.first() {
            self.active = s;
        } else {
            self.active = self.first_seat;
            self.turn_number = 1;
            self.start_turn(ev);
        }
    }

    fn start_turn(&mut self, ev: &mut Vec<Event>) {
        self.step = Step::Action;
        self.drawn = [0; 8];
        self.useless_pending = 0;
        self.trade = None;
        ev.push(event(EventKind::TurnStarted { seat: self.active }));
    }

    /// The action is done; `draws` cards are to be drawn before the turn ends.
    fn finish_action(&mut self, draws: u8, ev: &mut Vec<Event>) {
        self.trade = None;
        self.step = Step::Drawing { remaining: draws };
        self.continue_drawing(ev);
    }

    fn continue_drawing(&mut self, ev: &mut Vec<Event>) {
        let Step::Drawing { remaining } = self.step else {
            return;
        };
        if remaining > 0 && !(1..=8u8).any(|st| self.stack_allowed(st).is_ok()) {
            ev.push(event(EventKind::DrawsSkipped {
                seat: self.active,
                count: remaining,
            }));
            self.end_turn(ev);
        } else if remaining == 0 {
            self.end_turn(ev);
        }
    }

    fn draw(&mut self, stack: u8, ev: &mut Vec<Event>) {
        let i = usize::from(stack - 1);
        if let Some(card) = self.stacks[i].pop() {
            self.drawn[i] += 1;
            self.add_card(self.active, card);
            ev.push(event(EventKind::Drew {
                seat: self.active,
                stack,
            }));
        }
        if let Step::Drawing { remaining } = &mut self.step {
            *remaining = remaining.saturating_sub(1);
        }
        self.continue_drawing(ev);
    }

    fn city_complete(&self) -> bool {
        self.map.tiles.len() == 8 && self.map.props().iter().all(|&p| self.covered(p))
    }

    fn end_turn(&mut self, ev: &mut Vec<Event>) {
        self.trade = None;
        let reason = if self.city_complete() {
            Some(EndReason::CityComplete)
        } else if self.passes >= self.seats {
            Some(EndReason::AllPassed)
        } else {
            None
        };
        self.period += 1;
        if let Some(reason) = reason {
            self.step = Step::Over(reason);
            let best = self.scores.iter().copied().max().unwrap_or(0);
            self.winners = (0..self.seats)
                .filter(|&s| self.scores[usize::from(s)] == best)
                .collect();
            ev.push(event(EventKind::GameOver {
                reason,
                scores: self.scores.clone(),
                winners: self.winners.clone(),
            }));
            return;
        }
        self.active = (self.active + 1) % self.seats;
        self.turn_number += 1;
        self.start_turn(ev);
    }

    // ----- trading -----

    fn resolve_answers(&mut self, ev: &mut Vec<Event>) {
        let Some(t) = &self.trade else { return };
        let answers: Vec<TradeAnswerView> = (0..self.seats)
            .filter(|&s| s != self.active)
            .map(|s| TradeAnswerView {
                seat: s,
                neighborhoods: t.answers[usize::from(s)]
                    .as_deref()
                    .unwrap_or(&[])
                    .iter()
                    .map(|&c| stack_of(c))
                    .collect(),
            })
            .collect();
        let any = answers.iter().any(|a| !a.neighborhoods.is_empty());
        ev.push(event(EventKind::TradeAnswersRevealed { answers }));
        self.period += 1;
        if any {
            self.step = Step::TradeAccept;
        } else {
            ev.push(event(EventKind::TradeFailed { seat: self.active }));
            self.step = Step::TradeExchange;
        }
    }

    fn check_picks(&self, picks: &[TradePick]) -> Result<(), Illegal<Rule>> {
        let Some(t) = &self.trade else {
            return Err(wrong_step());
        };
        if picks.len() > t.offered.len().min(2) {
            return Err(Illegal::Rule(Rule::TooManyPicks));
        }
        for (i, p) in picks.iter().enumerate() {
            if !t.offered.contains(&p.give) {
                return Err(Illegal::Rule(Rule::NotOffered { card: p.give }));
            }
            if picks[..i].iter().any(|q| q.give == p.give) {
                return Err(Illegal::Rule(Rule::DuplicatePicks));
            }
            if picks[..i]
                .iter()
                .any(|q| q.seat == p.seat && q.index == p.index)
            {
                return Err(Illegal::Rule(Rule::DuplicatePicks));
            }
            let answer = t
                .answers
                .get(usize::from(p.seat))
                .and_then(|a| a.as_ref())
                .filter(|_| p.seat != self.active);
            let ok = answer.is_some_and(|a| usize::from(p.index) < a.len());
            if !ok {
                return Err(Illegal::Rule(Rule::BadPick {
                    seat: p.seat,
                    index: p.index,
                }));
            }
        }
        Ok(())
    }

    fn accept_trade(&mut self, picks: &[TradePick], ev: &mut Vec<Event>) {
        let Some(t) = self.trade.clone() else { return };
        if picks.is_empty() {
            ev.push(event(EventKind::TradeFailed { seat: self.active }));
            self.step = Step::TradeExchange;
            self.period += 1;
            return;
        }
        let me = self.active;
        for p in picks {
            let Some(card) = t.answers[usize::from(p.seat)]
                .as_ref()
                .and_then(|a| a.get(usize::from(p.index)))
                .copied()
            else {
                continue;
            };
            self.remove_card(me, p.give);
            self.add_card(p.seat, p.give);
            self.remove_card(p.seat, card);
            self.add_card(me, card);
            ev.push(event(EventKind::Traded {
                from: me,
                to: p.seat,
                given: stack_of(p.give),
                received: stack_of(card),
            }));
        }
        self.passes = 0;
        self.finish_action(self.useless_pending, ev);
    }

    // ----- timeout (O1) -----
    // A timed-out turn passes; counting timeouts in a row and marking a seat
    // away is the table's business (the server's room), the same for every game.

    pub fn timeout(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        if self.game_over() {
            return ev;
        }
        let seat = self.active;
        match self.step.clone() {
            Step::StartingCity => {
                ev.push(event(EventKind::TimedOut { seat }));
                let t = self
                    .placements
                    .iter()
                    .find(|t| self.setup_set.contains(&t.neighborhood))
                    .copied();
                if let Some(t) = t {
                    self.place_tile(seat, t, &mut ev);
                    self.setup_set.retain(|&n| n != t.neighborhood);
                }
                self.next_setup(&mut ev);
            }
            Step::TradeAnswers => {
                if let Some(t) = &mut self.trade {
                    for a in t.answers.iter_mut() {
                        if a.is_none() {
                            *a = Some(Vec::new());
                        }
                    }
                }
                self.resolve_answers(&mut ev);
            }
            step => {
                ev.push(event(EventKind::TimedOut { seat }));
                match step {
                    Step::Action => self.pass(seat, &mut ev),
                    Step::SecondStreetcar | Step::TradeExchange | Step::TradeAccept => {
                        if step != Step::SecondStreetcar {
                            self.passes += 1;
                        }
                        self.finish_action(self.useless_pending, &mut ev);
                    }
                    _ => {}
                }
                while let Step::Drawing { .. } = self.step {
                    let Some(&s) = self.drawable().first() else {
                        self.continue_drawing(&mut ev);
                        break;
                    };
                    self.draw(s, &mut ev);
                }
            }
        }
        ev
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.game_over() {
            Some(Outcome {
                scores: self.scores.clone(),
                winners: self.winners.clone(),
            })
        } else {
            None
        }
    }
}

/// What surrounds a footprint, as scoring and prerequisites need it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Surroundings {
    /// Distinct adjacent residences.
    pub residences: u8,
    /// Distinct adjacent businesses.
    pub businesses: u8,
    /// Distinct adjacent special buildings.
    pub specials: u8,
    pub park: bool,
    pub factory: bool,
    pub city_hall: bool,
    /// G9.
    pub line: bool,
    /// Any cell on the outskirts.
    pub outskirts: bool,
}

/// Points of a piece placed in these surroundings (V1-V3).
pub fn score(piece: Piece, s: &Surroundings) -> i32 {
    let mult = |line: bool, hall: bool| match (line, hall) {
        (true, true) => 3,
        (true, false) | (false, true) => 2,
        _ => 1,
    };
    let base = match piece {
        Piece::ResidenceSingle | Piece::BusinessSingle => 2,
        Piece::ResidenceDouble | Piece::BusinessDouble => 6,
        Piece::ResidenceTriple | Piece::BusinessTriple => 10,
        Piece::Cinema | Piece::PostOffice | Piece::Bank => {
            return 5 * mult(s.line, s.city_hall);
        }
        Piece::Church => return 15,
        Piece::ShoppingCenter => return 30,
        _ => return 0,
    };
    let mut sum = base;
    if s.park {
        sum += 1;
    }
    if s.factory {
        sum -= 2;
    }
    let residence = piece.is_residence();
    if residence && s.outskirts {
        sum += 1;
    }
    if !residence && !s.outskirts {
        sum += 1;
    }
    if sum <= 0 {
        return 1;
    }
    if residence {
        sum * mult(s.line, false)
    } else {
        sum * mult(s.line, s.city_hall)
    }
}

/// Wraps an event's kind (each language says its sentence at the edge).
pub(crate) fn event(kind: EventKind) -> Event {
    Event { kind }
}
