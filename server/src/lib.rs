//! CityTable's authoritative game server.
//!
//! Layout:
//! - [`run`] opens the store, rebuilds every unfinished game from its move log,
//!   serves [`app`] until shutdown, then lets every room finish what it acknowledged.
//! - `room`: one actor task per table (lobby, game, timers, bots, fan-out), and
//!   the registry of the rooms in memory.
//! - `listen`: accepting connections (per-address budget, header timeout).
//! - `client_addr`: the address a request is counted against (behind trusted
//!   reverse proxies, the client's from `X-Forwarded-For`).
//! - `ws`: a WebSocket connection (reader and writer tasks, limits, `hello`).
//! - `http`: the JSON API under `/api`, health, readiness and metrics.
//! - `games`: games behind an object-safe adapter, and the registry of kinds.
//! - `db`: the store contract as a trait (`store` crate, or memory for tests).
//! - `records`: finished games' records, built once within a memory budget.
//! - `codes`: invite codes and seat tokens. `web`: the embedded browser client.
//! - `cluster`: several nodes on one database: table leases, renewals, takeovers.
//! - `clock`: the wall clock in milliseconds. `budget`: token buckets.
//! - `lookup`: a table by its code, with the limiter of wrong guesses.
//! - `typegen`: the TypeScript declarations of the protocol and every game.

pub mod budget;
pub mod client_addr;
pub mod clock;
pub mod cluster;
pub mod codes;
pub mod db;
pub mod fairness;
pub mod fanout;
pub mod forward;
pub mod games;
mod http;
mod listen;
mod lookup;
pub mod metrics;
mod my_tables;
pub mod notify;
pub mod records;
pub mod refusal;
pub mod room;
pub mod typegen;
pub mod views;
mod web;
mod ws;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};

use crate::cluster::{Cluster, Hold, TakeError};
use crate::db::{Db, GameRow, MoveRow, StoreDb, TableRow};
use crate::games::Registry;
use crate::refusal::Refusal;
use crate::room::{NewTable, Notices, Room, RoomCtx, RoomInit, RoomMsg, Rooms};
use protocol::api::{CreateTable, TableCreated};
use protocol::{ErrorCode, ErrorReason};

pub use crate::budget::{AddressBudget, Bucket};
pub use crate::client_addr::{ClientAddr, TrustedProxies};
pub use crate::clock::now_ms;
pub use crate::lookup::LookupError;
pub use crate::room::bot_seed;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Postgres URL; SQLite in `data_dir` when absent.
    pub database_url: Option<String>,
    pub data_dir: PathBuf,
    /// Pause before a bot moves, so people can follow (0 in tests).
    pub bot_delay: Duration,
    /// Messages per second one connection may send, and the burst it may save up.
    pub rate_per_second: f64,
    pub rate_burst: f64,
    /// Open connections (HTTP and WebSocket) allowed from one IP address (0: no
    /// limit). Enough for a household or a classroom behind one address, not for
    /// one client to exhaust the server's sockets.
    pub max_connections_per_address: usize,
    /// Reverse proxies in front of the server: their connections are not
    /// counted against their own address; each of their requests counts against
    /// the client named by `X-Forwarded-For` (`client_addr.rs`). None by default:
    /// the header is then ignored.
    pub trusted_proxies: TrustedProxies,
    /// Time a connection has to send a request's headers.
    pub header_timeout: Duration,
    /// Time a new WebSocket has to say `hello`.
    pub hello_timeout: Duration,
    /// Time a WebSocket has to take what the server writes to it; a client that
    /// stops reading is closed after it and its queue freed.
    pub write_timeout: Duration,
    /// Browser origins besides the server's own that may open sockets and
    /// create tables (`https://example.org`); none by default.
    pub allowed_origins: Vec<String>,
    /// Bearer token for `/metrics`; without one, only loopback may read it.
    pub metrics_token: Option<String>,
    /// Tables one address may create at once, and how many more per minute
    /// (0: no limit).
    pub table_burst: f64,
    pub tables_per_minute: f64,
    /// Game records one address may fetch per minute, after a first 20 (0: no
    /// limit).
    pub records_per_minute: f64,
    /// How long a table stays in its lobby, with no game ever started and no
    /// change, before it is deleted as abandoned.
    pub abandoned_table: Duration,
    /// How long a seated player's last connection must have been closed,
    /// when it is his decision, before the table's stand-in plays for him.
    pub left_grace: Duration,
    /// How long a room with nobody connected and no game running stays in
    /// memory; it is loaded again from the store when someone opens one of its
    /// codes.
    pub idle_room: Duration,
    /// Cluster mode: the NATS server nodes talk through. Requires Postgres.
    pub nats_url: Option<String>,
    /// The address players open the server at (`https://citytable.example`),
    /// for the links in webhook notices; without it they name the table's code.
    pub public_url: Option<String>,
    /// Webhook notices post at most once per table and address per this.
    pub webhook_interval: Duration,
    /// Webhooks may be addresses of this machine or a private network, over
    /// plain `http` too (a home server's), not only `https` to public hosts.
    pub webhook_allow_local: bool,
    /// Cluster mode: how long a table's lease lasts unless renewed (every quarter
    /// of it); a dead node's tables are taken over within about 1.5 times this.
    pub lease_ttl: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            database_url: None,
            data_dir: PathBuf::from("./data"),
            bot_delay: Duration::from_millis(700),
            left_grace: Duration::from_secs(30),
            rate_per_second: 20.0,
            rate_burst: 40.0,
            max_connections_per_address: 256,
            trusted_proxies: TrustedProxies::default(),
            header_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            allowed_origins: Vec::new(),
            metrics_token: None,
            table_burst: 10.0,
            tables_per_minute: 1.0,
            records_per_minute: 10.0,
            idle_room: IDLE_ROOM,
            abandoned_table: ABANDONED_TABLE,
            nats_url: None,
            public_url: None,
            webhook_interval: Duration::from_secs(3600),
            webhook_allow_local: false,
            lease_ttl: cluster::LEASE_TTL,
        }
    }
}

