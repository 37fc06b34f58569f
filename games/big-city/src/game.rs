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

fn ill(code: &'static str, message: impl Into<String>) -> Illegal {
    Illegal::new(code, message)
}

fn wrong_step() -> Illegal {
    ill(
        "wrong_phase",
        "That move is not possible at this point of the turn.",
    )
}

/// Why a check failed, cheap to build; turned into an [`Illegal`] with its
/// sentence only when a move is actually refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    pub code: &'static str,
    pub arg: u8,
    pub piece: Option<Piece>,
}

impl Fail {
    fn new(code: &'static str) -> Self {
        Fail {
            code,
            arg: 0,
            piece: None,
        }
    }

    fn arg(code: &'static str, arg: u8) -> Self {
        Fail {
            code,
            arg,
            piece: None,
        }
    }

    fn piece(code: &'static str, piece: Piece) -> Self {
        Fail {
            code,
            arg: 0,
            piece: Some(piece),
        }
    }

    /// The public error, with a sentence that names only the mover's own cards.
    pub(crate) fn illegal(self) -> Illegal {
        let a = self.arg;
        let name = self.piece.map_or("piece", |p| p.name());
        let size = self.piece.map_or(0, |p| p.shape().size());
        let (code, message) = match self.code {
            "bad_stack" => ("bad_stack", "Stacks are numbered 1 to 8.".to_string()),
            "stack_empty" => ("stack_empty", format!("Stack {a} is empty.")),
            "stack_limit" => (
                "stack_limit",
                format!("You already drew two cards from stack {a} this turn."),
            ),
            "stack_not_in_city" => (
                "stack_not_in_city",
                format!("Neighborhood {a} is not in the city yet, so its stack is closed."),
            ),
            "wrong_size" => ("wrong_shape", format!("A {name} covers {size} properties.")),
            "duplicate_cells" => ("duplicate_cells", "A property is listed twice.".to_string()),
            "cell_not_in_city" => (
                "cell_not_in_city",
                format!("Property {a} is not in the city."),
            ),
            "cell_covered" => ("cell_covered", format!("Property {a} is already built on.")),
            "wrong_shape" => (
                "wrong_shape",
                format!("Those properties do not have the shape of a {name}."),
            ),
            "crosses_streetcar" => (
                "crosses_streetcar",
                "A building may not be placed across a streetcar.".to_string(),
            ),
            "piece_unavailable" => (
                "piece_unavailable",
                format!("No {name} is left in the supply."),
            ),
            "needs_city_hall" => (
                "needs_city_hall",
                format!("A {name} needs city hall in the city first."),
            ),
            "needs_city_hall_streetcar" => (
                "needs_city_hall",
                "The streetcar line needs city hall in the city first.".to_string(),
            ),
            "special_card_not_held" => (
                "special_card_not_held",
                format!("You need the {name} card."),
            ),
            "park_outskirts" => (
                "park_outskirts",
                "A park may have at most one property on the outskirts.".to_string(),
            ),
            "factory_outskirts" => (
                "factory_outskirts",
                "A factory needs at least two properties on the outskirts.".to_string(),
            ),
            "cards_not_held" => (
                "cards_not_held",
                format!("You do not hold the card of property {a}."),
            ),
            "city_hall_outskirts" => (
                "city_hall_outskirts",
                "City hall must be in the center of the city.".to_string(),
            ),
            "church_not_double" => (
                "church_not_double",
                "A church needs a double-numbered property (11, 22, ... 88).".to_string(),
            ),
            "church_not_last" => (
                "church_not_last",
                format!("A church must be the last building of neighborhood {a}."),
            ),
            "cinema_prerequisite" => (
                "cinema_prerequisite",
                "A cinema needs at least two residences next to it.".to_string(),
            ),
            "post_office_prerequisite" => (
                "post_office_prerequisite",
                "A post office needs a residence and a business next to it.".to_string(),
            ),
            "bank_prerequisite" => (
                "bank_prerequisite",
                "A bank needs at least two businesses next to it.".to_string(),
            ),
            "shopping_center_prerequisite" => (
                "shopping_center_prerequisite",
                "A shopping center needs a residence, a business, a special building and the streetcar line next to it.".to_string(),
            ),
            "bad_segment" => (
                "bad_segment",
                "A street segment joins two grid points one unit apart.".to_string(),
            ),
            "no_streetcars_left" => (
                "no_streetcars_left",
                "All 17 streetcars are placed.".to_string(),
            ),
            "street_not_in_city" => (
                "street_not_in_city",
                "That segment is not a street of the city.".to_string(),
            ),
            "street_closed" => (
                "street_closed",
                "A streetcar may not run across a building, park or factory.".to_string(),
            ),
            "streetcar_taken" => (
                "streetcar_taken",
                "A streetcar already runs there.".to_string(),
            ),
            "streetcar_not_connected" => (
                "streetcar_not_connected",
                "A new streetcar must extend the line.".to_string(),
            ),
            "single_line" => (
                "single_line",
                "The line must stay one path: extend it at one of its two ends, without loops."
                    .to_string(),
            ),
            "limited_line" => (
                "limited_line",
                "A streetcar must border a property with a building, park or factory.".to_string(),
            ),
            other => (other, "That move is not allowed.".to_string()),
        };
        Illegal::new(code, message)
    }
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
            return Err(SetupError(format!(
                "Big City is for 2 to 5 players, not {seats}."
            )));
        }
        if setup.options.trade_window_ms == 0 || setup.options.trade_window_ms > 600_000 {
            return Err(SetupError(
                "The trade answer window must be between 1 ms and 10 minutes.".into(),
            ));
        }
        let mut rng = GameRng::new(setup.seed);
        let first_seat = match setup.first_seat {
            Some(s) if s < seats => s,
            Some(s) => {
                return Err(SetupError(format!("There is no seat {s} to start.")));
            }
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

    fn stack_allowed(&self, stack: u8) -> Result<(), Fail> {
        if !(1..=8).contains(&stack) {
            return Err(Fail::new("bad_stack"));
        }
        let i = usize::from(stack - 1);
        if self.stacks[i].is_empty() {
            return Err(Fail::arg("stack_empty", stack));
        }
        if self.drawn[i] >= 2 {
            return Err(Fail::arg("stack_limit", stack));
        }
        if self.options.limited_card_drawing && !self.map.has_neighborhood(stack) {
            return Err(Fail::arg("stack_not_in_city", stack));
        }
        Ok(())
    }

    // ----- building checks -----

    /// Validates a build (A1, A2) and returns its points.
    pub(crate) fn check_build(&self, seat: u8, piece: Piece, cells: &[u8]) -> Result<i32, Fail> {
        let pos = self.check_footprint(piece, cells)?;
        let mut ctx = LazySurroundings::new(pos);
        self.check_piece(seat, piece, cells, &mut ctx, true)
    }

    /// Cells part of a build: in the city, free, the piece's shape, not across a
    /// streetcar (G7, G8).
    pub(crate) fn check_footprint(&self, piece: Piece, cells: &[u8]) -> Result<Footprint, Fail> {
        let shape = piece.shape();
        if cells.len() != shape.size() {
            return Err(Fail::piece("wrong_size", piece));
        }
        let mut pos = Footprint::default();
        for (i, &p) in cells.iter().enumerate() {
            if cells[..i].contains(&p) {
                return Err(Fail::new("duplicate_cells"));
            }
            let Some(c) = self.map.cell_of(p) else {
                return Err(Fail::arg("cell_not_in_city", p));
            };
            if self.covered(p) {
                return Err(Fail::arg("cell_covered", p));
            }
            pos.push(c);
        }
        if !shape.matches(pos.as_slice()) {
            return Err(Fail::piece("wrong_shape", piece));
        }
        if self.crosses_line(pos.as_slice()) {
            return Err(Fail::new("crosses_streetcar"));
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
    pub(crate) fn check_special_site(&self, piece: Piece, cells: &[u8]) -> Result<(), Fail> {
        let outskirts = cells.iter().filter(|&&p| self.map.outskirts(p)).count();
        if piece.is_park() && outskirts > 1 {
            return Err(Fail::new("park_outskirts"));
        }
        if piece.is_factory() && outskirts < 2 {
            return Err(Fail::new("factory_outskirts"));
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
    ) -> Result<i32, Fail> {
        if self.supply[piece.index()] == 0 {
            return Err(Fail::piece("piece_unavailable", piece));
        }
        if piece != Piece::CityHall
            && !piece.is_residence()
            && !piece.is_business()
            && !self.city_hall_built()
        {
            return Err(Fail::piece("needs_city_hall", piece));
        }
        if let Some(card) = piece.special_card() {
            if !self.holds(seat, card) {
                return Err(Fail::piece("special_card_not_held", piece));
            }
            self.check_special_site(piece, cells)?;
            return Ok(0);
        }
        if score_it {
            for &p in cells {
                if !self.holds(seat, p) {
                    return Err(Fail::arg("cards_not_held", p));
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
                return Err(Fail::new("city_hall_outskirts"));
            }
            Piece::Church => {
                let p = cells[0];
                if p % 10 != p / 10 {
                    return Err(Fail::new("church_not_double"));
                }
                let n = p / 10;
                if geometry::tile_properties(n).any(|q| q != p && !self.covered(q)) {
                    return Err(Fail::arg("church_not_last", n));
                }
            }
            Piece::Cinema if ctx.residences < 2 => {
                return Err(Fail::new("cinema_prerequisite"));
            }
            Piece::PostOffice if ctx.residences < 1 || ctx.businesses < 1 => {
                return Err(Fail::new("post_office_prerequisite"));
            }
            Piece::Bank if ctx.businesses < 2 => {
                return Err(Fail::new("bank_prerequisite"));
            }
            Piece::ShoppingCenter
                if ctx.residences < 1 || ctx.businesses < 1 || ctx.specials < 1 || !ctx.line =>
            {
                return Err(Fail::new("shopping_center_prerequisite"));
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
    pub(crate) fn check_streetcar(&self, seg: &Segment) -> Result<Edge, Fail> {
        let Some(e) = Edge::from_segment(seg) else {
            return Err(Fail::new("bad_segment"));
        };
        // Far outside the grid (also keeps the side cells' coordinates in range).
        if !geometry::in_grid(Cell::new(e.x, e.y)) {
            return Err(Fail::new("street_not_in_city"));
        }
        self.check_edge(e)?;
        Ok(e)
    }

    fn check_edge(&self, e: Edge) -> Result<(), Fail> {
        if !self.city_hall_built() {
            return Err(Fail::new("needs_city_hall_streetcar"));
        }
        if self.streetcars_left == 0 {
            return Err(Fail::new("no_streetcars_left"));
        }
        let [a, b] = e.sides();
        let (pa, pb) = (self.map.prop_at(a), self.map.prop_at(b));
        if pa.is_none() && pb.is_none() {
            return Err(Fail::new("street_not_in_city"));
        }
        let (ba, bb) = (self.building_at_cell(a), self.building_at_cell(b));
        if ba != 0 && ba == bb {
            return Err(Fail::new("street_closed"));
        }
        if self.line.contains(e) {
            return Err(Fail::new("streetcar_taken"));
        }
        if !self.line.may_extend(e, false) {
            return Err(Fail::new("streetcar_not_connected"));
        }
        if self.options.single_streetcar_line && !self.line.may_extend(e, true) {
            return Err(Fail::new("single_line"));
        }
        if self.options.limited_streetcar_line && ba == 0 && bb == 0 {
            return Err(Fail::new("limited_line"));
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

    pub fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal> {
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
                    return Err(ill(
                        "not_in_starting_set",
                        format!(
                            "Neighborhood {neighborhood} is not one of the starting neighborhoods left to place."
                        ),
                    ));
                }
                self.check_tile(t)?;
                self.place_tile(seat, t, &mut ev);
                self.setup_set.retain(|n| n != neighborhood);
                self.next_setup(&mut ev);
            }
            (Step::Action, _) => self.apply_action(seat, mv, &mut ev)?,
            (Step::SecondStreetcar, Move::Streetcar { segment }) => {
                let e = self.check_streetcar(segment).map_err(Fail::illegal)?;
                self.place_streetcar(seat, e, &mut ev);
                self.finish_action(self.useless_pending, &mut ev);
            }
            (Step::SecondStreetcar, Move::Done {}) => {
                self.finish_action(self.useless_pending, &mut ev);
            }
            (Step::Drawing { .. }, Move::Draw { stack }) => {
                self.stack_allowed(*stack).map_err(Fail::illegal)?;
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

    fn check_tile(&self, t: TilePlacement) -> Result<(), Illegal> {
        if !(1..=8).contains(&t.neighborhood) {
            return Err(ill(
                "unknown_neighborhood",
                "Neighborhoods are numbered 1 to 8.",
            ));
        }
        self.map.check_placement(t).map(|_| ()).map_err(|e| match e {
            PlacementError::BadRotation => {
                ill("bad_rotation", "Rotation must be 0, 90, 180 or 270.")
            }
            PlacementError::OutOfGrid => ill("out_of_grid", "That is too far from the city."),
            PlacementError::AlreadyPlaced => ill(
                "neighborhood_placed",
                format!("Neighborhood {} is already in the city.", t.neighborhood),
            ),
            PlacementError::Overlap => ill("overlap", "Neighborhoods may not overlap."),
            PlacementError::NotConnected => ill(
                "not_connected",
                "At least two properties of the new neighborhood must border two properties of the city.",
            ),
        })
    }

    fn check_cards(&self, seat: u8, cards: &[u8], min: usize, max: usize) -> Result<(), Illegal> {
        if cards.len() < min {
            return Err(ill(
                "too_few_cards",
                format!("Choose at least {min} card(s)."),
            ));
        }
        if cards.len() > max {
            return Err(ill(
                "too_many_cards",
                format!("Choose at most {max} card(s)."),
            ));
        }
        for (i, &c) in cards.iter().enumerate() {
            if cards[..i].contains(&c) {
                return Err(ill("duplicate_cards", "A card is listed twice."));
            }
            if !self.holds(seat, c) {
                return Err(ill("cards_not_held", format!("You do not hold card {c}.")));
            }
        }
        Ok(())
    }

    fn apply_action(&mut self, seat: u8, mv: &Move, ev: &mut Vec<Event>) -> Result<(), Illegal> {
        match mv {
            Move::PlaceNeighborhood {
                neighborhood,
                x,
                y,
                rotation,
            } => {
                if !self.city_hall_built() {
                    return Err(ill(
                        "needs_city_hall",
                        "New neighborhoods need city hall in the city first.",
                    ));
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
                let points = self
                    .check_build(seat, *piece, cells)
                    .map_err(Fail::illegal)?;
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
                let e = self.check_streetcar(segment).map_err(Fail::illegal)?;
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
                    return Err(ill(
                        "discard_not_allowed",
                        "In this game useless cards can only be exchanged.",
                    ));
                }
                if !self.holds(seat, *card) {
                    return Err(ill(
                        "cards_not_held",
                        format!("You do not hold card {card}."),
                    ));
                }
                if !self.is_useless(*card) {
                    return Err(ill(
                        "not_useless",
                        format!(
                            "Card {card} is not useless: no park or factory covers property {card}."
                        ),
                    ));
                }
                self.remove_card(seat, *card);
                self.discards.push(*card);
                self.useless_pending += 1;
                ev.push(event(EventKind::UselessDiscarded { seat, card: *card }));
            }
            Move::TradeOffer { cards, wanted } => {
                if !self.options.trade_cards {
                    return Err(ill(
                        "trade_disabled",
                        "Trading cards is not played in this game.",
                    ));
                }
                self.check_cards(seat, cards, 1, 2)?;
                if wanted.len() > 2
                    || wanted.windows(2).any(|w| w[0] >= w[1])
                    || wanted.iter().any(|n| !(1..=8).contains(n))
                {
                    return Err(ill(
                        "bad_wanted",
                        "Name up to two different neighborhoods (1 to 8), in ascending order.",
                    ));
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

    fn check_picks(&self, picks: &[TradePick]) -> Result<(), Illegal> {
        let Some(t) = &self.trade else {
            return Err(wrong_step());
        };
        if picks.len() > t.offered.len().min(2) {
            return Err(ill(
                "too_many_picks",
                "Accept at most one card per offered card, two in all.",
            ));
        }
        for (i, p) in picks.iter().enumerate() {
            if !t.offered.contains(&p.give) {
                return Err(ill(
                    "not_offered",
                    format!("Card {} is not one you offered.", p.give),
                ));
            }
            if picks[..i].iter().any(|q| q.give == p.give) {
                return Err(ill(
                    "duplicate_picks",
                    "Each offered card goes to one seat only.",
                ));
            }
            if picks[..i]
                .iter()
                .any(|q| q.seat == p.seat && q.index == p.index)
            {
                return Err(ill(
                    "duplicate_picks",
                    "That answer card is already picked.",
                ));
            }
            let answer = t
                .answers
                .get(usize::from(p.seat))
                .and_then(|a| a.as_ref())
                .filter(|_| p.seat != self.active);
            let ok = answer.is_some_and(|a| usize::from(p.index) < a.len());
            if !ok {
                return Err(ill(
                    "bad_pick",
                    format!("Seat {} offered no card number {}.", p.seat, p.index),
                ));
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

fn article(name: &str) -> &'static str {
    match name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// Builds an event with its English sentence.
pub(crate) fn event(kind: EventKind) -> Event {
    let text = describe(&kind);
    Event { text, kind }
}

fn list(v: &[u8]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    let mut s = String::with_capacity(v.len() * 4);
    for (i, &x) in v.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        push_number(&mut s, x);
    }
    s
}

/// Appends a number without the formatting machinery.
fn push_number(s: &mut String, n: u8) {
    if n >= 100 {
        s.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        s.push(char::from(b'0' + (n / 10) % 10));
    }
    s.push(char::from(b'0' + n % 10));
}

/// A one-digit number as text (seats and stacks are below 10).
fn digit(n: u8) -> &'static str {
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    DIGITS.get(usize::from(n)).copied().unwrap_or("?")
}

/// Joins pieces of text without the formatting machinery (the most frequent events).
fn words(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

fn describe(k: &EventKind) -> String {
    match k {
        EventKind::TurnStarted { seat } => words(&["seat ", digit(*seat), "'s turn"]),
        EventKind::NeighborhoodPlaced {
            seat,
            neighborhood,
            x,
            y,
            rotation,
        } => format!(
            "seat {seat} placed neighborhood {neighborhood} at ({x}, {y}), rotated {rotation}°"
        ),
        EventKind::Built {
            seat,
            piece,
            cells,
            points,
        } => {
            let c: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
            format!(
                "seat {seat} built {} {} on {} for {points} point{}",
                article(piece.name()),
                piece.name(),
                c.join("-"),
                if *points == 1 { "" } else { "s" }
            )
        }
        EventKind::StreetcarPlaced { seat, segment } => format!(
            "seat {seat} placed a streetcar from ({}, {}) to ({}, {})",
            segment.x1, segment.y1, segment.x2, segment.y2
        ),
        EventKind::UselessDiscarded { seat, card } => {
            format!("seat {seat} discarded useless card {card}")
        }
        EventKind::Exchanged { seat, stacks } => {
            let mut s = words(&["seat ", digit(*seat), " returned "]);
            push_number(&mut s, stacks.len() as u8);
            s.push_str(" card(s) under stacks ");
            s.push_str(&list(stacks));
            s
        }
        EventKind::Drew { seat, stack } => words(&[
            "seat ",
            digit(*seat),
            " drew a card from stack ",
            digit(*stack),
        ]),
        EventKind::DrawsSkipped { seat, count } => {
            format!("seat {seat} could not draw {count} card(s): no allowed stack left")
        }
        EventKind::Passed { seat } => words(&["seat ", digit(*seat), " passed"]),
        EventKind::TimedOut { seat } => format!("seat {seat} ran out of time"),
        EventKind::TradeOffered {
            seat,
            neighborhoods,
            wanted,
        } => format!(
            "seat {seat} offers cards of neighborhood(s) {} for trade, wanting {}",
            list(neighborhoods),
            list(wanted)
        ),
        EventKind::TradeAnswered { seat } => format!("seat {seat} answered the offer"),
        EventKind::TradeAnswersRevealed { answers } => {
            let parts: Vec<String> = answers
                .iter()
                .map(|a| format!("seat {}: {}", a.seat, list(&a.neighborhoods)))
                .collect();
            format!("trade answers: {}", parts.join("; "))
        }
        EventKind::Traded {
            from,
            to,
            given,
            received,
        } => format!(
            "seat {from} traded a card of neighborhood {given} to seat {to} for a card of neighborhood {received}"
        ),
        EventKind::TradeFailed { seat } => format!("seat {seat} made no trade"),
        EventKind::GameOver {
            reason,
            scores,
            winners,
        } => {
            let why = match reason {
                EndReason::CityComplete => "the city is complete",
                EndReason::AllPassed => "every player passed in a row",
            };
            let s: Vec<String> = scores.iter().map(|x| x.to_string()).collect();
            format!(
                "game over ({why}); scores {}; winner(s): seat {}",
                s.join(", "),
                list(winners)
            )
        }
    }
}
