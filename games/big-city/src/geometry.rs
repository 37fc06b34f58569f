//! Plain geometry of the city: cells on an integer grid, neighborhood tiles and
//! their rotations, adjacency, outskirts, building footprints, street segments
//! and the streetcar line rules.
//!
//! Conventions (rulings G1-G9, S2-S6):
//! - A cell `(x, y)` is the unit square `[x, x+1] x [y, y+1]`; `x` grows right, `y` down.
//! - A street segment is one unit edge between two grid vertices. [`Edge`] stores it
//!   by its first end point and direction; [`Segment`] is its wire name
//!   by both end points.
//! - Property numbers are `10 * neighborhood + index` (11..=19, 21..=28, ...).
//!
//! Nothing here knows about cards, seats or scores.

use crate::Segment;

/// One unit square of the grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: i16,
    pub y: i16,
}

impl Cell {
    pub const fn new(x: i16, y: i16) -> Self {
        Cell { x, y }
    }

    /// The four edge neighbors: up, right, down, left.
    pub fn neighbors(self) -> [Cell; 4] {
        [
            Cell::new(self.x, self.y - 1),
            Cell::new(self.x + 1, self.y),
            Cell::new(self.x, self.y + 1),
            Cell::new(self.x - 1, self.y),
        ]
    }

    /// The four edges bounding this cell: top, right, bottom, left.
    pub fn edges(self) -> [Edge; 4] {
        [
            Edge::horizontal(self.x, self.y),
            Edge::vertical(self.x + 1, self.y),
            Edge::horizontal(self.x, self.y + 1),
            Edge::vertical(self.x, self.y),
        ]
    }

    /// Whether two cells share an edge (G4).
    pub fn adjacent(self, other: Cell) -> bool {
        (self.x - other.x).abs() + (self.y - other.y).abs() == 1
    }
}

/// A grid vertex (corner of cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub x: i16,
    pub y: i16,
}

/// A unit street segment: from `(x, y)` to `(x+1, y)` when horizontal, to `(x, y+1)`
/// when vertical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    pub x: i16,
    pub y: i16,
    pub vertical: bool,
}

impl Edge {
    pub const fn horizontal(x: i16, y: i16) -> Self {
        Edge {
            x,
            y,
            vertical: false,
        }
    }

    pub const fn vertical(x: i16, y: i16) -> Self {
        Edge {
            x,
            y,
            vertical: true,
        }
    }

    /// Both end points, the first one top-left.
    pub fn ends(self) -> [Vertex; 2] {
        let a = Vertex {
            x: self.x,
            y: self.y,
        };
        let b = if self.vertical {
            Vertex {
                x: self.x,
                y: self.y + 1,
            }
        } else {
            Vertex {
                x: self.x + 1,
                y: self.y,
            }
        };
        [a, b]
    }

    /// The two cells on either side (above/below or left/right).
    pub fn sides(self) -> [Cell; 2] {
        if self.vertical {
            [Cell::new(self.x - 1, self.y), Cell::new(self.x, self.y)]
        } else {
            [Cell::new(self.x, self.y - 1), Cell::new(self.x, self.y)]
        }
    }

    /// Whether the two segments share an end point.
    pub fn touches(self, other: Edge) -> bool {
        let [a, b] = self.ends();
        let [c, d] = other.ends();
        a == c || a == d || b == c || b == d
    }

    /// The wire name of this segment.
    pub fn segment(self) -> Segment {
        let [a, b] = self.ends();
        Segment {
            x1: a.x,
            y1: a.y,
            x2: b.x,
            y2: b.y,
        }
    }

    /// Parses a wire segment; `None` unless its end points are one unit apart.
    pub fn from_segment(s: &Segment) -> Option<Edge> {
        let (a, b) = if (s.x1, s.y1) <= (s.x2, s.y2) {
            ((s.x1, s.y1), (s.x2, s.y2))
        } else {
            ((s.x2, s.y2), (s.x1, s.y1))
        };
        if a.1 == b.1 && b.0 == a.0.checked_add(1)? {
            Some(Edge::horizontal(a.0, a.1))
        } else if a.0 == b.0 && b.1 == a.1.checked_add(1)? {
            Some(Edge::vertical(a.0, a.1))
        } else {
            None
        }
    }
}

