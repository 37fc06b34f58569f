//! Forwarding between nodes: a client connected to a node that does not own its
//! table plays through the owner's room, over NATS.
//!
//! The room itself does not know: on the owner, [`serve`] turns each forwarded
//! connection into an ordinary [`Outbox`] (whose frames it publishes back) and
//! ordinary [`RoomMsg`]s; on the node holding the socket, [`edge`] stands where
//! the room's inbox would be, so `ws.rs` runs its usual checks (frame size, rate
//! limits, JSON shape, `hello` first) before anything crosses the broker. Views
//! are still computed by the owner, per seat.
//!
//! Subjects: `citytable.room.<table>` carries a table's forwarded messages to its
//! owner (a `join` and each `ping` are requests, the rest plain publishes), and
//! `citytable.edge.<node>.<conn>.<owner>` carries one connection's frames back.
//! NATS keeps the order of one publisher's messages on a subject, so a
//! connection's messages reach the room in the order the client sent them, and
//! its frames reach the client in the order the room queued them.
//!
//! Spectators who came through the spectator link (and so can never take a seat)
//! all see the same frames: theirs travel on one subject per table,
//! `citytable.watch.<table>.<owner>`, each frame addressed to its recipients by
//! node. An update for every spectator of every node is one message; every node
//! holding some of them listens once per table ([`Watches`]) and hands each frame
//! to its own. Each spectator's own frames (its welcome, its snapshot, answers to
//! it) take the same subject, so its order holds too.
//!
//! One owner per connection: for a moment two nodes may serve a table's subject
//! (an old owner paused past its lease, not yet aware it lost it, and the new
//! one). Only a node whose lease is current answers; the answer to a join names
//! it, and from then on the edge addresses that node alone and takes frames from
//! it alone, so a client never sees two rooms' frames.
//!
//! Failures end the connection, never the table: when the owner stops answering
//! pings (it died, paused, or dropped the table) or the broker is unreachable,
//! the edge closes the socket and the client reconnects, to whichever node then
//! owns the table. A move that cannot be forwarded is refused with `try_again`:
//! it was not applied, and the client may send it again.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::{Client, connection::State as BrokerState};
use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use prometheus::IntCounter;
use protocol::{ClientMsg, ErrorCode};
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};
use uuid::Uuid;

use crate::OUT_QUEUE;
use crate::refusal::Refusal;
use crate::room::{Outbox, RoomMsg, Shared, SharedOut};

/// How often an edge asks the owner whether its connection is still served.
pub const PING_EVERY: Duration = Duration::from_secs(2);
/// How long an edge waits for the owner's answer to a join or a ping.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(3);
/// How many times, and how long apart, a join nobody answers is asked again.
const JOIN_RETRIES: u32 = 4;
const JOIN_RETRY_AFTER: Duration = Duration::from_millis(100);
/// A forwarded connection not pinged for this long is dropped by the owner (its
/// edge node is gone).
pub const LINK_SILENT_AFTER: Duration = Duration::from_secs(8);

/// The subject of a table's forwarded messages.
pub fn room_subject(table: Uuid) -> String {
    format!("citytable.room.{table}")
}

/// The subject of one forwarded connection's frames from `owner` (`*`: from any).
pub fn edge_subject(node: &str, conn: u64, owner: &str) -> String {
    format!("citytable.edge.{node}.{conn}.{owner}")
}

/// The subject of a table's shared stream to spectators on other nodes, from
/// `owner` (`*`: from any).
pub fn watch_subject(table: Uuid, owner: &str) -> String {
    format!("citytable.watch.{table}.{owner}")
}

/// The head of a message on a table's shared stream, before a newline and the
/// frame: its recipients' connection numbers by node, and whether it closes
/// their connections instead.
#[derive(Debug, Default, Serialize, Deserialize)]
struct WatchHead {
    to: BTreeMap<String, Vec<u64>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    close: bool,
}

/// What an edge sends to a table's owner. `edge` and `conn` name the connection
/// (the edge node's id and its own connection number); `owner`, the node that
/// answered its join.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
enum ToRoom {
    Join {
        edge: String,
        conn: u64,
        token: Option<String>,
        name: String,
        spectator_link: bool,
    },
    /// `msg`: the client's message as JSON, decoded again by the owner.
    Client {
        edge: String,
        conn: u64,
        owner: String,
        msg: String,
    },
    Ping {
        edge: String,
        conn: u64,
        owner: String,
    },
    Leave {
        edge: String,
        conn: u64,
        owner: String,
    },
}

