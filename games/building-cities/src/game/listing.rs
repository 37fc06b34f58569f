//! Listing a seat's legal building moves and the end-of-phase rule (B7).

use super::BuildingCities;
use super::build::{footprint, kind_of};
use super::value::Census;
use crate::city::{District, Footprint, Sea, TileKind};
use crate::handbook::model::Placement;
use crate::wire::{GridSide, Move, Rule};
use std::collections::HashMap;

impl BuildingCities {
    /// Every legal building-phase move of `seat` except `end_turn`, at most
    /// `limit` of them.
    pub(crate) fn build_moves(&self, seat: usize, limit: usize) -> Vec<Move> {
        let mut out = Vec::new();
        let p = &self.players[seat];
        let ok = |mv: &Move| self.check_build(seat, mv).is_ok();
        let push = |out: &mut Vec<Move>, mv: Move| {
            if out.len() < limit {
                out.push(mv);
            }
        };
        if self
            .afford(seat, self.price(seat, self.road_cost()), 1)
            .is_ok()
        {
            for block in p.city.legal_road_blocks() {
                push(&mut out, Move::Road { block });
            }
        }
        if out.len() >= limit {
            return out;
        }
        let census = Census::of(&self.hb, p);
        let needs = self.open_needs(seat, &census);
        let mut spots: HashMap<(bool, Footprint), Vec<crate::city::Spot>> = HashMap::new();
        for b in &self.hb.buildings {
            let Some(size) = b.size.filter(|_| b.placement == Placement::Ground) else {
                continue;
            };
            if self.precheck(seat, &census, &needs, b).is_err() {
                continue;
            }
            let kind = kind_of(&b.id);
            let fp = footprint(size);
            let key = (matches!(kind, TileKind::Building(_)), fp);
            let list = match &kind {
                TileKind::Building(_) => spots
                    .entry(key)
                    .or_insert_with(|| p.city.legal_tile_spots(&kind, fp))
                    .clone(),
                _ => p.city.legal_tile_spots(&kind, fp),
            };
            let mut by_district: HashMap<District, bool> = HashMap::new();
            for spot in list {
                let Some(d) = spot.origin.district() else {
                    continue;
                };
                let fine = *by_district
                    .entry(d)
                    .or_insert_with(|| self.district_check(seat, &census, b, d).is_ok());
                if fine {
                    push(
                        &mut out,
                        Move::Tile {
                            building: b.id.clone(),
                            rotation: spot.rotation,
                            origin: spot.origin,
                        },
                    );
                }
            }
            if out.len() >= limit {
                return out;
            }
        }
        let mut others = Vec::new();
        for &d in p.city.districts() {
            others.push(Move::Truck { district: d });
            others.push(Move::Upgrade {
                district: d,
                grid: GridSide::Power,
            });
            others.push(Move::Upgrade {
                district: d,
                grid: GridSide::Water,
            });
        }
        for sea in Sea::ALL {
            others.push(Move::Ship { sea });
            others.push(Move::BuySea { sea });
        }
        for district in District::ALL {
            others.push(Move::BuyDistrict { district });
        }
        others.push(Move::RepayLoan {});
        for mv in others {
            if ok(&mv) {
                push(&mut out, mv);
            }
        }
        out
    }

    /// Whether a build that spends Maya is still possible.
    fn can_still_build(&self, seat: usize) -> bool {
        self.build_moves(seat, usize::MAX).iter().any(|m| {
            !matches!(
                m,
                Move::RepayLoan {} | Move::BuyDistrict { .. } | Move::BuySea { .. }
            )
        })
    }

    /// E3: meets the tile condition of the next district but not the Maya one.
    pub(crate) fn saving(&self, seat: usize) -> bool {
        let p = &self.players[seat];
        let nth = p.city.districts().len() as u32 + 1;
        let Some(step) = self.hb.economy.district_step(nth) else {
            return false;
        };
        let tiles: u32 = p.city.districts().iter().map(|d| p.city.built_in(*d)).sum();
        tiles > step.tiles_more_than && i64::from(p.bank) <= i64::from(step.bank_more_than)
    }

    /// B7: whether `seat` may end his building phase now.
    pub(crate) fn check_end_turn(&self, seat: usize) -> Result<(), Rule> {
        let e = &self.hb.economy;
        let p = &self.players[seat];
        if self.saving(seat) {
            return Ok(());
        }
        let min = e.min_spend_per_turn;
        let idle_ok = p.spent == 0
            && i64::from(p.bank) < i64::from(e.inactive_bank_below)
            && p.inactive < e.max_inactive_turns;
        let spent_ok = p.spent >= min || i64::from(p.phase_bank) < i64::from(min);
        if idle_ok || (p.spent > 0 && spent_ok) {
            return Ok(());
        }
        if !self.can_still_build(seat) {
            return Ok(());
        }
        if p.spent == 0 {
            Err(Rule::MustBuild)
        } else {
            Err(Rule::MustSpend {
                spent: p.spent,
                min,
            })
        }
    }
}
