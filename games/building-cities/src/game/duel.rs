//! Despicable Annihilation (E5, E7): challenges played from a hidden hand on
//! an opponent, the Task Force prompt, and the open legendary auction.

use super::value::Census;
use super::{BuildingCities, Chal, Offer, Stage};
use crate::wire::{BankReason, Event, EventKind, Rule};
use engine::Seat;

/// E7: an open auction of a legendary building.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Auction {
    pub(crate) building: String,
    pub(crate) card: Chal,
    pub(crate) drawer: Seat,
    pub(crate) price: u32,
    pub(crate) high: Option<(Seat, u32)>,
    pub(crate) eligible: Vec<Seat>,
    pub(crate) passed: Vec<Seat>,
    /// Seats still to decide: eligible, not passed, not leading.
    pub(crate) bidders: Vec<Seat>,
}

impl Auction {
    fn refresh(&mut self) {
        let lead = self.high.map(|(s, _)| s);
        self.bidders = self
            .eligible
            .iter()
            .copied()
            .filter(|s| !self.passed.contains(s) && Some(*s) != lead)
            .collect();
    }

    /// The least `seat` may bid (a tie goes to the drawer).
    pub(crate) fn min_bid(&self, seat: Seat, raise: u32) -> u32 {
        match self.high {
            None => self.price,
            Some((_, high)) if seat == self.drawer => high,
            Some((_, high)) => high + raise,
        }
    }
}

impl BuildingCities {
    /// E7: whether `seat` may take part in the auction of `building`.
    fn may_bid(&self, seat: usize, building: &str, price: u32) -> bool {
        let Some(b) = self.hb.building(building) else {
            return false;
        };
        let p = &self.players[seat];
        let census = Census::of(&self.hb, p);
        self.playing(seat)
            && census.of_building(&self.hb, building, None) == 0
            && i64::from(p.bank) >= i64::from(price)
            && p.city.districts().iter().any(|d| {
                self.within_limits(&census, b, Some(*d)).is_ok()
                    && self.requirements_met(seat, &census, b, Some(*d))
            })
    }

    /// Opens an auction for the drawer's fresh offer when another mayor may bid.
    pub(crate) fn open_auction(&mut self, seat: usize, _ev: &mut [Event]) -> bool {
        let Some(at) = self.players[seat].offers.iter().position(|o| !o.paid) else {
            return false;
        };
        let offer = self.players[seat].offers[at].clone();
        let price = self.hb.building(&offer.building).map_or(0, |b| b.cost);
        let eligible: Vec<Seat> = (0..self.players.len())
            .filter(|&s| self.may_bid(s, &offer.building, price))
            .map(|s| s as Seat)
            .collect();
        if !eligible.iter().any(|&s| usize::from(s) != seat) {
            return false;
        }
        self.players[seat].offers.remove(at);
        let drawer = seat as Seat;
        let mut a = Auction {
            building: offer.building,
            card: offer.card,
            drawer,
            price,
            high: eligible.contains(&drawer).then_some((drawer, price)),
            eligible,
            passed: Vec::new(),
            bidders: Vec::new(),
        };
        a.refresh();
        self.stage = Stage::Auction(a);
        self.period += 1;
        true
    }

    /// E5: the seat may play a challenge when he holds a card and has a
    /// target. A hand of Task Forces only opens the decision too (he can but
    /// keep it): whether it opens must not tell what the hand holds.
    pub(crate) fn open_play(&mut self, seat: usize) -> bool {
        let held = !self.players[seat].hand.is_empty();
        let target = (0..self.players.len()).any(|o| o != seat && self.playing(o));
        if held && target {
            self.stage = Stage::Play(seat as Seat);
            self.period += 1;
            return true;
        }
        false
    }

