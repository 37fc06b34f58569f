//! Computer players. Both see only what their seat may see: the public boards,
//! the revealed card and their own options.

use crate::board;
use crate::score;
use crate::state::{MyCity, PlayerState};
use crate::wire::{Card, Color, Move, Terrain};
use engine::{GameRng, Seat};

/// Uniform among the legal moves.
pub fn random(game: &MyCity, seat: Seat, rng: &mut GameRng) -> Option<Move> {
    let moves = game.legal_moves(seat);
    rng.choose(&moves).copied()
}

/// Picks the placement that raises the live score most, nudged toward compact
/// cities (sides shared with its own buildings) and toward bonuses in progress
/// (well sides, colors beside churches, a vein of gold); ties at random. Passes
/// when every placement would cost more than a pass; ends participation only when
/// it must.
pub fn greedy(game: &MyCity, seat: Seat, rng: &mut GameRng) -> Option<Move> {
    let moves = game.legal_moves(seat);
    if moves.is_empty() {
        return None;
    }
    let player = game.player(seat)?;
    let Some(Card::Building { piece, .. }) = game.current_card() else {
        return None;
    };
    let now = score::breakdown(player).total;
    let gold_open = !game.gold_claimed();
    let gold = board::gold_cells();
    let base_potential = potential(player, gold_open);
    let mut best: Vec<Move> = Vec::new();
    let mut best_value = i32::MIN;
    let mut best_gain = i32::MIN;
    for mv in &moves {
        let Move::Place { x, y, rotation } = *mv else {
            continue;
        };
        let Ok(cells) = player.placement_cells(piece, x, y, rotation) else {
            continue;
        };
        let contacts = cells
            .iter()
            .flat_map(|&c| board::neighbours(c))
            .filter(|&n| player.cover[n].is_some())
            .count() as i32;
        let mut after = player.clone();
        after.build(piece, x, y, rotation, cells, 0);
        let mut gain = score::breakdown(&after).total - now;
        if gold_open && gold.iter().all(|&g| after.cover[g].is_some()) {
            gain += score::GOLD_POINTS;
        }
        let value = gain * 100 + contacts * CONTACT + potential(&after, gold_open) - base_potential;
        if value > best_value {
            best_value = value;
            best_gain = gain;
            best.clear();
        }
        if value == best_value {
            best.push(*mv);
        }
    }
    let can_pass = moves.contains(&Move::Pass {});
    let place = !best.is_empty() && (best_gain >= -1 || (!can_pass && best_gain >= -4));
    if place {
        rng.choose(&best).copied()
    } else if can_pass {
        Some(Move::Pass {})
    } else {
        Some(Move::EndParticipation {})
    }
}

/// Progress toward bonuses not yet earned, in hundredths of a point: covered sides
/// of visible wells, colors beside churches, and a vein of gold while the bonus is
/// still open.
fn potential(p: &PlayerState, gold_open: bool) -> i32 {
    let mut v = 0;
    for i in 0..board::CELLS {
        if p.cover[i].is_none() && board::terrain_at(i) == Terrain::Well {
            let covered = board::neighbours(i)
                .filter(|&n| p.cover[n].is_some())
                .count() as i32;
            if covered < 4 {
                v += WELL_SIDE * covered;
            }
        }
    }
    for church in p.placed.iter().filter(|b| b.color == Color::Church) {
        let mut colors = [false; 3];
        for &c in &church.cells {
            for n in board::neighbours(c) {
                if let Some(o) = p.cover[n] {
                    match p.placed[usize::from(o)].color {
                        Color::Residential => colors[0] = true,
                        Color::Public => colors[1] = true,
                        Color::Industrial => colors[2] = true,
                        Color::Church => {}
                    }
                }
            }
        }
        let n = colors.iter().filter(|&&c| c).count() as i32;
        if n < 3 {
            v += CHURCH_COLOR * n;
        }
    }
    if gold_open {
        v += GOLD_VEIN
            * board::gold_cells()
                .into_iter()
                .filter(|&g| p.cover[g].is_some())
                .count() as i32;
    }
    v
}

/// Weights in hundredths of a point, tuned with the `my_city_bot_match` example.
const CONTACT: i32 = 30;
const WELL_SIDE: i32 = 60;
const CHURCH_COLOR: i32 = 60;
const GOLD_VEIN: i32 = 80;
