//! Counting a city: buildings by target (B4 limits, requirements, B5
//! priorities, objectives) and the total district value (E2, B3 bonuses in the
//! cross, B8 metro pairs, E8 upgrades).

use super::{BuildingCities, Player};
use crate::city::{District, TileKind};
use crate::handbook::Handbook;
use crate::handbook::cards::Goal;
use crate::handbook::model::{Bonus, Building, Requirement, Scope, Target};
use crate::handbook::rules::Trigger;

/// What one bonus (or malus) of `b` adds for each target it finds.
pub(crate) fn bonus_each(bonus: &Bonus, b: &Building) -> i32 {
    bonus.value + bonus.percent * b.value / 100
}

/// How far a bonus reaches: the cross (one side step) unless it says more.
pub(crate) fn bonus_range(bonus: &Bonus) -> u8 {
    u8::try_from(bonus.range.max(1)).unwrap_or(u8::MAX)
}

/// The handbook id of a placed tile.
pub(crate) fn tile_building(kind: &TileKind) -> &str {
    match kind {
        TileKind::Road => "road",
        TileKind::PowerGrid => "power_grid",
        TileKind::WaterGrid => "water_grid",
        TileKind::Building(id) => id,
    }
}

/// B5: what the open construction priorities let a seat build (everything
/// when none is open).
pub(crate) struct Allowed(Option<Vec<Target>>);

impl Allowed {
    pub(crate) fn admits(&self, b: &Building) -> bool {
        use crate::handbook::model::Category;
        match &self.0 {
            None => true,
            Some(wanted) => {
                matches!(b.category, Category::Road | Category::Grid)
                    || wanted.iter().any(|t| b.is(t))
            }
        }
    }
}

/// How many of each handbook building stand in each district and in the city.
pub(crate) struct Census {
    per: Vec<[u32; 6]>,
    city: Vec<u32>,
}

impl Census {
    pub(crate) fn of(hb: &Handbook, p: &Player) -> Census {
        let n = hb.buildings.len();
        let mut per = vec![[0u32; 6]; n];
        let index = |id: &str| hb.buildings.iter().position(|b| b.id == id);
        for t in p.city.tiles() {
            if let (Some(i), Some(d)) = (index(tile_building(&t.kind)), t.district()) {
                per[i][d.index()] += 1;
            }
        }
        if let Some(i) = index("truck") {
            for d in District::ALL {
                per[i][d.index()] += u32::from(p.city.trucks(d));
            }
        }
        if let Some(i) = index("cargo_ship") {
            for s in crate::city::Sea::ALL {
                per[i][s.district().index()] += u32::from(p.city.ships(s));
            }
        }
        let city = per.iter().map(|a| a.iter().sum()).collect();
        Census { per, city }
    }

    /// Buildings of `target` in the district (or the city with `None`).
    pub(crate) fn count(&self, hb: &Handbook, target: &Target, d: Option<District>) -> u32 {
        hb.buildings
            .iter()
            .enumerate()
            .filter(|(_, b)| b.is(target))
            .map(|(i, _)| match d {
                Some(d) => self.per[i][d.index()],
                None => self.city[i],
            })
            .sum()
    }

    pub(crate) fn of_building(&self, hb: &Handbook, id: &str, d: Option<District>) -> u32 {
        self.count(hb, &Target::Building(id.to_string()), d)
    }

    /// B5 housing units.
    pub(crate) fn housing(&self, hb: &Handbook) -> u32 {
        hb.buildings
            .iter()
            .enumerate()
            .map(|(i, b)| b.housing * self.city[i])
            .sum()
    }
}

impl BuildingCities {
    /// B4: whether one more `b` in `d` stays within its caps.
    pub(crate) fn within_limits(
        &self,
        census: &Census,
        b: &Building,
        d: Option<District>,
    ) -> Result<(), u32> {
        let hb = &self.hb;
        let own = Target::Building(b.id.clone());
        for scope in [Scope::District, Scope::City] {
            let at = if scope == Scope::District { d } else { None };
            if scope == Scope::District && d.is_none() {
                continue;
            }
            if let Some(max) = b.limit(scope)
                && census.count(hb, &own, at) >= max
            {
                return Err(max);
            }
        }
        for g in &hb.group_limits {
            if !b.is(&g.target) {
                continue;
            }
            let at = match g.scope {
                Scope::District => match d {
                    Some(d) => Some(d),
                    None => continue,
                },
                Scope::City => None,
            };
            if census.count(hb, &g.target, at) >= g.max {
                return Err(g.max);
            }
        }
        Ok(())
    }

