//! Open-loop play and the load ramp.
//!
//! Every room keeps its own schedule: move k is due at `t0 + k × interval`, whatever
//! happened to move k-1. A move that cannot be sent on time (the previous update was
//! late) is sent as soon as possible and its latency still counts from when it was
//! due, so a stalled server shows up in the percentiles instead of slowing the
//! generator down. Two latencies are recorded per move, both from the due time:
//! until the mover is acknowledged, and until the last other connection of the room
//! (players and spectators) has received the update of that version.
//!
//! The ramp steps the offered rate up; each step runs a warm-up, then a measured
//! window, and the knee is the last step whose p99 stayed under the limit.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;

use crate::net::Net;
use crate::procstat;
use crate::stats::{Latency, StepOutcome, knee, round3};

/// What is recorded while a measured window is open.
#[derive(Default)]
pub struct Window {
    /// Due time → `move_ok` (CityTable) / the mover's own update (boardgame.io).
    pub ack: Latency,
    /// Due time → the last other connection of the room received the update.
    pub last: Latency,
    /// How late moves went out (send time − due time): the previous move's update
    /// arriving after this one was due, timer granularity and generator load. It
    /// is part of `ack` and `last`, never subtracted.
    pub lag: Latency,
    /// Round trip of `legal_moves` (kept out of the timed path).
    pub legal: Latency,
    /// From asking for a new game to every connection holding its first state.
    pub restart: Latency,
    pub moves: u64,
    pub games: u64,
    /// Moves whose due time had to wait for a late `legal_moves` answer.
    pub late_legal: u64,
    /// Moves or updates given up on after [`LOST_AFTER`].
    pub lost: u64,
    pub errors: BTreeMap<String, u64>,
}

/// A move or an update not seen after this long is counted lost.
pub const LOST_AFTER: Duration = Duration::from_secs(30);

/// What all rooms share.
pub struct Shared {
    pub net: Net,
    /// The interval between two moves of one room; `None` while paused.
    pub interval: watch::Receiver<Option<Duration>>,
    /// Set to true when every room should close its connections and end.
    pub stop: watch::Receiver<bool>,
    recording: AtomicBool,
    window: Mutex<Window>,
    pub ready: AtomicUsize,
    pub failed: AtomicUsize,
    setup_errors: Mutex<BTreeMap<String, u64>>,
}

impl Shared {
    pub fn new(
        net: Net,
        interval: watch::Receiver<Option<Duration>>,
        stop: watch::Receiver<bool>,
    ) -> Shared {
        Shared {
            net,
            interval,
            stop,
            recording: AtomicBool::new(false),
            window: Mutex::new(Window::default()),
            ready: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            setup_errors: Mutex::new(BTreeMap::new()),
        }
    }

    /// Records into the open window, if one is open.
    pub fn record(&self, f: impl FnOnce(&mut Window)) {
        if self.recording.load(Ordering::Relaxed)
            && let Ok(mut w) = self.window.lock()
        {
            f(&mut w);
        }
    }

    pub fn error(&self, code: &str) {
        self.record(|w| *w.errors.entry(code.to_owned()).or_insert(0) += 1);
    }

    pub fn setup_failed(&self, why: &str) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        // Keep the message short and generic enough to aggregate.
        let key: String = why.chars().take(80).collect();
        if let Ok(mut m) = self.setup_errors.lock() {
            *m.entry(key).or_insert(0) += 1;
        }
    }

    fn open_window(&self) {
        if let Ok(mut w) = self.window.lock() {
            *w = Window::default();
        }
        self.recording.store(true, Ordering::Relaxed);
    }

    fn close_window(&self) -> Window {
        self.recording.store(false, Ordering::Relaxed);
        self.window
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }
}

/// One move whose update has not reached every other connection yet.
struct Pending {
    game: u32,
    version: u64,
    due: Instant,
    mover: usize,
    /// Connections (bit per index) that already have this version.
    seen: u64,
    need: u32,
}

