//! Card effects (E2, E5-E7, B6) and goods (E6).

use super::choice::Pending;
use super::value::{Census, tile_building};
use super::{BuildingCities, Chal, Offer};
use crate::city::{District, Sea};
use crate::handbook::cards::{Chooser, Condition, DistrictPick, Effect, Grid, Route};
use crate::handbook::model::{Category, Target};
use crate::wire::{BankReason, Event, EventKind, Mode};
use engine::Seat;

impl BuildingCities {
    /// A card's condition ("ignore it with only the starting district").
    pub(crate) fn condition_holds(&self, seat: usize, c: &Condition) -> bool {
        self.players[seat].city.districts().len() as u32 >= c.min_districts
            && self.round >= c.min_turn
    }

    fn roll(&mut self) -> u8 {
        self.rng.below(6) as u8 + 1
    }

    fn pick(&mut self, seat: usize, pick: DistrictPick) -> District {
        let city = &self.players[seat].city;
        match pick {
            DistrictPick::Roll => {
                let face = self.roll();
                District::from_index(usize::from(face) - 1)
                    .filter(|d| self.players[seat].city.owns(*d))
                    .unwrap_or(District::D1)
            }
            DistrictPick::Newest => city.districts().last().copied().unwrap_or(District::D1),
            DistrictPick::Richest => city
                .districts()
                .iter()
                .copied()
                .max_by_key(|d| (self.one_district_value(seat, *d), std::cmp::Reverse(*d)))
                .unwrap_or(District::D1),
        }
    }

    /// E6: with the first industry, two different goods are rolled.
    pub(crate) fn first_industry(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let census = Census::of(&self.hb, &self.players[seat]);
        let industry = Target::Category(Category::Industry);
        if !self.players[seat].goods.is_empty() || census.count(&self.hb, &industry, None) == 0 {
            return;
        }
        let want = self.hb.economy.trade.goods_drawn as usize;
        let mut goods: Vec<String> = Vec::new();
        while goods.len() < want.min(self.hb.goods.len()) {
            let face = u32::from(self.roll());
            if let Some(g) = self.hb.goods.iter().find(|g| g.die == face)
                && !goods.contains(&g.id)
            {
                goods.push(g.id.clone());
            }
        }
        self.players[seat].goods = goods.clone();
        ev.push(
            EventKind::Goods {
                seat: seat as Seat,
                goods,
            }
            .into(),
        );
    }

    /// E7: a legendary card offers its building (or goes back at once when
    /// the city already has it).
    pub(crate) fn offer(&mut self, seat: usize, building: &str, card: Chal, ev: &mut Vec<Event>) {
        let census = Census::of(&self.hb, &self.players[seat]);
        if census.of_building(&self.hb, building, None) > 0 {
            return self.return_legendary(card, building, ev);
        }
        self.players[seat].offers.push(Offer {
            building: building.to_string(),
            card,
            paid: false,
        });
        ev.push(
            EventKind::LegendaryOffer {
                seat: seat as Seat,
                building: building.to_string(),
            }
            .into(),
        );
    }

    /// E5: the drawer's challenge (solo, Fair Play) or his hand (Despicable).
    pub(crate) fn draw_challenge(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let s = seat as Seat;
        for _ in 0..self.challenges.len() {
            let Some(card) = self.challenges.pop_front() else {
                return;
            };
            let legendary = match card {
                Chal::Event(i) => Some(i),
                Chal::Card(i) => {
                    matches!(self.hb.challenges[i].effect, Effect::Legendary { .. }).then_some(i)
                }
                Chal::TaskForce => None,
            };
            if legendary.is_some() {
                let effect = match card {
                    Chal::Event(i) => self.hb.events[i].effect.clone(),
                    Chal::Card(i) => self.hb.challenges[i].effect.clone(),
                    Chal::TaskForce => Effect::Nothing,
                };
                if let Effect::Legendary { building } = effect {
                    self.offer(seat, &building, card, ev);
                }
                continue;
            }
            if self.mode == Mode::Despicable {
                let max = self.hb.economy.challenges.hand_max as usize;
                if self.players[seat].hand.len() >= max {
                    self.challenges.push_front(card);
                    return;
                }
                self.players[seat].hand.push(card);
                let hand = self.players[seat].hand.len() as u8;
                ev.push(EventKind::ChallengeKept { seat: s, hand }.into());
                return;
            }
            match card {
                Chal::TaskForce => {
                    self.players[seat].task_forces += 1;
                    ev.push(EventKind::TaskForceKept { seat: s }.into());
                }
                Chal::Card(i) => self.hit(seat, i, None, ev),
                Chal::Event(_) => {}
            }
            return;
        }
    }

