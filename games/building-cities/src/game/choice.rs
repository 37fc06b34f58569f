//! Choices a card leaves to a player (E6 in Despicable: the drawer's trade
//! partner; E5 in Despicable: what a challenge removes; B5: a demand accepted or refused). A card's effect queues a [`Pending`] choice; the end-of-turn
//! resolution opens it as a decision of its chooser, or settles it at once
//! when there is nothing to choose.

use super::value::tile_building;
use super::{BuildingCities, Stage};
use crate::city::TileKind;
use crate::handbook::model::Target;
use crate::wire::{BankReason, Event, EventKind, Move, Rule};
use engine::Seat;

/// A choice waiting for its player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// E6 (Despicable): the drawer picks his partner among the eligible.
    Partner {
        drawer: Seat,
        roll: u8,
        partners: Vec<Seat>,
    },
    /// E5 (Despicable): the player who played a challenge picks which of the
    /// target's buildings it removes (tile ids, least valuable first).
    Destroy {
        by: Seat,
        owner: Seat,
        tiles: Vec<u32>,
    },
    /// B5: a card's demand, accepted (`need` of `target` becomes a priority)
    /// or refused for `refused` Maya.
    Demand {
        seat: Seat,
        target: Target,
        need: u32,
        refused: u32,
        reason: BankReason,
    },
}

impl Pending {
    /// The seat who decides.
    pub(crate) fn chooser(&self) -> Seat {
        match self {
            Pending::Partner { drawer, .. } => *drawer,
            Pending::Destroy { by, .. } => *by,
            Pending::Demand { seat, .. } => *seat,
        }
    }
}

impl BuildingCities {
    /// E6: how many of the drawer's goods the partner lacks.
    pub(crate) fn lacks(&self, drawer: usize, partner: usize) -> u32 {
        let theirs = &self.players[partner].goods;
        self.players[drawer]
            .goods
            .iter()
            .filter(|g| !theirs.contains(g))
            .count() as u32
    }

    /// E6: the trade itself; the partner gets his share of the drawer's gain.
    pub(crate) fn trade_with(
        &mut self,
        drawer: usize,
        roll: u8,
        partner: Option<usize>,
        ev: &mut Vec<Event>,
    ) {
        if let Some(o) = partner {
            let t = self.hb.economy.trade;
            let gain = self.lacks(drawer, o) * t.per_good;
            self.pay(drawer, gain as i32, BankReason::Trade, ev);
            self.pay(
                o,
                (gain * t.partner_percent / 100) as i32,
                BankReason::Trade,
                ev,
            );
        }
        ev.push(
            EventKind::TradeRoll {
                seat: drawer as Seat,
                roll,
                partner: partner.map(|o| o as Seat),
            }
            .into(),
        );
    }

    /// The choice a timeout (or a lone option) makes.
    fn default_choice(&self, p: &Pending) -> Move {
        match p {
            Pending::Partner {
                drawer, partners, ..
            } => {
                let d = usize::from(*drawer);
                let best = partners
                    .iter()
                    .copied()
                    .max_by_key(|&o| (self.lacks(d, usize::from(o)), std::cmp::Reverse(o)));
                Move::TradePartner {
                    seat: best.unwrap_or(*drawer),
                }
            }
            Pending::Destroy { tiles, .. } => Move::DestroyBuilding {
                tile: tiles.first().copied().unwrap_or(0),
            },
            Pending::Demand { .. } => Move::AcceptDemand {},
        }
    }

    /// The moves of a pending choice.
    pub(crate) fn choice_moves(&self, p: &Pending) -> Vec<Move> {
        match p {
            Pending::Partner { partners, .. } => partners
                .iter()
                .map(|&seat| Move::TradePartner { seat })
                .collect(),
            Pending::Destroy { tiles, .. } => tiles
                .iter()
                .map(|&tile| Move::DestroyBuilding { tile })
                .collect(),
            Pending::Demand { .. } => vec![Move::AcceptDemand {}, Move::RefuseDemand {}],
        }
    }

    /// Opens the next pending choice; `false` when it was settled at once.
    pub(crate) fn open_choice(&mut self, mut p: Pending, ev: &mut Vec<Event>) -> bool {
        match &mut p {
            Pending::Partner { partners, .. } => {
                partners.retain(|&o| self.playing(usize::from(o)));
            }
            Pending::Destroy { .. } | Pending::Demand { .. } => {}
        }
        let options = self.choice_moves(&p);
        if options.len() > 1 && self.playing(usize::from(p.chooser())) {
            self.stage = Stage::Choose(p);
            self.period += 1;
            return true;
        }
        let mv = self.default_choice(&p);
        let _ = self.settle(&p, &mv, ev);
        false
    }

