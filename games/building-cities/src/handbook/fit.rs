//! Whether an objective can be met at all (ruling H): the buildings it asks for,
//! with what their requirements imply, must respect the per-city and
//! per-district caps, fit in the 8 × 8 grids of the districts it may use (minus
//! the protected blocks, the two grids of each district and the road blocks every
//! building must touch), find sea areas for its ships and be buildable with the
//! moves of its turns (the turn limit, or the 150-turn cap of W1).
//!
//! Every figure is a lower bound: a "fits" says the objective is not impossible
//! by counting, not that a layout exists. Maya are not checked (events decide
//! them). The district map (M1) and the sea areas (M2) are used as counts and
//! side adjacencies only.

use super::Handbook;
use super::cards::{Goal, Objective};
use super::model::{Building, Placement, Requirement, Scope, Target};
use super::rules::Trigger;
use std::collections::{BTreeMap, BTreeSet};

/// What an objective needs, when it fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    /// Buildings needed, by id, requirements included (grids and roads apart).
    pub needs: BTreeMap<String, u32>,
    /// The smallest set of land districts (1-6) that holds them.
    pub districts: BTreeSet<u32>,
    /// Sea areas needed for the ships.
    pub sea_areas: u32,
    /// Ground blocks covered: buildings, grids and the road lower bound.
    pub blocks: u32,
    /// Moves needed at least.
    pub moves: u32,
}

/// Why an objective cannot be met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// Not enough buildings of the target may stand in one city.
    CityLimit { target: Target, need: u32, max: u32 },
    /// The objective forbids a building it needs.
    Forbidden { building: String },
    /// No set of at most `allowed` districts holds everything (blocks,
    /// per-district caps, required districts, sea areas); `need` is the smallest
    /// that would (7 when even six do not).
    Districts { need: u32, allowed: u32 },
    /// More moves than the turn limit gives.
    Moves { need: u32, allowed: u32 },
}

struct Needs<'a> {
    handbook: &'a Handbook,
    objective: &'a Objective,
    counts: BTreeMap<String, u32>,
    min_districts: u32,
    owns: BTreeSet<u32>,
    min_seas: u32,
    grid_level: u32,
    grid_districts: u32,
    unfit: Vec<Unfit>,
}

impl<'a> Needs<'a> {
    fn count(&self, target: &Target) -> u32 {
        self.counts
            .iter()
            .filter(|(id, _)| self.handbook.building(id).is_some_and(|b| b.is(target)))
            .map(|(_, n)| n)
            .sum()
    }

    fn city_max(&self, building: &Building) -> u32 {
        let own = building.limit(Scope::City).unwrap_or(u32::MAX);
        self.handbook
            .group_limits
            .iter()
            .filter(|g| g.scope == Scope::City && building.is(&g.target))
            .map(|g| g.max)
            .fold(own, u32::min)
    }

    /// Raises the needs so that at least `count` buildings of `target` stand,
    /// adding the smallest (then cheapest) buildings that are allowed.
    fn at_least(&mut self, target: &Target, count: u32) -> bool {
        let mut missing = count.saturating_sub(self.count(target));
        if missing == 0 {
            return false;
        }
        let mut candidates: Vec<&'a Building> = self
            .handbook
            .buildings
            .iter()
            .filter(|b| b.buildable && b.is(target))
            .filter(|b| !self.objective.forbids.iter().any(|f| b.is(f)))
            .collect();
        candidates.sort_by_key(|b| (b.area(), b.cost, b.id.clone()));
        for building in candidates {
            let have = self.counts.get(&building.id).copied().unwrap_or(0);
            let room = self.city_max(building).saturating_sub(have);
            let add = room.min(missing);
            if add > 0 {
                *self.counts.entry(building.id.clone()).or_insert(0) += add;
                missing -= add;
            }
            if missing == 0 {
                return true;
            }
        }
        let forbidden: Vec<&Building> = self
            .handbook
            .buildings
            .iter()
            .filter(|b| b.buildable && b.is(target))
            .filter(|b| self.objective.forbids.iter().any(|f| b.is(f)))
            .collect();
        if let Some(building) = forbidden.first().filter(|_| self.count(target) == 0) {
            self.unfit.push(Unfit::Forbidden {
                building: building.id.clone(),
            });
            return true;
        }
        self.unfit.push(Unfit::CityLimit {
            target: target.clone(),
            need: count,
            max: count - missing,
        });
        true
    }