/// Width and height of a neighborhood tile in its base orientation (G2).
pub fn tile_base_size(neighborhood: u8) -> (i16, i16) {
    if neighborhood % 2 == 1 {
        (3, 3)
    } else {
        (4, 2)
    }
}

/// Number of properties of a neighborhood: 9 for odd, 8 for even numbers.
pub fn tile_len(neighborhood: u8) -> u8 {
    if neighborhood % 2 == 1 { 9 } else { 8 }
}

/// All property numbers of a neighborhood.
pub fn tile_properties(neighborhood: u8) -> impl Iterator<Item = u8> {
    (1..=tile_len(neighborhood)).map(move |i| neighborhood * 10 + i)
}

/// Size of the rotated tile (width, height).
pub fn tile_size(neighborhood: u8, rotation: u16) -> (i16, i16) {
    let (w, h) = tile_base_size(neighborhood);
    if rotation % 180 == 90 { (h, w) } else { (w, h) }
}

/// The cells of a tile placed with its rotated top-left cell at `(x, y)`, with the
/// property number of each (G2). Rotation is clockwise in degrees (0, 90, 180, 270).
pub fn tile_cells(neighborhood: u8, x: i16, y: i16, rotation: u16) -> Vec<(Cell, u8)> {
    let (w, h) = tile_base_size(neighborhood);
    let mut out = Vec::with_capacity(9);
    for r in 0..h {
        for c in 0..w {
            let index = (r * w + c + 1) as u8;
            let (dx, dy) = match rotation {
                90 => (h - 1 - r, c),
                180 => (w - 1 - c, h - 1 - r),
                270 => (r, w - 1 - c),
                _ => (c, r),
            };
            out.push((Cell::new(x + dx, y + dy), neighborhood * 10 + index));
        }
    }
    out
}

/// The rotations a placement may use.
pub const ROTATIONS: [u16; 4] = [0, 90, 180, 270];

/// Building footprint shapes (G7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One cell.
    Single,
    /// Two adjacent cells.
    Domino,
    /// Three cells in a straight line.
    Line3,
    /// Three cells in an L.
    Ell,
    /// A 2x2 square.
    Square,
}

impl Shape {
    /// Every distinct orientation (rotations and reflections), each as offsets
    /// sorted by `(y, x)` with the first offset at `(0, 0)`.
    pub fn orientations(self) -> &'static [&'static [(i16, i16)]] {
        match self {
            Shape::Single => &[&[(0, 0)]],
            Shape::Domino => &[&[(0, 0), (1, 0)], &[(0, 0), (0, 1)]],
            Shape::Line3 => &[&[(0, 0), (1, 0), (2, 0)], &[(0, 0), (0, 1), (0, 2)]],
            Shape::Ell => &[
                &[(0, 0), (0, 1), (1, 1)],
                &[(0, 0), (1, 0), (0, 1)],
                &[(0, 0), (1, 0), (1, 1)],
                &[(0, 0), (-1, 1), (0, 1)],
            ],
            Shape::Square => &[&[(0, 0), (1, 0), (0, 1), (1, 1)]],
        }
    }

    /// Number of cells.
    pub fn size(self) -> usize {
        match self {
            Shape::Single => 1,
            Shape::Domino => 2,
            Shape::Line3 | Shape::Ell => 3,
            Shape::Square => 4,
        }
    }

    /// Whether `cells` (any order, no duplicates) form this shape in some orientation.
    pub fn matches(self, cells: &[Cell]) -> bool {
        if cells.len() != self.size() {
            return false;
        }
        let n = cells.len();
        let mut sorted = [Cell::default(); 4];
        sorted[..n].copy_from_slice(cells);
        let sorted = &mut sorted[..n];
        sorted.sort_unstable_by_key(|c| (c.y, c.x));
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        let origin = sorted[0];
        self.orientations().iter().any(|o| {
            o.iter()
                .zip(sorted.iter())
                .all(|(&(dx, dy), c)| c.x - origin.x == dx && c.y - origin.y == dy)
        })
    }

    /// Every placement of this shape whose cells all satisfy `free`. Each placement is
    /// listed once, its cells sorted by `(y, x)`.
    pub fn placements(self, free_cells: &[Cell], free: impl Fn(Cell) -> bool) -> Vec<Vec<Cell>> {
        let mut out = Vec::new();
        for &anchor in free_cells {
            for o in self.orientations() {
                let cells: Vec<Cell> = o
                    .iter()
                    .map(|&(dx, dy)| Cell::new(anchor.x + dx, anchor.y + dy))
                    .collect();
                if cells.iter().all(|&c| free(c)) {
                    out.push(cells);
                }
            }
        }
        out
    }
}

