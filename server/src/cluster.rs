//! Cluster mode: several nodes share one Postgres, each running the rooms of the
//! tables whose lease it holds (see the `store` crate's `lease` module).
//!
//! A node takes a table's lease when it creates the table or loads it into memory
//! (a client opening it, recovery at start, a takeover), and runs its room only
//! while it holds it: every write of the room carries the lease's [`Fence`]. The
//! renew loop extends the leases every quarter TTL; a lease that is lost (not
//! renewed in time, or refused as taken over) or a write refused as fenced drops
//! the room at once, and the room never writes again. The takeover loop claims
//! every half TTL the leases that lapsed (their node died or paused) or were
//! released (their node stopped), and loads those tables as recovery at start
//! does. On a graceful stop the node releases its leases once its rooms have
//! stopped, so others take its tables at their next claim.
//!
//! NATS connects nodes: it forwards clients' messages to a table's owner
//! (`forward`), and every node shares its public tables with the others
//! ([`share_listing`]), so the lobby lists every node's. While it is away the
//! node is not ready.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;
use uuid::Uuid;

use crate::db::{Db, Fence};
use crate::forward::Watches;
use crate::metrics::Metrics;

/// The default lease TTL.
pub const LEASE_TTL: Duration = Duration::from_millis(10_000);
/// Most leases claimed by one takeover round.
const CLAIM_LIMIT: u32 = 100;

/// This node in a cluster: its id, its leases and its NATS connection.
pub struct Cluster {
    /// A fresh UUID per process start (a lease held under an id is extended
    /// without a new epoch, which is only right within one run).
    pub node_id: String,
    pub ttl: Duration,
    nats: async_nats::Client,
    held: Mutex<HashMap<Uuid, Arc<Hold>>>,
    metrics: Arc<Metrics>,
    /// The shared streams of other nodes' tables this node's spectators watch.
    pub watches: Arc<Watches>,
}

/// One lease this node holds, shared by its room and the renew loop.
pub struct Hold {
    pub table_id: Uuid,
    pub epoch: i64,
    /// When the lease runs out on this node's clock, counted from the moment the
    /// acquire or renew that granted it was sent: the database's expiry is later.
    deadline: Mutex<Instant>,
    lost: AtomicBool,
    /// Wakes the room when the lease is lost.
    pub wake: Notify,
}

impl Hold {
    fn new(table_id: Uuid, epoch: i64, deadline: Instant) -> Hold {
        Hold {
            table_id,
            epoch,
            deadline: Mutex::new(deadline),
            lost: AtomicBool::new(false),
            wake: Notify::new(),
        }
    }

    /// The fence of the room's writes, or `None` once the lease is lost or its
    /// deadline passed (then [`Cluster::lost`] it).
    pub fn fence(&self) -> Option<Fence> {
        let expired = self.deadline.lock().map_or(true, |d| Instant::now() >= *d);
        (!expired && !self.is_lost()).then_some(Fence {
            table_id: self.table_id,
            epoch: self.epoch,
        })
    }

    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Marks the lease lost and wakes the room; `true` the first time.
    pub fn lose(&self) -> bool {
        let first = !self.lost.swap(true, Ordering::SeqCst);
        if first {
            self.wake.notify_one();
        }
        first
    }
}

/// Why a table could not be taken.
#[derive(Debug)]
pub enum TakeError {
    /// Another live node holds its lease.
    Elsewhere,
    /// The store did not answer.
    Store,
}

impl Cluster {
    /// Connects to NATS under a fresh node id.
    pub async fn connect(
        nats_url: &str,
        ttl: Duration,
        metrics: Arc<Metrics>,
    ) -> Result<Cluster, async_nats::ConnectError> {
        let node_id = Uuid::new_v4().to_string();
        let nats = async_nats::ConnectOptions::new()
            .name(format!("citytable {node_id}"))
            .connection_timeout(Duration::from_secs(5))
            // Forwarded sockets fail while the broker is away: try again soon after
            // it is back (the client's default backs off to 4 s), forever (the default).
            .reconnect_delay_callback(|attempts| {
                Duration::from_millis(100 * attempts.min(5) as u64)
            })
            .connect(nats_url)
            .await?;
        Ok(Cluster {
            node_id,
            ttl,
            nats,
            held: Mutex::default(),
            watches: Arc::default(),
            metrics,
        })
    }

