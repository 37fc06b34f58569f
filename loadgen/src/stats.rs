//! Latency statistics: HDR histograms in microseconds, percentile summaries, and
//! the knee of a load ramp (the last step that still met the latency limit).

use hdrhistogram::Histogram;
use std::time::Duration;

/// Largest latency a histogram records (longer ones are clamped to it).
const MAX_MICROS: u64 = 120_000_000;

/// A latency histogram in microseconds with three significant digits.
#[derive(Clone, Debug)]
pub struct Latency {
    hist: Histogram<u64>,
}

impl Default for Latency {
    fn default() -> Self {
        Latency::new()
    }
}

impl Latency {
    pub fn new() -> Latency {
        let hist = Histogram::new_with_bounds(1, MAX_MICROS, 3)
            .expect("1 µs .. 120 s at 3 significant digits is a valid configuration");
        Latency { hist }
    }

    pub fn record(&mut self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(MAX_MICROS);
        // saturating_record clamps to the histogram's range instead of failing.
        self.hist.saturating_record(us.clamp(1, MAX_MICROS));
    }

    pub fn summary(&self) -> Summary {
        if self.hist.is_empty() {
            return Summary::default();
        }
        let q = |p: f64| self.hist.value_at_quantile(p) as f64 / 1000.0;
        Summary {
            count: self.hist.len(),
            p50_ms: q(0.50),
            p99_ms: q(0.99),
            p999_ms: q(0.999),
            max_ms: self.hist.max() as f64 / 1000.0,
        }
    }
}

/// Percentiles of one histogram, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    pub count: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
}

impl Summary {
    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "count": self.count,
            "p50_ms": round3(self.p50_ms),
            "p99_ms": round3(self.p99_ms),
            "p99_9_ms": round3(self.p999_ms),
            "max_ms": round3(self.max_ms),
        })
    }
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// What one step of a ramp achieved, as far as the knee is concerned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepOutcome {
    /// Moves per second the schedule asked for.
    pub offered: f64,
    /// Moves per second acknowledged.
    pub achieved: f64,
    /// p99 of the move-to-last-recipient latency, in milliseconds.
    pub p99_ms: f64,
}

impl StepOutcome {
    /// A step holds when its p99 is within the limit and the server kept up with
    /// the schedule (at least `min_ratio` of the offered moves acknowledged).
    pub fn holds(&self, p99_limit_ms: f64, min_ratio: f64) -> bool {
        self.p99_ms <= p99_limit_ms && self.achieved >= self.offered * min_ratio
    }
}

/// The knee of a ramp: the index of the last step that held before the first
/// step that did not. `None` when even the first step failed.
pub fn knee(steps: &[StepOutcome], p99_limit_ms: f64, min_ratio: f64) -> Option<usize> {
    let mut last = None;
    for (i, s) in steps.iter().enumerate() {
        if s.holds(p99_limit_ms, min_ratio) {
            last = Some(i);
        } else {
            break;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_distribution() {
        let mut l = Latency::new();
        // 1..=1000 ms, one sample each.
        for ms in 1..=1000u64 {
            l.record(Duration::from_millis(ms));
        }
        let s = l.summary();
        assert_eq!(s.count, 1000);
        // Three significant digits: within 0.1% of the exact quantile.
        assert!((s.p50_ms - 500.0).abs() <= 0.5 + 1e-9, "p50 {}", s.p50_ms);
        assert!((s.p99_ms - 990.0).abs() <= 1.0, "p99 {}", s.p99_ms);
        assert!((s.p999_ms - 999.0).abs() <= 1.0, "p99.9 {}", s.p999_ms);
        assert!((s.max_ms - 1000.0).abs() <= 1.0, "max {}", s.max_ms);
    }

    #[test]
    fn one_stall_shows_in_the_tail_not_the_median() {
        let mut l = Latency::new();
        for _ in 0..999 {
            l.record(Duration::from_micros(300));
        }
        l.record(Duration::from_secs(2));
        let s = l.summary();
        assert!((s.p50_ms - 0.3).abs() < 0.001);
        assert!((s.p99_ms - 0.3).abs() < 0.001);
        assert!(s.max_ms > 1999.0);
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let mut a = Latency::new();
        a.record(Duration::from_micros(0));
        a.record(Duration::from_secs(1000));
        let s = a.summary();
        assert_eq!(s.count, 2);
        assert!(s.max_ms <= 120_000.0 * 1.001);
        assert!(s.max_ms >= 119_000.0);
        assert_eq!(Latency::new().summary(), Summary::default());
    }

    fn step(offered: f64, achieved: f64, p99_ms: f64) -> StepOutcome {
        StepOutcome {
            offered,
            achieved,
            p99_ms,
        }
    }

    #[test]
    fn knee_is_the_last_step_before_the_first_failure() {
        let steps = [
            step(1000.0, 1000.0, 1.0),
            step(2000.0, 1990.0, 2.0),
            step(4000.0, 3990.0, 6.0),
            // A later step that happens to pass again does not move the knee.
            step(8000.0, 8000.0, 4.0),
        ];
        assert_eq!(knee(&steps, 5.0, 0.95), Some(1));
        assert_eq!(knee(&steps, 10.0, 0.95), Some(3));
        assert_eq!(knee(&steps, 0.5, 0.95), None);
        assert_eq!(knee(&[], 5.0, 0.95), None);
    }

    #[test]
    fn a_step_that_falls_behind_schedule_does_not_hold() {
        assert!(!step(10_000.0, 7000.0, 1.0).holds(5.0, 0.95));
        assert!(step(10_000.0, 9600.0, 1.0).holds(5.0, 0.95));
    }
}