/// The edges strictly inside a set of cells (both sides in the set).
pub fn inner_edges(cells: &[Cell]) -> Vec<Edge> {
    let mut out = Vec::new();
    for &c in cells {
        // Right and bottom edges only, so each inner edge is found once.
        let right = Cell::new(c.x + 1, c.y);
        if cells.contains(&right) {
            out.push(Edge::vertical(c.x + 1, c.y));
        }
        let below = Cell::new(c.x, c.y + 1);
        if cells.contains(&below) {
            out.push(Edge::horizontal(c.x, c.y + 1));
        }
    }
    out
}

/// The boundary edges of a set of cells: exactly one side inside (G9).
pub fn boundary_edges(cells: &[Cell]) -> Vec<Edge> {
    let mut out = Vec::new();
    for &c in cells {
        for (n, e) in c.neighbors().into_iter().zip(c.edges()) {
            // neighbors: up, right, down, left; edges: top, right, bottom, left.
            if !cells.contains(&n) {
                out.push(e);
            }
        }
    }
    out
}

/// Half the side of the square grid the city lives in; coordinates run over
/// `-GRID_HALF..GRID_HALF`. Eight tiles chained from neighborhood 1 at (0, 0)
/// reach at most 31 cells away, so the city always fits with a margin.
pub const GRID_HALF: i16 = 40;
const GRID_SIDE: usize = (GRID_HALF as usize) * 2;

/// Whether a cell lies inside the grid.
pub fn in_grid(c: Cell) -> bool {
    (-GRID_HALF..GRID_HALF).contains(&c.x) && (-GRID_HALF..GRID_HALF).contains(&c.y)
}

fn grid_index(c: Cell) -> Option<usize> {
    if in_grid(c) {
        Some((c.y + GRID_HALF) as usize * GRID_SIDE + (c.x + GRID_HALF) as usize)
    } else {
        None
    }
}

/// The shape of the city: which property lies on which cell, adjacency and
/// outskirts. Buildings are not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CityMap {
    /// Property number per grid cell (0 = no city).
    grid: Vec<u8>,
    /// Cell of each property number (indexed by property number, valid when placed).
    pos: [Cell; 90],
    placed_props: [bool; 90],
    /// Outskirts flag per property number (G5).
    outskirts: [bool; 90],
    /// Placed neighborhoods, in placement order, with their placement.
    pub tiles: Vec<TilePlacement>,
    /// Every placed property, sorted by number.
    props: Vec<u8>,
}

/// Where a neighborhood lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TilePlacement {
    pub neighborhood: u8,
    pub x: i16,
    pub y: i16,
    pub rotation: u16,
}

/// Why a neighborhood placement is refused (G6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementError {
    BadRotation,
    OutOfGrid,
    AlreadyPlaced,
    Overlap,
    NotConnected,
}

impl Default for CityMap {
    fn default() -> Self {
        Self::new()
    }
}

impl CityMap {
    /// An empty map (no tiles at all).
    pub fn new() -> Self {
        CityMap {
            grid: vec![0; GRID_SIDE * GRID_SIDE],
            pos: [Cell::new(0, 0); 90],
            placed_props: [false; 90],
            outskirts: [false; 90],
            tiles: Vec::new(),
            props: Vec::new(),
        }
    }

    /// The map with neighborhood 1 at (0, 0), rotation 0 (G3).
    pub fn starting() -> Self {
        let mut m = CityMap::new();
        m.force_place(TilePlacement {
            neighborhood: 1,
            x: 0,
            y: 0,
            rotation: 0,
        });
        m
    }

    /// Property on a cell, if the cell belongs to the city.
    pub fn prop_at(&self, c: Cell) -> Option<u8> {
        grid_index(c)
            .and_then(|i| self.grid.get(i).copied())
            .filter(|&p| p != 0)
    }

