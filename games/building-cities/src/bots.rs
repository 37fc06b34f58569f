//! Computer players. `random` picks uniformly among the legal moves but ends
//! its building phase one time in four when it may; `greedy` builds the
//! building that pays back best over the turns left (district value per Maya,
//! bonuses tried on a few spots), lays the road that opens the most room when
//! the districts run out of spots, buys districts as soon as it may, and ends
//! its turn when nothing pays back. Both see only what their seat may see (the
//! greedy bot reads the public view: cities, banks and phases).

use crate::city::{Footprint, TileKind};
use crate::game::BuildingCities;
use crate::handbook::cards::Goal;
use crate::wire::{Move, Phase};
use engine::{BotLevel, GameRng, Seat, Viewer};

pub(crate) fn bot_move(
    g: &BuildingCities,
    seat: Seat,
    level: BotLevel,
    rng: &mut GameRng,
) -> Option<Move> {
    let moves = g.legal_moves_unpreviewed(seat);
    if moves.is_empty() {
        return None;
    }
    match level {
        BotLevel::Random => {
            let end = moves.iter().find(|m| matches!(m, Move::EndTurn {}));
            if let Some(end) = end
                && rng.below(4) == 0
            {
                return Some(end.clone());
            }
            rng.choose(&moves).cloned()
        }
        BotLevel::Greedy => Some(greedy(g, seat, moves)),
    }
}

