//! Sleeping until a move is due, to within a fraction of a millisecond.
//!
//! tokio's timer rounds every deadline up to its next millisecond tick, which would
//! make moves go out up to a millisecond late and add that to every latency the
//! generator reports (latency counts from the due time). So a room sleeps on
//! tokio's timer until a millisecond before the due time, and one thread of ours,
//! sleeping on the OS's finer timer, wakes it at the due time itself. Both servers'
//! drivers use it, so they are timed alike.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::time::Instant;

struct Wake {
    at: std::time::Instant,
    seq: u64,
    tx: oneshot::Sender<()>,
}

impl PartialEq for Wake {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Wake {}
impl PartialOrd for Wake {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Wake {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

#[derive(Default)]
struct Timers {
    queue: Mutex<(BinaryHeap<Reverse<Wake>>, u64)>,
    changed: Condvar,
}

fn timers() -> &'static Timers {
    static TIMERS: OnceLock<&'static Timers> = OnceLock::new();
    TIMERS.get_or_init(|| {
        let timers: &'static Timers = Box::leak(Box::default());
        std::thread::Builder::new()
            .name("precise-timer".into())
            .spawn(move || run(timers))
            .expect("spawn the timer thread");
        timers
    })
}

fn run(timers: &Timers) {
    let Ok(mut queue) = timers.queue.lock() else {
        return;
    };
    loop {
        let now = std::time::Instant::now();
        while queue.0.peek().is_some_and(|w| w.0.at <= now) {
            if let Some(Reverse(w)) = queue.0.pop() {
                // A sleeper that gave up (its select! took another branch) is gone.
                let _ = w.tx.send(());
            }
        }
        let wait = queue.0.peek().map_or(Duration::from_secs(1), |w| {
            w.0.at.saturating_duration_since(now)
        });
        queue = match timers.changed.wait_timeout(queue, wait) {
            Ok((q, _)) => q,
            Err(_) => return,
        };
    }
}

/// Like `tokio::time::sleep_until`, but wakes at `at` rather than at the next whole
/// millisecond after it.
pub async fn sleep_until(at: Instant) {
    const COARSE: Duration = Duration::from_millis(1);
    if let Some(early) = at.checked_sub(COARSE)
        && early > Instant::now()
    {
        tokio::time::sleep_until(early).await;
    }
    if at <= Instant::now() {
        return;
    }
    let (tx, rx) = oneshot::channel();
    let timers = timers();
    if let Ok(mut queue) = timers.queue.lock() {
        queue.1 += 1;
        let seq = queue.1;
        let first = queue.0.peek().is_none_or(|w| at.into_std() < w.0.at);
        queue.0.push(Reverse(Wake {
            at: at.into_std(),
            seq,
            tx,
        }));
        if first {
            timers.changed.notify_one();
        }
    } else {
        return tokio::time::sleep_until(at).await;
    }
    let _ = rx.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Never early, whether the due time is past, near or a few milliseconds away
    /// (how late it wakes is a figure of the benchmarks, `lag_p99`, not a test).
    #[tokio::test]
    async fn never_wakes_before_the_due_time() {
        for i in 0..50u64 {
            let at = Instant::now() + Duration::from_micros(37 * i * i);
            sleep_until(at).await;
            assert!(Instant::now() >= at, "woke early for a due time {i}");
        }
        sleep_until(Instant::now() - Duration::from_millis(3)).await;
    }
}