/// A frame to the client starts with `F`; `C` alone says the owner closed the
/// connection (as a room closes a connection that does not keep up).
const FRAME: u8 = b'F';
const CLOSE: u8 = b'C';
/// Answers to a join (followed by the answering node's id) or a ping.
const YES: u8 = b'1';
const NO: u8 = b'0';

/// The inbox of a room on another node, for one client connection: `ws.rs` sends
/// it what it would send a local room.
pub fn edge(
    nats: Client,
    node: String,
    table: Uuid,
    watches: Arc<Watches>,
    sent: IntCounter,
) -> mpsc::Sender<RoomMsg> {
    let (tx, rx) = mpsc::channel(8);
    tokio::spawn(edge_link(nats, node, table, watches, rx, sent));
    tx
}

fn try_again(out: &Outbox, id: Option<u64>) {
    out.push(Refusal::new(ErrorCode::TryAgain).msg(id));
}

async fn edge_link(
    nats: Client,
    node: String,
    table: Uuid,
    watches: Arc<Watches>,
    mut inbox: mpsc::Receiver<RoomMsg>,
    sent: IntCounter,
) {
    let Some(RoomMsg::Join {
        conn,
        token,
        name,
        spectator_link,
        out,
        reply,
    }) = inbox.recv().await
    else {
        return;
    };
    let room = room_subject(table);
    // Subscribed before the join is sent: the room's first frames follow the join.
    let subscribed = async {
        let frames = nats.subscribe(edge_subject(&node, conn, "*")).await.ok()?;
        // A spectator admitted through the link gets its frames on the table's
        // shared stream instead.
        let watched = match spectator_link {
            true => Some(watches.watch(&nats, &node, table, conn).await?),
            false => None,
        };
        Some((frames, watched))
    };
    let Some((mut frames, mut watched)) = subscribed.await else {
        try_again(&out, None);
        let _ = reply.send(false);
        out.close.notify_one();
        return;
    };
    let join = ToRoom::Join {
        edge: node.clone(),
        conn,
        token,
        name,
        spectator_link,
    };
    // A table created a moment ago on another node may not serve its subject yet:
    // "nobody answers" is asked again a few times before the client is told to retry.
    let mut answer = ask(&nats, &room, &join).await;
    for _ in 0..JOIN_RETRIES {
        if answer != Err(Unanswered::Nobody) {
            break;
        }
        tokio::time::sleep(JOIN_RETRY_AFTER).await;
        answer = ask(&nats, &room, &join).await;
    }
    let Some((&flag, owner)) = answer.as_deref().ok().and_then(<[u8]>::split_first) else {
        let _ = reply.send(false);
        try_again(&out, None);
        out.close.notify_one();
        return;
    };
    let owner = String::from_utf8_lossy(owner).into_owned();
    let joined = flag == YES;
    let _ = reply.send(joined);
    if !joined {
        // The room said no and its frames say why.
        drain_frames(&mut frames, &owner, &out).await;
        return;
    }

    let mut ping = tokio::time::interval(PING_EVERY);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    ping.tick().await;
    let send = |msg: ToRoom| {
        let nats = nats.clone();
        let room = room.clone();
        async move { nats.publish(room, encode(&msg).into()).await.is_ok() }
    };
    loop {
        tokio::select! {
            msg = inbox.recv() => match msg {
                Some(RoomMsg::Client { msg, .. }) => {
                    let id = msg.move_id();
                    // While the broker is away a message would wait in the client
                    // library's buffer and reach the room late, unanswered: refuse it
                    // now instead, so the player knows to send it again.
                    let forwarded = nats.connection_state() == BrokerState::Connected
                        && match serde_json::to_string(&msg) {
                            Ok(msg) => {
                                let owner = owner.clone();
                                let forwarded = send(ToRoom::Client { edge: node.clone(), conn, owner, msg }).await;
                                if forwarded {
                                    sent.inc();
                                }
                                forwarded
                            }
                            Err(_) => false,
                        };
                    if !forwarded {
                        try_again(&out, id);
                    }
                }
                Some(RoomMsg::Join { reply, .. }) => {
                    let _ = reply.send(false);
                }
                Some(RoomMsg::Shutdown { done }) => {
                    let _ = done.send(());
                }
                Some(RoomMsg::Leave { .. }) | None => {
                    send(ToRoom::Leave { edge: node.clone(), conn, owner: owner.clone() }).await;
                    return;
                }
            },
            frame = frames.next() => match frame {
                Some(frame) => {
                    if from(&frame, &owner) && !relay(&frame.payload, &out) {
                        break;
                    }
                }
                None => break,
            },
            watched = next_watched(&mut watched) => match watched {
                Some((from, Some(frame))) if *from == *owner => {
                    if !out.push(frame) {
                        break;
                    }
                }
                // Closed by the owner.
                Some((from, None)) if *from == *owner => break,
                Some(_) => {}
                // Fell behind: its node stopped handing it frames.
                None => break,
            },
            _ = ping.tick() => {
                let ping = ToRoom::Ping { edge: node.clone(), conn, owner: owner.clone() };
                if ask(&nats, &room, &ping).await.as_deref() != Ok(&[YES][..]) {
                    // The owner is gone or dropped the table: the client reconnects
                    // and finds the new owner.
                    try_again(&out, None);
                    break;
                }
            }
        }
    }
    out.close.notify_one();
    // The socket closes; `ws.rs` still sends `Leave`, which tells the owner.
    while let Some(msg) = inbox.recv().await {
        if let RoomMsg::Leave { .. } = msg {
            send(ToRoom::Leave {
                edge: node.clone(),
                conn,
                owner,
            })
            .await;
            return;
        }
    }
}

