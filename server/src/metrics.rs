//! Prometheus metrics of one server instance (its own registry, so several
//! servers in one test process do not mix their figures).

use prometheus::{
    Encoder, Gauge, Histogram, HistogramOpts, IntCounter, IntGauge, Registry, TextEncoder,
};
use store::CommitterStats;

pub struct Metrics {
    registry: Registry,
    /// Open table connections (after `hello`).
    pub connections: IntGauge,
    /// Rooms in memory.
    pub rooms: IntGauge,
    /// Log entries committed (moves, bot moves, timeouts).
    pub moves: IntCounter,
    /// Connections refused because their address had used its budget.
    pub refused_connections: IntCounter,
    /// WebSockets closed because they did not take what was written to them.
    pub stalled_connections: IntCounter,
    /// Code lookups slowed because their address had guessed wrong many times.
    pub slowed_lookups: IntCounter,
    /// Game records built (each is then served from memory while it fits).
    pub records_built: IntCounter,
    /// From a move's arrival in its room to its acknowledgement.
    pub move_seconds: Histogram,
    /// Time to make one move durable (group commit).
    pub commit_seconds: Histogram,
    /// Cluster mode: tables whose lease this node holds.
    pub tables_owned: IntGauge,
    /// Cluster mode: tables this node took over from a node gone or stopped.
    pub lease_takeovers: IntCounter,
    /// Cluster mode: leases this node lost while running the table's room.
    pub leases_lost: IntCounter,
    /// Cluster mode: messages this node sent another over NATS for a forwarded
    /// connection (a client's messages to its table's owner, the owner's frames back).
    pub forwarded: IntCounter,
    /// The allocator's view of the heap, read when the metrics are rendered.
    heap_in_use: IntGauge,
    heap_free: IntGauge,
    /// The group commit's totals, read when the metrics are rendered: where the time
    /// of a durable write goes (waiting for a free transaction slot, or storing).
    store_transactions: IntGauge,
    store_rows: IntGauge,
    store_queued_seconds: Gauge,
    store_transaction_seconds: Gauge,
}

fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    let g = IntGauge::new(name, help).unwrap_or_else(|_| unreachable_metric());
    let _ = registry.register(Box::new(g.clone()));
    g
}

fn float_gauge(registry: &Registry, name: &str, help: &str) -> Gauge {
    let g = Gauge::new(name, help).unwrap_or_else(|_| unreachable_metric());
    let _ = registry.register(Box::new(g.clone()));
    g
}

fn counter(registry: &Registry, name: &str, help: &str) -> IntCounter {
    let c = IntCounter::new(name, help).unwrap_or_else(|_| unreachable_metric());
    let _ = registry.register(Box::new(c.clone()));
    c
}

fn unreachable_metric() -> ! {
    // Names and help texts below are constants that prometheus accepts.
    panic!("invalid metric definition")
}

fn histogram(registry: &Registry, name: &str, help: &str) -> Histogram {
    let buckets = vec![
        0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
    ];
    let h = Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets))
        .unwrap_or_else(|_| unreachable_metric());
    let _ = registry.register(Box::new(h.clone()));
    h
}

impl Metrics {
    pub fn new() -> Metrics {
        let registry = Registry::new();
        Metrics {
            connections: gauge(&registry, "citytable_connections", "Open table connections"),
            rooms: gauge(&registry, "citytable_rooms", "Rooms in memory"),
            moves: counter(&registry, "citytable_moves_total", "Log entries committed"),
            refused_connections: counter(
                &registry,
                "citytable_refused_connections_total",
                "Connections refused: their address had as many open as allowed",
            ),
            stalled_connections: counter(
                &registry,
                "citytable_stalled_connections_total",
                "WebSockets closed for not reading what the server wrote",
            ),
            slowed_lookups: counter(
                &registry,
                "citytable_slowed_lookups_total",
                "Code lookups slowed: their address had looked up many wrong codes",
            ),
            records_built: counter(
                &registry,
                "citytable_records_built_total",
                "Game records built by replaying a finished game",
            ),
            move_seconds: histogram(
                &registry,
                "citytable_move_seconds",
                "Time from a move's arrival in its room to its acknowledgement",
            ),
            commit_seconds: histogram(
                &registry,
                "citytable_store_commit_seconds",
                "Time to make one move durable",
            ),
            tables_owned: gauge(
                &registry,
                "citytable_tables_owned",
                "Tables whose lease this node holds (cluster mode)",
            ),
            lease_takeovers: counter(
                &registry,
                "citytable_lease_takeovers_total",
                "Tables taken over from a node gone or stopped (cluster mode)",
            ),
            leases_lost: counter(
                &registry,
                "citytable_leases_lost_total",
                "Table leases lost while their room ran: its room stopped (cluster mode)",
            ),
            forwarded: counter(
                &registry,
                "citytable_forwarded_messages_total",
                "Messages sent to another node for a forwarded connection: client messages to the owner, frames back (cluster mode)",
            ),
            heap_in_use: gauge(
                &registry,
                "citytable_heap_in_use_bytes",
                "Heap bytes allocated and not yet freed",
            ),
            heap_free: gauge(
                &registry,
                "citytable_heap_free_bytes",
                "Freed heap bytes the allocator keeps instead of returning to the system",
            ),
            store_transactions: gauge(
                &registry,
                "citytable_store_transactions_total",
                "Group-commit transactions committed",
            ),
            store_rows: gauge(
                &registry,
                "citytable_store_rows_total",
                "Writes stored by the group commit",
            ),
            store_queued_seconds: float_gauge(
                &registry,
                "citytable_store_queued_seconds_total",
                "Time writes waited for a free transaction slot, summed over writes",
            ),
            store_transaction_seconds: float_gauge(
                &registry,
                "citytable_store_transaction_seconds_total",
                "Time spent in group-commit transactions, summed over transactions",
            ),
            registry,
        }
    }

    /// The Prometheus text exposition, with the store's group-commit totals when the
    /// server has a store of its own.
    pub fn render(&self, committer: Option<CommitterStats>) -> String {
        if let Some(heap) = heap_stats() {
            self.heap_in_use.set(heap.in_use as i64);
            self.heap_free.set(heap.free as i64);
        }
        if let Some(c) = committer {
            self.store_transactions.set(c.commits as i64);
            self.store_rows.set(c.rows as i64);
            self.store_queued_seconds.set(c.queued_micros as f64 / 1e6);
            self.store_transaction_seconds
                .set(c.storing_micros as f64 / 1e6);
        }
        let mut buf = Vec::new();
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut buf);
        String::from_utf8(buf).unwrap_or_default()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// Bytes in use and bytes free in the allocator's heap.
pub struct HeapStats {
    pub in_use: u64,
    pub free: u64,
}

/// glibc's `mallinfo2`: it walks every arena under its lock, so it is read when
/// metrics are scraped, never per allocation. Resident memory that grows while
/// `in_use` stays level is fragmentation, not state kept alive.
#[cfg(all(target_os = "linux", target_env = "gnu", not(feature = "mimalloc")))]
pub fn heap_stats() -> Option<HeapStats> {
    // SAFETY: mallinfo2 takes no arguments and only reads allocator state.
    let info = unsafe { libc::mallinfo2() };
    Some(HeapStats {
        in_use: (info.uordblks + info.hblkhd) as u64,
        free: info.fordblks as u64,
    })
}

#[cfg(not(all(target_os = "linux", target_env = "gnu", not(feature = "mimalloc"))))]
pub fn heap_stats() -> Option<HeapStats> {
    None
}