/// Tracks which connections have received which version, per room.
pub struct Tracker {
    conns: usize,
    pending: VecDeque<Pending>,
}

impl Tracker {
    pub fn new(conns: usize) -> Tracker {
        Tracker {
            conns: conns.min(64),
            pending: VecDeque::new(),
        }
    }

    /// A move was sent; its update will carry `version`.
    pub fn sent(&mut self, game: u32, version: u64, due: Instant, mover: usize) {
        self.pending.push_back(Pending {
            game,
            version,
            due,
            mover,
            seen: 0,
            need: (self.conns as u32).saturating_sub(1),
        });
    }

    /// Connection `conn` received the update of `version` (and so every version
    /// before it). Calls `done` with the due-to-last-recipient latency of each move
    /// for which this was the last connection missing it.
    pub fn received(
        &mut self,
        conn: usize,
        game: u32,
        version: u64,
        at: Instant,
        mut done: impl FnMut(Duration),
    ) {
        let bit = 1u64 << conn.min(63);
        let mut i = 0;
        while i < self.pending.len() {
            let p = &mut self.pending[i];
            if p.game != game || p.version > version || conn == p.mover || p.seen & bit != 0 {
                i += 1;
                continue;
            }
            p.seen |= bit;
            p.need = p.need.saturating_sub(1);
            if p.need == 0 {
                let due = p.due;
                self.pending.remove(i);
                done(at.saturating_duration_since(due));
            } else {
                i += 1;
            }
        }
    }

    /// Forgets a move that was refused.
    pub fn forget(&mut self, game: u32, version: u64) {
        self.pending
            .retain(|p| !(p.game == game && p.version == version));
    }