/// The next frame of a spectator's shared stream (`None` inside: close), never
/// without one.
async fn next_watched(watched: &mut Option<Watched>) -> Option<WatchedFrame> {
    match watched {
        Some(watched) => watched.frames.recv().await,
        None => std::future::pending().await,
    }
}

/// Hands the frames the room sent before saying no (why it refused) to the client.
async fn drain_frames(frames: &mut async_nats::Subscriber, owner: &str, out: &Outbox) {
    while let Ok(Some(frame)) =
        tokio::time::timeout(Duration::from_millis(200), frames.next()).await
    {
        if from(&frame, owner) && !relay(&frame.payload, out) {
            break;
        }
    }
}

/// Whether a frame comes from the connection's owner (the last part of its subject).
fn from(frame: &async_nats::Message, owner: &str) -> bool {
    frame.subject.rsplit('.').next() == Some(owner)
}

/// Queues one frame from the owner for the client; `false` when the connection
/// is to close (the owner said so, or the client does not keep up).
fn relay(payload: &[u8], out: &Outbox) -> bool {
    match payload.split_first() {
        Some((&FRAME, text)) => match std::str::from_utf8(text) {
            Ok(text) => out.push(Utf8Bytes::from(text.to_owned())),
            Err(_) => false,
        },
        _ => false,
    }
}

/// Why a request to a table's owner got no answer.
#[derive(Debug, PartialEq)]
enum Unanswered {
    /// No node serves the table's subject (the broker said so at once).
    Nobody,
    /// Timed out, or the broker is unreachable.
    Late,
}

/// Sends a request to a table's owner and returns its answer.
async fn ask(nats: &Client, room: &str, msg: &ToRoom) -> Result<Vec<u8>, Unanswered> {
    let request = nats.request(room.to_owned(), encode(msg).into());
    match tokio::time::timeout(ANSWER_WITHIN, request).await {
        Ok(Ok(answer)) => Ok(answer.payload.to_vec()),
        Ok(Err(e)) if e.kind() == async_nats::RequestErrorKind::NoResponders => {
            Err(Unanswered::Nobody)
        }
        _ => Err(Unanswered::Late),
    }
}

fn encode(msg: &ToRoom) -> Vec<u8> {
    // Plain data: serializing it cannot fail.
    serde_json::to_vec(msg).unwrap_or_default()
}

/// One forwarded connection, as the owner knows it.
struct Link {
    /// The connection number the room knows it by (the owner's own).
    conn: u64,
    pinged: Instant,
}