    pub(crate) fn bid(&mut self, seat: Seat, amount: u32, ev: &mut Vec<Event>) -> Result<(), Rule> {
        let raise = self.hb.economy.auction_min_raise;
        let Stage::Auction(a) = &self.stage else {
            return Err(Rule::WrongPhase);
        };
        let min = a.min_bid(seat, raise);
        if amount < min || i64::from(amount) > i64::from(self.bank(seat)) {
            return Err(Rule::BadBid { min });
        }
        if let Stage::Auction(a) = &mut self.stage {
            a.high = Some((seat, amount));
            a.refresh();
        }
        ev.push(EventKind::AuctionBid { seat, amount }.into());
        self.after_auction_move(ev);
        Ok(())
    }

    pub(crate) fn pass_auction(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if let Stage::Auction(a) = &mut self.stage {
            a.passed.push(seat);
            a.refresh();
        }
        self.after_auction_move(ev);
    }

    fn after_auction_move(&mut self, ev: &mut Vec<Event>) {
        if let Stage::Auction(a) = &self.stage
            && a.bidders.is_empty()
        {
            self.close_auction(ev);
        }
    }

    /// E7: the highest bid pays the bank and may place it next phase.
    pub(crate) fn close_auction(&mut self, ev: &mut Vec<Event>) {
        let Stage::Auction(a) = std::mem::replace(&mut self.stage, Stage::Building) else {
            return;
        };
        match a.high {
            Some((winner, price)) => {
                let w = usize::from(winner);
                self.pay(w, -(price as i32), BankReason::Auction, ev);
                self.players[w].offers.push(Offer {
                    building: a.building.clone(),
                    card: a.card,
                    paid: true,
                });
                ev.push(
                    EventKind::AuctionWon {
                        seat: winner,
                        building: a.building,
                        price,
                    }
                    .into(),
                );
            }
            None => self.return_legendary(a.card, &a.building, ev),
        }
        self.resume(ev);
    }

    pub(crate) fn play_challenge(
        &mut self,
        seat: Seat,
        card: u8,
        target: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), Rule> {
        let s = usize::from(seat);
        let c = *self.players[s]
            .hand
            .get(usize::from(card))
            .ok_or(Rule::NoSuchCard)?;
        let Chal::Card(i) = c else {
            return Err(Rule::NoSuchCard);
        };
        let t = usize::from(target);
        if t == s || t >= self.players.len() || !self.playing(t) {
            return Err(Rule::NoSuchTarget);
        }
        self.players[s].hand.remove(usize::from(card));
        ev.push(
            EventKind::ChallengePlayed {
                seat,
                target,
                card: self.hb.challenges[i].id.clone(),
            }
            .into(),
        );
        // The target is asked whether or not he holds a Task Force: the
        // prompt must not tell the others what his hand holds.
        self.stage = Stage::Prompt {
            by: seat,
            target,
            card: c,
        };
        self.period += 1;
        Ok(())
    }

    /// Whether the seat holds a Task Force (E5).
    pub(crate) fn holds_task_force(&self, seat: usize) -> bool {
        self.players[seat].hand.contains(&Chal::TaskForce)
    }

    /// Whether the seat holds a challenge he may play (E5).
    pub(crate) fn holds_playable(&self, seat: usize) -> bool {
        self.players[seat]
            .hand
            .iter()
            .any(|c| *c != Chal::TaskForce)
    }

    /// E5: the target of a played challenge answers.
    pub(crate) fn answer(&mut self, use_task_force: bool, ev: &mut Vec<Event>) {
        let Stage::Prompt { by, target, card } = self.stage.clone() else {
            return;
        };
        let t = usize::from(target);
        let Chal::Card(i) = card else {
            return;
        };
        if use_task_force {
            if let Some(at) = self.players[t]
                .hand
                .iter()
                .position(|c| *c == Chal::TaskForce)
            {
                self.players[t].hand.remove(at);
            }
            self.challenges.push_back(card);
            self.last_challenge = Some(self.hb.challenges[i].id.clone());
            ev.push(
                EventKind::ChallengeCard {
                    seat: target,
                    card: self.hb.challenges[i].id.clone(),
                    cancelled: true,
                }
                .into(),
            );
        } else {
            self.hit(t, i, Some(usize::from(by)), ev);
        }
        self.resume(ev);
    }
}