/// The `database_url` that keeps everything in memory: nothing is durable. For
/// comparisons with servers that keep games in memory, never for players.
pub const MEMORY_STORE: &str = "memory:";

/// The default of [`Config::abandoned_table`]: a week.
pub const ABANDONED_TABLE: Duration = Duration::from_secs(7 * 24 * 3600);
/// How often abandoned tables are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// The default of [`Config::idle_room`].
pub const IDLE_ROOM: Duration = Duration::from_secs(15 * 60);
/// Public tables per page of the lobby listing.
pub const LOBBY_PAGE: usize = 50;
/// Capacity of a room's inbox.
const ROOM_INBOX: usize = 256;
/// Messages queued for one connection before it is considered too slow and closed.
pub const OUT_QUEUE: usize = 256;
/// New connections one address may open at once, then per second. A page load
/// opens a handful; only floods come near. (No limit with
/// `max_connections_per_address` 0, as for benchmarks.)
const ACCEPT_BURST: f64 = 400.0;
const ACCEPTS_PER_SECOND: f64 = 40.0;
/// Messages all the sockets of one address may send at once, then per second:
/// a classroom behind one address plays well within it, one client opening
/// many sockets cannot multiply the per-connection rate.
const ADDRESS_MESSAGE_BURST: f64 = 400.0;
const ADDRESS_MESSAGES_PER_SECOND: f64 = 200.0;
/// Record requests one address may make at once (then [`Config::records_per_minute`]).
const RECORD_BURST: f64 = 20.0;
/// "My tables" asks per address: a page open on it asks every 30 s, and each
/// ask may replay up to `MAX_KEPT_SEATS` games.
const MY_TABLES_BURST: f64 = 10.0;
const MY_TABLES_PER_MINUTE: f64 = 6.0;

/// What every room and request shares.
pub struct Shared {
    pub db: Arc<dyn Db>,
    pub games: Registry,
    pub config: Config,
    pub metrics: Arc<metrics::Metrics>,
    /// Live rooms by invite and spectator code, and the public tables.
    pub rooms: Arc<Rooms>,
    /// Wrong-code lookups per address.
    misses: lookup::Misses,
    /// Records of finished games, built once.
    records: records::Records,
    /// Open connections per address.
    open_per_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    /// Table creation budget per address.
    creations: AddressBudget,
    /// Record requests budget per address.
    record_fetches: AddressBudget,
    /// "My tables" asks per address.
    my_tables_asks: AddressBudget,
    /// The webhook sender (none outside a runtime, as for the type generator).
    notifier: Option<notify::Notifier>,
    /// New connections per address (behind a trusted proxy, requests per client).
    accepts: AddressBudget,
    /// WebSocket messages per address, all its connections together.
    pub(crate) messages: AddressBudget,
    next_conn: AtomicU64,
    /// This node, in cluster mode.
    pub cluster: Option<Arc<Cluster>>,
}

