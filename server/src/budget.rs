//! Token buckets: what a client may spend per second, alone ([`Bucket`]) or per
//! address ([`AddressBudget`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use tokio::time::Instant;

/// A token bucket per address: `burst` tokens, refilled at `per_minute` (no
/// limit when that is 0).
pub struct AddressBudget {
    burst: f64,
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl AddressBudget {
    pub fn new(burst: f64, per_minute: f64) -> AddressBudget {
        AddressBudget {
            burst,
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token from `ip`'s bucket if it has one.
    pub fn take(&self, ip: IpAddr) -> bool {
        self.per_minute <= 0.0 || self.with_bucket(ip, Bucket::take).unwrap_or(false)
    }

    /// Charges `ip` `tokens` more for what a request it was let through went on
    /// to cost: the bucket may go below empty, and takes nothing until it has
    /// refilled past that.
    pub fn charge(&self, ip: IpAddr, tokens: f64) {
        if self.per_minute > 0.0 {
            self.with_bucket(ip, |bucket| bucket.charge(tokens));
        }
    }

    fn with_bucket<R>(&self, ip: IpAddr, f: impl FnOnce(&mut Bucket) -> R) -> Option<R> {
        let mut buckets = self.buckets.lock().ok()?;
        if buckets.len() > 100_000 {
            // Addresses whose budget is whole again need no entry.
            buckets.retain(|_, b| !b.is_full());
        }
        let bucket = buckets
            .entry(ip)
            .or_insert_with(|| Bucket::new(self.burst, self.per_minute / 60.0));
        Some(f(bucket))
    }
}

/// A token bucket: `burst` tokens, refilled at `per_second`.
pub struct Bucket {
    tokens: f64,
    burst: f64,
    per_second: f64,
    at: Instant,
}

impl Bucket {
    pub fn new(burst: f64, per_second: f64) -> Bucket {
        Bucket {
            tokens: burst,
            burst,
            per_second,
            at: Instant::now(),
        }
    }

    /// Whether the bucket has refilled completely.
    pub fn is_full(&self) -> bool {
        self.tokens + self.at.elapsed().as_secs_f64() * self.per_second >= self.burst
    }

    /// Milliseconds until the next token (0 when one is there).
    pub fn retry_after_ms(&self) -> u64 {
        let missing = 1.0 - self.tokens - self.at.elapsed().as_secs_f64() * self.per_second;
        if missing <= 0.0 || self.per_second <= 0.0 {
            return 0;
        }
        (missing / self.per_second * 1000.0).ceil() as u64
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Takes `tokens` whether or not they are there (see [`AddressBudget::charge`]).
    pub fn charge(&mut self, tokens: f64) {
        self.refill();
        self.tokens -= tokens.max(0.0);
    }

    fn refill(&mut self) {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.at = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// What a request went on to cost is taken too: past the burst, nothing
    /// more until the bucket has refilled past the charge.
    #[tokio::test(start_paused = true)]
    async fn a_charge_holds_the_address_back_until_refilled() {
        let budget = AddressBudget::new(3.0, 60.0);
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        assert!(budget.take(ip));
        budget.charge(ip, 4.5);
        assert!(!budget.take(ip), "2 - 4.5 tokens");
        assert!(budget.take(other), "another address is not charged");
        tokio::time::advance(Duration::from_secs(3)).await;
        assert!(!budget.take(ip), "-2.5 + 3 tokens");
        tokio::time::advance(Duration::from_secs(1)).await;
        assert!(budget.take(ip), "-2.5 + 4 tokens");
    }

    #[tokio::test(start_paused = true)]
    async fn an_unlimited_budget_charges_nothing() {
        let budget = AddressBudget::new(1.0, 0.0);
        let ip: IpAddr = [10, 0, 0, 1].into();
        budget.charge(ip, 100.0);
        assert!(budget.take(ip));
    }
}