/// Serves a table's forwarded connections on its owner, the node `node`:
/// subscribes to the table's subject and hands each connection's messages to
/// `room` as a local connection numbered by `next_conn`, while `current` says
/// the node's lease on the table holds. Ends when the room stops or the returned
/// task is aborted; the edges notice at their next ping.
pub async fn serve(
    nats: Client,
    node: String,
    table: Uuid,
    room: mpsc::Sender<RoomMsg>,
    next_conn: impl Fn() -> u64 + Send + 'static,
    current: impl Fn() -> bool + Send + 'static,
    sent: IntCounter,
) -> Result<JoinHandle<()>, async_nats::SubscribeError> {
    let mut requests = nats.subscribe(room_subject(table)).await?;
    // Once the broker has the subscription, a join sent from another node finds
    // this room rather than no responder.
    let _ = tokio::time::timeout(ANSWER_WITHIN, nats.flush()).await;
    let watchers = watch_pump(nats.clone(), watch_subject(table, &node), sent.clone());
    Ok(tokio::spawn(async move {
        let mut links: HashMap<(String, u64), Link> = HashMap::new();
        let mut sweep = tokio::time::interval(LINK_SILENT_AFTER / 2);
        sweep.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            let msg = tokio::select! {
                () = room.closed() => break,
                msg = requests.next() => match msg {
                    Some(msg) => msg,
                    None => break,
                },
                _ = sweep.tick() => {
                    let now = Instant::now();
                    let silent: Vec<_> = links
                        .iter()
                        .filter(|(_, l)| now.duration_since(l.pinged) > LINK_SILENT_AFTER)
                        .map(|(k, _)| k.clone())
                        .collect();
                    for key in silent {
                        if let Some(link) = links.remove(&key) {
                            let _ = room.send(RoomMsg::Leave { conn: link.conn }).await;
                        }
                    }
                    continue;
                }
            };
            // A node that lost the lease answers nothing: the new owner does, or
            // the edge gives up and its client reconnects.
            if !current() {
                continue;
            }
            let Ok(request) = serde_json::from_slice::<ToRoom>(&msg.payload) else {
                continue;
            };
            let answer = |body: Vec<u8>| {
                let nats = nats.clone();
                let reply = msg.reply.clone();
                async move {
                    if let Some(reply) = reply {
                        let _ = nats.publish(reply, body.into()).await;
                    }
                }
            };
            match request {
                ToRoom::Join {
                    edge,
                    conn,
                    token,
                    name,
                    spectator_link,
                } => {
                    let local = next_conn();
                    let mut out =
                        pump(nats.clone(), edge_subject(&edge, conn, &node), sent.clone());
                    if spectator_link {
                        out.shared = Some(SharedOut {
                            stream: watchers.clone(),
                            to: (Arc::from(edge.as_str()), conn),
                        });
                    }
                    let (reply, joined) = oneshot::channel();
                    let join = RoomMsg::Join {
                        conn: local,
                        token,
                        name,
                        spectator_link,
                        out,
                        reply,
                    };
                    let joined = room.send(join).await.is_ok() && joined.await.unwrap_or(false);
                    if joined {
                        let link = Link {
                            conn: local,
                            pinged: Instant::now(),
                        };
                        links.insert((edge, conn), link);
                    }
                    let mut body = vec![if joined { YES } else { NO }];
                    body.extend_from_slice(node.as_bytes());
                    answer(body).await;
                }
                // The table's current owner says no to a ping meant for another
                // node: that one is gone or no longer owns the table, and the
                // client had better reconnect now than wait for its silence.
                ToRoom::Ping { owner, .. } if owner != node => answer(vec![NO]).await,
                ToRoom::Client { owner, .. } | ToRoom::Leave { owner, .. } if owner != node => {}
                ToRoom::Client {
                    edge, conn, msg, ..
                } => {
                    let (Some(link), Ok(msg)) = (links.get(&(edge, conn)), ClientMsg::decode(&msg))
                    else {
                        continue;
                    };
                    let msg = RoomMsg::Client {
                        conn: link.conn,
                        msg,
                        received: Instant::now(),
                    };
                    if room.send(msg).await.is_err() {
                        break;
                    }
                }
                ToRoom::Ping { edge, conn, .. } => {
                    let known = match links.get_mut(&(edge, conn)) {
                        Some(link) => {
                            link.pinged = Instant::now();
                            true
                        }
                        None => false,
                    };
                    answer(vec![if known { YES } else { NO }]).await;
                }
                ToRoom::Leave { edge, conn, .. } => {
                    if let Some(link) = links.remove(&(edge, conn)) {
                        let _ = room.send(RoomMsg::Leave { conn: link.conn }).await;
                    }
                }
            }
        }
    }))
}

