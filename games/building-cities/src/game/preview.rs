//! The district value a listed tile would add (E2, B3 bonuses and maluses in
//! the cross, B8 metro pairs, E8 grid levels), found without placing it: each
//! district's value is counted once per listing, then each spot adds what
//! changes around it.

use super::BuildingCities;
use super::value::{bonus_each, bonus_range, tile_building};
use crate::city::{District, reach};
use crate::handbook::model::Building;
use crate::wire::GridSide;

/// A seat's districts as one listing's previews need them.
pub(crate) struct Previewer<'a> {
    game: &'a BuildingCities,
    seat: usize,
    /// Per district: its value before a card's penalty.
    raw: [i32; 6],
    /// Per district: the blocks and building of each tile.
    tiles: [Vec<(u64, &'a Building)>; 6],
    /// B8: the district of the metro a new metro would pair with, if any
    /// (`Some(None)` when that metro's tile is gone).
    open_metro: Option<Option<District>>,
}

impl<'a> Previewer<'a> {
    pub(crate) fn new(game: &'a BuildingCities, seat: usize) -> Previewer<'a> {
        let p = &game.players[seat];
        let mut raw = [0; 6];
        let mut tiles: [Vec<(u64, &Building)>; 6] = Default::default();
        for &d in p.city.districts() {
            raw[d.index()] = game.district_raw(seat, d);
        }
        for t in p.city.tiles() {
            if let (Some((d, m)), Some(b)) =
                (t.placement(), game.hb.building(tile_building(&t.kind)))
            {
                tiles[d.index()].push((m, b));
            }
        }
        // The same metro `place` pairs a new one with.
        let open_metro = p
            .metros
            .iter()
            .find(|m| !m.paired && m.turn + 1 == game.round)
            .map(|m| p.city.tile(m.tile).and_then(|t| t.district()));
        Previewer {
            game,
            seat,
            raw,
            tiles,
            open_metro,
        }
    }

    /// How much the seat's total district value changes with `b` built on
    /// the blocks `m` of district `d`.
    pub(crate) fn value_change(&self, b: &Building, d: District, m: u64) -> i32 {
        let mut change = [0i32; 6];
        let here = &self.tiles[d.index()];
        let metro = b.id == "metro_station";
        if !metro || self.open_metro.is_some() {
            change[d.index()] += b.value;
        }
        if let (true, Some(Some(paired))) = (metro, self.open_metro) {
            change[paired.index()] += b.value;
        }
        // Its own bonuses, and those of the tiles around whose reach it enters.
        for bonus in &b.bonuses {
            let each = bonus_each(bonus, b);
            change[d.index()] += match &bonus.target {
                None => each,
                Some(target) => {
                    let around = reach(m, bonus_range(bonus));
                    let found = here
                        .iter()
                        .filter(|(tm, x)| tm & around != 0 && x.is(target))
                        .count();
                    found as i32 * each
                }
            };
        }
        for (tm, x) in here {
            for bonus in &x.bonuses {
                let reaches = bonus
                    .target
                    .as_ref()
                    .is_some_and(|target| b.is(target) && reach(*tm, bonus_range(bonus)) & m != 0);
                if reaches {
                    change[d.index()] += bonus_each(bonus, x);
                }
            }
        }
        // A new grid stands at level 1 (E8).
        let side = match b.id.as_str() {
            "power_grid" => Some(GridSide::Power),
            "water_grid" => Some(GridSide::Water),
            _ => None,
        };
        if let Some(side) = side {
            let level = self.game.players[self.seat].grid[d.index()][side as usize];
            change[d.index()] += self.game.grid_level_value(1) - self.game.grid_level_value(level);
        }
        District::ALL
            .into_iter()
            .filter(|x| change[x.index()] != 0)
            .map(|x| {
                let raw = self.raw[x.index()];
                let g = self.game;
                g.penalized(self.seat, x, raw + change[x.index()]) - g.penalized(self.seat, x, raw)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::city::footprint_blocks;
    use crate::game::build::{footprint, kind_of};
    use crate::game::{Metro, Stage};
    use crate::handbook::model::Placement;
    use crate::wire::{Mode, Options};
    use engine::{BotLevel, Game, GameRng, Setup};

    /// Every building on every spot the map allows, under card penalties and
    /// with a metro waiting for its pair: the preview's value is what placing
    /// it changes.
    #[test]
    fn a_value_change_is_what_placing_changes() {
        let mut checked = 0;
        for seed in 0..8 {
            // Random bots lay more roads, so their cities offer more spots.
            let level = [BotLevel::Greedy, BotLevel::Random][seed as usize % 2];
            let setup = Setup {
                seats: 1,
                seed,
                options: Options {
                    mode: Mode::Solo,
                    objective: Some("obj_first_to_3000".into()),
                    ..Options::default()
                },
                first_seat: None,
            };
            let mut g = BuildingCities::new(&setup).expect("setup");
            let mut rng = GameRng::new(seed);
            while g.round < 9 && g.end.is_none() {
                match g.bot_move(0, level, &mut rng) {
                    Some(mv) => {
                        g.apply(0, &mv).expect("a bot's move is legal");
                    }
                    None => {
                        g.timeout();
                    }
                }
            }
            if g.stage != Stage::Building || g.end.is_some() {
                continue;
            }
            // A metro of last turn waiting for its pair, and penalties.
            let p = &mut g.players[0];
            let metro = kind_of("metro_station");
            if let Some(spot) = p
                .city
                .legal_tile_spots(&metro, footprint(crate::handbook::model::Size::S1x1))
                .first()
                .copied()
            {
                let tile = p
                    .city
                    .place_tile(
                        metro,
                        crate::city::Footprint::OneByOne,
                        spot.rotation,
                        spot.origin,
                    )
                    .expect("a legal spot");
                let turn = g.round - 1;
                p.metros.push(Metro {
                    tile,
                    turn,
                    paired: false,
                });
            }
            for (i, pen) in p.penalties.iter_mut().enumerate() {
                *pen = [0, 25, 50][(i + seed as usize) % 3];
            }
            let previewer = Previewer::new(&g, 0);
            let before = g.district_value(0);
            for b in &g.hb.buildings {
                let Some(size) = b.size.filter(|_| b.placement == Placement::Ground) else {
                    continue;
                };
                let (kind, fp) = (kind_of(&b.id), footprint(size));
                for spot in g.players[0].city.legal_tile_spots(&kind, fp) {
                    let (d, m) =
                        footprint_blocks(fp, spot.rotation, spot.origin).expect("on the map");
                    let mut after = g.clone();
                    after
                        .place(0, &b.id, spot.rotation, spot.origin, &mut Vec::new())
                        .expect("a legal spot");
                    assert_eq!(
                        previewer.value_change(b, d, m),
                        after.district_value(0) - before,
                        "{} at {:?}",
                        b.id,
                        spot
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 400, "{checked} placements");
    }
}
