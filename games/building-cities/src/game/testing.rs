//! A small test-setup API for the rulings tests and examples: positions that
//! would otherwise take dozens of turns of play, or a card order that the
//! seeded shuffle gives only by chance. The rules never call these.

use super::{BuildingCities, Chal};
use engine::Seat;

impl BuildingCities {
    /// Sets a seat's bank.
    #[doc(hidden)]
    pub fn test_set_bank(&mut self, seat: Seat, bank: i32) {
        self.players[usize::from(seat)].bank = bank;
        self.players[usize::from(seat)].phase_bank = bank;
    }

    /// Moves a copy of the event card `id` to the top of the event deck.
    #[doc(hidden)]
    pub fn test_stack_event(&mut self, id: &str) -> bool {
        let Some(at) = self.events.iter().position(|&i| self.hb.events[i].id == id) else {
            return false;
        };
        if let Some(card) = self.events.remove(at) {
            self.events.push_front(card);
        }
        true
    }

    /// Moves a copy of the challenge card `id` (or a Task Force,
    /// `ch_task_force`) to the top of the challenge deck.
    #[doc(hidden)]
    pub fn test_stack_challenge(&mut self, id: &str) -> bool {
        let hb = self.hb.clone();
        let Some(at) = self.challenges.iter().position(|c| match c {
            Chal::Card(i) => hb.challenges[*i].id == id,
            Chal::TaskForce => hb.task_force.id == id,
            Chal::Event(i) => hb.events[*i].id == id,
        }) else {
            return false;
        };
        if let Some(card) = self.challenges.remove(at) {
            self.challenges.push_front(card);
        }
        true
    }
}