    /// Cell of a placed property.
    pub fn cell_of(&self, prop: u8) -> Option<Cell> {
        let i = usize::from(prop);
        if i < 90 && self.placed_props[i] {
            Some(self.pos[i])
        } else {
            None
        }
    }

    pub fn is_placed_prop(&self, prop: u8) -> bool {
        self.cell_of(prop).is_some()
    }

    pub fn is_city(&self, c: Cell) -> bool {
        self.prop_at(c).is_some()
    }

    /// Every placed property number, ascending.
    pub fn props(&self) -> &[u8] {
        &self.props
    }

    /// Whether a placed property is on the outskirts (G5).
    pub fn outskirts(&self, prop: u8) -> bool {
        self.outskirts
            .get(usize::from(prop))
            .copied()
            .unwrap_or(false)
    }

    pub fn has_neighborhood(&self, n: u8) -> bool {
        self.tiles.iter().any(|t| t.neighborhood == n)
    }

    /// Properties sharing an edge with `prop` (G4).
    pub fn neighbors(&self, prop: u8) -> impl Iterator<Item = u8> + '_ {
        let c = self.cell_of(prop);
        c.into_iter()
            .flat_map(|c| c.neighbors())
            .filter_map(|n| self.prop_at(n))
    }

    /// Checks a neighborhood placement under G6 without changing anything.
    pub fn check_placement(&self, t: TilePlacement) -> Result<Vec<(Cell, u8)>, PlacementError> {
        if !ROTATIONS.contains(&t.rotation) {
            return Err(PlacementError::BadRotation);
        }
        if self.has_neighborhood(t.neighborhood) {
            return Err(PlacementError::AlreadyPlaced);
        }
        let (w, h) = tile_size(t.neighborhood, t.rotation);
        let lo = -GRID_HALF + 1;
        let hi = GRID_HALF - 1;
        // In i32: coordinates come from the network and may be extreme.
        let (x, y) = (i32::from(t.x), i32::from(t.y));
        if x < i32::from(lo)
            || y < i32::from(lo)
            || x + i32::from(w) > i32::from(hi)
            || y + i32::from(h) > i32::from(hi)
        {
            return Err(PlacementError::OutOfGrid);
        }
        if !self.fits(t) {
            return Err(if self.overlaps(t) {
                PlacementError::Overlap
            } else {
                PlacementError::NotConnected
            });
        }
        Ok(tile_cells(t.neighborhood, t.x, t.y, t.rotation))
    }

    fn overlaps(&self, t: TilePlacement) -> bool {
        let (w, h) = tile_size(t.neighborhood, t.rotation);
        (t.y..t.y + h).any(|y| (t.x..t.x + w).any(|x| self.is_city(Cell::new(x, y))))
    }

    /// G6 for a rotation-checked placement inside the grid: no overlap, and at least
    /// two of its cells border at least two city cells. Allocation-free.
    fn fits(&self, t: TilePlacement) -> bool {
        let (w, h) = tile_size(t.neighborhood, t.rotation);
        if self.overlaps(t) {
            return false;
        }
        if self.tiles.is_empty() {
            return true;
        }
        // The tile is a solid rectangle: its cells touching the city are on its rim,
        // and the city cells it touches lie just outside the rim.
        let mut new_side = 0;
        let mut old_side = 0;
        for y in t.y..t.y + h {
            for x in t.x..t.x + w {
                let c = Cell::new(x, y);
                let mut touches = false;
                for (i, n) in c.neighbors().into_iter().enumerate() {
                    let outside = match i {
                        0 => y == t.y,
                        1 => x == t.x + w - 1,
                        2 => y == t.y + h - 1,
                        _ => x == t.x,
                    };
                    if outside && self.is_city(n) {
                        touches = true;
                        // Each outside city cell is counted once: it touches the
                        // rectangle through exactly one side (no cell is outside two
                        // sides of a rectangle at once).
                        old_side += 1;
                    }
                }
                if touches {
                    new_side += 1;
                }
            }
        }
        new_side >= 2 && old_side >= 2
    }

    /// The legal placements after tile `t` joined the city, given those before it
    /// (G6): earlier ones stay legal unless they overlap `t`; new ones can only
    /// appear next to `t`. Sorted by neighborhood, rotation, y, x.
    pub fn update_placements(
        &self,
        before: &[TilePlacement],
        t: TilePlacement,
    ) -> Vec<TilePlacement> {
        let (tw, th) = tile_size(t.neighborhood, t.rotation);
        let kept = before
            .iter()
            .filter(|p| p.neighborhood != t.neighborhood)
            .filter(|p| {
                let (w, h) = tile_size(p.neighborhood, p.rotation);
                p.x + w <= t.x || t.x + tw <= p.x || p.y + h <= t.y || t.y + th <= p.y
            })
            .copied();
        let mut fresh: Vec<TilePlacement> = Vec::new();
        let lo = -GRID_HALF + 1;
        let hi = GRID_HALF - 1;
        for n in 1..=8 {
            if self.has_neighborhood(n) {
                continue;
            }
            for rotation in ROTATIONS {
                let (w, h) = tile_size(n, rotation);
                for y in (t.y - h)..=(t.y + th) {
                    for x in (t.x - w)..=(t.x + tw) {
                        if x < lo || y < lo || x + w > hi || y + h > hi {
                            continue;
                        }
                        // Only a rectangle sharing an edge with `t` gains adjacency.
                        let side_by_side =
                            (x + w == t.x || x == t.x + tw) && y < t.y + th && y + h > t.y;
                        let stacked =
                            (y + h == t.y || y == t.y + th) && x < t.x + tw && x + w > t.x;
                        if !side_by_side && !stacked {
                            continue;
                        }
                        let p = TilePlacement {
                            neighborhood: n,
                            x,
                            y,
                            rotation,
                        };
                        if self.fits(p) {
                            fresh.push(p);
                        }
                    }
                }
            }
        }
        // Both lists are sorted by (neighborhood, rotation, y, x): merge them.
        let key = |p: &TilePlacement| (p.neighborhood, p.rotation, p.y, p.x);
        let mut out = Vec::with_capacity(before.len() + fresh.len());
        let mut kept = kept.peekable();
        let mut fresh = fresh.into_iter().peekable();
        loop {
            let next = match (kept.peek(), fresh.peek()) {
                (Some(a), Some(b)) => {
                    if key(a) <= key(b) {
                        kept.next()
                    } else {
                        fresh.next()
                    }
                }
                (Some(_), None) => kept.next(),
                (None, Some(_)) => fresh.next(),
                (None, None) => break,
            };
            if let Some(p) = next
                && out.last() != Some(&p)
            {
                out.push(p);
            }
        }
        out
    }

    /// Places a tile after [`CityMap::check_placement`].
    pub fn place(&mut self, t: TilePlacement) -> Result<(), PlacementError> {
        self.check_placement(t)?;
        self.force_place(t);
        Ok(())
    }

    fn force_place(&mut self, t: TilePlacement) {
        for (c, p) in tile_cells(t.neighborhood, t.x, t.y, t.rotation) {
            if let Some(i) = grid_index(c) {
                self.grid[i] = p;
                self.pos[usize::from(p)] = c;
                self.placed_props[usize::from(p)] = true;
                self.props.push(p);
            }
        }
        self.props.sort_unstable();
        self.tiles.push(t);
        self.recompute_outskirts();
    }

    /// Flood fill from outside the city's bounding box through non-city cells (G5).
    fn recompute_outskirts(&mut self) {
        self.outskirts = [false; 90];
        if self.props.is_empty() {
            return;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (i16::MAX, i16::MAX, i16::MIN, i16::MIN);
        for &p in &self.props {
            let c = self.pos[usize::from(p)];
            x0 = x0.min(c.x);
            y0 = y0.min(c.y);
            x1 = x1.max(c.x);
            y1 = y1.max(c.y);
        }
        // One ring of margin, which is all outside.
        let (x0, y0, x1, y1) = (x0 - 1, y0 - 1, x1 + 1, y1 + 1);
        let w = (x1 - x0 + 1) as usize;
        let h = (y1 - y0 + 1) as usize;
        let mut outside = vec![false; w * h];
        let idx = |c: Cell| (c.y - y0) as usize * w + (c.x - x0) as usize;
        let mut stack = vec![Cell::new(x0, y0)];
        outside[0] = true;
        while let Some(c) = stack.pop() {
            for n in c.neighbors() {
                if n.x < x0 || n.x > x1 || n.y < y0 || n.y > y1 {
                    continue;
                }
                let i = idx(n);
                if !outside[i] && !self.is_city(n) {
                    outside[i] = true;
                    stack.push(n);
                }
            }
        }
        for &p in &self.props {
            let c = self.pos[usize::from(p)];
            self.outskirts[usize::from(p)] = c.neighbors().iter().any(|&n| outside[idx(n)]);
        }
    }

    /// Every legal placement of neighborhood `n` (G6), ordered by rotation, y, x.
    pub fn legal_placements(&self, n: u8) -> Vec<TilePlacement> {
        let mut out = Vec::new();
        if self.has_neighborhood(n) || self.props.is_empty() {
            return out;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (i16::MAX, i16::MAX, i16::MIN, i16::MIN);
        for &p in &self.props {
            let c = self.pos[usize::from(p)];
            x0 = x0.min(c.x);
            y0 = y0.min(c.y);
            x1 = x1.max(c.x);
            y1 = y1.max(c.y);
        }
        for rotation in ROTATIONS {
            let (w, h) = tile_size(n, rotation);
            for y in (y0 - h)..=(y1 + 1) {
                for x in (x0 - w)..=(x1 + 1) {
                    let t = TilePlacement {
                        neighborhood: n,
                        x,
                        y,
                        rotation,
                    };
                    if self.check_placement(t).is_ok() {
                        out.push(t);
                    }
                }
            }
        }
        out
    }
}

/// The streetcar line: a set of unit segments, in placement order, with a bitmap
/// over the grid for constant-time lookups.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    edges: Vec<Edge>,
    bits: Vec<u64>,
}

