//! Ends of turn and rounds (B7, E2-E5, W1, W2, W4).

use super::{BuildingCities, Chal, Stage};
use crate::city::{Footprint, TileKind};
use crate::handbook::cards::Effect;
use crate::wire::{BankReason, EndReason, Event, EventKind, Mode, Status};
use engine::Seat;

impl BuildingCities {
    /// W4: a new round's building phase for every playing seat.
    pub(crate) fn start_building(&mut self) {
        self.stage = Stage::Building;
        self.period += 1;
        let moves = self.hb.economy.moves_per_turn;
        for s in 0..self.players.len() {
            if !self.playing(s) {
                continue;
            }
            let p = &mut self.players[s];
            p.moves_left = moves;
            if p.skip > 0 {
                p.skip -= 1;
                p.moves_left = 0;
            } else if let Some((pct, turns)) = p.moves_pct {
                p.moves_left = moves * pct / 100;
                p.moves_pct = (turns > 1).then_some((pct, turns - 1));
            }
            p.spent = 0;
            p.done = false;
            p.phase_bank = p.bank;
        }
    }

    /// B7, E7: a seat ends his building phase.
    pub(crate) fn end_turn(&mut self, seat: usize, timed_out: bool, ev: &mut Vec<Event>) {
        let saving = self.saving(seat) && !timed_out;
        let p = &mut self.players[seat];
        p.done = true;
        let inactive = p.spent == 0 || timed_out;
        if inactive && !saving {
            p.inactive += 1;
        } else if !inactive {
            p.inactive = 0;
        }
        // E7: an offer not built in this phase goes back to the challenge deck.
        let (keep, back): (Vec<_>, Vec<_>) = p.offers.drain(..).partition(|o| o.paid);
        p.offers = keep;
        ev.push(
            EventKind::TurnEnded {
                seat: seat as Seat,
                inactive,
            }
            .into(),
        );
        for o in back {
            self.return_legendary(o.card, &o.building, ev);
        }
        let all_done = (0..self.players.len()).all(|s| !self.playing(s) || self.players[s].done);
        if all_done {
            self.cursor = 0;
            self.step = 0;
            self.resume(ev);
        }
    }

    /// E7: a legendary card is shuffled into the challenge deck.
    pub(crate) fn return_legendary(&mut self, card: Chal, building: &str, ev: &mut Vec<Event>) {
        self.challenges.push_back(card);
        let mut all: Vec<Chal> = self.challenges.drain(..).collect();
        self.rng.shuffle(&mut all);
        self.challenges = all.into();
        ev.push(
            EventKind::LegendaryReturned {
                building: building.to_string(),
            }
            .into(),
        );
    }

    /// W4: resolves the ends of turn in seat order, stopping at decisions.
    pub(crate) fn resume(&mut self, ev: &mut Vec<Event>) {
        self.stage = Stage::Building;
        loop {
            if self.end.is_some() {
                return;
            }
            if let Some(p) = self.pending.pop_front() {
                if self.open_choice(p, ev) {
                    return;
                }
                continue;
            }
            let seat = self.cursor;
            if seat >= self.players.len() {
                self.end_round(ev);
                return;
            }
            if !self.playing(seat) {
                self.cursor += 1;
                self.step = 0;
                continue;
            }
            // A choice a card leaves open (queued above) is made before the
            // next step: the event's before the district value, a drawn
            // challenge's demand (B5) before the loan and the objective.
            self.step += 1;
            match self.step {
                1 => self.event_card(seat, ev),
                2 => self.value_and_challenge(seat, ev),
                3 => self.loan_purchase_objective(seat, ev),
                4 => {
                    if self.mode == Mode::Despicable && self.open_auction(seat, ev) {
                        return;
                    }
                }
                5 => {
                    let p = &self.players[seat];
                    if p.must_buy && !p.city.buyable_districts().is_empty() {
                        self.stage = Stage::Forced(seat as Seat);
                        self.period += 1;
                        ev.push(EventKind::MustBuyDistrict { seat: seat as Seat }.into());
                        return;
                    }
                }
                6 => {
                    if self.mode == Mode::Despicable && self.open_play(seat) {
                        return;
                    }
                }
                _ => {
                    self.cursor += 1;
                    self.step = 0;
                }
            }
        }
    }

