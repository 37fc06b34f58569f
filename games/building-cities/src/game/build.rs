//! The building phase (B1-B5, B7, B8, E3, E4, E8): checking, applying and
//! listing the small moves of a seat.

use super::value::{Allowed, Census};
use super::{BuildingCities, Metro};
use crate::city::{Block, District, Footprint, Rotation, TileKind};
use crate::handbook::model::{Building, Category, Placement, Size};
use crate::wire::{BankReason, EventKind, GridSide, Move, Rule};
use engine::Seat;

pub(crate) fn footprint(size: Size) -> Footprint {
    match size {
        Size::S1x1 => Footprint::OneByOne,
        Size::S2x1 => Footprint::TwoByOne,
        Size::S2x2 => Footprint::TwoByTwo,
        Size::S3x1 => Footprint::ThreeByOne,
        Size::S3x2 => Footprint::ThreeByTwo,
    }
}

pub(crate) fn kind_of(id: &str) -> TileKind {
    match id {
        "power_grid" => TileKind::PowerGrid,
        "water_grid" => TileKind::WaterGrid,
        _ => TileKind::Building(id.to_string()),
    }
}

/// What a checked move costs.
pub(crate) struct Cost {
    pub(crate) maya: u32,
    pub(crate) moves: u32,
}

impl BuildingCities {
    pub(crate) fn price(&self, seat: usize, base: u32) -> u32 {
        let n = self.players[seat].city.districts().len() as u32;
        self.hb.economy.price(base, n)
    }

    pub(crate) fn afford(&self, seat: usize, maya: u32, moves: u32) -> Result<Cost, Rule> {
        let p = &self.players[seat];
        if moves > p.moves_left {
            return Err(Rule::NotEnoughMoves {
                needed: moves,
                left: p.moves_left,
            });
        }
        if i64::from(maya) > i64::from(p.bank) {
            return Err(Rule::NotEnoughMaya {
                needed: maya,
                bank: p.bank,
            });
        }
        Ok(Cost { maya, moves })
    }

    /// The checks of a building that do not depend on where it goes.
    pub(crate) fn precheck(
        &self,
        seat: usize,
        census: &Census,
        allowed: &Allowed,
        b: &Building,
    ) -> Result<Cost, Rule> {
        let p = &self.players[seat];
        let id = || b.id.clone();
        if !b.buildable || b.category == Category::Road {
            return Err(Rule::NotBuildable { building: id() });
        }
        let obj = &self.hb.objectives[self.objective];
        if obj.forbids.iter().any(|t| b.is(t)) {
            return Err(Rule::Forbidden { building: id() });
        }
        let mut maya = self.price(seat, b.cost);
        if b.category == Category::Legendary {
            let offer = p.offers.iter().find(|o| o.building == b.id);
            match offer {
                None => return Err(Rule::NotOffered { building: id() }),
                Some(o) if o.paid => maya = 0,
                Some(_) => {}
            }
        }
        if !allowed.admits(b) {
            return Err(Rule::Priority { building: id() });
        }
        if let Err(max) = self.within_limits(census, b, None) {
            return Err(Rule::Limit {
                building: id(),
                max,
            });
        }
        if b.id == "metro_station"
            && p.metros
                .iter()
                .any(|m| !m.paired && m.turn == self.round && p.city.tile(m.tile).is_some())
        {
            return Err(Rule::MetroPairing);
        }
        self.afford(seat, maya, b.moves)
    }

    /// The checks that depend on the district.
    pub(crate) fn district_check(
        &self,
        seat: usize,
        census: &Census,
        b: &Building,
        d: District,
    ) -> Result<(), Rule> {
        if let Err(max) = self.within_limits(census, b, Some(d)) {
            return Err(Rule::Limit {
                building: b.id.clone(),
                max,
            });
        }
        if !self.requirements_met(seat, census, b, Some(d)) {
            return Err(Rule::Requirement {
                building: b.id.clone(),
            });
        }
        Ok(())
    }

    fn token(&self, seat: usize, id: &str, d: District) -> Result<Cost, Rule> {
        let b = self.hb.building(id).ok_or(Rule::UnknownBuilding {
            building: id.to_string(),
        })?;
        let census = Census::of(&self.hb, &self.players[seat]);
        let allowed = self.allowed(&self.open_needs(seat, &census));
        let cost = self.precheck(seat, &census, &allowed, b)?;
        self.district_check(seat, &census, b, d)?;
        Ok(cost)
    }

