//! What a viewer sees: every city is public; a Despicable hand only as a count
//! (its cards in the seat's own [`Private`] overlay, with his palette); deck
//! orders never.

use super::{BuildingCities, Chal, Stage};
use crate::wire::{Phase, PlayerView, Private, View};
use engine::{Seat, Viewer};

impl BuildingCities {
    pub(super) fn chal_id(&self, c: Chal) -> String {
        match c {
            Chal::Card(i) => self.hb.challenges[i].id.clone(),
            Chal::TaskForce => self.hb.task_force.id.clone(),
            Chal::Event(i) => self.hb.events[i].id.clone(),
        }
    }

    fn phase(&self) -> Phase {
        match &self.stage {
            Stage::Building => Phase::Building,
            Stage::Forced(seat) => Phase::ForcedPurchase { seat: *seat },
            Stage::Play(seat) => Phase::PlayChallenge { seat: *seat },
            Stage::Prompt { by, target, card } => Phase::TaskForcePrompt {
                by: *by,
                target: *target,
                card: self.chal_id(*card),
            },
            Stage::Auction(a) => {
                let (high_bidder, high_bid) = a.high.unwrap_or((a.drawer, 0));
                Phase::Auction {
                    building: a.building.clone(),
                    drawer: a.drawer,
                    high_bid,
                    high_bidder,
                }
            }
            Stage::Choose(p) => self.choice_phase(p),
            Stage::Over => Phase::Over,
        }
    }

    /// The public view, with the viewer's own hand (the `private_view` overlay).
    pub(crate) fn view(&self, viewer: Viewer) -> View {
        let players = self
            .players
            .iter()
            .map(|p| PlayerView {
                city: p.city.to_data(),
                bank: p.bank,
                status: p.status,
                loan_due: p.loan_due,
                loan_used: p.loan_used,
                moves_left: p.moves_left,
                spent: p.spent,
                done: p.done,
                inactive_turns: p.inactive,
                grid_levels: p.grid.to_vec(),
                goods: p.goods.clone(),
                task_forces: p.task_forces,
                hand: p.hand.len() as u32,
                legendary_offer: p.offers.first().map(|o| o.building.clone()),
                district_value: p.district_value,
                frozen_round: p.frozen_round,
            })
            .collect();
        let track = &self.hb.economy.turn_track;
        let mut view = View {
            mode: self.mode,
            objective: self.hb.objectives[self.objective].id.clone(),
            round: self.round,
            multipliers_left: track
                .multipliers
                .iter()
                .filter(|m| m.turn >= self.round)
                .map(|m| m.turn)
                .collect(),
            players,
            phase: self.phase(),
            last_event: self.last_event.map(|i| self.hb.events[i].id.clone()),
            last_event_effect: self.last_event.map(|i| self.hb.events[i].effect.clone()),
            last_challenge: self.last_challenge.clone(),
            events_left: self.events.len() as u32,
            challenges_left: self.challenges.len() as u32,
            winners: self.winners.clone(),
            end: self.end,
            hand: None,
            palette: None,
        };
        if let Viewer::Seat(seat) = viewer {
            let own = self.private_view(seat);
            view.hand = own.hand;
            view.palette = own.palette;
        }
        view
    }

    pub(crate) fn private_view(&self, seat: Seat) -> Private {
        let Some(p) = self.players.get(usize::from(seat)) else {
            return Private {
                hand: None,
                palette: None,
            };
        };
        let hand = (!p.hand.is_empty()).then(|| p.hand.iter().map(|c| self.chal_id(*c)).collect());
        let palette = self.building_now(seat).then(|| self.palette(seat));
        Private { hand, palette }
    }
}