/// An outbox whose frames are published to a forwarded connection's subject, in order.
fn pump(nats: Client, subject: String, sent: IntCounter) -> Outbox {
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(OUT_QUEUE);
    let close = Arc::new(Notify::new());
    let closing = close.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                () = closing.notified() => {
                    let _ = nats.publish(subject, vec![CLOSE].into()).await;
                    return;
                }
                frame = rx.recv() => match frame {
                    Some(text) => {
                        let mut body = Vec::with_capacity(text.len() + 1);
                        body.push(FRAME);
                        body.extend_from_slice(text.as_bytes());
                        if nats.publish(subject.clone(), body.into()).await.is_err() {
                            return;
                        }
                        sent.inc();
                    }
                    None => return,
                },
            }
        }
    });
    Outbox::new(tx, close)
}

/// A table's shared stream on its owner: each item published once, to every
/// node holding some of its recipients.
fn watch_pump(nats: Client, subject: String, sent: IntCounter) -> mpsc::Sender<Shared> {
    // Shared by all of them: room for several joining at once, each with its
    // welcome, snapshot and the chat's history.
    let (tx, mut rx) = mpsc::channel::<Shared>(4 * OUT_QUEUE);
    tokio::spawn(async move {
        while let Some(item) = rx.recv().await {
            let mut head = WatchHead::default();
            let (to, frame) = match item {
                Shared::Frame { to, frame } => (to, Some(frame)),
                Shared::Close { to } => {
                    head.close = true;
                    (vec![to], None)
                }
            };
            for (node, conn) in to {
                head.to.entry(node.to_string()).or_default().push(conn);
            }
            let mut body = serde_json::to_vec(&head).unwrap_or_default();
            body.push(b'\n');
            if let Some(frame) = frame {
                body.extend_from_slice(frame.as_bytes());
            }
            if nats.publish(subject.clone(), body.into()).await.is_err() {
                return;
            }
            sent.inc();
        }
    });
    tx
}

/// The tables' shared streams this node listens to, and the spectators it hands
/// their frames to: one subscription per table, however many spectators.
#[derive(Default)]
pub struct Watches(Mutex<HashMap<Uuid, Watching>>);

struct Watching {
    spectators: HashMap<u64, mpsc::Sender<WatchedFrame>>,
    listener: JoinHandle<()>,
}

/// A frame of a shared stream for one spectator (`None`: close), with the node
/// that sent it.
type WatchedFrame = (Arc<str>, Option<Utf8Bytes>);

/// One spectator's frames from its table's shared stream, each with the node
/// that sent it (`None`: close); it stops listening when dropped.
struct Watched {
    frames: mpsc::Receiver<WatchedFrame>,
    watches: Arc<Watches>,
    table: Uuid,
    conn: u64,
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.watches.leave(self.table, self.conn);
    }
}

impl Watches {
    /// Starts handing the frames of `table`'s shared stream addressed to this
    /// node's connection `conn` to it; `None` when the broker cannot subscribe.
    async fn watch(
        self: &Arc<Self>,
        nats: &Client,
        node: &str,
        table: Uuid,
        conn: u64,
    ) -> Option<Watched> {
        let (tx, frames) = mpsc::channel(OUT_QUEUE);
        let watched = Watched {
            frames,
            watches: Arc::clone(self),
            table,
            conn,
        };
        if self.join(table, conn, &tx) {
            return Some(watched);
        }
        let subscriber = nats.subscribe(watch_subject(table, "*")).await.ok()?;
        let listener = tokio::spawn(Arc::clone(self).listen(node.to_owned(), table, subscriber));
        let mut tables = self.0.lock().ok()?;
        match tables.get_mut(&table) {
            // Another spectator of the table subscribed meanwhile: one is enough.
            Some(watching) => {
                listener.abort();
                watching.spectators.insert(conn, tx);
            }
            None => {
                let spectators = HashMap::from([(conn, tx)]);
                tables.insert(
                    table,
                    Watching {
                        spectators,
                        listener,
                    },
                );
            }
        }
        Some(watched)
    }

    /// Adds a spectator to a table this node already listens to.
    fn join(&self, table: Uuid, conn: u64, tx: &mpsc::Sender<WatchedFrame>) -> bool {
        let Ok(mut tables) = self.0.lock() else {
            return false;
        };
        match tables.get_mut(&table) {
            Some(watching) => {
                watching.spectators.insert(conn, tx.clone());
                true
            }
            None => false,
        }
    }

    /// A spectator left; the table's subscription ends with its last one.
    fn leave(&self, table: Uuid, conn: u64) {
        let Ok(mut tables) = self.0.lock() else {
            return;
        };
        if let Some(watching) = tables.get_mut(&table) {
            watching.spectators.remove(&conn);
            if watching.spectators.is_empty() {
                watching.listener.abort();
                tables.remove(&table);
            }
        }
    }