    /// Applies the chooser's move to a pending choice.
    pub(crate) fn settle(
        &mut self,
        p: &Pending,
        mv: &Move,
        ev: &mut Vec<Event>,
    ) -> Result<(), Rule> {
        match (p, mv) {
            (
                Pending::Partner {
                    drawer,
                    roll,
                    partners,
                },
                Move::TradePartner { seat },
            ) => {
                let partner = if partners.is_empty() {
                    None
                } else if partners.contains(seat) {
                    Some(usize::from(*seat))
                } else {
                    return Err(Rule::NoSuchTarget);
                };
                self.trade_with(usize::from(*drawer), *roll, partner, ev);
                Ok(())
            }
            (Pending::Destroy { owner, tiles, .. }, Move::DestroyBuilding { tile }) => {
                if !tiles.contains(tile) {
                    return Err(Rule::NoSuchTarget);
                }
                self.remove_building(usize::from(*owner), *tile, ev);
                Ok(())
            }
            (
                Pending::Demand {
                    seat,
                    target,
                    need,
                    refused,
                    reason,
                },
                _,
            ) => {
                let accepted = match mv {
                    Move::AcceptDemand {} => true,
                    Move::RefuseDemand {} => false,
                    _ => return Err(Rule::WrongPhase),
                };
                let s = usize::from(*seat);
                if accepted {
                    self.players[s].demands.push((target.clone(), *need));
                } else {
                    self.pay(s, -(*refused as i32), *reason, ev);
                    // E3, E4: the price may empty the bank.
                    self.check_loan(s, ev);
                    self.players[s].must_buy &= self.district_conditions_met(s);
                }
                ev.push(
                    EventKind::DemandAnswered {
                        seat: *seat,
                        accepted,
                    }
                    .into(),
                );
                Ok(())
            }
            _ => Err(Rule::WrongPhase),
        }
    }

    /// The chooser's move, then the end of turn goes on.
    pub(crate) fn choose(&mut self, mv: &Move, ev: &mut Vec<Event>) -> Result<(), Rule> {
        let Stage::Choose(p) = self.stage.clone() else {
            return Err(Rule::WrongPhase);
        };
        self.settle(&p, mv, ev)?;
        self.resume(ev);
        Ok(())
    }

    /// A timeout makes the default choice.
    pub(crate) fn choice_timeout(&mut self, ev: &mut Vec<Event>) {
        if let Stage::Choose(p) = self.stage.clone() {
            let mv = self.default_choice(&p);
            let _ = self.choose(&mv, ev);
        }
    }
}

impl BuildingCities {
    /// The public phase of a pending choice.
    pub(crate) fn choice_phase(&self, p: &Pending) -> crate::wire::Phase {
        match p {
            Pending::Partner {
                drawer, partners, ..
            } => crate::wire::Phase::TradePartner {
                seat: *drawer,
                partners: partners.clone(),
            },
            Pending::Destroy { by, owner, tiles } => crate::wire::Phase::ChooseDestroyed {
                seat: *by,
                target: *owner,
                tiles: tiles.clone(),
            },
            Pending::Demand {
                seat,
                target,
                refused,
                ..
            } => crate::wire::Phase::Demand {
                seat: *seat,
                target: target.clone(),
                refused: *refused,
            },
        }
    }

    /// B6 by a card: one building leaves the city (its grid level and metro
    /// pairing with it).
    pub(crate) fn remove_building(&mut self, seat: usize, id: u32, ev: &mut Vec<Event>) {
        let p = &mut self.players[seat];
        let Some(t) = p.city.tiles().iter().find(|t| t.id == id).cloned() else {
            return;
        };
        if p.city.remove_tile(id).is_err() {
            return;
        }
        if let Some(d) = t.district() {
            match t.kind {
                TileKind::PowerGrid => p.grid[d.index()][0] = 0,
                TileKind::WaterGrid => p.grid[d.index()][1] = 0,
                _ => {}
            }
        }
        p.metros.retain(|m| m.tile != id);
        ev.push(
            EventKind::Destroyed {
                seat: seat as Seat,
                building: tile_building(&t.kind).to_string(),
                tile: id,
            }
            .into(),
        );
    }
}