    /// The handbook's requirements of `b` for district `d`.
    pub(crate) fn requirements_met(
        &self,
        seat: usize,
        census: &Census,
        b: &Building,
        d: Option<District>,
    ) -> bool {
        let p = &self.players[seat];
        b.requirements.iter().all(|r| match r {
            Requirement::Count { target, min, scope } => {
                let at = if *scope == Scope::District { d } else { None };
                census.count(&self.hb, target, at) >= *min
            }
            Requirement::Districts { min } => p.city.districts().len() as u32 >= *min,
            Requirement::OwnsDistrict { district } => {
                District::from_index(*district as usize - 1).is_some_and(|x| p.city.owns(x))
            }
            Requirement::SeaAreas { min } => p.city.seas().len() as u32 >= *min,
            Requirement::GridLevel { min } => {
                d.is_some_and(|d| p.grid[d.index()].iter().all(|l| u32::from(*l) >= *min))
            }
        })
    }

    /// B5 (and card demands): the needs still unmet, each with the district
    /// it is counted in.
    pub(crate) fn open_needs(&self, seat: usize, census: &Census) -> Vec<(Target, u32)> {
        let hb = &self.hb;
        let p = &self.players[seat];
        let mut out = Vec::new();
        for pr in &hb.economy.priorities {
            let at = match pr.trigger {
                Trigger::Housing { units } => {
                    if census.housing(hb) < units {
                        continue;
                    }
                    None
                }
                Trigger::DistrictGrids { nth } => match p.city.districts().get(nth as usize - 1) {
                    Some(&d) if p.city.has_grids(d) => Some(d),
                    _ => continue,
                },
                Trigger::BeforeDistrict { .. } => continue,
            };
            for need in &pr.needs {
                let d = if need.scope == Scope::District {
                    at
                } else {
                    None
                };
                if census.count(hb, &need.target, d) < need.count {
                    out.push((need.target.clone(), need.count));
                }
            }
        }
        for (target, count) in &p.demands {
            if census.count(hb, target, None) < *count {
                out.push((target.clone(), *count));
            }
        }
        out
    }

    /// B5: what may be built while `needs` are open: the needed buildings
    /// and their prerequisites (two levels deep); roads and grids always.
    pub(crate) fn allowed(&self, needs: &[(Target, u32)]) -> Allowed {
        if needs.is_empty() {
            return Allowed(None);
        }
        let hb = &self.hb;
        let mut wanted: Vec<Target> = needs.iter().map(|(t, _)| t.clone()).collect();
        for _ in 0..2 {
            let mut more = Vec::new();
            for x in hb
                .buildings
                .iter()
                .filter(|x| wanted.iter().any(|t| x.is(t)))
            {
                for r in &x.requirements {
                    if let Requirement::Count { target, .. } = r
                        && !wanted.contains(target)
                        && !more.contains(target)
                    {
                        more.push(target.clone());
                    }
                }
            }
            wanted.extend(more);
        }
        Allowed(Some(wanted))
    }

    /// E2: the total district value of a seat (before multipliers).
    pub(crate) fn district_value(&self, seat: usize) -> i32 {
        let p = &self.players[seat];
        let districts: i32 = p
            .city
            .districts()
            .iter()
            .map(|&d| self.penalized(seat, d, self.district_raw(seat, d)))
            .sum();
        let ships: i32 = crate::city::Sea::ALL
            .iter()
            .map(|s| i32::from(p.city.ships(*s)))
            .sum();
        let ship = self.hb.building("cargo_ship").map_or(0, |b| b.value);
        districts + ships * ship
    }

