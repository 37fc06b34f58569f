//! `citytable`: parses configuration (environment, then flags) and runs the server;
//! `citytable verify RECORD.json` checks a finished game's record instead
//! (`server::fairness`).
//!
//! Environment: `PORT` (8080), `DATABASE_URL` (SQLite in `DATA_DIR` when unset;
//! `memory:` keeps everything in memory, for benchmarks only),
//! `DATA_DIR` (`./data`), `BOT_DELAY_MS` (700), `LEFT_GRACE_MS` (30000),
//! `MAX_CONNECTIONS_PER_ADDRESS`
//! (256; 0 for no limit), `TABLES_PER_MINUTE` (1 after a burst of 10; 0 for no
//! limit), `RECORDS_PER_MINUTE` (10 after a burst of 20; 0 for no limit),
//! `IDLE_ROOM_SECS` (900), `ALLOWED_ORIGINS` (comma-separated),
//! `TRUSTED_PROXIES` (comma-separated addresses and CIDR ranges of reverse
//! proxies whose `X-Forwarded-For` names the client; none by default),
//! `METRICS_TOKEN`, `PUBLIC_URL` (the address players open, for webhook links),
//! `WEBHOOK_INTERVAL_SECS` (3600: a table's webhook posts at most that often),
//! `WEBHOOK_ALLOW_LOCAL` (`1`: webhooks on this machine or a private network,
//! plain http too, as on a home server),
//! `RUST_LOG` (`info`); cluster mode: `NATS_URL` (unset: a
//! single node), `LEASE_TTL_MS` (10000).
//! Flags override them: `--port`, `--database-url`, `--data-dir`, `--bot-delay-ms`,
//! `--max-connections-per-address`, `--tables-per-minute`, `--trusted-proxies`,
//! `--idle-room-secs`, `--nats-url`, `--lease-ttl-ms`.

use std::time::Duration;

use server::{Config, TrustedProxies};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn usage() -> ! {
    eprintln!(
        "usage: citytable [--port N] [--database-url URL] [--data-dir DIR] [--bot-delay-ms N] [--max-connections-per-address N] [--tables-per-minute N] [--trusted-proxies LIST] [--idle-room-secs N] [--nats-url URL] [--lease-ttl-ms N]\n       citytable verify RECORD.json"
    );
    std::process::exit(2)
}

fn parse<T: std::str::FromStr>(what: &str, value: &str) -> T {
    value.parse().unwrap_or_else(|_| {
        eprintln!("citytable: {what} must be a number, not {value:?}");
        usage()
    })
}

fn trusted_proxies(what: &str, value: &str) -> TrustedProxies {
    TrustedProxies::parse(value).unwrap_or_else(|e| {
        eprintln!("citytable: {what}: {e}");
        usage()
    })
}

/// A lease TTL: renewals run every quarter of it, so it must leave them time.
fn lease_ttl(what: &str, value: &str) -> Duration {
    let ms: u64 = parse(what, value);
    if ms < 200 {
        eprintln!("citytable: {what} must be at least 200 (milliseconds), not {ms}");
        usage()
    }
    Duration::from_millis(ms)
}

