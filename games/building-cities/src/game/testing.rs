//! A small test-setup API for the rulings tests and examples: positions that
//! would otherwise take dozens of turns of play, or a card order that the
//! seeded shuffle gives only by chance; and, for the hidden-information tests,
//! the decks as they lie and ways to change what a viewer cannot see. The
//! rules never call these.

use super::{BuildingCities, Chal};
use engine::{GameRng, Seat};

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

    /// The event deck and the challenge deck, top first, as card ids.
    #[doc(hidden)]
    pub fn test_decks(&self) -> (Vec<String>, Vec<String>) {
        let events = self
            .events
            .iter()
            .map(|&i| self.hb.events[i].id.clone())
            .collect();
        let challenges = self.challenges.iter().map(|&c| self.chal_id(c)).collect();
        (events, challenges)
    }

    /// Changes everything `keep` cannot see (every seat sees nothing hidden
    /// with `None`, the spectator): both decks shuffled anew, the game RNG
    /// seeded anew (future die rolls), and every other Despicable hand dealt
    /// again, each of the same size, from itself and the challenge deck's own
    /// cards and Task Forces.
    #[doc(hidden)]
    pub fn test_redeal(&mut self, seed: u64, keep: Option<Seat>) {
        let mut rng = GameRng::new(seed);
        let mut events: Vec<usize> = self.events.drain(..).collect();
        rng.shuffle(&mut events);
        self.events = events.into();
        let others = self.others(keep);
        let mut pool: Vec<Chal> = Vec::new();
        for &s in &others {
            pool.append(&mut self.players[s].hand.clone());
        }
        let (mut dealt, legendary): (Vec<Chal>, Vec<Chal>) = self
            .challenges
            .drain(..)
            .partition(|c| !matches!(c, Chal::Event(_)));
        dealt.append(&mut pool);
        rng.shuffle(&mut dealt);
        for &s in &others {
            let n = self.players[s].hand.len();
            self.players[s].hand = dealt.split_off(dealt.len() - n);
        }
        dealt.extend(legendary);
        rng.shuffle(&mut dealt);
        self.challenges = dealt.into();
        self.rng = GameRng::new(rng.next_u64());
    }

    /// Swaps every card of every other Despicable hand than `keep`'s with a
    /// card or Task Force from the bottom half of the challenge deck; the
    /// top half, the event deck and the RNG stay as they are, so the next
    /// draws and die rolls are the same.
    #[doc(hidden)]
    pub fn test_swap_hands(&mut self, seed: u64, keep: Option<Seat>) {
        let mut rng = GameRng::new(seed);
        let half = self.challenges.len() / 2;
        for s in self.others(keep) {
            for i in 0..self.players[s].hand.len() {
                let bottom: Vec<usize> = (half..self.challenges.len())
                    .filter(|&at| !matches!(self.challenges[at], Chal::Event(_)))
                    .collect();
                let Some(&at) = rng.choose(&bottom) else {
                    return;
                };
                std::mem::swap(&mut self.players[s].hand[i], &mut self.challenges[at]);
            }
        }
    }

    fn others(&self, keep: Option<Seat>) -> Vec<usize> {
        (0..self.players.len())
            .filter(|&s| Some(s as Seat) != keep)
            .collect()
    }
}