    /// The broker connection, for forwarding.
    pub fn nats(&self) -> &async_nats::Client {
        &self.nats
    }

    /// Whether the NATS connection is up.
    pub fn nats_connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Acquires the table's lease for this node.
    pub async fn acquire(&self, db: &dyn Db, table_id: Uuid) -> Result<Arc<Hold>, TakeError> {
        let sent = Instant::now();
        match db.acquire_lease(table_id, &self.node_id, self.ttl).await {
            Ok(Some(epoch)) => Ok(Arc::new(Hold::new(table_id, epoch, sent + self.ttl))),
            Ok(None) => Err(TakeError::Elsewhere),
            Err(e) => {
                tracing::warn!(table = %table_id, error = %e, "taking a table's lease failed");
                Err(TakeError::Store)
            }
        }
    }

    /// Records a hold whose room now runs. A hold of the same table already
    /// recorded (an older epoch) is lost: its room must stop writing.
    pub fn record(&self, hold: &Arc<Hold>) {
        let previous = match self.held.lock() {
            Ok(mut held) => {
                let previous = held.insert(hold.table_id, Arc::clone(hold));
                self.metrics.tables_owned.set(held.len() as i64);
                previous
            }
            Err(_) => None,
        };
        if let Some(old) = previous
            && !Arc::ptr_eq(&old, hold)
            && old.lose()
        {
            self.metrics.leases_lost.inc();
        }
    }

    /// Forgets a hold (its room stopped); a newer hold of the table stays.
    pub fn forget(&self, hold: &Arc<Hold>) {
        if let Ok(mut held) = self.held.lock() {
            if held
                .get(&hold.table_id)
                .is_some_and(|h| Arc::ptr_eq(h, hold))
            {
                held.remove(&hold.table_id);
            }
            self.metrics.tables_owned.set(held.len() as i64);
        }
    }

    /// The hold of a table, if this node records one.
    pub fn hold_of(&self, table_id: Uuid) -> Option<Arc<Hold>> {
        self.held.lock().ok()?.get(&table_id).cloned()
    }

