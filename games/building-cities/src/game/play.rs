//! The engine entry points: legal moves, apply, timeout.

use super::listing::Part;
use super::{BuildingCities, Chal, Stage};
use crate::wire::{Event, Move, Rule};
use engine::{Illegal, Seat};

impl BuildingCities {
    /// Every legal move, each tile with its preview.
    pub(crate) fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        self.legal_part(seat, Part::All, true)
    }

    /// The legal moves `of` names: the tile moves of one ground building (by
    /// its id), or [`OTHER`](super::OTHER): every legal move but the tile moves.
    pub(crate) fn legal_moves_of(&self, seat: Seat, of: &str) -> Vec<Move> {
        self.legal_part(seat, Part::of(of), true)
    }

    /// Every legal move, the tiles without previews: the bots look ahead
    /// their own way.
    pub(crate) fn legal_moves_unpreviewed(&self, seat: Seat) -> Vec<Move> {
        self.legal_part(seat, Part::All, false)
    }

    fn legal_part(&self, seat: Seat, part: Part, previews: bool) -> Vec<Move> {
        if self.end.is_some() || !self.awaiting().includes(seat) {
            return Vec::new();
        }
        let s = usize::from(seat);
        if matches!(part, Part::Tiles(_)) && !self.building_now(seat) {
            return Vec::new();
        }
        match &self.stage {
            Stage::Building => {
                let mut out = self.build_moves(s, part, previews);
                if !matches!(part, Part::Tiles(_)) && self.check_end_turn(s).is_ok() {
                    out.push(Move::EndTurn {});
                }
                out
            }
            Stage::Forced(_) => self.players[s]
                .city
                .buyable_districts()
                .into_iter()
                .map(|district| Move::BuyDistrict { district })
                .collect(),
            Stage::Play(_) => {
                let mut out = Vec::new();
                for (i, c) in self.players[s].hand.iter().enumerate() {
                    if *c == Chal::TaskForce {
                        continue;
                    }
                    for t in 0..self.players.len() {
                        if t != s && self.playing(t) {
                            out.push(Move::PlayChallenge {
                                card: i as u8,
                                target: t as u8,
                            });
                        }
                    }
                }
                if self.players[s].hand.len() < self.hb.economy.challenges.hand_max as usize {
                    out.push(Move::KeepChallenges {});
                }
                out
            }
            Stage::Prompt { .. } => vec![Move::UseTaskForce {}, Move::AcceptChallenge {}],
            Stage::Auction(a) => {
                let min = a.min_bid(seat, self.hb.economy.auction_min_raise);
                let mut out = vec![Move::PassAuction {}];
                if i64::from(min) <= i64::from(self.bank(seat)) {
                    out.push(Move::Bid { amount: min });
                }
                out
            }
            Stage::Choose(p) => self.choice_moves(p),
            Stage::Over => Vec::new(),
        }
    }

    pub(crate) fn apply(&mut self, seat: Seat, mv: &Move) -> Result<Vec<Event>, Illegal<Rule>> {
        if self.end.is_some() {
            return Err(Illegal::game_over());
        }
        if !self.awaiting().includes(seat) {
            return Err(Illegal::not_your_turn());
        }
        let s = usize::from(seat);
        let mut ev = Vec::new();
        let before = self.clone();
        let result = self.dispatch(s, mv, &mut ev);
        if let Err(rule) = result {
            *self = before;
            return Err(Illegal::Rule(rule));
        }
        Ok(ev)
    }

    fn dispatch(&mut self, s: usize, mv: &Move, ev: &mut Vec<Event>) -> Result<(), Rule> {
        let seat = s as Seat;
        match (&self.stage, mv) {
            (Stage::Building, Move::EndTurn {}) => {
                self.check_end_turn(s)?;
                self.end_turn(s, false, ev);
                Ok(())
            }
            (Stage::Building, _) => self.build(s, mv, ev),
            (Stage::Forced(_), Move::BuyDistrict { district }) => {
                let p = &mut self.players[s];
                p.city.buy_district(*district)?;
                p.must_buy = false;
                let nth = p.city.districts().len() as u32;
                let e = &self.hb.economy;
                let price = e
                    .district_step(nth)
                    .map_or(0, |st| e.price(st.price, nth - 1));
                self.pay(s, -(price as i32), crate::wire::BankReason::District, ev);
                ev.push(
                    crate::wire::EventKind::DistrictBought {
                        seat,
                        district: *district,
                    }
                    .into(),
                );
                self.resume(ev);
                Ok(())
            }
            (Stage::Play(_), Move::PlayChallenge { card, target }) => {
                self.play_challenge(seat, *card, *target, ev)
            }
            (Stage::Play(_), Move::KeepChallenges {}) => {
                let max = self.hb.economy.challenges.hand_max as usize;
                if self.players[s].hand.len() >= max {
                    return Err(Rule::HandFull);
                }
                self.resume(ev);
                Ok(())
            }
            (Stage::Prompt { .. }, Move::UseTaskForce {}) => {
                self.answer(true, ev);
                Ok(())
            }
            (Stage::Prompt { .. }, Move::AcceptChallenge {}) => {
                self.answer(false, ev);
                Ok(())
            }
            (Stage::Auction(_), Move::Bid { amount }) => self.bid(seat, *amount, ev),
            (Stage::Auction(_), Move::PassAuction {}) => {
                self.pass_auction(seat, ev);
                Ok(())
            }
            (Stage::Choose(_), _) => self.choose(mv, ev),
            _ => Err(Rule::WrongPhase),
        }
    }

    /// A timed-out building phase ends the seat's turn (inactive, B7); a
    /// forced purchase takes the first district; a play keeps the hand; a
    /// Task Force prompt declines; an auction closes; a card's
    /// choice takes its default.
    pub(crate) fn timeout(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        if self.end.is_some() {
            return ev;
        }
        match self.stage.clone() {
            Stage::Building => {
                let period = self.period;
                for seat in self.awaiting().seats {
                    if self.period == period && self.end.is_none() {
                        self.end_turn(usize::from(seat), true, &mut ev);
                    }
                }
            }
            Stage::Forced(seat) => {
                let s = usize::from(seat);
                if let Some(&district) = self.players[s].city.buyable_districts().first() {
                    let _ = self.dispatch(s, &crate::wire::Move::BuyDistrict { district }, &mut ev);
                }
            }
            Stage::Play(_) => self.resume(&mut ev),
            Stage::Prompt { .. } => self.answer(false, &mut ev),
            Stage::Auction(_) => self.close_auction(&mut ev),
            Stage::Choose(_) => self.choice_timeout(&mut ev),
            Stage::Over => {}
        }
        ev
    }
}
