//! Away streaks, for every game (ruling O1 of Big City, kept by the table and not
//! by any game): a seat whose decisions time out [`AWAY_AFTER`] times in a row is
//! marked away, and the host may then hand it to a bot; the seat's own move ends
//! its streak. The room is the only owner of these counts.

use engine::Seat;

/// A seat that timed out this many decisions in a row is marked away.
pub(super) const AWAY_AFTER: u8 = 3;

/// Each seat's timeouts in a row.
pub(super) struct AwayStreaks(Vec<u8>);

impl AwayStreaks {
    pub(super) fn new(seats: usize) -> AwayStreaks {
        AwayStreaks(vec![0; seats])
    }

    /// The seat starts afresh (its own move, or a bot took it).
    pub(super) fn reset(&mut self, seat: Seat) {
        if let Some(n) = self.0.get_mut(usize::from(seat)) {
            *n = 0;
        }
    }

    /// The decision of `seats` timed out: those of them away from now on (at
    /// `after` timeouts in a row).
    pub(super) fn timed_out(&mut self, seats: &[Seat], after: u8) -> Vec<Seat> {
        seats
            .iter()
            .copied()
            .filter(|&seat| {
                self.0.get_mut(usize::from(seat)).is_some_and(|n| {
                    *n = n.saturating_add(1);
                    *n >= after
                })
            })
            .collect()
    }

    /// How the table's away flags change after an entry: the mover (a seat's
    /// move) is back, or the awaited seats (a timeout) reach their streak.
    pub(super) fn after_entry(
        &mut self,
        mover: Option<Seat>,
        awaited: &[Seat],
        after: u8,
    ) -> Vec<(Seat, bool)> {
        match mover {
            Some(seat) => {
                self.reset(seat);
                vec![(seat, false)]
            }
            None => self
                .timed_out(awaited, after)
                .into_iter()
                .map(|seat| (seat, true))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_timeouts_in_a_row_make_a_seat_away_and_its_move_ends_the_streak() {
        let mut streaks = AwayStreaks::new(2);
        // One timeout of seat 0: nobody away yet, seat 1 untouched.
        assert!(streaks.after_entry(None, &[0], AWAY_AFTER).is_empty());
        assert_eq!(streaks.0, vec![1, 0]);
        assert!(streaks.after_entry(None, &[0], AWAY_AFTER).is_empty());
        assert_eq!(streaks.after_entry(None, &[0], AWAY_AFTER), vec![(0, true)]);
        // Further timeouts keep the seat away.
        assert_eq!(
            streaks.after_entry(None, &[0, 1], AWAY_AFTER),
            vec![(0, true)]
        );
        // Its own move ends the streak; the count starts again.
        assert_eq!(
            streaks.after_entry(Some(0), &[0], AWAY_AFTER),
            vec![(0, false)]
        );
        assert!(streaks.after_entry(None, &[0], AWAY_AFTER).is_empty());
        assert_eq!(streaks.0, vec![1, 1]);
        // A bot taking the seat starts afresh too; seats outside the table are ignored.
        streaks.reset(1);
        assert!(streaks.after_entry(None, &[1, 9], AWAY_AFTER).is_empty());
        assert_eq!(streaks.0, vec![1, 1]);
    }
}
