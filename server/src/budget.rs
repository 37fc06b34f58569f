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
        if self.per_minute <= 0.0 {
            return true;
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return false;
        };
        if buckets.len() > 100_000 {
            // Addresses whose budget is whole again need no entry.
            buckets.retain(|_, b| !b.is_full());
        }
        buckets
            .entry(ip)
            .or_insert_with(|| Bucket::new(self.burst, self.per_minute / 60.0))
            .take()
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

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