    /// E3/M2: the step of the next land district, its conditions and price.
    fn district_purchase(&self, seat: usize, sea: bool) -> Result<Cost, Rule> {
        let p = &self.players[seat];
        let owned = p.city.districts().len() as u32;
        let e = &self.hb.economy;
        let nth = if sea { (owned + 1).min(6) } else { owned + 1 };
        let step = e.district_step(nth).ok_or(Rule::NoMoreDistricts)?;
        if !sea
            && self.hb.objectives[self.objective]
                .max_districts
                .is_some_and(|m| owned >= m)
        {
            return Err(Rule::NoMoreDistricts);
        }
        let tiles: u32 = p.city.districts().iter().map(|d| p.city.built_in(*d)).sum();
        if i64::from(p.bank) <= i64::from(step.bank_more_than) || tiles <= step.tiles_more_than {
            return Err(Rule::DistrictConditions {
                bank_more_than: step.bank_more_than,
                tiles_more_than: step.tiles_more_than,
            });
        }
        if !sea && !self.before_district_met(seat, nth) {
            return Err(Rule::Priority {
                building: "district".to_string(),
            });
        }
        let maya = e.price(step.price, owned);
        if i64::from(maya) > i64::from(p.bank) {
            return Err(Rule::NotEnoughMaya {
                needed: maya,
                bank: p.bank,
            });
        }
        Ok(Cost { maya, moves: 0 })
    }

    /// B5 "before the n-th district": its needs stand.
    pub(crate) fn before_district_met(&self, seat: usize, nth: u32) -> bool {
        use crate::handbook::rules::Trigger;
        let census = Census::of(&self.hb, &self.players[seat]);
        self.hb
            .economy
            .priorities
            .iter()
            .filter(|p| p.trigger == Trigger::BeforeDistrict { nth })
            .flat_map(|p| &p.needs)
            .all(|n| census.count(&self.hb, &n.target, None) >= n.count)
    }

    /// Checks a building-phase move of `seat`.
    pub(crate) fn check_build(&self, seat: usize, mv: &Move) -> Result<Cost, Rule> {
        let p = &self.players[seat];
        match mv {
            Move::Road { block } => {
                let cost = self.afford(seat, self.price(seat, self.road_cost()), 1)?;
                p.city.can_place_road(*block)?;
                Ok(cost)
            }
            Move::Tile {
                building,
                rotation,
                origin,
                ..
            } => {
                let b = self.hb.building(building).ok_or(Rule::UnknownBuilding {
                    building: building.clone(),
                })?;
                let Some(size) = b.size.filter(|_| b.placement == Placement::Ground) else {
                    return Err(Rule::NotBuildable {
                        building: building.clone(),
                    });
                };
                if !footprint(size).rotations().contains(rotation) {
                    return Err(Rule::SquareRotation);
                }
                let census = Census::of(&self.hb, p);
                let allowed = self.allowed(&self.open_needs(seat, &census));
                let cost = self.precheck(seat, &census, &allowed, b)?;
                let d = origin.district().ok_or(Rule::Map {
                    refusal: crate::city::Refusal::OffMap { block: *origin },
                })?;
                self.district_check(seat, &census, b, d)?;
                p.city
                    .can_place_tile(&kind_of(building), footprint(size), *rotation, *origin)?;
                Ok(cost)
            }
            Move::Truck { district } => {
                let cost = self.token(seat, "truck", *district)?;
                p.city.can_place_truck(*district)?;
                Ok(cost)
            }
            Move::Ship { sea } => {
                let cost = self.token(seat, "cargo_ship", sea.district())?;
                p.city.can_place_ship(*sea)?;
                Ok(cost)
            }
            Move::BuyDistrict { district } => {
                p.city.can_buy_district(*district)?;
                self.district_purchase(seat, false)
            }
            Move::BuySea { sea } => {
                p.city.can_buy_sea(*sea)?;
                self.district_purchase(seat, true)
            }
            Move::Upgrade { district, grid } => {
                let level = p.grid[district.index()][*grid as usize];
                let u = self
                    .hb
                    .economy
                    .upgrades
                    .iter()
                    .find(|u| u.level == u32::from(level) + 1)
                    .filter(|_| level >= 1)
                    .ok_or(Rule::NoUpgrade)?;
                self.afford(seat, self.price(seat, u.cost), u.moves)
            }
            Move::RepayLoan {} => {
                let repay = self.hb.economy.loan.repay;
                if p.loan_due.is_none() || i64::from(p.bank) < i64::from(repay) {
                    return Err(Rule::CannotRepay);
                }
                Ok(Cost {
                    maya: repay,
                    moves: 0,
                })
            }
            _ => Err(Rule::WrongPhase),
        }
    }

    pub(crate) fn road_cost(&self) -> u32 {
        self.hb.building("road").map_or(10, |b| b.cost)
    }