    /// E2: the event card, then to the bottom of the deck; the choices it
    /// leaves open are made before the rest of the end of turn.
    fn event_card(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let s = seat as Seat;
        if let Some(card) = self.events.pop_front() {
            self.events.push_back(card);
            self.last_event = Some(card);
            let c = self.hb.events[card].clone();
            let applied = self.condition_holds(seat, &c.condition);
            ev.push(
                EventKind::EventCard {
                    seat: s,
                    card: c.id.clone(),
                    applied,
                }
                .into(),
            );
            if let Effect::Legendary { building } = &c.effect {
                self.offer(seat, building, Chal::Event(card), ev);
            } else if applied {
                self.effect(seat, &c.effect, BankReason::Event, None, ev);
            }
        }
    }

    /// E2, E5: the turn marker, the district value and the challenge.
    fn value_and_challenge(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let s = seat as Seat;
        // E2: the turn marker and the district value.
        let factor = self.hb.economy.turn_track.factor(self.round);
        ev.push(
            EventKind::TurnMarker {
                seat: s,
                turn: self.round,
                factor,
            }
            .into(),
        );
        let mut value = self.district_value(seat);
        let p = &mut self.players[seat];
        if let Some((pct, turns)) = p.value_pct {
            value = value * pct as i32 / 100;
            p.value_pct = (turns > 1).then_some((pct, turns - 1));
        }
        let value = value.saturating_mul(factor as i32);
        p.district_value = value;
        self.pay(seat, value, BankReason::DistrictValue, ev);
        // E5: the challenge track.
        let ch = &self.hb.economy.challenges;
        let (from, every) = (ch.from_districts, ch.every_turns);
        let p = &mut self.players[seat];
        if p.city.districts().len() as u32 >= from {
            p.challenge_marker += 1;
            if p.challenge_marker >= every {
                p.challenge_marker = 0;
                self.draw_challenge(seat, ev);
            }
        }
    }

    /// E4, E3, W1/W2: once the cards and their choices are settled, the loan,
    /// the forced purchase and the objective.
    fn loan_purchase_objective(&mut self, seat: usize, ev: &mut Vec<Event>) {
        if self.players[seat].status != Status::Playing {
            return;
        }
        self.check_loan(seat, ev);
        if self.players[seat].status != Status::Playing {
            return;
        }
        // E3: the forced purchase.
        let p = &self.players[seat];
        let nth = p.city.districts().len() as u32 + 1;
        let within = self.hb.objectives[self.objective]
            .max_districts
            .is_none_or(|m| nth <= m);
        let meets =
            within && self.district_conditions_met(seat) && self.before_district_met(seat, nth);
        self.players[seat].must_buy = meets;
        // W1/W2: the objective.
        if self.objective_met(seat) {
            self.complete(seat, ev);
        }
    }

    /// E3: both conditions of the next district hold.
    pub(crate) fn district_conditions_met(&self, seat: usize) -> bool {
        let p = &self.players[seat];
        let nth = p.city.districts().len() as u32 + 1;
        let Some(step) = self.hb.economy.district_step(nth) else {
            return false;
        };
        let tiles: u32 = p.city.districts().iter().map(|d| p.city.built_in(*d)).sum();
        tiles > step.tiles_more_than && i64::from(p.bank) > i64::from(step.bank_more_than)
    }

    /// E4: the automatic loan and bankruptcy.
    pub(crate) fn check_loan(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let loan = self.hb.economy.loan;
        let round = self.round;
        let p = &self.players[seat];
        if p.bank < 0 {
            if p.loan_used {
                return self.bankrupt(seat, ev);
            }
            let due = round + loan.within_turns;
            let p = &mut self.players[seat];
            p.loan_used = true;
            p.loan_due = Some(due);
            self.pay(seat, loan.amount as i32, BankReason::Loan, ev);
            ev.push(
                EventKind::LoanTaken {
                    seat: seat as Seat,
                    due_turn: due,
                }
                .into(),
            );
            if self.players[seat].bank < 0 {
                self.bankrupt(seat, ev);
            }
        } else if p.loan_due.is_some_and(|due| round >= due) {
            self.bankrupt(seat, ev);
        }
    }

    fn bankrupt(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let p = &mut self.players[seat];
        p.status = Status::Bankrupt;
        p.hand.clear();
        ev.push(
            EventKind::Out {
                seat: seat as Seat,
                reason: EndReason::Bankruptcy,
            }
            .into(),
        );
    }

    /// W1/W2: the seat completed the objective.
    fn complete(&mut self, seat: usize, ev: &mut Vec<Event>) {
        if self.mode == Mode::Solo {
            return self.finish(EndReason::Objective, vec![seat as Seat], ev);
        }
        let race = self.hb.objectives[self.objective].race;
        self.finishers += 1;
        let p = &mut self.players[seat];
        p.frozen_round = Some(self.round);
        p.finish_order = Some(self.finishers);
        p.raced = race;
        if self.first_completion.is_none() {
            self.first_completion = Some(self.round);
        }
        ev.push(
            EventKind::Frozen {
                seat: seat as Seat,
                round: self.round,
            }
            .into(),
        );
    }