/// One open connection counted against its address; uncounted when dropped.
pub struct AddressSlot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock()
            && let Some(n) = open.get_mut(&self.ip)
        {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// The server's state, cheap to clone.
#[derive(Clone)]
pub struct AppState(pub Arc<Shared>);

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("store: {0}")]
    Store(#[from] db::StoreError),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    #[error("configuration: {0}")]
    Config(String),
    #[error("NATS: {0}")]
    Nats(String),
}

impl AppState {
    pub fn new(db: Arc<dyn Db>, config: Config) -> AppState {
        AppState::with_cluster(db, config, Arc::new(metrics::Metrics::new()), None)
    }

    /// A node's state; `cluster` (cluster mode) shares `metrics`.
    pub fn with_cluster(
        db: Arc<dyn Db>,
        config: Config,
        metrics: Arc<metrics::Metrics>,
        cluster: Option<Arc<Cluster>>,
    ) -> AppState {
        let creations = AddressBudget::new(config.table_burst, config.tables_per_minute);
        let record_fetches = AddressBudget::new(RECORD_BURST, config.records_per_minute);
        let webhook_interval = config.webhook_interval;
        let webhook_allow_local = config.webhook_allow_local;
        let unlimited = config.max_connections_per_address == 0;
        let per_minute = |n: f64| if unlimited { 0.0 } else { n * 60.0 };
        let accepts = AddressBudget::new(ACCEPT_BURST, per_minute(ACCEPTS_PER_SECOND));
        let messages = AddressBudget::new(
            ADDRESS_MESSAGE_BURST,
            per_minute(ADDRESS_MESSAGES_PER_SECOND),
        );
        AppState(Arc::new(Shared {
            db,
            games: Registry::all(),
            config,
            metrics,
            rooms: Arc::default(),
            misses: lookup::Misses::default(),
            records: records::Records::default(),
            open_per_address: Arc::default(),
            creations,
            record_fetches,
            my_tables_asks: AddressBudget::new(MY_TABLES_BURST, MY_TABLES_PER_MINUTE),
            notifier: tokio::runtime::Handle::try_current()
                .is_ok()
                .then(|| notify::Notifier::start(webhook_interval, webhook_allow_local)),
            accepts,
            messages,
            next_conn: AtomicU64::new(1),
            cluster,
        }))
    }