    fn requirements(&mut self) -> bool {
        let mut changed = false;
        let ids: Vec<String> = self.counts.keys().cloned().collect();
        for id in ids {
            let Some(building) = self.handbook.building(&id) else {
                continue;
            };
            for requirement in &building.requirements {
                match requirement {
                    Requirement::Count { target, min, .. } => {
                        changed |= self.at_least(target, *min);
                    }
                    Requirement::Districts { min } => {
                        self.min_districts = self.min_districts.max(*min);
                    }
                    Requirement::OwnsDistrict { district } => {
                        self.owns.insert(*district);
                    }
                    Requirement::SeaAreas { min } => self.min_seas = self.min_seas.max(*min),
                    Requirement::GridLevel { min } => {
                        self.grid_level = self.grid_level.max(*min);
                        self.grid_districts = self.grid_districts.max(1);
                    }
                }
            }
        }
        changed
    }

    /// Adds what the construction priorities (B5) of a city of `size` land
    /// districts ask for; a need counted in a district is counted once.
    fn priorities(&mut self, size: u32) -> bool {
        let housing: u32 = self
            .counts
            .iter()
            .filter_map(|(id, n)| self.handbook.building(id).map(|b| b.housing * n))
            .sum();
        let mut changed = false;
        for priority in &self.handbook.economy.priorities {
            let on = match priority.trigger {
                Trigger::Housing { units } => housing >= units,
                Trigger::DistrictGrids { nth } | Trigger::BeforeDistrict { nth } => size >= nth,
            };
            if on {
                for need in &priority.needs {
                    changed |= self.at_least(&need.target, need.count);
                }
            }
        }
        changed
    }
}

/// Land districts side by side (M1: `D1 D2 D3` over `D4 D5 D6`).
pub fn adjacent(a: u32, b: u32) -> bool {
    let (ra, ca) = ((a - 1) / 3, (a - 1) % 3);
    let (rb, cb) = ((b - 1) / 3, (b - 1) % 3);
    (ra == rb && ca.abs_diff(cb) == 1) || (ca == cb && ra.abs_diff(rb) == 1)
}

/// Every set of land districts a city can own: D1 and districts reached by sides.
pub fn connected_sets() -> Vec<BTreeSet<u32>> {
    let mut sets = Vec::new();
    for mask in 0u32..64 {
        if mask & 1 == 0 {
            continue;
        }
        let set: BTreeSet<u32> = (1..=6).filter(|d| mask & (1 << (d - 1)) != 0).collect();
        let mut reached = BTreeSet::from([1]);
        let mut grown = true;
        while grown {
            grown = false;
            for &d in &set {
                if !reached.contains(&d) && reached.iter().any(|&r| adjacent(r, d)) {
                    reached.insert(d);
                    grown = true;
                }
            }
        }
        if reached == set {
            sets.push(set);
        }
    }
    sets.sort_by_key(|s| (s.len(), s.iter().copied().collect::<Vec<_>>()));
    sets
}

/// What a city of `size` land districts needs for `objective`: its goals, the
/// priorities of that size and everything they require.
fn needs<'a>(handbook: &'a Handbook, objective: &'a Objective, size: u32) -> Needs<'a> {
    let mut needs = Needs {
        handbook,
        objective,
        counts: BTreeMap::new(),
        min_districts: 1,
        owns: BTreeSet::new(),
        min_seas: 0,
        grid_level: 1,
        grid_districts: 0,
        unfit: Vec::new(),
    };
    for goal in &objective.goals {
        match goal {
            Goal::Build { target, count } => {
                needs.at_least(target, *count);
            }
            Goal::Bank { .. } => {}
            Goal::GridLevel { level, districts } => {
                needs.grid_level = needs.grid_level.max(*level);
                needs.grid_districts = needs.grid_districts.max(*districts);
                needs.min_districts = needs.min_districts.max(*districts);
            }
            Goal::Districts { count } => needs.min_districts = needs.min_districts.max(*count),
        }
    }
    for _ in 0..16 {
        let required = needs.requirements();
        if !(needs.priorities(size) || required) {
            break;
        }
    }
    needs
}

/// A city of exactly `size` districts: the smallest set that holds the needs
/// (if any), and the other reasons it fails.
struct Sized {
    fit: Option<Fit>,
    unfit: Vec<Unfit>,
}