    /// W2: the frozen seat with the highest bank (ties: the earlier finisher).
    fn best_frozen(&self) -> Vec<Seat> {
        (0..self.players.len())
            .filter(|&s| self.players[s].frozen_round.is_some())
            .max_by_key(|&s| {
                let p = &self.players[s];
                (p.bank, std::cmp::Reverse(p.finish_order))
            })
            .map(|s| vec![s as Seat])
            .unwrap_or_default()
    }

    /// W1, W2, W4: the end of a round.
    fn end_round(&mut self, ev: &mut Vec<Event>) {
        let o = &self.hb.objectives[self.objective];
        let limit = o.turn_limit;
        let cap = self.hb.economy.turn_cap;
        let over_limit = limit.is_some_and(|l| self.round >= l);
        let over_cap = limit.is_none() && self.round >= cap;
        for s in 0..self.players.len() {
            if self.playing(s) && self.no_placement(s) {
                self.players[s].status = Status::Lost;
                ev.push(
                    EventKind::Out {
                        seat: s as Seat,
                        reason: EndReason::NoPlacement,
                    }
                    .into(),
                );
            }
        }
        if self.mode == Mode::Solo {
            let reason = match self.players[0].status {
                Status::Bankrupt => Some(EndReason::Bankruptcy),
                Status::Lost => Some(EndReason::NoPlacement),
                _ if over_limit => Some(EndReason::TurnLimit),
                _ if over_cap => Some(EndReason::TurnCap),
                _ => None,
            };
            if let Some(reason) = reason {
                return self.finish(reason, Vec::new(), ev);
            }
        } else {
            let anyone = (0..self.players.len()).any(|s| self.playing(s));
            if self.players.iter().any(|p| p.raced) {
                let w = (0..self.players.len())
                    .filter(|&s| self.players[s].raced)
                    .max_by_key(|&s| (self.players[s].bank, std::cmp::Reverse(s)))
                    .map(|s| vec![s as Seat])
                    .unwrap_or_default();
                return self.finish(EndReason::Race, w, ev);
            }
            let final_over = self
                .first_completion
                .is_some_and(|f| self.round >= f + self.hb.economy.final_rounds);
            if final_over || !anyone || over_limit || over_cap {
                let reason = if final_over {
                    EndReason::FinalRounds
                } else if !anyone && self.first_completion.is_none() {
                    EndReason::NobodyLeft
                } else if over_limit {
                    EndReason::TurnLimit
                } else if over_cap {
                    EndReason::TurnCap
                } else {
                    EndReason::Objective
                };
                let w = self.best_frozen();
                return self.finish(reason, w, ev);
            }
        }
        self.round += 1;
        self.start_building();
    }

    /// W1: nothing can be placed anywhere any more, even with every adjacent
    /// district bought (geometry only).
    pub(crate) fn no_placement(&self, seat: usize) -> bool {
        let mut c = self.players[seat].city.clone();
        loop {
            let more = c.buyable_districts();
            if more.is_empty() {
                break;
            }
            for d in more {
                let _ = c.buy_district(d);
            }
        }
        c.legal_road_blocks().is_empty()
            && [
                TileKind::PowerGrid,
                TileKind::WaterGrid,
                TileKind::Building(String::new()),
            ]
            .iter()
            .all(|k| c.legal_tile_spots(k, Footprint::OneByOne).is_empty())
    }

    /// The variant's pre-built first district: a straight road from the
    /// junction, then each stock building at its first legal spot.
    pub(crate) fn prebuild(&mut self, seat: usize) {
        let stock = self.hb.economy.prebuilt.clone();
        let p = &mut self.players[seat];
        for item in &stock {
            for i in 0..item.count {
                if item.building == "road" {
                    let _ = p
                        .city
                        .place_road(crate::city::Block::new(3, i.min(7) as u8));
                    continue;
                }
                let Some(size) = self.hb.building(&item.building).and_then(|b| b.size) else {
                    continue;
                };
                let kind = super::build::kind_of(&item.building);
                let fp = super::build::footprint(size);
                if let Some(spot) = p.city.legal_tile_spots(&kind, fp).first().copied() {
                    let _ = p
                        .city
                        .place_tile(kind.clone(), fp, spot.rotation, spot.origin);
                    match kind {
                        TileKind::PowerGrid => p.grid[0][0] = 1,
                        TileKind::WaterGrid => p.grid[0][1] = 1,
                        _ => {}
                    }
                }
            }
        }
    }
}