    fn next_conn(&self) -> u64 {
        self.0.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Starts a room task for a table and registers its codes; in cluster mode
    /// under `hold`, the table's lease.
    fn spawn_room(
        &self,
        init: RoomInit,
        hold: Option<Arc<Hold>>,
    ) -> Result<(mpsc::Sender<RoomMsg>, String, String), String> {
        let lease = self.0.cluster.clone().zip(hold);
        let ctx = RoomCtx {
            db: Arc::clone(&self.0.db),
            metrics: Arc::clone(&self.0.metrics),
            rooms: Arc::clone(&self.0.rooms),
            bot_delay: self.0.config.bot_delay,
            left_grace: self.0.config.left_grace,
            idle_room: self.0.config.idle_room,
            lease: lease.clone(),
            notices: self.0.notifier.clone().map(|notifier| Notices {
                notifier,
                public_url: self.0.config.public_url.clone(),
            }),
        };
        let room = Room::new(ctx, init)?;
        let (tx, rx) = mpsc::channel(ROOM_INBOX);
        let invite = room.invite_code().to_owned();
        let spectate = room.spectator_code().to_owned();
        if let Some(existing) = self
            .0
            .rooms
            .register(room.table_id(), &invite, &spectate, &tx)?
        {
            // Someone else loaded it first.
            return Ok((existing, invite, spectate));
        }
        self.0.metrics.rooms.inc();
        if let Some((cluster, hold)) = &lease {
            cluster.record(hold);
            self.serve_forwarded(cluster, hold, tx.clone());
        }
        tokio::spawn(room.run(rx));
        Ok((tx, invite, spectate))
    }

    /// Cluster mode: connections held by other nodes play in this node's room of
    /// the table `hold` is the lease of (see `forward`), while the lease holds.
    fn serve_forwarded(&self, cluster: &Cluster, hold: &Arc<Hold>, room: mpsc::Sender<RoomMsg>) {
        let app = self.clone();
        let sent = self.0.metrics.forwarded.clone();
        let (nats, node, table) = (
            cluster.nats().clone(),
            cluster.node_id.clone(),
            hold.table_id,
        );
        let hold = Arc::clone(hold);
        tokio::spawn(async move {
            let next_conn = move || app.next_conn();
            let current = move || hold.fence().is_some();
            if let Err(e) = forward::serve(nats, node, table, room, next_conn, current, sent).await
            {
                // The room still serves this node's own connections; the others are
                // told to try again until the broker answers.
                tracing::warn!(table = %table, error = %e, "forwarded connections cannot be served");
            }
        });
    }

    /// Builds a room from stored rows (in cluster mode under `hold`).
    fn room_from_rows(
        &self,
        table: TableRow,
        game: Option<(GameRow, Vec<MoveRow>)>,
        hold: Option<Arc<Hold>>,
    ) -> Result<mpsc::Sender<RoomMsg>, String> {
        let kind = self
            .0
            .games
            .get(&table.game)
            .ok_or_else(|| format!("unknown game {}", table.game))?;
        self.spawn_room(RoomInit::stored(table, kind, game)?, hold)
            .map(|(tx, _, _)| tx)
    }

    /// Loads a table whose lease this node just took: its rows are read after
    /// the lease was, so they hold every write of the previous owner. On failure
    /// the lease is given up.
    async fn load_held(&self, hold: Arc<Hold>) -> Result<mpsc::Sender<RoomMsg>, String> {
        let id = hold.table_id;
        let loaded = async {
            let table = self
                .0
                .db
                .table_by_id(id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| "no such table".to_owned())?;
            let game = self.0.db.latest_game(id).await.map_err(|e| e.to_string())?;
            self.room_from_rows(table, game, Some(Arc::clone(&hold)))
        }
        .await;
        if loaded.is_err()
            && let Some(cluster) = &self.0.cluster
        {
            cluster.release(self.0.db.as_ref(), &hold).await;
        }
        loaded
    }

    /// Claims the tables whose owner is gone (lease lapsed or released) and loads
    /// them as recovery at start does.
    pub async fn take_over(&self) -> usize {
        let Some(cluster) = &self.0.cluster else {
            return 0;
        };
        let mut n = 0;
        for hold in cluster.claim(self.0.db.as_ref()).await {
            if let Some(old) = cluster.hold_of(hold.table_id) {
                // This node's own lease lapsed before its renewal noticed: its room
                // stops first; the table is claimed again at the next round.
                cluster.lost(&old, "claimed again after it lapsed");
                cluster.release(self.0.db.as_ref(), &hold).await;
                continue;
            }
            let (id, epoch) = (hold.table_id, hold.epoch);
            match self.load_held(hold).await {
                Ok(_) => {
                    n += 1;
                    self.0.metrics.lease_takeovers.inc();
                    tracing::info!(table = %id, epoch, "table taken over");
                }
                Err(e) => {
                    tracing::error!(table = %id, error = %e, "a table taken over could not be loaded");
                }
            }
        }
        n
    }

    /// Deletes the tables abandoned in their lobby longer than
    /// [`Config::abandoned_table`] (their rooms are not in memory: an idle room
    /// unloads long before).
    pub async fn delete_abandoned_tables(&self) {
        let before = now_ms().saturating_sub(
            i64::try_from(self.0.config.abandoned_table.as_millis()).unwrap_or(i64::MAX),
        );
        match self.0.db.delete_abandoned_tables(before).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(tables = n, "abandoned tables deleted"),
            Err(e) => tracing::warn!(error = %e, "deleting abandoned tables failed"),
        }
    }