    /// A challenge hits `seat`: a held Task Force cancels it (solo, Fair Play:
    /// used at once on any challenge that does something).
    pub(crate) fn hit(&mut self, seat: usize, i: usize, by: Option<usize>, ev: &mut Vec<Event>) {
        let card = self.hb.challenges[i].clone();
        self.last_challenge = Some(card.id.clone());
        let p = &mut self.players[seat];
        let cancel = by.is_none() && p.task_forces > 0 && card.effect != Effect::Nothing;
        if cancel {
            p.task_forces -= 1;
        }
        self.challenges.push_back(Chal::Card(i));
        ev.push(
            EventKind::ChallengeCard {
                seat: seat as Seat,
                card: card.id.clone(),
                cancelled: cancel,
            }
            .into(),
        );
        if !cancel && self.condition_holds(seat, &card.condition) {
            self.effect(seat, &card.effect, BankReason::Challenge, by, ev);
        }
    }

    /// Applies a card's effect to `seat`.
    pub(crate) fn effect(
        &mut self,
        seat: usize,
        effect: &Effect,
        reason: BankReason,
        by: Option<usize>,
        ev: &mut Vec<Event>,
    ) {
        let hb = self.hb.clone();
        let census = Census::of(&hb, &self.players[seat]);
        let count = |t: &Target, d: Option<District>| census.count(&hb, t, d) as i32;
        let bank = self.players[seat].bank;
        let mut amount = 0i32;
        match effect {
            Effect::Nothing | Effect::Blank | Effect::TaskForce | Effect::Legendary { .. } => {}
            Effect::GainMaya { amount: a } => amount = *a as i32,
            Effect::LoseMaya { amount: a } => amount = -(*a as i32),
            Effect::LoseBankPercent { percent } => {
                amount = -(bank.max(0) * *percent as i32 / 100);
            }
            Effect::PerBuilding { target, amount: a } => amount = count(target, None) * a,
            Effect::PerDistrictWithout { target, amount: a } => {
                let ds = self.players[seat].city.districts().to_vec();
                let without = ds.iter().filter(|d| count(target, Some(**d)) == 0).count();
                amount = -(without as i32 * *a as i32);
            }
            Effect::Coverage {
                target,
                pick,
                adjacent,
                farther,
            } => {
                let d = self.pick(seat, *pick);
                let city = &self.players[seat].city;
                if count(target, Some(d)) == 0 {
                    let near = city
                        .districts()
                        .iter()
                        .any(|x| x.adjacent(d) && count(target, Some(*x)) > 0);
                    amount = -(if near { *adjacent } else { *farther } as i32);
                }
            }
            Effect::UnlessBuilt { target, amount: a } => {
                if count(target, None) == 0 {
                    amount = -(*a as i32);
                }
            }
            Effect::GoodMarket { good, amount: a } => {
                if self.players[seat].goods.contains(good) {
                    amount = *a;
                }
            }
            Effect::Destroy { target, chooser } => self.destroy(seat, target, *chooser, by, ev),
            Effect::SkipBuildingPhase { turns } => self.players[seat].skip += turns,
            Effect::MovesPercent { percent, turns } => {
                self.players[seat].moves_pct = Some((*percent, *turns));
            }
            Effect::ValuePercent { percent, turns } => {
                self.players[seat].value_pct = Some((*percent, *turns));
            }
            Effect::GridFailure {
                grid,
                level,
                amount: a,
            } => {
                let p = &self.players[seat];
                let low = p
                    .city
                    .districts()
                    .iter()
                    .filter(|d| {
                        let [pw, wa] = p.grid[d.index()];
                        let l = match grid {
                            Grid::Power => pw,
                            Grid::Water => wa,
                            Grid::Both => pw.min(wa),
                        };
                        u32::from(l) < *level
                    })
                    .count() as i32;
                amount = -(low * *a as i32);
            }
            Effect::Demand {
                target,
                impossible,
                refused,
            } => {
                let possible = hb.buildings.iter().any(|b| {
                    b.is(target)
                        && b.buildable
                        && !matches!(b.category, Category::Legendary | Category::Road)
                        && self.players[seat].city.districts().iter().any(|d| {
                            self.within_limits(&census, b, Some(*d)).is_ok()
                                && self.requirements_met(seat, &census, b, Some(*d))
                        })
                });
                if possible {
                    // B5: accepted (a need) or refused for its price.
                    self.pending.push_back(Pending::Demand {
                        seat: seat as Seat,
                        target: target.clone(),
                        need: census.count(&hb, target, None) + 1,
                        refused: *refused,
                        reason,
                    });
                } else {
                    amount = -(*impossible as i32);
                }
            }
            Effect::DistrictPenalty { pick, percent } => {
                let d = self.pick(seat, *pick);
                let pen = &mut self.players[seat].penalties[d.index()];
                *pen = (*pen).max(*percent);
            }
            Effect::Trade { faces } => return self.trade(seat, faces, ev),
        }
        self.pay(seat, amount, reason, ev);
    }