fn edge_bit(e: Edge) -> Option<usize> {
    grid_index(Cell::new(e.x, e.y)).map(|i| i * 2 + usize::from(e.vertical))
}

impl Line {
    /// The segments, in placement order.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// Adds a segment (no rule checks).
    pub fn push(&mut self, e: Edge) {
        if self.contains(e) {
            return;
        }
        if let Some(b) = edge_bit(e) {
            if self.bits.is_empty() {
                self.bits = vec![0; GRID_SIDE * GRID_SIDE * 2 / 64 + 1];
            }
            self.bits[b / 64] |= 1 << (b % 64);
        }
        self.edges.push(e);
    }

    pub fn contains(&self, e: Edge) -> bool {
        match edge_bit(e) {
            Some(b) => self
                .bits
                .get(b / 64)
                .is_some_and(|w| w & (1 << (b % 64)) != 0),
            None => self.edges.contains(&e),
        }
    }

    /// How many segments of the line end at `v`.
    pub fn degree(&self, v: Vertex) -> usize {
        self.edges.iter().filter(|e| e.ends().contains(&v)).count()
    }

    pub fn touches_vertex(&self, v: Vertex) -> bool {
        self.edges.iter().any(|e| e.ends().contains(&v))
    }

    /// Whether `e` may extend the line under S3/S4 (default) or S5 (`single`).
    /// Does not check that the segment is an open street.
    pub fn may_extend(&self, e: Edge, single: bool) -> bool {
        if self.contains(e) {
            return false;
        }
        if self.edges.is_empty() {
            return true;
        }
        let [a, b] = e.ends();
        if !single {
            return self.touches_vertex(a) || self.touches_vertex(b);
        }
        // S5: attach at an end of the simple path; the far end must be new.
        let a_end = self.degree(a) == 1;
        let b_end = self.degree(b) == 1;
        (a_end && !self.touches_vertex(b)) || (b_end && !self.touches_vertex(a))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn c(x: i16, y: i16) -> Cell {
        Cell::new(x, y)
    }

    #[test]
    fn tile_numbering_base_orientation() {
        let t = tile_cells(1, 0, 0, 0);
        assert_eq!(t[0], (c(0, 0), 11));
        assert_eq!(t[4], (c(1, 1), 15));
        assert_eq!(t[8], (c(2, 2), 19));
        let t = tile_cells(2, 0, 0, 0);
        assert_eq!(t[3], (c(3, 0), 24));
        assert_eq!(t[4], (c(0, 1), 25));
    }

    #[test]
    fn tile_rotation_clockwise() {
        // 4x2 rotated 90 clockwise becomes 2 wide, 4 tall; 21 goes top-right.
        let t = tile_cells(2, 10, 10, 90);
        assert_eq!(tile_size(2, 90), (2, 4));
        assert!(t.contains(&(c(11, 10), 21)));
        assert!(t.contains(&(c(10, 10), 25)));
        assert!(t.contains(&(c(11, 13), 24)));
        let t = tile_cells(2, 0, 0, 180);
        assert!(t.contains(&(c(3, 1), 21)));
        assert!(t.contains(&(c(0, 0), 28)));
        let t = tile_cells(3, 0, 0, 270);
        assert!(t.contains(&(c(0, 2), 31)));
        assert!(t.contains(&(c(0, 0), 33)));
        assert!(t.contains(&(c(2, 0), 39)));
        for r in ROTATIONS {
            for n in 1..=8 {
                let cells = tile_cells(n, 0, 0, r);
                let (w, h) = tile_size(n, r);
                assert!(
                    cells
                        .iter()
                        .all(|(c, _)| c.x >= 0 && c.x < w && c.y >= 0 && c.y < h)
                );
                let mut v: Vec<Cell> = cells.iter().map(|x| x.0).collect();
                v.sort();
                v.dedup();
                assert_eq!(v.len(), usize::from(tile_len(n)));
            }
        }
    }

    #[test]
    fn sixty_eight_properties() {
        let total: usize = (1..=8).map(|n| tile_properties(n).count()).sum();
        assert_eq!(total, 68);
    }

    #[test]
    fn segments_roundtrip() {
        let e = Edge::vertical(3, -2);
        assert_eq!(Edge::from_segment(&e.segment()), Some(e));
        let s = Segment {
            x1: 4,
            y1: 1,
            x2: 3,
            y2: 1,
        };
        assert_eq!(Edge::from_segment(&s), Some(Edge::horizontal(3, 1)));
        let bad = Segment {
            x1: 0,
            y1: 0,
            x2: 1,
            y2: 1,
        };
        assert_eq!(Edge::from_segment(&bad), None);
        assert_eq!(Edge::horizontal(0, 0).sides(), [c(0, -1), c(0, 0)]);
        assert_eq!(Edge::vertical(0, 0).sides(), [c(-1, 0), c(0, 0)]);
    }

    #[test]
    fn shapes_count_orientations_and_match() {
        assert!(Shape::Ell.matches(&[c(0, 0), c(1, 0), c(1, 1)]));
        assert!(Shape::Ell.matches(&[c(1, 0), c(0, 1), c(1, 1)]));
        assert!(!Shape::Ell.matches(&[c(0, 0), c(1, 0), c(2, 0)]));
        assert!(Shape::Line3.matches(&[c(0, 2), c(0, 0), c(0, 1)]));
        assert!(!Shape::Domino.matches(&[c(0, 0), c(1, 1)]));
        assert!(Shape::Square.matches(&[c(0, 0), c(1, 0), c(0, 1), c(1, 1)]));
        // On a 3x3 board: 12 dominoes, 6 lines, 16 ells, 4 squares.
        let cells: Vec<Cell> = (0..3).flat_map(|y| (0..3).map(move |x| c(x, y))).collect();
        let inb = |q: Cell| q.x >= 0 && q.x < 3 && q.y >= 0 && q.y < 3;
        assert_eq!(Shape::Domino.placements(&cells, inb).len(), 12);
        assert_eq!(Shape::Line3.placements(&cells, inb).len(), 6);
        assert_eq!(Shape::Ell.placements(&cells, inb).len(), 16);
        assert_eq!(Shape::Square.placements(&cells, inb).len(), 4);
        for p in Shape::Ell.placements(&cells, inb) {
            assert!(Shape::Ell.matches(&p));
        }
    }

    #[test]
    fn outskirts_ignore_holes() {
        // Neighborhoods 2 (above), 4 (below) and 3 (right) around a 1x3 hole at x = 3.
        let mut m = CityMap::starting();
        for (n, x, y) in [(2, 1, -2), (4, 1, 3)] {
            m.place(TilePlacement {
                neighborhood: n,
                x,
                y,
                rotation: 0,
            })
            .unwrap();
        }
        assert_eq!(m.prop_at(c(2, 1)), Some(16));
        assert!(
            m.outskirts(16),
            "the gap at x = 3 is still open to the right"
        );
        m.place(TilePlacement {
            neighborhood: 3,
            x: 4,
            y: 0,
            rotation: 0,
        })
        .unwrap();
        assert!(!m.is_city(c(3, 1)));
        assert!(!m.outskirts(16), "bordering only the hole: center");
        assert!(!m.outskirts(13));
        assert!(!m.outskirts(12), "neighborhood 2 lies above");
        assert!(m.outskirts(11), "left side is outside");
        assert!(!m.outskirts(31), "31 borders the hole on its left");
        assert!(m.outskirts(33));
    }

    #[test]
    fn placement_needs_two_and_two() {
        let m = CityMap::starting();
        // Touching with a single edge: refused.
        let t = TilePlacement {
            neighborhood: 3,
            x: 2,
            y: 3,
            rotation: 0,
        };
        assert_eq!(m.check_placement(t), Err(PlacementError::NotConnected));
        let t = TilePlacement {
            neighborhood: 3,
            x: 1,
            y: 3,
            rotation: 0,
        };
        assert!(m.check_placement(t).is_ok());
        let t = TilePlacement {
            neighborhood: 3,
            x: 1,
            y: 2,
            rotation: 0,
        };
        assert_eq!(m.check_placement(t), Err(PlacementError::Overlap));
        // Diagonal only: refused.
        let t = TilePlacement {
            neighborhood: 3,
            x: 3,
            y: 3,
            rotation: 0,
        };
        assert_eq!(m.check_placement(t), Err(PlacementError::NotConnected));
        let all = m.legal_placements(3);
        assert!(all.iter().all(|&t| m.check_placement(t).is_ok()));
        // 3x3 next to 3x3: 3 offsets with >=2 shared cells per side... x4 sides x4 rotations.
        assert_eq!(all.len(), 4 * 3 * 4);
    }

    #[test]
    fn boundary_and_inner_edges() {
        let cells = [c(0, 0), c(1, 0)];
        assert_eq!(inner_edges(&cells), vec![Edge::vertical(1, 0)]);
        let b = boundary_edges(&cells);
        assert_eq!(b.len(), 6);
        assert!(!b.contains(&Edge::vertical(1, 0)));
        assert!(b.contains(&Edge::horizontal(1, 1)));
    }

    #[test]
    fn line_extension_default_and_single() {
        let mut line = Line::default();
        let a = Edge::horizontal(0, 0);
        assert!(line.may_extend(a, true));
        line.push(a);
        let b = Edge::horizontal(1, 0);
        let branch = Edge::vertical(1, 0); // from (1,0) down, touching middle later
        assert!(line.may_extend(b, false));
        assert!(line.may_extend(b, true));
        line.push(b);
        // (1,0) is now an interior vertex.
        assert!(line.may_extend(branch, false), "S4 allows branches");
        assert!(!line.may_extend(branch, true), "S5 forbids branches");
        assert!(!line.may_extend(Edge::horizontal(5, 5), false));
        // Loop: square around cell (0,0): edges H(0,0),V(1,0),H(0,1),V(0,0).
        let mut sq = Line::default();
        sq.push(Edge::horizontal(0, 0));
        sq.push(Edge::vertical(1, 0));
        sq.push(Edge::horizontal(0, 1));
        let close = Edge::vertical(0, 0);
        assert!(sq.may_extend(close, false), "S4 allows loops");
        assert!(!sq.may_extend(close, true), "S5 forbids loops");
    }

    #[test]
    fn incremental_placements_match_full_scan() {
        for start in 0..25usize {
            let mut m = CityMap::starting();
            let mut list: Vec<TilePlacement> =
                (1..=8).flat_map(|n| m.legal_placements(n)).collect();
            let mut pick = start * 7 + 3;
            while m.tiles.len() < 8 {
                let t = list[pick % list.len()];
                pick = pick * 31 + 11;
                m.place(t).unwrap();
                list = m.update_placements(&list, t);
                let full: Vec<TilePlacement> =
                    (1..=8).flat_map(|n| m.legal_placements(n)).collect();
                assert_eq!(list, full);
            }
            assert!(list.is_empty());
        }
    }
}