    async fn listen(
        self: Arc<Self>,
        node: String,
        table: Uuid,
        mut stream: async_nats::Subscriber,
    ) {
        while let Some(msg) = stream.next().await {
            let Some(owner) = msg.subject.rsplit('.').next() else {
                continue;
            };
            let payload = &msg.payload;
            let Some(split) = payload.iter().position(|&b| b == b'\n') else {
                continue;
            };
            let Ok(head) = serde_json::from_slice::<WatchHead>(&payload[..split]) else {
                continue;
            };
            let Some(conns) = head.to.get(&node) else {
                continue;
            };
            let frame = match head.close {
                true => None,
                false => match Utf8Bytes::try_from(payload.slice(split + 1..)) {
                    Ok(frame) => Some(frame),
                    Err(_) => continue,
                },
            };
            let owner: Arc<str> = Arc::from(owner);
            let Ok(mut tables) = self.0.lock() else {
                return;
            };
            let Some(watching) = tables.get_mut(&table) else {
                continue;
            };
            for conn in conns {
                let delivered = watching
                    .spectators
                    .get(conn)
                    .map(|tx| tx.try_send((owner.clone(), frame.clone())).is_ok());
                if delivered == Some(false) {
                    // It does not keep up: dropped, so its socket closes.
                    watching.spectators.remove(conn);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn counter() -> IntCounter {
        IntCounter::new("forwarded", "forwarded").expect("a counter")
    }

    async fn broker() -> Client {
        async_nats::connect(nats_url())
            .await
            .expect("NATS (TEST_NATS_URL)")
    }

    /// Serves `table` as the node `owner-1`, its lease current.
    async fn serving(owner: Client, table: Uuid, room: mpsc::Sender<RoomMsg>) -> JoinHandle<()> {
        serve(
            owner,
            "owner-1".into(),
            table,
            room,
            || 1,
            || true,
            counter(),
        )
        .await
        .expect("serve")
    }

    fn nats_url() -> String {
        std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into())
    }

    /// What the fake room saw, in order.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Join(u64, String),
        Client(u64, String),
        Leave(u64),
    }

    /// A room that welcomes every `hello` but from "nobody", echoes each message
    /// as a frame, and records what it saw.
    fn fake_room() -> (
        mpsc::Sender<RoomMsg>,
        mpsc::UnboundedReceiver<Seen>,
        JoinHandle<()>,
    ) {
        let (tx, mut rx) = mpsc::channel::<RoomMsg>(16);
        let (seen_tx, seen) = mpsc::unbounded_channel();
        let task = tokio::spawn(async move {
            let mut outs: HashMap<u64, Outbox> = HashMap::new();
            while let Some(msg) = rx.recv().await {
                match msg {
                    RoomMsg::Join {
                        conn,
                        name,
                        out,
                        reply,
                        ..
                    } => {
                        let welcome = name != "nobody";
                        out.push(Utf8Bytes::from(format!(
                            "{{\"type\":\"{}\"}}",
                            if welcome { "welcome" } else { "refused" }
                        )));
                        let _ = seen_tx.send(Seen::Join(conn, name));
                        if welcome {
                            outs.insert(conn, out);
                        }
                        let _ = reply.send(welcome);
                    }
                    RoomMsg::Client { conn, msg, .. } => {
                        let text = serde_json::to_string(&msg).unwrap_or_default();
                        if let Some(out) = outs.get(&conn) {
                            out.push(Utf8Bytes::from(format!("echo {text}")));
                        }
                        let _ = seen_tx.send(Seen::Client(conn, text));
                    }
                    RoomMsg::Leave { conn } => {
                        outs.remove(&conn);
                        let _ = seen_tx.send(Seen::Leave(conn));
                    }
                    RoomMsg::Shutdown { done } => {
                        let _ = done.send(());
                    }
                }
            }
        });
        (tx, seen, task)
    }

    /// A client connection as `ws.rs` makes one: its outbox and what it received.
    fn client_outbox() -> (Outbox, mpsc::Receiver<Utf8Bytes>, Arc<Notify>) {
        let (tx, rx) = mpsc::channel(OUT_QUEUE);
        let close = Arc::new(Notify::new());
        (Outbox::new(tx, close.clone()), rx, close)
    }

    async fn join(edge: &mpsc::Sender<RoomMsg>, conn: u64, name: &str, out: Outbox) -> bool {
        let (reply, answer) = oneshot::channel();
        let msg = RoomMsg::Join {
            conn,
            token: None,
            name: name.into(),
            spectator_link: false,
            out,
            reply,
        };
        edge.send(msg).await.expect("edge inbox");
        answer.await.unwrap_or(false)
    }

    async fn next_frame(rx: &mut mpsc::Receiver<Utf8Bytes>) -> String {
        let frame = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await;
        frame
            .expect("a frame in time")
            .expect("the connection is open")
            .to_string()
    }

    #[tokio::test]
    async fn a_forwarded_connection_joins_plays_in_order_and_leaves() {
        let owner = broker().await;
        let edge_node = broker().await;
        let table = Uuid::new_v4();
        let (room, mut seen, _room_task) = fake_room();
        let numbers = Arc::new(AtomicU64::new(100));
        let next = numbers.clone();
        let next_conn = move || next.fetch_add(1, Ordering::Relaxed);
        let (frames_sent, messages_sent) = (counter(), counter());
        let _serving = serve(
            owner,
            "owner-1".into(),
            table,
            room,
            next_conn,
            || true,
            frames_sent.clone(),
        )
        .await
        .expect("serve");

        let edge = edge(
            edge_node,
            "edge-a".into(),
            table,
            Arc::default(),
            messages_sent.clone(),
        );
        let (out, mut frames, _close) = client_outbox();
        assert!(join(&edge, 7, "Ana", out).await, "joined through the owner");
        assert_eq!(
            seen.recv().await,
            Some(Seen::Join(100, "Ana".into())),
            "the room knows it by its own number"
        );
        assert_eq!(next_frame(&mut frames).await, r#"{"type":"welcome"}"#);

        let chats: Vec<ClientMsg> = (0..20)
            .map(|i| ClientMsg::Chat {
                text: format!("hi {i}"),
            })
            .collect();
        for msg in &chats {
            edge.send(RoomMsg::Client {
                conn: 7,
                msg: msg.clone(),
                received: Instant::now(),
            })
            .await
            .expect("edge inbox");
        }
        for msg in &chats {
            let text = serde_json::to_string(msg).expect("json");
            assert_eq!(
                seen.recv().await,
                Some(Seen::Client(100, text.clone())),
                "in the order sent"
            );
            assert_eq!(
                next_frame(&mut frames).await,
                format!("echo {text}"),
                "frames back in order"
            );
        }
        assert_eq!(
            messages_sent.get(),
            20,
            "the client's messages, counted by its node"
        );
        assert_eq!(
            frames_sent.get(),
            21,
            "the welcome and the echoes, counted by the owner"
        );
        edge.send(RoomMsg::Leave { conn: 7 })
            .await
            .expect("edge inbox");
        assert_eq!(seen.recv().await, Some(Seen::Leave(100)));
    }

    #[tokio::test]
    async fn a_refused_join_says_why_and_goes_no_further() {
        let owner = broker().await;
        let edge_node = broker().await;
        let table = Uuid::new_v4();
        let (room, mut seen, _room_task) = fake_room();
        let _served = serving(owner, table, room).await;
        let edge = edge(edge_node, "edge-b".into(), table, Arc::default(), counter());
        let (out, mut frames, _close) = client_outbox();
        assert!(!join(&edge, 1, "nobody", out).await);
        assert_eq!(seen.recv().await, Some(Seen::Join(1, "nobody".into())));
        assert_eq!(
            next_frame(&mut frames).await,
            r#"{"type":"refused"}"#,
            "the room's reason reaches the client"
        );
    }

    #[tokio::test]
    async fn a_join_waits_a_moment_for_a_table_just_created_elsewhere() {
        let (owner, edge_node) = (broker().await, broker().await);
        let table = Uuid::new_v4();
        let (room, mut seen, _room_task) = fake_room();
        let edge = edge(edge_node, "edge-f".into(), table, Arc::default(), counter());
        let (out, mut frames, _close) = client_outbox();
        // The owner starts serving the table a little after the join was sent.
        let late = tokio::spawn(async move {
            tokio::time::sleep(JOIN_RETRY_AFTER * 2 + Duration::from_millis(50)).await;
            // Kept until the test ends: dropping the handle does not stop serving.
            let _served = serving(owner, table, room).await;
            std::future::pending::<()>().await;
        });
        assert!(
            join(&edge, 1, "Ana", out).await,
            "joined once the owner serves"
        );
        assert_eq!(seen.recv().await, Some(Seen::Join(1, "Ana".into())));
        assert_eq!(next_frame(&mut frames).await, r#"{"type":"welcome"}"#);
        late.abort();
    }

    #[tokio::test]
    async fn without_an_owner_the_client_is_told_to_try_again() {
        let edge_node = broker().await;
        let edge = edge(
            edge_node,
            "edge-c".into(),
            Uuid::new_v4(),
            Arc::default(),
            counter(),
        );
        let (out, mut frames, close) = client_outbox();
        let closed = close.notified();
        assert!(!join(&edge, 1, "Ana", out).await);
        assert!(next_frame(&mut frames).await.contains("try_again"));
        tokio::time::timeout(Duration::from_secs(1), closed)
            .await
            .expect("the socket is closed");
    }

    #[tokio::test]
    async fn when_the_owner_stops_serving_the_edge_closes_the_connection() {
        let owner = broker().await;
        let edge_node = broker().await;
        let table = Uuid::new_v4();
        let (room, _seen, _room_task) = fake_room();
        let served = serving(owner, table, room).await;
        let edge = edge(edge_node, "edge-d".into(), table, Arc::default(), counter());
        let (out, mut frames, close) = client_outbox();
        let closed = close.notified();
        tokio::pin!(closed);
        closed.as_mut().enable();
        assert!(join(&edge, 1, "Ana", out).await);
        assert_eq!(next_frame(&mut frames).await, r#"{"type":"welcome"}"#);
        // The node lost the table.
        served.abort();
        tokio::time::timeout(PING_EVERY + ANSWER_WITHIN + Duration::from_secs(2), closed)
            .await
            .expect("the edge closes the socket: the client reconnects to the new owner");
        assert!(next_frame(&mut frames).await.contains("try_again"));
    }

    #[tokio::test]
    async fn a_connection_keeps_to_the_owner_that_took_it_until_that_one_lets_go() {
        let (old_nats, new_nats, edge_nats) = (broker().await, broker().await, broker().await);
        let table = Uuid::new_v4();
        let (old_room, mut old_seen, _old_task) = fake_room();
        let old_holds = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let holds = old_holds.clone();
        let _old = serve(
            old_nats,
            "old".into(),
            table,
            old_room,
            || 1,
            move || holds.load(Ordering::SeqCst),
            counter(),
        )
        .await
        .expect("serve");

        let edge = edge(edge_nats, "edge-e".into(), table, Arc::default(), counter());
        let (out, mut frames, close) = client_outbox();
        let closed = close.notified();
        tokio::pin!(closed);
        closed.as_mut().enable();
        assert!(join(&edge, 1, "Ana", out).await);
        assert_eq!(old_seen.recv().await, Some(Seen::Join(1, "Ana".into())));
        assert_eq!(next_frame(&mut frames).await, r#"{"type":"welcome"}"#);

        // A new owner serves the table too; the old one has not noticed yet.
        let (new_room, mut new_seen, _new_task) = fake_room();
        let _new = serve(
            new_nats,
            "new".into(),
            table,
            new_room,
            || 2,
            || true,
            counter(),
        )
        .await
        .expect("serve");
        let hi = ClientMsg::Chat { text: "hi".into() };
        edge.send(RoomMsg::Client {
            conn: 1,
            msg: hi.clone(),
            received: Instant::now(),
        })
        .await
        .expect("edge inbox");
        let text = serde_json::to_string(&hi).expect("json");
        assert_eq!(
            old_seen.recv().await,
            Some(Seen::Client(1, text.clone())),
            "the connection's owner gets it"
        );
        assert_eq!(next_frame(&mut frames).await, format!("echo {text}"));

        // The old owner learns it lost the lease: it answers nothing more, the new
        // owner says no to the next ping, and the edge closes the socket at once
        // rather than wait out the old one's silence or talk to a second room.
        old_holds.store(false, Ordering::SeqCst);
        edge.send(RoomMsg::Client {
            conn: 1,
            msg: hi,
            received: Instant::now(),
        })
        .await
        .expect("edge inbox");
        tokio::time::timeout(PING_EVERY + Duration::from_millis(800), closed)
            .await
            .expect("the client is sent to reconnect");
        assert!(
            new_seen.try_recv().is_err(),
            "the new room never saw this connection"
        );
    }
}
