//! Deterministic randomness that lives inside a game state.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The only random source a game may use. Seeded once at setup and cloned with the
/// state, so the same seed and moves always give the same results on every platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    pub fn new(seed: u64) -> Self {
        GameRng(ChaCha8Rng::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform number in `0..n`. `n` must be positive.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "GameRng::below(0)");
        let n = n as u64;
        // Rejection sampling keeps the distribution exactly uniform.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.0.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = GameRng::new(7);
        let mut b = GameRng::new(7);
        let xs: Vec<u64> = (0..10).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..10).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(GameRng::new(8).next_u64(), xs[0]);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = GameRng::new(1);
        let mut v: Vec<u32> = (0..72).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..72).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = GameRng::new(3);
        for n in 1..50 {
            for _ in 0..20 {
                assert!(rng.below(n) < n);
            }
        }
    }
}
