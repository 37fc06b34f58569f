//! Listing a seat's legal building moves, all of them or one part (one
//! building's tiles, or everything but tiles), and the end-of-phase rule (B7).

use super::build::{footprint, kind_of};
use super::preview::Previewer;
use super::value::{Allowed, Census};
use super::{BuildingCities, Stage};
use crate::city::{District, Footprint, Refusal, Sea, Spot, TileKind, footprint_blocks};
use crate::handbook::model::{Building, Placement};
use crate::wire::{GridSide, Move, Palette, Preview, Rule};
use engine::Seat;
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

/// What the tiles of one listing share: the counts, what the open priorities
/// allow, the legal spots of the buildings (not grids) by footprint, the map's
/// refusal of a kind of tile everywhere and, when the tiles carry previews, the
/// districts as they are.
struct Tiling<'a> {
    census: Census,
    allowed: Allowed,
    spots: HashMap<Footprint, Vec<Spot>>,
    refusals: HashMap<TileKind, Option<Refusal>>,
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
                    self.visit_tiles(seat, &mut tiling, b, found)
                        .unwrap_or(ControlFlow::Continue(()))?;
                }
            }
            Part::Tiles(id) => {
                if let Some(b) = self.hb.building(id) {
                    let mut tiling = self.tiling(seat, previews);
                    self.visit_tiles(seat, &mut tiling, b, found)
                        .unwrap_or(ControlFlow::Continue(()))?;
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
        let allowed = self.allowed(&self.open_needs(seat, &census));
        Tiling {
            census,
            allowed,
            spots: HashMap::new(),
            refusals: HashMap::new(),
            previewer: previews.then(|| Previewer::new(self, seat)),
        }
    }

    /// Hands every legal tile move of `b` to `found`, in spot order, until it
    /// breaks; when none is legal, the first rule that refuses it: its own
    /// checks ([`Self::precheck`]), else a district's ([`Self::district_check`])
    /// where a spot is, else the map's when no district takes it anywhere
    /// (grids first, grid built), else [`Rule::NoSpot`].
    fn visit_tiles(
        &self,
        seat: usize,
        tiling: &mut Tiling,
        b: &Building,
        found: &mut dyn FnMut(Move) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Rule> {
        let Some(size) = b.size.filter(|_| b.placement == Placement::Ground) else {
            return Err(Rule::NotBuildable {
                building: b.id.clone(),
            });
        };
        let cost = self.precheck(seat, &tiling.census, &tiling.allowed, b)?;
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
        let mut by_district: [Option<Result<(), Rule>>; 6] = Default::default();
        let mut listed = false;
        for spot in spots {
            let Some(d) = spot.origin.district() else {
                continue;
            };
            let fine = by_district[d.index()]
                .get_or_insert_with(|| self.district_check(seat, &tiling.census, b, d))
                .is_ok();
            if fine {
                listed = true;
                let preview = tiling.previewer.as_ref().map(|previewer| Preview {
                    cost: cost.maya,
                    moves: cost.moves,
                    value: footprint_blocks(fp, spot.rotation, spot.origin)
                        .map_or(0, |(d, m)| previewer.value_change(b, d, m)),
                });
                let mv = Move::Tile {
                    building: b.id.clone(),
                    rotation: spot.rotation,
                    origin: spot.origin,
                    preview,
                };
                if found(mv).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        if listed {
            return Ok(ControlFlow::Continue(()));
        }
        if let Some(rule) = by_district.into_iter().flatten().find_map(Result::err) {
            return Err(rule);
        }
        let everywhere = tiling
            .refusals
            .entry(match kind {
                // Every building but the grids has the same refusal.
                TileKind::Building(_) => TileKind::Building(String::new()),
                other => other,
            })
            .or_insert_with_key(|kind| city.refusal_everywhere(kind));
        Err(match everywhere.clone() {
            Some(refusal) => Rule::Map { refusal },
            None => Rule::NoSpot {
                building: b.id.clone(),
            },
        })
    }

    /// Whether `seat` is in his building phase now.
    pub(crate) fn building_now(&self, seat: Seat) -> bool {
        self.end.is_none() && self.stage == Stage::Building && self.awaiting().includes(seat)
    }

    /// For every building a tile move may name, whether `seat` may build it
    /// now (`None`: [`Self::legal_moves_of`] lists a spot for it) or the first
    /// rule that refuses it, as [`Self::visit_tiles`] says. Asked in his
    /// building phase only.
    pub(crate) fn palette(&self, seat: Seat) -> Palette {
        let s = usize::from(seat);
        let mut tiling = self.tiling(s, false);
        self.hb
            .buildings
            .iter()
            .filter(|b| b.is_tile())
            .map(|b| {
                let first = &mut |_| ControlFlow::Break(());
                (
                    b.id.clone(),
                    self.visit_tiles(s, &mut tiling, b, first).err(),
                )
            })
            .collect()
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
