//! Listing a seat's legal building moves, all of them or one part (one
//! building's tiles, or everything but tiles), and the end-of-phase rule (B7).

use super::BuildingCities;
use super::build::{footprint, kind_of};
use super::preview::Previewer;
use super::value::Census;
use crate::city::{District, Footprint, Sea, Spot, TileKind, footprint_blocks};
use crate::handbook::model::{Building, Placement, Target};
use crate::wire::{GridSide, Move, Preview, Rule};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// The `of` of a legal-move request that names every move but the tiles.
pub const OTHER: &str = "other";

/// Which of a building phase's moves to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part<'a> {
    /// Every one.
    All,
    /// The tile moves of the ground building with this id.
    Tiles(&'a str),
    /// Every move but the tile moves.
    Other,
}

impl Part<'_> {
    /// The part a legal-move request's `of` names: [`OTHER`] or a building id.
    pub(crate) fn of(of: &str) -> Part<'_> {
        if of == OTHER {
            Part::Other
        } else {
            Part::Tiles(of)
        }
    }
}

/// What the tiles of one listing share: the counts, the open priorities,
/// the legal spots of the buildings (not grids) by footprint and, when the
/// tiles carry previews, the districts as they are.
struct Tiling<'a> {
    census: Census,
    needs: Vec<(Target, u32)>,
    spots: HashMap<Footprint, Vec<Spot>>,
    previewer: Option<Previewer<'a>>,
}

impl BuildingCities {
    /// Every legal building-phase move of `seat` in `part`, except `end_turn`,
    /// in this order: roads, tiles in handbook order (each with its preview
    /// when `previews`), then trucks, upgrades, ships, sea areas, districts
    /// and the loan.
    pub(crate) fn build_moves(&self, seat: usize, part: Part, previews: bool) -> Vec<Move> {
        let mut out = Vec::new();
        let _ = self.visit_build_moves(seat, part, previews, &mut |mv| {
            out.push(mv);
            ControlFlow::Continue(())
        });
        out
    }

    /// Hands the moves of [`Self::build_moves`] to `found`, in order, until it
    /// breaks.
    fn visit_build_moves(
        &self,
        seat: usize,
        part: Part,
        previews: bool,
        found: &mut dyn FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let p = &self.players[seat];
        let roads = !matches!(part, Part::Tiles(_))
            && self
                .afford(seat, self.price(seat, self.road_cost()), 1)
                .is_ok();
        if roads {
            for block in p.city.legal_road_blocks() {
                found(Move::Road { block })?;
            }
        }
        match part {
            Part::All => {
                let mut tiling = self.tiling(seat, previews);
                for b in &self.hb.buildings {
                    self.visit_tiles(seat, &mut tiling, b, found)?;
                }
            }
            Part::Tiles(id) => {
                if let Some(b) = self.hb.building(id) {
                    self.visit_tiles(seat, &mut self.tiling(seat, previews), b, found)?;
                }
                return ControlFlow::Continue(());
            }
            Part::Other => {}
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
            if self.check_build(seat, &mv).is_ok() {
                found(mv)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn tiling(&self, seat: usize, previews: bool) -> Tiling<'_> {
        let census = Census::of(&self.hb, &self.players[seat]);
        let needs = self.open_needs(seat, &census);
        Tiling {
            census,
            needs,
            spots: HashMap::new(),
            previewer: previews.then(|| Previewer::new(self, seat)),
        }
    }

    /// Hands every legal tile move of `b` to `found` (none for a building that
    /// is not a ground tile or may not be built now).
    fn visit_tiles(
        &self,
        seat: usize,
        tiling: &mut Tiling,
        b: &Building,
        found: &mut dyn FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(size) = b.size.filter(|_| b.placement == Placement::Ground) else {
            return ControlFlow::Continue(());
        };
        let Ok(cost) = self.precheck(seat, &tiling.census, &tiling.needs, b) else {
            return ControlFlow::Continue(());
        };
        let city = &self.players[seat].city;
        let kind = kind_of(&b.id);
        let fp = footprint(size);
        // Every building but the grids has the same spots for one footprint.
        let own;
        let spots = match &kind {
            TileKind::Building(_) => &*tiling
                .spots
                .entry(fp)
                .or_insert_with(|| city.legal_tile_spots(&kind, fp)),
            _ => {
                own = city.legal_tile_spots(&kind, fp);
                &own
            }
        };
        let mut by_district: [Option<bool>; 6] = [None; 6];
        for spot in spots {
            let Some(d) = spot.origin.district() else {
                continue;
            };
            let fine = *by_district[d.index()]
                .get_or_insert_with(|| self.district_check(seat, &tiling.census, b, d).is_ok());
            if fine {
                let preview = tiling.previewer.as_ref().map(|previewer| Preview {
                    cost: cost.maya,
                    moves: cost.moves,
                    value: footprint_blocks(fp, spot.rotation, spot.origin)
                        .map_or(0, |(d, m)| previewer.value_change(b, d, m)),
                });
                found(Move::Tile {
                    building: b.id.clone(),
                    rotation: spot.rotation,
                    origin: spot.origin,
                    preview,
                })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether a build that spends Maya is still possible (the first one found
    /// answers).
    fn can_still_build(&self, seat: usize) -> bool {
        self.visit_build_moves(seat, Part::All, false, &mut |m| {
            let spends = !matches!(
                m,
                Move::RepayLoan {} | Move::BuyDistrict { .. } | Move::BuySea { .. }
            );
            if spends {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break()
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