fn greedy(g: &BuildingCities, seat: Seat, moves: Vec<Move>) -> Move {
    // Cities, banks and phases are public: the spectators' view is enough.
    let view = g.view(Viewer::Spectator);
    match view.phase {
        Phase::Building => {}
        Phase::PlayChallenge { .. } => {
            // Hit the richest opponent.
            let best = moves
                .iter()
                .filter_map(|m| match m {
                    Move::PlayChallenge { target, .. } => {
                        Some((view.players[usize::from(*target)].bank, m))
                    }
                    _ => None,
                })
                .max_by_key(|(b, _)| *b)
                .map(|(_, m)| m.clone());
            return best.unwrap_or_else(|| moves[0].clone());
        }
        Phase::TaskForcePrompt { .. } => return Move::UseTaskForce {},
        // The most valuable building is listed last (E5).
        Phase::ChooseDestroyed { .. } => return moves.last().cloned().unwrap_or(Move::EndTurn {}),
        Phase::Demand { .. } => return Move::AcceptDemand {},
        Phase::TradePartner { .. } => {
            // The partner who lacks most of its goods pays it most (E6).
            let mine = &view.players[usize::from(seat)].goods;
            let lacks = |o: u8| {
                let theirs = &view.players[usize::from(o)].goods;
                mine.iter().filter(|x| !theirs.contains(x)).count()
            };
            let best = moves
                .iter()
                .filter_map(|m| match m {
                    Move::TradePartner { seat: o } => Some((lacks(*o), std::cmp::Reverse(*o), m)),
                    _ => None,
                })
                .max_by_key(|(l, o, _)| (*l, *o))
                .map(|(_, _, m)| m.clone());
            return best.unwrap_or_else(|| moves[0].clone());
        }
        Phase::Auction { .. } => {
            let bid = moves.iter().find(|m| matches!(m, Move::Bid { .. }));
            return match bid {
                Some(Move::Bid { amount }) if g.bank(seat) - *amount as i32 >= 300 => {
                    Move::Bid { amount: *amount }
                }
                _ => Move::PassAuction {},
            };
        }
        _ => return moves[0].clone(),
    }
    let hb = g.handbook();
    let objective = &hb.objectives[g.objective_index()];
    let horizon = objective
        .turn_limit
        .map_or(25, |l| l.saturating_sub(g.round()) + 1)
        .min(25) as i32;
    let wants_bank = objective
        .goals
        .iter()
        .any(|x| matches!(x, Goal::Bank { .. }));
    let bank = g.bank(seat);
    // Repay the loan as soon as it leaves a cushion.
    let due = view.players[usize::from(seat)].loan_due;
    let due_soon = due.is_some_and(|d| d <= g.round() + 1);
    if moves.contains(&Move::RepayLoan {}) && (due_soon || (!wants_bank && bank >= 700)) {
        return Move::RepayLoan {};
    }
    if let Some(m) = moves.iter().find(|m| matches!(m, Move::BuyDistrict { .. })) {
        let need_more = !wants_bank || horizon > 12;
        if need_more {
            return m.clone();
        }
    }
    let city = g.city(seat);
    // Grids first in every district.
    if let Some(m) = moves.iter().find(|m| {
        matches!(m, Move::Tile { building, .. } if building == "power_grid" || building == "water_grid")
    }) {
        return m.clone();
    }
    let goal_targets: Vec<_> = objective
        .goals
        .iter()
        .filter_map(|x| match x {
            Goal::Build { target, .. } => Some(target.clone()),
            _ => None,
        })
        .collect();
    let spots = city
        .legal_tile_spots(&TileKind::Building(String::new()), Footprint::OneByOne)
        .len();
    let roads_now = city.legal_road_blocks().len();
    let can_end = moves.contains(&Move::EndTurn {});
    let road_price = hb.economy.price(10, city.districts().len() as u32) as i32;
    // A bank objective pays a forced purchase (E3) for crossing the tile count.
    let built: u32 = city.districts().iter().map(|d| city.built_in(*d)).sum();
    let next = hb.economy.district_step(city.districts().len() as u32 + 1);
    let crossing = wants_bank && next.is_some_and(|s| built >= s.tiles_more_than);
    let crossing_cost = if crossing {
        next.map_or(0, |s| s.price as i32)
    } else {
        0
    };
    // Roads toward free space first when the districts run short of spots.
    if roads_now > 0
        && !crossing
        && spots < 2
        && bank >= road_price
        && g.moves_left(seat) >= 1
        && let Some(m) = best_road(g, seat, &moves)
    {
        return m;
    }
    let mut best: Option<(i32, Move)> = None;
    let mut tried: Vec<(String, u32)> = Vec::new();
    for m in &moves {
        let (id, tries) = match m {
            Move::Tile { building, .. } => (building.as_str(), 3),
            Move::Truck { .. } => ("truck", 1),
            Move::Ship { .. } => ("cargo_ship", 1),
            _ => continue,
        };
        let Some(b) = hb.building(id) else { continue };
        let n = tried.iter().find(|(x, _)| x == id).map_or(0, |(_, n)| *n);
        if n >= tries {
            continue;
        }
        match tried.iter_mut().find(|(x, _)| x == id) {
            Some(e) => e.1 += 1,
            None => tried.push((id.to_string(), 1)),
        }
        let (value, _, roads) = g.after(seat, m);
        if roads_now > 0 && roads == 0 {
            continue;
        }
        let gain = value - g.district_value_now(seat);
        let cost = hb.economy.price(b.cost, city.districts().len() as u32) as i32;
        let mut net = gain * horizon - cost;
        if matches!(m, Move::Tile { .. }) {
            net -= crossing_cost;
        }
        if goal_targets.iter().any(|t| b.is(t)) {
            net += 2_000;
        }
        let score = net * 100 / (cost + 20 * b.moves as i32).max(1);
        if net > 0 && best.as_ref().is_none_or(|(x, _)| score > *x) {
            best = Some((score, m.clone()));
        }
    }
    if let Some((_, m)) = best {
        return m;
    }
    if can_end {
        return Move::EndTurn {};
    }
    // B7 forces a spend: the cheapest move (the road that opens most on a tie).
    let price = |m: &Move| -> u32 {
        let id = match m {
            Move::Road { .. } => "road",
            Move::Tile { building, .. } => building.as_str(),
            Move::Truck { .. } => "truck",
            Move::Ship { .. } => "cargo_ship",
            Move::Upgrade { .. } => return 150,
            _ => return u32::MAX,
        };
        hb.building(id).map_or(u32::MAX, |b| b.cost)
    };
    let cheapest = moves.iter().map(price).min().unwrap_or(u32::MAX);
    if cheapest == 10
        && let Some(m) = best_road(g, seat, &moves)
    {
        return m;
    }
    moves
        .iter()
        .find(|m| price(m) == cheapest)
        .cloned()
        .unwrap_or_else(|| moves[0].clone())
}

/// The road block that opens the most building spots (then keeps the most
/// road ends), among the first two dozen.
fn best_road(g: &BuildingCities, seat: Seat, moves: &[Move]) -> Option<Move> {
    moves
        .iter()
        .filter(|m| matches!(m, Move::Road { .. }))
        .take(24)
        .map(|m| {
            let (_, spots, roads) = g.after(seat, m);
            ((spots, roads.min(3)), m)
        })
        .max_by_key(|(k, _)| *k)
        .map(|(_, m)| m.clone())
}