    /// Rebuilds every unfinished table from the store (in cluster mode, those
    /// whose lease this node gets).
    pub async fn recover(&self) -> Result<usize, StartError> {
        let recovered = self.0.db.load_unfinished().await?;
        let mut n = 0;
        for r in recovered {
            let id = r.table.id;
            if let Some(cluster) = &self.0.cluster {
                match cluster.acquire(self.0.db.as_ref(), id).await {
                    Ok(hold) => match self.load_held(hold).await {
                        Ok(_) => {
                            n += 1;
                            tracing::info!(table = %id, "table recovered");
                        }
                        Err(e) => {
                            tracing::error!(table = %id, error = %e, "table could not be recovered")
                        }
                    },
                    Err(TakeError::Elsewhere) => {
                        tracing::debug!(table = %id, "table owned by another node")
                    }
                    Err(TakeError::Store) => {}
                }
                continue;
            }
            let moves = r.moves.len();
            match self.room_from_rows(r.table, r.game.map(|g| (g, r.moves)), None) {
                Ok(_) => {
                    n += 1;
                    tracing::info!(table = %id, moves, "table recovered");
                }
                Err(e) => tracing::error!(table = %id, error = %e, "table could not be recovered"),
            }
        }
        Ok(n)
    }

    /// Takes one table creation from the address's budget.
    fn may_create_table(&self, ip: IpAddr) -> bool {
        self.0.creations.take(ip)
    }

    /// Takes one record request from the address's budget: a record can be
    /// megabytes to send, and a person watches a replay now and then.
    fn may_fetch_record(&self, ip: IpAddr) -> bool {
        self.0.record_fetches.take(ip)
    }

    /// Charges the address's record budget a fetch per second a record's check took.
    fn charge_record_check(&self, ip: IpAddr, took: Duration) {
        self.0.record_fetches.charge(ip, took.as_secs_f64());
    }

    /// Takes one "my tables" ask from the address's budget.
    fn may_list_my_tables(&self, ip: IpAddr) -> bool {
        self.0.my_tables_asks.take(ip)
    }

    /// Counts a new connection (or proxied request) from `ip`; `None` when the
    /// address already has as many open as allowed.
    pub fn address_slot(&self, ip: IpAddr) -> Option<AddressSlot> {
        let limit = self.0.config.max_connections_per_address;
        let mut open = self.0.open_per_address.lock().ok()?;
        let n = open.entry(ip).or_insert(0);
        if limit > 0 && *n >= limit {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            ip,
            open: Arc::clone(&self.0.open_per_address),
        })
    }

    /// Creates a table in the lobby (the host takes seat 0) and starts its room.
    pub async fn create_table(&self, req: CreateTable) -> Result<TableCreated, Refusal> {
        let kind = self.0.games.get(&req.game).ok_or(Refusal::reason(
            ErrorCode::BadSettings,
            ErrorReason::UnknownGame,
        ))?;
        let NewTable { row, doc, token } =
            room::new_table(kind.as_ref(), &req.name, &req.settings)?;
        let try_again = || Refusal::new(ErrorCode::TryAgain);
        if let Err(e) = self.0.db.upsert_table(&row).await {
            tracing::warn!(error = %e, "creating a table failed");
            return Err(try_again());
        }
        let created = TableCreated {
            invite_code: row.invite_code.clone(),
            spectator_code: row.spectator_code.clone(),
            token,
        };
        let id = row.id;
        let hold = match &self.0.cluster {
            // A new table: nobody else knows it yet, so its lease is free.
            Some(cluster) => Some(
                cluster
                    .acquire(self.0.db.as_ref(), id)
                    .await
                    .map_err(|_| try_again())?,
            ),
            None => None,
        };
        self.spawn_room(
            RoomInit {
                table: row,
                doc,
                kind,
                game: None,
            },
            hold,
        )
        .map_err(|e| {
            tracing::error!(table = %id, error = %e, "starting a room failed");
            try_again()
        })?;
        tracing::info!(table = %id, "table created");
        Ok(created)
    }

    /// The inbox of a room in memory, and whether `code` is its spectator code.
    pub fn room_sender(&self, code: &str) -> Option<(mpsc::Sender<RoomMsg>, bool)> {
        self.0.rooms.get(code)
    }

    /// A fresh connection id.
    pub fn new_conn_id(&self) -> u64 {
        self.next_conn()
    }

    /// Asks every room to finish what is queued and stop.
    pub async fn shutdown_rooms(&self) {
        for tx in self.0.rooms.inboxes() {
            let (done, wait) = oneshot::channel();
            if tx.send(RoomMsg::Shutdown { done }).await.is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(10), wait).await;
            }
        }
    }
}

