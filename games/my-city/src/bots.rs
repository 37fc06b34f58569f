//! Computer players. Both see only what their seat may see: the public boards,
//! the revealed card and their own options.

use crate::board;
use crate::score;
use crate::state::MyCity;
use crate::wire::{Card, Move};
use engine::{GameRng, Seat};

/// Uniform among the legal moves.
pub fn random(game: &MyCity, seat: Seat, rng: &mut GameRng) -> Option<Move> {
    let moves = game.legal_moves(seat);
    rng.choose(&moves).copied()
}

/// Picks the placement that raises the live score most (ties: more sides shared
/// with its own buildings, then at random); passes when every placement would
/// cost more than a pass; ends participation only when it must.
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
        let value = gain * 100 + contacts * 5;
        if value > best_value {
            best_value = value;
            best_gain = gain;
            best.clear();
        }
        if value == best_value {
            best.push(*mv);
        }
    }
    let can_pass = moves.contains(&Move::Pass);
    let place = !best.is_empty() && (best_gain >= -1 || (!can_pass && best_gain >= -4));
    if place {
        rng.choose(&best).copied()
    } else if can_pass {
        Some(Move::Pass)
    } else {
        Some(Move::EndParticipation)
    }
}