    /// Drops moves older than [`LOST_AFTER`]; returns how many.
    pub fn expire(&mut self, now: Instant) -> u64 {
        let before = self.pending.len();
        self.pending
            .retain(|p| now.saturating_duration_since(p.due) < LOST_AFTER);
        (before - self.pending.len()) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

/// A room's move schedule.
pub struct Schedule {
    next: Option<Instant>,
    interval: Option<Duration>,
    /// Phase in [0, 1) so rooms do not all move at the same instant.
    phase: f64,
}

impl Schedule {
    pub fn new(phase: f64) -> Schedule {
        Schedule {
            next: None,
            interval: None,
            phase,
        }
    }

    /// The interval changed (a new step of the ramp, or a pause).
    pub fn set_interval(&mut self, interval: Option<Duration>, now: Instant) {
        match (self.interval, interval) {
            (_, None) => self.next = None,
            (None, Some(i)) => self.next = Some(now + i.mul_f64(self.phase)),
            (Some(_), Some(_)) => {}
        }
        self.interval = interval;
    }

    pub fn next_due(&self) -> Option<Instant> {
        self.next
    }

    /// Takes the due time of the move about to be sent and schedules the next one.
    pub fn take(&mut self) -> Option<Instant> {
        let due = self.next?;
        self.next = self.interval.map(|i| due + i);
        Some(due)
    }

    /// After a pause that is not part of play (a new game being set up): nothing
    /// is due before now.
    pub fn reanchor(&mut self, now: Instant) {
        if let Some(n) = self.next {
            self.next = Some(n.max(now));
        }
    }
}

/// A tiny deterministic generator for move choice and phases (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Options of a ramp.
pub struct RampOpts {
    pub rooms: usize,
    /// Offered moves per second, all rooms together, one entry per step.
    pub rates: Vec<f64>,
    pub warmup: Duration,
    pub measure: Duration,
    pub p99_limit_ms: f64,
    pub min_ratio: f64,
    /// Failing steps run before the ramp stops.
    pub keep_going: usize,
    pub setup_concurrency: usize,
    pub setup_timeout: Duration,
    /// The server's processes (one per node); none: CPU and RSS not reported.
    pub server_pids: Vec<u32>,
    pub db_pid: Option<u32>,
    pub label: String,
    pub out: Option<std::path::PathBuf>,
    /// Moves per second one connection may send before the server's rate limit.
    pub per_conn_limit: Option<f64>,
}

/// A room driver: sets the room up, counts itself ready, then plays until stopped.
pub type RoomFn = Arc<
    dyn Fn(
            Arc<Shared>,
            usize,
            Arc<Semaphore>,
        ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>
        + Send
        + Sync,
>;

/// The machine's 1-minute load average (other work on a shared machine shows here).
fn load1() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn db_pids(db_pid: Option<u32>) -> Vec<u32> {
    match db_pid {
        Some(p) => {
            let mut v = vec![p];
            v.extend(procstat::children(p));
            v
        }
        None => Vec::new(),
    }
}

/// Runs a ramp and prints one line per step and the knee.
pub async fn ramp(net: Net, opts: RampOpts, room: RoomFn) -> Result<(), String> {
    let (interval_tx, interval_rx) = watch::channel(None);
    let (stop_tx, stop_rx) = watch::channel(false);
    let shared = Arc::new(Shared::new(net, interval_rx, stop_rx));
    let gate = Arc::new(Semaphore::new(opts.setup_concurrency.max(1)));
    let mut handles = Vec::with_capacity(opts.rooms);
    let setup_started = Instant::now();
    for i in 0..opts.rooms {
        handles.push(tokio::spawn(room(shared.clone(), i, gate.clone())));
    }
    let deadline = setup_started + opts.setup_timeout;
    while shared.ready.load(Ordering::Relaxed) + shared.failed.load(Ordering::Relaxed) < opts.rooms
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ready = shared.ready.load(Ordering::Relaxed);
    let failed = shared.failed.load(Ordering::Relaxed);
    eprintln!(
        "# {}: {ready} rooms ready, {failed} failed, setup took {:.1}s",
        opts.label,
        setup_started.elapsed().as_secs_f64()
    );
    if let Ok(m) = shared.setup_errors.lock() {
        for (why, n) in m.iter() {
            eprintln!("#   setup error x{n}: {why}");
        }
    }
    if ready == 0 {
        let _ = stop_tx.send(true);
        return Err("no room could be set up".into());
    }
    let server = opts.server_pids.clone();
    let sample_server = || (!server.is_empty()).then(|| procstat::sample_all(&server));
    let dbp = db_pids(opts.db_pid);
    println!(
        "{:>9} {:>9} {:>8} {:>8} {:>8} {:>8} | {:>8} {:>8} {:>8} {:>8} | {:>7} {:>6} {:>8} {:>6} {:>6} {:>7} {:>5}",
        "offered",
        "achieved",
        "ack_p50",
        "ack_p99",
        "ack_p999",
        "ack_max",
        "last_p50",
        "last_p99",
        "last_p999",
        "last_max",
        "B/move",
        "cpu",
        "rss_MiB",
        "db_cpu",
        "errors",
        "lag_p99",
        "load1"
    );
    let mut outcomes = Vec::new();
    let mut rows = Vec::new();
    let mut failures = 0;
    for &rate in &opts.rates {
        let per_room = rate / ready as f64;
        if let Some(limit) = opts.per_conn_limit
            && per_room > limit
        {
            eprintln!(
                "# warning: {per_room:.1} moves/s per room exceeds the {limit:.0}/s a connection may send"
            );
        }
        let interval = Duration::from_secs_f64(1.0 / per_room.max(1e-6));
        let _ = interval_tx.send(Some(interval));
        tokio::time::sleep(opts.warmup).await;
        let cpu0 = sample_server();
        let db0 = procstat::sample_all(&dbp);
        let (in0, out0) = shared.net.counters.snapshot();
        let t0 = Instant::now();
        shared.open_window();
        tokio::time::sleep(opts.measure).await;
        let w = shared.close_window();
        let secs = t0.elapsed().as_secs_f64();
        let (in1, out1) = shared.net.counters.snapshot();
        let cpu1 = sample_server();
        let db1 = procstat::sample_all(&dbp);
        let achieved = w.moves as f64 / secs;
        let ack = w.ack.summary();
        let last = w.last.summary();
        let bytes = (in1 - in0) + (out1 - out0);
        let per_move = if w.moves > 0 {
            bytes as f64 / w.moves as f64
        } else {
            0.0
        };
        let cpu = match (cpu0, cpu1) {
            (Some(a), Some(b)) => Some((b.cpu_seconds - a.cpu_seconds) / secs),
            _ => None,
        };
        let rss_mib = cpu1.map(|s| s.rss_kib as f64 / 1024.0);
        let db_cpu = if dbp.is_empty() {
            None
        } else {
            Some((db1.cpu_seconds - db0.cpu_seconds) / secs)
        };
        let errors: u64 = w.errors.values().sum::<u64>() + w.lost;
        println!(
            "{:>9.0} {:>9.0} {:>8.3} {:>8.3} {:>8.3} {:>8.3} | {:>8.3} {:>8.3} {:>9.3} {:>8.3} | {:>7.0} {:>6} {:>8} {:>6} {:>6} {:>7.3} {:>5.1}",
            rate,
            achieved,
            ack.p50_ms,
            ack.p99_ms,
            ack.p999_ms,
            ack.max_ms,
            last.p50_ms,
            last.p99_ms,
            last.p999_ms,
            last.max_ms,
            per_move,
            cpu.map_or("-".into(), |c| format!("{c:.2}")),
            rss_mib.map_or("-".into(), |r| format!("{r:.1}")),
            db_cpu.map_or("-".into(), |c| format!("{c:.2}")),
            errors,
            w.lag.summary().p99_ms,
            load1().unwrap_or(0.0)
        );
        let outcome = StepOutcome {
            offered: rate,
            achieved,
            p99_ms: last.p99_ms,
        };
        let row = json!({
            "label": opts.label,
            "rooms": ready,
            "offered_moves_per_s": rate,
            "achieved_moves_per_s": round3(achieved),
            "window_s": round3(secs),
            "moves": w.moves,
            "games": w.games,
            "ack": ack.to_json(),
            "last_recipient": last.to_json(),
            "send_lag": w.lag.summary().to_json(),
            "legal_moves_rtt": w.legal.summary().to_json(),
            "new_game": w.restart.summary().to_json(),
            "late_legal": w.late_legal,
            "lost": w.lost,
            "errors": w.errors,
            "bytes_per_move": round3(per_move),
            "server_cpu_cores": cpu.map(round3),
            "server_cpu_seconds_per_1k_moves": cpu.map(|c| round3(c * secs / (w.moves.max(1) as f64) * 1000.0)),
            "server_rss_mib": rss_mib.map(round3),
            "db_cpu_cores": db_cpu.map(round3),
            "holds": outcome.holds(opts.p99_limit_ms, opts.min_ratio),
            "loadavg_1m": load1(),
        });
        if !w.errors.is_empty() || w.lost > 0 {
            eprintln!("#   errors {:?}, lost {}", w.errors, w.lost);
        }
        rows.push(row);
        outcomes.push(outcome);
        if !outcome.holds(opts.p99_limit_ms, opts.min_ratio) {
            failures += 1;
            if failures > opts.keep_going {
                break;
            }
        }
    }
    let _ = interval_tx.send(None);
    let _ = stop_tx.send(true);
    for h in handles {
        let _ = tokio::time::timeout(Duration::from_secs(10), h).await;
    }
    let k = knee(&outcomes, opts.p99_limit_ms, opts.min_ratio);
    match k {
        Some(i) => println!(
            "knee ({}): {:.0} moves/s sustained (p99 last recipient {:.3} ms <= {} ms); next step {}",
            opts.label,
            outcomes[i].achieved,
            outcomes[i].p99_ms,
            opts.p99_limit_ms,
            outcomes.get(i + 1).map_or("not run".into(), |o| format!(
                "{:.0} offered -> {:.0} achieved, p99 {:.3} ms",
                o.offered, o.achieved, o.p99_ms
            ))
        ),
        None => println!(
            "knee ({}): none; the first step already missed p99 <= {} ms",
            opts.label, opts.p99_limit_ms
        ),
    }
    if let Some(path) = &opts.out {
        let mut text = String::new();
        for r in &rows {
            text.push_str(&r.to_string());
            text.push('\n');
        }
        let summary = json!({
            "label": opts.label,
            "knee_moves_per_s": k.map(|i| round3(outcomes[i].achieved)),
            "p99_limit_ms": opts.p99_limit_ms,
        });
        text.push_str(&summary.to_string());
        text.push('\n');
        use std::io::Write;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_is_open_loop() {
        let t0 = Instant::now();
        let mut s = Schedule::new(0.5);
        assert_eq!(s.take(), None, "paused");
        s.set_interval(Some(Duration::from_millis(100)), t0);
        assert_eq!(s.next_due(), Some(t0 + Duration::from_millis(50)));
        let a = s.take().expect("due");
        let b = s.take().expect("due");
        // The next due time does not depend on when the previous move went out.
        assert_eq!(b - a, Duration::from_millis(100));
        s.set_interval(Some(Duration::from_millis(10)), t0);
        let c = s.take().expect("due");
        assert_eq!(c - b, Duration::from_millis(100));
        assert_eq!(s.next_due(), Some(c + Duration::from_millis(10)));
        s.reanchor(t0 + Duration::from_secs(5));
        assert_eq!(s.next_due(), Some(t0 + Duration::from_secs(5)));
        s.set_interval(None, t0);
        assert_eq!(s.next_due(), None);
    }

    #[test]
    fn last_recipient_is_the_slowest_other_connection() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut t = Tracker::new(4);
        let mut got = Vec::new();
        t.sent(1, 5, t0, 2);
        t.received(2, 1, 5, t0 + ms(1), |d| got.push(d));
        t.received(0, 1, 5, t0 + ms(2), |d| got.push(d));
        t.received(0, 1, 5, t0 + ms(3), |d| got.push(d));
        t.received(1, 1, 4, t0 + ms(3), |d| got.push(d));
        t.received(1, 2, 5, t0 + ms(3), |d| got.push(d));
        t.received(1, 1, 5, t0 + ms(4), |d| got.push(d));
        assert!(
            got.is_empty(),
            "mover, repeats, older versions and other games do not count"
        );
        t.received(3, 1, 5, t0 + ms(9), |d| got.push(d));
        assert_eq!(got, vec![ms(9)]);
        assert!(t.is_empty());
        t.sent(1, 6, t0, 0);
        t.forget(1, 6);
        assert!(t.is_empty());
        t.sent(1, 7, t0, 0);
        assert_eq!(t.expire(t0 + ms(10)), 0);
        assert_eq!(t.expire(t0 + LOST_AFTER + ms(1)), 1);
    }

    #[test]
    fn a_newer_version_completes_older_moves() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut t = Tracker::new(2);
        let mut got = Vec::new();
        t.sent(1, 1, t0, 0);
        t.sent(1, 2, t0 + ms(5), 0);
        t.received(1, 1, 2, t0 + ms(20), |d| got.push(d));
        assert_eq!(got, vec![ms(20), ms(15)]);
        assert!(t.is_empty());
    }

    #[test]
    fn rng_stays_in_range() {
        let mut r = Rng::new(7);
        for _ in 0..1000 {
            assert!(r.below(9) < 9);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(r.below(0), 0);
    }
}