/// The router: HTTP API, WebSocket, health, metrics and the web client.
pub fn app(state: AppState) -> Router {
    http::routes()
        .merge(ws::routes())
        .fallback(web::serve)
        .layer(axum::middleware::from_fn(http::security_headers))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// Opens the store named by `config` and serves until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), StartError> {
    let metrics = Arc::new(metrics::Metrics::new());
    let cluster = match &config.nats_url {
        None => None,
        Some(nats_url) => {
            let postgres = config
                .database_url
                .as_deref()
                .is_some_and(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"));
            if !postgres {
                return Err(StartError::Config(
                    "cluster mode (NATS_URL) needs DATABASE_URL to name a Postgres database \
                     that every node shares"
                        .into(),
                ));
            }
            let cluster = Cluster::connect(nats_url, config.lease_ttl, Arc::clone(&metrics))
                .await
                .map_err(|e| StartError::Nats(format!("cannot connect to {nats_url}: {e}")))?;
            tracing::info!(node = %cluster.node_id, nats = %nats_url, lease_ttl_ms = config.lease_ttl.as_millis() as u64, "cluster mode");
            Some(Arc::new(cluster))
        }
    };
    if config.database_url.as_deref() == Some(MEMORY_STORE) {
        tracing::warn!("in-memory store: nothing survives a restart (benchmarks only)");
        let state = AppState::new(Arc::new(db::MemDb::default()), config);
        return serve_state(listener, state, shutdown).await;
    }
    let store = store::Store::open(config.database_url.as_deref(), &config.data_dir).await?;
    tracing::info!(store = store.kind(), "store open");
    let db: Arc<dyn Db> = Arc::new(StoreDb::new(store));
    serve_state(
        listener,
        AppState::with_cluster(db, config, metrics, cluster),
        shutdown,
    )
    .await
}

/// Serves with a given store: recovers unfinished games first, and on shutdown
/// stops accepting, then lets every room flush what it acknowledged.
pub async fn serve(
    listener: TcpListener,
    db: Arc<dyn Db>,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), StartError> {
    serve_state(listener, AppState::new(db, config), shutdown).await
}

/// Serves a node's state (see [`serve`]). In cluster mode it also renews the
/// node's leases, takes over the tables of nodes that are gone, and on shutdown
/// releases its leases once its rooms have stopped.
async fn serve_state(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), StartError> {
    state.delete_abandoned_tables().await;
    let n = state.recover().await?;
    let (renewer, taker, sharer) = match state.0.cluster.clone() {
        Some(cluster) => {
            let sharer = cluster::share_listing(Arc::clone(&cluster), Arc::clone(&state.0.rooms));
            let db = Arc::clone(&state.0.db);
            let renew_every = (cluster.ttl / 4).max(Duration::from_millis(10));
            let renewer = tokio::spawn(async move {
                let mut every = tokio::time::interval(renew_every);
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    every.tick().await;
                    cluster.renew_all(db.as_ref()).await;
                }
            });
            let claim_every = (state.0.config.lease_ttl / 2).max(Duration::from_millis(10));
            let taking = state.clone();
            let taker = tokio::spawn(async move {
                let mut every = tokio::time::interval(claim_every);
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    every.tick().await;
                    taking.take_over().await;
                }
            });
            (Some(renewer), Some(taker), Some(sharer))
        }
        None => (None, None, None),
    };
    let sweeper = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            every.tick().await;
            loop {
                every.tick().await;
                state.delete_abandoned_tables().await;
            }
        })
    };
    tracing::info!(tables = n, addr = ?listener.local_addr().ok(), "serving");
    listen::serve(listener, state.clone(), app(state.clone()), shutdown).await;
    sweeper.abort();
    if let Some(sharer) = sharer {
        sharer.abort();
    }
    if let Some(taker) = taker {
        taker.abort();
    }
    state.shutdown_rooms().await;
    if let Some(renewer) = renewer {
        renewer.abort();
    }
    if let Some(cluster) = &state.0.cluster {
        // The rooms have stopped and flushed: nothing writes under these leases now.
        let released = cluster.release_all(state.0.db.as_ref()).await;
        tracing::info!(tables = released, "table leases released");
    }
    tracing::info!("stopped");
    Ok(())
}