    /// B6 by a card: the owner loses his least valuable building of the
    /// target (the latest on a tie), or a truck or ship; in Despicable the
    /// player who played it chooses among several buildings (E5).
    fn destroy(
        &mut self,
        seat: usize,
        target: &Target,
        chooser: Chooser,
        by: Option<usize>,
        ev: &mut Vec<Event>,
    ) {
        let hb = self.hb.clone();
        let mut victims: Vec<(i32, u32)> = self.players[seat]
            .city
            .tiles()
            .iter()
            .filter_map(|t| hb.building(tile_building(&t.kind)).map(|b| (t, b)))
            // B3: the grids stay first in their district; no card removes them.
            .filter(|(_, b)| b.is(target) && b.category != Category::Grid)
            .map(|(t, b)| (b.value, t.id))
            .collect();
        victims.sort_by_key(|&(value, id)| (value, std::cmp::Reverse(id)));
        let tiles: Vec<u32> = victims.into_iter().map(|(_, id)| id).collect();
        if let Some(by) = by
            && chooser == Chooser::Player
            && self.mode == Mode::Despicable
            && tiles.len() > 1
        {
            self.pending.push_back(Pending::Destroy {
                by: by as Seat,
                owner: seat as Seat,
                tiles,
            });
            return;
        }
        if let Some(&id) = tiles.first() {
            return self.remove_building(seat, id, ev);
        }
        let s = seat as Seat;
        let p = &mut self.players[seat];
        let token = |id: &str| hb.building(id).is_some_and(|b| b.is(target));
        if token("truck")
            && let Some(d) = District::ALL.into_iter().find(|d| p.city.trucks(*d) > 0)
        {
            let _ = p.city.remove_truck(d);
            ev.push(
                EventKind::Destroyed {
                    seat: s,
                    building: "truck".into(),
                    tile: 0,
                }
                .into(),
            );
        } else if token("cargo_ship")
            && let Some(sea) = Sea::ALL.into_iter().find(|x| p.city.ships(*x) > 0)
        {
            let _ = p.city.remove_ship(sea);
            ev.push(
                EventKind::Destroyed {
                    seat: s,
                    building: "cargo_ship".into(),
                    tile: 0,
                }
                .into(),
            );
        }
    }

    /// Whether a city serves a trade route (planes: airport; trains: D3; ships).
    fn serves(&self, seat: usize, route: Route) -> bool {
        let p = &self.players[seat];
        let census = Census::of(&self.hb, p);
        match route {
            Route::Planes => census.of_building(&self.hb, "airport", None) > 0,
            Route::Trains => p.city.has_railway(),
            Route::Ships => census.of_building(&self.hb, "cargo_ship", None) > 0,
            Route::Industries | Route::Trucks => true,
        }
    }

    /// E6: the first part pays the drawer by die face; on 2-6 the trade with
    /// a partner (not in solo).
    fn trade(
        &mut self,
        seat: usize,
        faces: &[crate::handbook::cards::TradeFace],
        ev: &mut Vec<Event>,
    ) {
        let roll = self.roll();
        let Some(face) = faces.iter().find(|f| f.die == u32::from(roll)).copied() else {
            return;
        };
        let census = Census::of(&self.hb, &self.players[seat]);
        let hb = self.hb.clone();
        let units = match face.route {
            Route::Industries => census.count(&hb, &Target::Category(Category::Industry), None),
            Route::Trucks => census.of_building(&hb, "truck", None),
            Route::Ships => census.of_building(&hb, "cargo_ship", None),
            Route::Planes | Route::Trains => u32::from(self.serves(seat, face.route)),
        };
        self.pay(seat, (units * face.per_unit) as i32, BankReason::Trade, ev);
        let mut partner = None;
        if roll != 1 && self.mode != Mode::Solo && !self.players[seat].goods.is_empty() {
            let eligible: Vec<usize> = (0..self.players.len())
                .filter(|&o| {
                    o != seat
                        && self.playing(o)
                        && !self.players[o].goods.is_empty()
                        && self.serves(o, face.route)
                        && self.serves(seat, face.route)
                })
                .collect();
            if self.mode == Mode::FairPlay {
                let pick = eligible
                    .get(self.trade_turn % eligible.len().max(1))
                    .copied();
                self.trade_turn += 1;
                partner = pick;
            } else if eligible.len() > 1 {
                // E6 (Despicable): the drawer chooses.
                self.pending.push_back(Pending::Partner {
                    drawer: seat as Seat,
                    roll,
                    partners: eligible.iter().map(|&o| o as Seat).collect(),
                });
                return;
            } else {
                partner = eligible.first().copied();
            }
        }
        self.trade_with(seat, roll, partner, ev);
    }
}