fn evaluate(handbook: &Handbook, objective: &Objective, size: u32) -> Sized {
    let economy = &handbook.economy;
    let mut needs = needs(handbook, objective, size);
    let mut unfit = std::mem::take(&mut needs.unfit);
    let counts = needs.counts.clone();
    let building = |id: &str| handbook.building(id);

    // Caps of one building and of groups, per city; per district they set a
    // smallest number of districts.
    let mut min_districts = needs.min_districts;
    for (id, &n) in &counts {
        let Some(b) = building(id) else { continue };
        if objective.forbids.iter().any(|f| b.is(f)) {
            unfit.push(Unfit::Forbidden {
                building: id.clone(),
            });
        }
        if let Some(max) = b.limit(Scope::City).filter(|&max| n > max) {
            unfit.push(Unfit::CityLimit {
                target: Target::Building(id.clone()),
                need: n,
                max,
            });
        }
        if let Some(max) = b.limit(Scope::District).filter(|&max| max > 0) {
            min_districts = min_districts.max(n.div_ceil(max));
        }
    }
    for group in &handbook.group_limits {
        let n = needs.count(&group.target);
        match group.scope {
            Scope::City if n > group.max => unfit.push(Unfit::CityLimit {
                target: group.target.clone(),
                need: n,
                max: group.max,
            }),
            Scope::District if group.max > 0 => {
                min_districts = min_districts.max(n.div_ceil(group.max));
            }
            _ => {}
        }
    }
    unfit.dedup();

    let placed = |placement: Placement| -> u32 {
        counts
            .iter()
            .filter(|(id, _)| building(id).is_some_and(|b| b.placement == placement))
            .map(|(_, n)| n)
            .sum()
    };
    let sea_areas = needs
        .min_seas
        .max(placed(Placement::Sea).div_ceil(economy.ships_per_sea_area.max(1)));
    let trucks = placed(Placement::Road);
    let ground: Vec<(&Building, u32)> = counts
        .iter()
        .filter_map(|(id, &n)| building(id).map(|b| (b, n)))
        .filter(|(b, _)| b.placement == Placement::Ground)
        .collect();
    let tiles: u32 = ground.iter().map(|(_, n)| n).sum();
    let area: u32 = ground.iter().map(|(b, n)| b.area() * n).sum();
    let usable = (economy.district_side * economy.district_side)
        .saturating_sub(economy.protected_blocks_max);
    // Every tile touches a road block; a road block touches at most three tiles
    // (one side continues the road), and a truck stands on a road block.
    let grids = 2 * size;
    let roads = size.max((tiles + grids).div_ceil(3)).max(trucks);
    let blocks = area + grids + roads;
    let seas_of = |set: &BTreeSet<u32>| {
        economy
            .sea_areas
            .iter()
            .filter(|s| set.contains(&s.next_to))
            .count() as u32
    };
    let districts = connected_sets().into_iter().find(|set| {
        set.len() as u32 == size
            && size >= min_districts
            && needs.owns.is_subset(set)
            && seas_of(set) >= sea_areas
            && blocks <= size * usable
    });

    let mut moves: u32 = counts
        .iter()
        .filter_map(|(id, &count)| building(id).map(|b| b.moves * count))
        .sum();
    moves += grids + roads;
    for upgrade in &economy.upgrades {
        if upgrade.level <= needs.grid_level {
            moves += upgrade.moves * 2 * needs.grid_districts;
        }
    }
    // Owning `size` districts means more than the last step's tiles were built.
    if let Some(step) = economy.district_step(size) {
        moves = moves.max(step.tiles_more_than + 1);
    }
    // Without a limit the game ends at the turn cap (W1).
    let turns = objective.turn_limit.unwrap_or(economy.turn_cap);
    let allowed = turns * economy.moves_per_turn;
    if moves > allowed {
        unfit.push(Unfit::Moves {
            need: moves,
            allowed,
        });
    }
    Sized {
        fit: districts.map(|districts| Fit {
            needs: counts,
            districts,
            sea_areas,
            blocks,
            moves,
        }),
        unfit,
    }
}

/// Whether `objective` can be met within the caps and the grids of `handbook`:
/// the smallest city that holds it, or every reason it cannot.
pub fn check(handbook: &Handbook, objective: &Objective) -> Result<Fit, Vec<Unfit>> {
    let economy = &handbook.economy;
    let allowed = objective
        .max_districts
        .unwrap_or(economy.land_districts)
        .min(economy.land_districts);
    let mut within: Option<Vec<Unfit>> = None;
    for size in 1..=economy.land_districts {
        let sized = evaluate(handbook, objective, size);
        match sized.fit {
            Some(fit) if size <= allowed && sized.unfit.is_empty() => return Ok(fit),
            Some(_) if size <= allowed => {
                within.get_or_insert(sized.unfit);
            }
            Some(_) => {
                if let Some(unfit) = within {
                    return Err(unfit);
                }
                let mut unfit = sized.unfit;
                unfit.push(Unfit::Districts {
                    need: size,
                    allowed,
                });
                return Err(unfit);
            }
            None => {}
        }
    }
    if let Some(unfit) = within {
        return Err(unfit);
    }
    let mut unfit = evaluate(handbook, objective, allowed.max(1)).unfit;
    unfit.push(Unfit::Districts {
        need: economy.land_districts + 1,
        allowed,
    });
    Err(unfit)
}