    fn holds(&self) -> Vec<Arc<Hold>> {
        match self.held.lock() {
            Ok(held) => held.values().cloned().collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Counts a lease lost and wakes its room.
    pub fn lost(&self, hold: &Hold, why: &str) {
        if hold.lose() {
            self.metrics.leases_lost.inc();
            tracing::warn!(table = %hold.table_id, epoch = hold.epoch, why, "table lease lost; its room stops");
        }
    }

    /// Gives a lease up (the room stopped writing).
    pub async fn release(&self, db: &dyn Db, hold: &Arc<Hold>) {
        self.forget(hold);
        if hold.is_lost() {
            return;
        }
        hold.lose();
        if let Err(e) = db
            .release_lease(hold.table_id, &self.node_id, hold.epoch)
            .await
        {
            tracing::warn!(table = %hold.table_id, error = %e, "releasing a table's lease failed");
        }
    }

    /// Releases every lease still held (at shutdown, after the rooms stopped).
    pub async fn release_all(&self, db: &dyn Db) -> usize {
        let holds = self.holds();
        let n = holds.len();
        for hold in holds {
            self.release(db, &hold).await;
        }
        n
    }

    /// One round of renewals, in one statement per thousand leases: a lease not
    /// renewed (taken over, released, or lapsed) is lost; when the store could not
    /// be asked, each is lost once its deadline passed.
    pub async fn renew_all(&self, db: &dyn Db) {
        let holds: Vec<Arc<Hold>> = self.holds().into_iter().filter(|h| !h.is_lost()).collect();
        if holds.is_empty() {
            return;
        }
        let held = holds.iter().map(|h| (h.table_id, h.epoch)).collect();
        let sent = Instant::now();
        match db.renew_leases(&self.node_id, held, self.ttl).await {
            Ok(renewed) => {
                for hold in &holds {
                    if !renewed.contains(&hold.table_id) {
                        self.lost(hold, "not renewed");
                    } else if let Ok(mut deadline) = hold.deadline.lock() {
                        *deadline = sent + self.ttl;
                    }
                }
            }
            Err(e) => {
                tracing::warn!(tables = holds.len(), error = %e, "renewing the tables' leases failed");
                for hold in holds.iter().filter(|h| h.fence().is_none()) {
                    self.lost(hold, "renewals failed until its expiry");
                }
            }
        }
    }

    /// Claims lapsed and released leases of tables in play, each with its hold.
    pub async fn claim(&self, db: &dyn Db) -> Vec<Arc<Hold>> {
        let sent = Instant::now();
        match db
            .claim_expired_leases(&self.node_id, self.ttl, CLAIM_LIMIT)
            .await
        {
            Ok(leases) => leases
                .into_iter()
                .map(|l| Arc::new(Hold::new(l.table_id, l.epoch, sent + self.ttl)))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, "claiming lapsed table leases failed");
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::extract::ws::Utf8Bytes;
    use protocol::ClientMsg;
    use serde_json::json;
    use tokio::sync::{mpsc, oneshot};

    use super::*;
    use crate::db::MemDb;
    use crate::room::{Outbox, RoomMsg};
    use crate::{AppState, Config};

    /// A node (a MemDb, a cluster and the state around them) with a table created
    /// on it, and a guest's socket in its room.
    struct OneTable {
        db: Arc<MemDb>,
        cluster: Arc<Cluster>,
        metrics: Arc<Metrics>,
        state: AppState,
        invite: String,
        table_id: Uuid,
        room: mpsc::Sender<RoomMsg>,
        out: Outbox,
        rx: mpsc::Receiver<Utf8Bytes>,
    }

    async fn one_table(ttl: Duration) -> OneTable {
        let metrics = Arc::new(Metrics::new());
        let Ok(cluster) =
            Cluster::connect("nats://127.0.0.1:4222", ttl, Arc::clone(&metrics)).await
        else {
            panic!("NATS for tests is not running at 127.0.0.1:4222");
        };
        let cluster = Arc::new(cluster);
        let db = Arc::new(MemDb::default());
        let config = Config {
            lease_ttl: ttl,
            tables_per_minute: 0.0,
            ..Config::default()
        };
        let state = AppState::with_cluster(
            db.clone(),
            config,
            Arc::clone(&metrics),
            Some(Arc::clone(&cluster)),
        );
        let req = serde_json::from_value(json!({"game": "tic-tac-toe", "name": "Host",
            "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": false}}))
        .expect("a table request");
        let created = state.create_table(req).await.expect("created");
        let (room, _) = state.room_sender(&created.invite_code).expect("in memory");
        let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(64);
        let out = Outbox::new(tx, Arc::new(Notify::new()));
        let (reply, joined) = oneshot::channel();
        let join = RoomMsg::Join {
            conn: 1,
            token: None,
            name: "Guest".into(),
            spectator_link: false,
            out: out.clone(),
            reply,
        };
        assert!(room.send(join).await.is_ok());
        assert_eq!(joined.await, Ok(true));
        while rx.try_recv().is_ok() {}
        let table_id = db
            .table_by_code(&created.invite_code)
            .await
            .expect("read")
            .expect("stored")
            .id;
        OneTable {
            db,
            cluster,
            metrics,
            state,
            invite: created.invite_code,
            table_id,
            room,
            out,
            rx,
        }
    }

    /// A lease the renew loop finds lapsed is lost: the room stops and closes its
    /// sockets, and the node owns nothing.
    #[tokio::test]
    async fn a_lease_not_renewed_drops_the_room() {
        let ttl = Duration::from_secs(60);
        let t = one_table(ttl).await;
        assert_eq!(t.metrics.tables_owned.get(), 1);
        t.cluster.renew_all(t.db.as_ref()).await;
        assert_eq!(t.metrics.leases_lost.get(), 0, "a live lease is renewed");
        t.db.advance_clock(ttl + Duration::from_secs(1));
        t.cluster.renew_all(t.db.as_ref()).await;
        tokio::time::timeout(Duration::from_secs(5), t.out.close.notified())
            .await
            .expect("the room closes its sockets");
        tokio::time::timeout(Duration::from_secs(5), t.room.closed())
            .await
            .expect("the room stops");
        assert!(t.state.room_sender(&t.invite).is_none());
        assert_eq!(t.metrics.leases_lost.get(), 1);
        assert_eq!(t.metrics.tables_owned.get(), 0);
        // The table is free for the next taker, under the next epoch.
        let claimed = t.db.claim_expired_leases("other", ttl, 10).await;
        assert_eq!(
            claimed.map(|c| c.iter().map(|l| (l.table_id, l.epoch)).collect::<Vec<_>>()),
            Ok(vec![(t.table_id, 2)])
        );
    }

    /// A write of a room whose table another node took over (its lease lapsed in the
    /// store while this node's own deadline had not passed) is refused by its fence:
    /// the room stops, closes its sockets and writes nothing more.
    #[tokio::test]
    async fn a_fenced_write_drops_the_room() {
        let ttl = Duration::from_secs(60);
        let mut t = one_table(ttl).await;
        let row =
            t.db.table_by_id(t.table_id)
                .await
                .expect("read")
                .expect("stored");
        let lease = t.db.lease(t.table_id).await.expect("lease").expect("taken");
        assert_eq!(
            (lease.node_id.as_str(), lease.epoch),
            (t.cluster.node_id.as_str(), 1)
        );
        assert_eq!(t.metrics.tables_owned.get(), 1);

        // Another node takes the table once the lease lapsed in the store.
        t.db.advance_clock(ttl + Duration::from_secs(1));
        assert_eq!(
            t.db.acquire_lease(t.table_id, "other", ttl).await,
            Ok(Some(2))
        );
        let take_seat = ClientMsg::decode(r#"{"type":"take_seat"}"#).expect("a message");
        let msg = RoomMsg::Client {
            conn: 1,
            msg: take_seat,
            received: Instant::now(),
        };
        assert!(t.room.send(msg).await.is_ok());
        tokio::time::timeout(Duration::from_secs(5), t.out.close.notified())
            .await
            .expect("the room closes its sockets");
        let refused = t.rx.recv().await.expect("an answer");
        assert!(
            refused.as_str().contains("try_again"),
            "{}",
            refused.as_str()
        );
        tokio::time::timeout(Duration::from_secs(5), t.room.closed())
            .await
            .expect("the room stops");
        assert!(t.state.room_sender(&t.invite).is_none());
        assert_eq!(t.metrics.leases_lost.get(), 1);
        assert_eq!(t.metrics.tables_owned.get(), 0);
        let after =
            t.db.table_by_id(t.table_id)
                .await
                .expect("read")
                .expect("stored");
        assert_eq!(after.doc, row.doc, "the seat was not taken");
    }
}

/// How often a node tells the others its public tables.
pub const LISTING_EVERY: Duration = Duration::from_secs(2);
/// Another node's public tables are forgotten when it has not told them for this
/// long (it stopped or died; its tables are listed again by their new owner).
pub const LISTING_KEPT: Duration = Duration::from_secs(7);
/// Most public tables one node tells per round (a lobby page is far smaller).
const LISTING_MOST: usize = 2000;
const LISTING_SUBJECT: &str = "citytable.listing";

/// One node's public tables, as it tells them.
#[derive(serde::Serialize, serde::Deserialize)]
struct Listing {
    node: String,
    tables: Vec<(Uuid, protocol::api::PublicTable)>,
}

/// Tells the other nodes this node's public tables every [`LISTING_EVERY`], and
/// keeps theirs in `rooms` for the lobby page. Runs until aborted.
pub fn share_listing(
    cluster: Arc<Cluster>,
    rooms: Arc<crate::room::Rooms>,
) -> tokio::task::JoinHandle<()> {
    use futures_util::StreamExt;
    tokio::spawn(async move {
        let mut heard = match cluster.nats.subscribe(LISTING_SUBJECT).await {
            Ok(heard) => heard,
            Err(e) => {
                tracing::warn!(error = %e, "other nodes' public tables cannot be listed");
                return;
            }
        };
        let mut every = tokio::time::interval(LISTING_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {
                    let tables = rooms.local(LISTING_MOST);
                    let listing = Listing { node: cluster.node_id.clone(), tables };
                    if let Ok(body) = serde_json::to_vec(&listing) {
                        let _ = cluster.nats.publish(LISTING_SUBJECT, body.into()).await;
                    }
                    rooms.forget_remote_older_than(LISTING_KEPT);
                }
                heard = heard.next() => match heard {
                    Some(msg) => {
                        if let Ok(listing) = serde_json::from_slice::<Listing>(&msg.payload)
                            && listing.node != cluster.node_id
                        {
                            rooms.set_remote(listing.node, listing.tables);
                        }
                    }
                    None => return,
                },
            }
        }
    })
}
