//! Prometheus metrics of one server instance (its own registry, so several
//! servers in one test process do not mix their figures).

use prometheus::{Encoder, Histogram, HistogramOpts, IntCounter, IntGauge, Registry, TextEncoder};

pub struct Metrics {
    registry: Registry,
    /// Open table connections (after `hello`).
    pub connections: IntGauge,
    /// Rooms in memory.
    pub rooms: IntGauge,
    /// Log entries committed (moves, bot moves, timeouts).
    pub moves: IntCounter,
    /// From a move's arrival in its room to its acknowledgement.
    pub move_seconds: Histogram,
    /// Time to make one move durable (group commit).
    pub commit_seconds: Histogram,
}

fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    let g = IntGauge::new(name, help).unwrap_or_else(|_| unreachable_metric());
    let _ = registry.register(Box::new(g.clone()));
    g
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
        let moves = IntCounter::new("citytable_moves_total", "Log entries committed")
            .unwrap_or_else(|_| unreachable_metric());
        let _ = registry.register(Box::new(moves.clone()));
        Metrics {
            connections: gauge(&registry, "citytable_connections", "Open table connections"),
            rooms: gauge(&registry, "citytable_rooms", "Rooms in memory"),
            moves,
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
            registry,
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
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
