//! Time banks: at a table with `time_bank_seconds`, each seated player has a
//! reserve besides the turn clock. A decision may take the turn's time and
//! then the reserve; a decision made within the turn's time puts what is left
//! of it into the reserve, up to its cap. Everyone starts with a full reserve.
//!
//! The banks follow from the log alone (each entry's time, and whose decision
//! the game awaits after it), so a restarted server finds them as they were:
//! the room and the replay of a stored game feed the same [`Clocks`].

use engine::{Awaiting, Seat};

/// The time banks of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    turn_ms: u64,
    cap_ms: u64,
    banks_ms: Vec<u64>,
    /// The current decision period, when it began, and the seats it awaited then.
    period: u64,
    started_ms: i64,
    awaited: Vec<Seat>,
    /// When each of those seats decided (left the awaited seats), if it has.
    decided_ms: Vec<Option<i64>>,
}

impl Clocks {
    /// A game that starts at `started_ms` awaiting `awaiting`.
    pub fn new(
        seats: u8,
        turn_ms: u64,
        cap_ms: u64,
        awaiting: &Awaiting,
        started_ms: i64,
    ) -> Clocks {
        let seats = usize::from(seats);
        Clocks {
            turn_ms,
            cap_ms,
            banks_ms: vec![cap_ms; seats],
            period: awaiting.period,
            started_ms,
            awaited: awaiting.seats.clone(),
            decided_ms: vec![None; seats],
        }
    }

    /// Each seat's reserve, by seat, as it was when the current period began.
    pub fn banks_ms(&self) -> &[u64] {
        &self.banks_ms
    }

    /// The time the current period gives: the turn's and the largest reserve
    /// among the seats it awaits (a round decided at once ends for all together).
    pub fn period_ms(&self) -> u64 {
        self.turn_ms + self.largest_bank_ms()
    }

    /// The largest reserve among the seats the current period awaits: the
    /// part of the period after the turn's own time.
    pub fn largest_bank_ms(&self) -> u64 {
        self.awaited
            .iter()
            .filter_map(|&s| self.banks_ms.get(usize::from(s)))
            .max()
            .copied()
            .unwrap_or(0)
    }

    /// When the current period began.
    pub fn started_ms(&self) -> i64 {
        self.started_ms
    }

    /// An entry logged at `at_ms` left the game awaiting `now`. A seat that
    /// stops being awaited has decided (until an undo awaits it again); when
    /// the period changes, each seat it awaited is charged the time it took.
    pub fn after_entry(&mut self, now: &Awaiting, at_ms: i64) {
        for &seat in &self.awaited {
            let slot = &mut self.decided_ms[usize::from(seat)];
            if now.includes(seat) && now.period == self.period {
                *slot = None;
            } else if slot.is_none() {
                *slot = Some(at_ms);
            }
        }
        if now.period == self.period {
            return;
        }
        for &seat in &self.awaited {
            let i = usize::from(seat);
            let used =
                u64::try_from(self.decided_ms[i].unwrap_or(at_ms) - self.started_ms).unwrap_or(0);
            let bank = &mut self.banks_ms[i];
            *bank = if used <= self.turn_ms {
                (*bank + (self.turn_ms - used)).min(self.cap_ms)
            } else {
                bank.saturating_sub(used - self.turn_ms)
            };
        }
        self.period = now.period;
        self.started_ms = at_ms;
        self.awaited = now.seats.clone();
        self.decided_ms.iter_mut().for_each(|d| *d = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn awaiting(period: u64, seats: &[Seat]) -> Awaiting {
        Awaiting {
            seats: seats.to_vec(),
            period,
            window_ms: None,
        }
    }

    const MIN: u64 = 60_000;

    #[test]
    fn a_slow_turn_spends_the_reserve_and_a_quick_one_refills_it_up_to_the_cap() {
        // Ten minutes a turn, a reserve of thirty.
        let mut c = Clocks::new(2, 10 * MIN, 30 * MIN, &awaiting(0, &[0]), 0);
        assert_eq!(c.banks_ms(), [30 * MIN, 30 * MIN]);
        assert_eq!(c.period_ms(), 40 * MIN);
        // Seat 0 takes 25 minutes: 15 from his reserve.
        c.after_entry(&awaiting(1, &[1]), (25 * MIN) as i64);
        assert_eq!(c.banks_ms(), [15 * MIN, 30 * MIN]);
        assert_eq!(c.period_ms(), 40 * MIN, "seat 1's turn: his full reserve");
        // Seat 1 takes 2 minutes: his reserve is full already.
        c.after_entry(&awaiting(2, &[0]), (27 * MIN) as i64);
        assert_eq!(c.banks_ms(), [15 * MIN, 30 * MIN]);
        assert_eq!(c.period_ms(), 25 * MIN);
        // Seat 0 takes 4 minutes: 6 back into his reserve.
        c.after_entry(&awaiting(3, &[1]), (31 * MIN) as i64);
        assert_eq!(c.banks_ms(), [21 * MIN, 30 * MIN]);
    }

    #[test]
    fn a_turn_of_several_moves_is_charged_once_when_it_ends() {
        let mut c = Clocks::new(2, 10 * MIN, 30 * MIN, &awaiting(0, &[0]), 0);
        // Build, then draw: the same period.
        c.after_entry(&awaiting(0, &[0]), (8 * MIN) as i64);
        c.after_entry(&awaiting(0, &[0]), (14 * MIN) as i64);
        assert_eq!(c.banks_ms(), [30 * MIN, 30 * MIN]);
        c.after_entry(&awaiting(1, &[1]), (16 * MIN) as i64);
        assert_eq!(c.banks_ms(), [24 * MIN, 30 * MIN]);
        assert_eq!(c.started_ms(), (16 * MIN) as i64);
    }

    #[test]
    fn in_a_round_decided_at_once_each_seat_pays_for_its_own_decision() {
        let mut c = Clocks::new(3, 10 * MIN, 20 * MIN, &awaiting(1, &[0, 1, 2]), 0);
        c.after_entry(&awaiting(1, &[1, 2]), (2 * MIN) as i64);
        // Seat 1 decides, takes it back (awaited again), decides later.
        c.after_entry(&awaiting(1, &[2]), (3 * MIN) as i64);
        c.after_entry(&awaiting(1, &[1, 2]), (4 * MIN) as i64);
        c.after_entry(&awaiting(1, &[2]), (15 * MIN) as i64);
        // The timer ran out on seat 2: the round ends at 30 minutes.
        c.after_entry(&awaiting(2, &[0, 1, 2]), (30 * MIN) as i64);
        assert_eq!(c.banks_ms(), [20 * MIN, 15 * MIN, 0]);
        assert_eq!(c.period_ms(), 30 * MIN);
    }
}