/// `citytable verify RECORD`: checks a downloaded game record (`-` reads it
/// from standard input) and exits 0 when its seed is the one committed to and
/// replaying it gives the record's game, 1 when not, 2 when it is no record.
fn verify(path: &str) -> ! {
    use std::io::Read;
    let mut text = Vec::new();
    let read = if path == "-" {
        std::io::stdin().read_to_end(&mut text).map(|_| ())
    } else {
        std::fs::read(path).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("citytable verify: {path}: {e}");
        std::process::exit(2)
    }
    match server::fairness::check_record(&server::games::Registry::all(), &text) {
        Ok(check) => {
            let (lines, ok) = server::fairness::describe(&check);
            for line in lines {
                println!("{line}");
            }
            std::process::exit(if ok { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("citytable verify: {path} is not a game record: {e}");
            std::process::exit(2)
        }
    }
}

#[tokio::main]
async fn main() {
    let mut command = std::env::args().skip(1);
    if command.next().as_deref() == Some("verify") {
        match (command.next(), command.next()) {
            (Some(path), None) => verify(&path),
            _ => {
                eprintln!("usage: citytable verify RECORD.json");
                std::process::exit(2)
            }
        }
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();

    let mut config = Config::default();
    let mut port: u16 = 8080;
    if let Ok(p) = std::env::var("PORT") {
        port = parse("PORT", &p);
    }
    if let Ok(url) = std::env::var("DATABASE_URL")
        && !url.is_empty()
    {
        config.database_url = Some(url);
    }
    if let Ok(dir) = std::env::var("DATA_DIR") {
        config.data_dir = dir.into();
    }
    if let Ok(ms) = std::env::var("BOT_DELAY_MS") {
        config.bot_delay = Duration::from_millis(parse("BOT_DELAY_MS", &ms));
    }
    if let Ok(ms) = std::env::var("LEFT_GRACE_MS") {
        config.left_grace = Duration::from_millis(parse("LEFT_GRACE_MS", &ms));
    }
    if let Ok(n) = std::env::var("MAX_CONNECTIONS_PER_ADDRESS") {
        config.max_connections_per_address = parse("MAX_CONNECTIONS_PER_ADDRESS", &n);
    }
    if let Ok(n) = std::env::var("TABLES_PER_MINUTE") {
        config.tables_per_minute = parse("TABLES_PER_MINUTE", &n);
    }
    if let Ok(n) = std::env::var("RECORDS_PER_MINUTE") {
        config.records_per_minute = parse("RECORDS_PER_MINUTE", &n);
    }
    if let Ok(origins) = std::env::var("ALLOWED_ORIGINS") {
        config.allowed_origins = origins
            .split(',')
            .map(|o| o.trim().trim_end_matches('/').to_owned())
            .filter(|o| !o.is_empty())
            .collect();
    }
    if let Ok(list) = std::env::var("TRUSTED_PROXIES") {
        config.trusted_proxies = trusted_proxies("TRUSTED_PROXIES", &list);
    }
    if let Ok(token) = std::env::var("METRICS_TOKEN")
        && !token.is_empty()
    {
        config.metrics_token = Some(token);
    }
    if let Ok(url) = std::env::var("PUBLIC_URL")
        && !url.is_empty()
    {
        config.public_url = Some(url.trim_end_matches('/').to_owned());
    }
    if let Ok(secs) = std::env::var("WEBHOOK_INTERVAL_SECS") {
        config.webhook_interval = Duration::from_secs(parse("WEBHOOK_INTERVAL_SECS", &secs));
    }
    if let Ok(v) = std::env::var("WEBHOOK_ALLOW_LOCAL") {
        config.webhook_allow_local = matches!(v.as_str(), "1" | "true" | "yes");
    }
    if let Ok(secs) = std::env::var("IDLE_ROOM_SECS") {
        config.idle_room = Duration::from_secs(parse("IDLE_ROOM_SECS", &secs));
    }
    if let Ok(url) = std::env::var("NATS_URL")
        && !url.is_empty()
    {
        config.nats_url = Some(url);
    }
    if let Ok(ms) = std::env::var("LEASE_TTL_MS") {
        config.lease_ttl = lease_ttl("LEASE_TTL_MS", &ms);
    }
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--port" => port = parse("--port", &value()),
            "--database-url" => config.database_url = Some(value()),
            "--data-dir" => config.data_dir = value().into(),
            "--bot-delay-ms" => {
                config.bot_delay = Duration::from_millis(parse("--bot-delay-ms", &value()))
            }
            "--max-connections-per-address" => {
                config.max_connections_per_address =
                    parse("--max-connections-per-address", &value())
            }
            "--tables-per-minute" => {
                config.tables_per_minute = parse("--tables-per-minute", &value())
            }
            "--trusted-proxies" => {
                config.trusted_proxies = trusted_proxies("--trusted-proxies", &value())
            }
            "--idle-room-secs" => {
                config.idle_room = Duration::from_secs(parse("--idle-room-secs", &value()))
            }
            "--nats-url" => config.nats_url = Some(value()),
            "--lease-ttl-ms" => config.lease_ttl = lease_ttl("--lease-ttl-ms", &value()),
            _ => usage(),
        }
    }

    let listener = match tokio::net::TcpListener::bind(("0.0.0.0", port)).await {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(port, error = %e, "cannot listen");
            std::process::exit(1);
        }
    };
    if let Err(e) = server::run(listener, config, shutdown_signal()).await {
        tracing::error!(error = %e, "server stopped with an error");
        std::process::exit(1);
    }
}

/// Resolves on ctrl-c or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}
