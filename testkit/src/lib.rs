//! CityTable's test kit, shared by the tests of `server`, `store` and `reliability` and by
//! the `soak` binary:
//!
//! - [`db`]: a fresh SQLite directory or Postgres database per test ([`db::TestDb`]), and a
//!   store opened on it ([`db::TestStore`]);
//! - [`postgres`]: fresh Postgres databases (`TEST_DATABASE_URL`, `CITYTABLE_SKIP_POSTGRES=1`),
//!   a Postgres cluster of the test's own to stop and start, a proxy that cuts the server
//!   off its database;
//! - [`server`]: the server in process on port 0, in a runtime of its own, with the test
//!   configuration; [`both_stores!`] runs a test body on SQLite and Postgres;
//! - [`process`]: the real `citytable` binary as a child process (SIGKILL, SIGTERM,
//!   restart on the same port, readiness);
//! - [`client`]: the one WebSocket test client, and the one place that decodes snapshots
//!   and updates into a recipient's view;
//! - [`http`]: small HTTP/1.1 requests;
//! - [`play`]: clients that play Big City through restarts and outages, and a verifier
//!   that compares what they saw with the committed log.
//!
//! A panic here is a test failure, so the kit unwraps freely.

#![allow(clippy::unwrap_used)]

pub mod client;
pub mod db;
pub mod http;
pub mod play;
pub mod postgres;
pub mod process;
pub mod server;

use std::hash::{Hash, Hasher};
use std::time::Duration;

use serde_json::Value;

pub use client::Client;
pub use db::{Kind, TestDb, TestStore};

/// How long a test waits for one message or answer before failing.
pub const WAIT: Duration = Duration::from_secs(20);

/// An environment variable as a number, or a default.
pub fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// xorshift64*: the tests' own seeded randomness.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    /// The next number (not an iterator: it never ends).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    pub fn ms(&mut self, lo: u64, hi: u64) -> Duration {
        Duration::from_millis(lo + self.below(hi.saturating_sub(lo).max(1)))
    }
}

/// A stable hash of a JSON value (serde_json maps are sorted, so the text is canonical).
pub fn hash_value(v: &Value) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    v.to_string().hash(&mut h);
    h.finish()
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// A game record's revealed seed (16 hex digits in the record).
pub fn record_seed(record: &Value) -> Option<u64> {
    u64::from_str_radix(record["seed"].as_str()?, 16).ok()
}