    /// Applies a building-phase move (not `end_turn`).
    pub(crate) fn build(
        &mut self,
        seat: usize,
        mv: &Move,
        ev: &mut Vec<super::Event>,
    ) -> Result<(), Rule> {
        let cost = self.check_build(seat, mv)?;
        let s = seat as Seat;
        let reason = match mv {
            Move::BuyDistrict { .. } => BankReason::District,
            Move::BuySea { .. } => BankReason::SeaArea,
            Move::Upgrade { .. } => BankReason::Upgrade,
            Move::RepayLoan {} => BankReason::Repay,
            _ => BankReason::Build,
        };
        self.pay(seat, -(cost.maya as i32), reason, ev);
        let round = self.round;
        let p = &mut self.players[seat];
        p.moves_left -= cost.moves;
        if !matches!(mv, Move::RepayLoan {}) {
            p.spent += cost.maya;
        }
        let refusal = |r| Rule::Map { refusal: r };
        let kind = match mv {
            Move::Road { block } => {
                p.city.place_road(*block).map_err(refusal)?;
                EventKind::Road {
                    seat: s,
                    block: *block,
                }
            }
            Move::Tile {
                building,
                rotation,
                origin,
                ..
            } => return self.place(seat, building, *rotation, *origin, ev),
            Move::Truck { district } => {
                p.city.place_truck(*district).map_err(refusal)?;
                self.first_industry(seat, ev);
                EventKind::Truck {
                    seat: s,
                    district: *district,
                }
            }
            Move::Ship { sea } => {
                p.city.place_ship(*sea).map_err(refusal)?;
                EventKind::Ship { seat: s, sea: *sea }
            }
            Move::BuyDistrict { district } => {
                p.city.buy_district(*district).map_err(refusal)?;
                EventKind::DistrictBought {
                    seat: s,
                    district: *district,
                }
            }
            Move::BuySea { sea } => {
                p.city.buy_sea(*sea).map_err(refusal)?;
                EventKind::SeaBought { seat: s, sea: *sea }
            }
            Move::Upgrade { district, grid } => {
                let roll = self.rng.below(6) as u8 + 1;
                let p = &mut self.players[seat];
                let level = &mut p.grid[district.index()][*grid as usize];
                let u = self
                    .hb
                    .economy
                    .upgrades
                    .iter()
                    .find(|u| u.level == u32::from(*level) + 1);
                let success = u.is_some_and(|u| u32::from(roll) >= u.success_from);
                if success {
                    *level += 1;
                }
                EventKind::Upgrade {
                    seat: s,
                    district: *district,
                    grid: *grid,
                    roll,
                    level: *level,
                    success,
                }
            }
            Move::RepayLoan {} => {
                p.loan_due = None;
                EventKind::LoanRepaid { seat: s }
            }
            _ => return Err(Rule::WrongPhase),
        };
        let _ = round;
        ev.push(kind.into());
        Ok(())
    }

    /// Places a checked tile (the map's own checks aside): grids, B8 metro
    /// pairs, offers and the first industry follow.
    pub(crate) fn place(
        &mut self,
        seat: usize,
        building: &str,
        rotation: Rotation,
        origin: Block,
        ev: &mut Vec<super::Event>,
    ) -> Result<(), Rule> {
        let size = self
            .hb
            .building(building)
            .and_then(|b| b.size)
            .ok_or(Rule::NotBuildable {
                building: building.to_string(),
            })?;
        let round = self.round;
        let p = &mut self.players[seat];
        let kind = kind_of(building);
        let tile = p
            .city
            .place_tile(kind.clone(), footprint(size), rotation, origin)
            .map_err(|refusal| Rule::Map { refusal })?;
        if let Some(d) = origin.district() {
            match kind {
                TileKind::PowerGrid => p.grid[d.index()][GridSide::Power as usize] = 1,
                TileKind::WaterGrid => p.grid[d.index()][GridSide::Water as usize] = 1,
                _ => {}
            }
        }
        if building == "metro_station" {
            // B8: pairs with an unpaired metro of the previous turn.
            let open = p
                .metros
                .iter_mut()
                .find(|m| !m.paired && m.turn + 1 == round);
            let paired = match open {
                Some(m) => {
                    m.paired = true;
                    true
                }
                None => false,
            };
            p.metros.push(Metro {
                tile,
                turn: round,
                paired,
            });
        }
        if let Some(at) = p.offers.iter().position(|o| o.building == building) {
            p.offers.remove(at);
        }
        ev.push(
            EventKind::Built {
                seat: seat as Seat,
                building: building.to_string(),
                tile,
                rotation,
                origin,
            }
            .into(),
        );
        self.first_industry(seat, ev);
        Ok(())
    }
}
