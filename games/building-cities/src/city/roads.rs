//! Road blocks (B2): connected to the junction, never side by side, at most so
//! many intersections per district. The definitions are in the module docs of
//! [`crate::city`].

use super::geometry::{self, Block, District, SHIFTS};
use super::{City, JUNCTION, Refusal};

/// Road blocks with three or four road neighbours in their district, the
/// junction left out.
pub(crate) fn intersections_mask(district: District, roads: u64) -> u64 {
    let [a, b, c, d] = SHIFTS.map(|s| s(roads));
    let three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
    let junction = if district == District::D1 {
        JUNCTION.bit()
    } else {
        0
    };
    three & roads & !junction
}

impl City {
    /// Whether a road block lies there.
    pub fn is_road(&self, block: Block) -> bool {
        block
            .district()
            .is_some_and(|d| self.roads[d.index()] & block.bit() != 0)
    }

    /// Every road block, in district then row order.
    pub fn roads(&self) -> Vec<Block> {
        District::ALL
            .into_iter()
            .flat_map(|d| geometry::blocks_of(d, self.roads[d.index()]))
            .collect()
    }

    /// Road blocks of one district.
    pub fn roads_in_district(&self, district: District) -> Vec<Block> {
        geometry::blocks_of(district, self.roads[district.index()]).collect()
    }

    /// Number of road blocks in the city.
    pub fn road_count(&self) -> u32 {
        self.roads.iter().map(|m| m.count_ones()).sum()
    }

    /// B2: the district's intersections.
    pub fn intersections(&self, district: District) -> Vec<Block> {
        let m = intersections_mask(district, self.roads[district.index()]);
        geometry::blocks_of(district, m).collect()
    }

    /// Whether a road block may be placed on `block` (B2, M3, M4).
    pub fn can_place_road(&self, block: Block) -> Result<(), Refusal> {
        let district = block.district().ok_or(Refusal::OffMap { block })?;
        if !self.owns(district) {
            return Err(Refusal::DistrictNotOwned { district });
        }
        if self.is_protected(block) {
            return Err(Refusal::Protected { block });
        }
        let i = district.index();
        if (self.roads[i] | self.occupied[i]) & block.bit() != 0 {
            return Err(Refusal::Occupied { block });
        }
        if self.road_count() == 0 {
            if block != JUNCTION {
                return Err(Refusal::FirstRoadAtJunction { junction: JUNCTION });
            }
        } else if !block.neighbours().any(|n| self.is_road(n)) {
            return Err(Refusal::RoadNotConnected { block });
        }
        let road = |b: Option<Block>| b.is_some_and(|b| b == block || self.is_road(b));
        // No 2 × 2 square of road: the four squares holding the block.
        for (dx, dy) in [(-1, -1), (0, -1), (-1, 0), (0, 0)] {
            let Some(corner) = block.offset(dx, dy) else {
                continue;
            };
            let square = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| corner.offset(x, y));
            if square.iter().all(|b| road(*b)) {
                return Err(Refusal::RoadsSideBySide { corner });
            }
        }
        // No corner-to-corner contact without a shared road neighbour.
        for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let Some(other) = block.offset(dx, dy) else {
                continue;
            };
            if self.is_road(other) && !road(block.offset(dx, 0)) && !road(block.offset(0, dy)) {
                return Err(Refusal::RoadsTouchAtCorner { block, other });
            }
        }
        let limit = self.rules.max_intersections;
        let before = intersections_mask(district, self.roads[i]).count_ones();
        let after = intersections_mask(district, self.roads[i] | block.bit()).count_ones();
        if after > before && after > u32::from(limit) {
            return Err(Refusal::TooManyIntersections { district, limit });
        }
        Ok(())
    }

    /// Places a road block.
    pub fn place_road(&mut self, block: Block) -> Result<(), Refusal> {
        self.can_place_road(block)?;
        if let Some(d) = block.district() {
            self.roads[d.index()] |= block.bit();
        }
        Ok(())
    }

    /// Every block a road may be placed on now, in district then row order.
    pub fn legal_road_blocks(&self) -> Vec<Block> {
        if self.road_count() == 0 {
            return match self.can_place_road(JUNCTION) {
                Ok(()) => vec![JUNCTION],
                Err(_) => Vec::new(),
            };
        }
        let mut out = Vec::new();
        for &d in &self.districts {
            let i = d.index();
            // Candidates: free blocks touching a road in the district, plus the
            // district's edge blocks (a road may come across the border).
            let edge = geometry::COL0 | geometry::COL7 | 0xff | (0xff << 56);
            let near = geometry::grow(self.roads[i]) | edge;
            let candidates = near & !(self.protected[i] | self.roads[i] | self.occupied[i]);
            for b in geometry::blocks_of(d, candidates) {
                if self.can_place_road(b).is_ok() {
                    out.push(b);
                }
            }
        }
        out
    }

    /// Removes a road block (a card; B6). Does not re-check what depended on it.
    pub fn remove_road(&mut self, block: Block) -> Result<(), Refusal> {
        if !self.is_road(block) {
            return Err(Refusal::NothingToRemove);
        }
        if let Some(d) = block.district() {
            self.roads[d.index()] &= !block.bit();
        }
        Ok(())
    }
}