    /// One district's value before a card's penalty: its buildings (an
    /// unpaired metro only by its bonuses, B8), their bonuses and maluses in
    /// the cross (B3), its grid levels (E8) and trucks.
    pub(crate) fn district_raw(&self, seat: usize, d: District) -> i32 {
        let hb = &self.hb;
        let p = &self.players[seat];
        let mut v = 0i32;
        for t in p.city.tiles_in_district(d) {
            let Some(b) = hb.building(tile_building(&t.kind)) else {
                continue;
            };
            let unpaired =
                b.id == "metro_station" && !p.metros.iter().any(|m| m.tile == t.id && m.paired);
            if !unpaired {
                v += b.value;
            }
            for bonus in &b.bonuses {
                let each = bonus_each(bonus, b);
                match &bonus.target {
                    None => v += each,
                    Some(target) => {
                        let n = p
                            .city
                            .neighbours_within(t.id, bonus_range(bonus))
                            .iter()
                            .filter_map(|id| p.city.tile(*id))
                            .filter_map(|x| hb.building(tile_building(&x.kind)))
                            .filter(|x| x.is(target))
                            .count() as i32;
                        v += n * each;
                    }
                }
            }
        }
        for level in p.grid[d.index()] {
            v += self.grid_level_value(level);
        }
        v + i32::from(p.city.trucks(d)) * hb.building("truck").map_or(0, |b| b.value)
    }

    /// A district's value once a card's penalty (a percentage of a positive
    /// value) is taken from its `raw` value.
    pub(crate) fn penalized(&self, seat: usize, d: District, raw: i32) -> i32 {
        let penalty = self.players[seat].penalties[d.index()] as i32;
        if raw > 0 {
            raw - raw * penalty / 100
        } else {
            raw
        }
    }

    /// E8: what a grid at `level` adds to its district's value.
    pub(crate) fn grid_level_value(&self, level: u8) -> i32 {
        self.hb
            .economy
            .upgrades
            .iter()
            .filter(|u| u32::from(level) >= u.level)
            .map(|u| u.value)
            .sum()
    }

    /// The value of one district alone (cards pick the richest).
    pub(crate) fn one_district_value(&self, seat: usize, d: District) -> i32 {
        let hb = &self.hb;
        self.players[seat]
            .city
            .tiles_in_district(d)
            .filter_map(|t| hb.building(tile_building(&t.kind)))
            .map(|b| b.value)
            .sum()
    }

    /// W1/W2: whether the seat meets the objective now.
    pub(crate) fn objective_met(&self, seat: usize) -> bool {
        let o = &self.hb.objectives[self.objective];
        if o.goals.is_empty() {
            return false;
        }
        let p = &self.players[seat];
        let census = Census::of(&self.hb, p);
        o.goals.iter().all(|g| match g {
            Goal::Build { target, count } => census.count(&self.hb, target, None) >= *count,
            Goal::Bank { amount } => p.bank >= *amount as i32,
            Goal::GridLevel { level, districts } => {
                p.city
                    .districts()
                    .iter()
                    .filter(|d| p.grid[d.index()].iter().all(|l| u32::from(*l) >= *level))
                    .count() as u32
                    >= *districts
            }
            Goal::Districts { count } => p.city.districts().len() as u32 >= *count,
        })
    }
}

/// Looks ahead for the bots: the same rules on a copy.
impl BuildingCities {
    pub(crate) fn objective_index(&self) -> usize {
        self.objective
    }

    /// District value, free 1 × 1 spots and legal road blocks after a
    /// building move (as now if refused).
    pub(crate) fn after(&self, seat: engine::Seat, mv: &crate::wire::Move) -> (i32, usize, usize) {
        let mut copy = self.clone();
        let s = usize::from(seat);
        let _ = copy.build(s, mv, &mut Vec::new());
        let city = &copy.players[s].city;
        let spots = city
            .legal_tile_spots(
                &TileKind::Building(String::new()),
                crate::city::Footprint::OneByOne,
            )
            .len();
        (
            copy.district_value(s),
            spots,
            city.legal_road_blocks().len(),
        )
    }
}
