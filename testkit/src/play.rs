//! Clients that play Big City through restarts and outages of the server or its
//! database (reconnecting with their seat tokens), what they saw ([`TableRec`]), and a
//! verifier that compares it with the committed log ([`verify_table`]).

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::client::{Client, GameView, NoMessage, UpdateError};
use crate::http::create_table;
use crate::{Rng, hash_value};

/// What all clients of one table saw.
#[derive(Default)]
pub struct TableRec {
    pub invite: String,
    pub spectate: String,
    /// Acknowledged moves: version after the move → (seat, move).
    pub acked: Mutex<BTreeMap<u64, (u64, Value)>>,
    /// (viewer, version, hash of the view the client rebuilt at that version).
    pub views: Mutex<Vec<(String, u64, u64)>>,
    /// Highest version any client saw (update or snapshot).
    pub max_seen: AtomicU64,
    /// Lowest version a snapshot may show in each epoch (set when the server is killed).
    pub floors: Mutex<HashMap<u64, u64>>,
    pub finished: AtomicBool,
    /// Broken promises found on the fly.
    pub violations: Mutex<Vec<String>>,
    pub try_again: AtomicU64,
    pub stale: AtomicU64,
    pub snapshots_after_restart: AtomicU64,
}

impl TableRec {
    fn violation(&self, s: String) {
        eprintln!("VIOLATION: {s}");
        self.violations.lock().unwrap().push(s);
    }
    fn saw(&self, version: u64) {
        self.max_seen.fetch_max(version, Ordering::SeqCst);
    }
}

/// What the clients share with the test's controller.
pub struct World {
    /// The current server address (`None` while it is down).
    pub addr: Mutex<Option<SocketAddr>>,
    /// Number of the current server process (0, 1, ...).
    pub epoch: AtomicU64,
    pub stop: AtomicBool,
    pub moves_sent: AtomicU64,
    pub reconnects: AtomicU64,
    /// Bumped to make every client drop its connection and reconnect.
    pub drops: AtomicU64,
    /// Seated clients say something every this many milliseconds (0: never).
    pub chat_every_ms: AtomicU64,
    pub chats: AtomicU64,
    /// Players mostly pick moves that bring the end closer (big buildings, new
    /// neighborhoods), so that games finish; otherwise uniformly random moves.
    pub progress_bias: AtomicBool,
}

impl World {
    pub fn new(addr: SocketAddr) -> Arc<World> {
        Arc::new(World {
            addr: Mutex::new(Some(addr)),
            epoch: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            moves_sent: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            drops: AtomicU64::new(0),
            chat_every_ms: AtomicU64::new(0),
            chats: AtomicU64::new(0),
            progress_bias: AtomicBool::new(false),
        })
    }
    fn url(&self, code: &str) -> Option<String> {
        self.addr
            .lock()
            .unwrap()
            .map(|a| format!("ws://{a}/ws/{code}"))
    }
}

/// Sends keeping under the server's rate limit (20 messages a second).
async fn paced(c: &mut Client, last: &mut tokio::time::Instant, v: &Value) -> bool {
    tokio::time::sleep_until(*last + Duration::from_millis(55)).await;
    *last = tokio::time::Instant::now();
    c.try_send(v).await
}

/// A client that keeps (re)connecting to its table and, when `seat` is set, plays
/// random legal moves with its seat token. Records what it sees in `rec`.
pub async fn play(
    world: Arc<World>,
    rec: Arc<TableRec>,
    seat: Option<u64>,
    token: Option<String>,
    seed: u64,
    max_pause_ms: u64,
) {
    let viewer = match seat {
        Some(s) => format!("seat:{s}"),
        None => "spectator".to_owned(),
    };
    let code = if seat.is_some() {
        rec.invite.clone()
    } else {
        rec.spectate.clone()
    };
    let mut rng = Rng::new(seed);
    let mut next_id = 1u64;
    let mut first = true;
    while !world.stop.load(Ordering::SeqCst) {
        let Some(url) = world.url(&code) else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let mut last_send = tokio::time::Instant::now();
        let Some(mut c) = Client::try_connect(&url).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let epoch = world.epoch.load(Ordering::SeqCst);
        let drops = world.drops.load(Ordering::SeqCst);
        let mut last_chat = tokio::time::Instant::now();
        if !first {
            world.reconnects.fetch_add(1, Ordering::SeqCst);
        }
        first = false;
        let name = if seat.is_some() { "Player" } else { "Watcher" };
        let hello = json!(Client::hello_msg(name, token.as_deref()));
        if !paced(&mut c, &mut last_send, &hello).await {
            continue;
        }
        // What this client knows of the game; `None` until a snapshot (again after a gap).
        let mut game: Option<GameView> = None;
        // The version of the latest snapshot or update (kept while `game` is `None`).
        let mut version = 0u64;
        let mut pending: HashMap<u64, (u64, Value)> = HashMap::new();
        let mut asked = false;
        let mut snapshot_seen = false;
        loop {
            if world.stop.load(Ordering::SeqCst) {
                return;
            }
            if world.drops.load(Ordering::SeqCst) != drops {
                c.close().await;
                break;
            }
            let every = world.chat_every_ms.load(Ordering::SeqCst);
            if seat.is_some() && every > 0 && last_chat.elapsed() >= Duration::from_millis(every) {
                last_chat = tokio::time::Instant::now();
                world.chats.fetch_add(1, Ordering::SeqCst);
                if !paced(
                    &mut c,
                    &mut last_send,
                    &json!({"type": "chat", "text": "still here"}),
                )
                .await
                {
                    break;
                }
            }
            let m = match c.next_within(Duration::from_secs(3)).await {
                Ok(m) => m,
                Err(NoMessage::Quiet) => {
                    // Quiet for a while: ask again (a lost answer, a retried store).
                    // A move still pending may yet be answered (a store call waits
                    // up to 5 s for a connection): the room answers in order, so
                    // its answer comes before the snapshot, which clears `pending`.
                    asked = false;
                    if !paced(&mut c, &mut last_send, &json!({"type": "resync"})).await {
                        break;
                    }
                    continue;
                }
                Err(NoMessage::Closed) => break,
            };
            match m["type"].as_str() {
                Some("snapshot") => {
                    let g = match GameView::from_snapshot(&m["game"]) {
                        Ok(g) => g,
                        Err(e) => {
                            rec.violation(format!("{viewer}: {e}"));
                            continue;
                        }
                    };
                    version = g.version;
                    if g.over {
                        rec.finished.store(true, Ordering::SeqCst);
                    }
                    if !snapshot_seen && epoch > 0 {
                        rec.snapshots_after_restart.fetch_add(1, Ordering::SeqCst);
                        let floor = rec.floors.lock().unwrap().get(&epoch).copied();
                        if let Some(floor) = floor
                            && version < floor
                        {
                            rec.violation(format!(
                                "{} {viewer}: after restart {epoch} the snapshot is at version {version}, but version {floor} was acknowledged before",
                                rec.invite
                            ));
                        }
                    }
                    snapshot_seen = true;
                    rec.saw(version);
                    rec.views
                        .lock()
                        .unwrap()
                        .push((viewer.clone(), version, hash_value(&g.view)));
                    game = Some(g);
                    pending.clear();
                    asked = false;
                }
                Some("update") => {
                    let Some(current) = game.as_mut() else {
                        continue;
                    };
                    if let Err(e) = current.apply_update(&m) {
                        if let UpdateError::Bad(_) = e {
                            rec.violation(format!("{viewer}: {e}"));
                        }
                        game = None;
                        let _ = paced(&mut c, &mut last_send, &json!({"type": "resync"})).await;
                        continue;
                    }
                    version = current.version;
                    if current.over {
                        rec.finished.store(true, Ordering::SeqCst);
                    }
                    rec.saw(version);
                    rec.views.lock().unwrap().push((
                        viewer.clone(),
                        version,
                        hash_value(&current.view),
                    ));
                }
                Some("move_ok") => {
                    let id = m["id"].as_u64().unwrap_or(0);
                    let v = m["version"].as_u64().unwrap_or(0);
                    match pending.remove(&id) {
                        Some((made_on, mv)) => {
                            if v != made_on + 1 {
                                rec.violation(format!(
                                    "{viewer}: move {id} made on {made_on} acknowledged at {v}"
                                ));
                            }
                            let mut acked = rec.acked.lock().unwrap();
                            if let Some(prev) = acked.get(&v)
                                && *prev != (seat.unwrap_or(u64::MAX), mv.clone())
                            {
                                rec.violation(format!(
                                    "two different moves acknowledged at version {v}"
                                ));
                            }
                            acked.insert(v, (seat.unwrap_or(u64::MAX), mv));
                            rec.saw(v);
                        }
                        None => rec.violation(format!("{viewer}: move_ok for unknown id {id}")),
                    }
                    asked = false;
                }
                Some("error") => {
                    match m["code"].as_str() {
                        Some("try_again") => {
                            rec.try_again.fetch_add(1, Ordering::SeqCst);
                            // The store is away: back off before trying again.
                            tokio::time::sleep(Duration::from_millis(300)).await;
                        }
                        Some("stale_version" | "not_your_turn") => {
                            rec.stale.fetch_add(1, Ordering::SeqCst);
                        }
                        other => {
                            rec.violation(format!("{viewer}: unexpected error {other:?}: {m}"))
                        }
                    }
                    if let Some(id) = m["id"].as_u64() {
                        pending.remove(&id);
                    }
                    asked = false;
                }
                Some("legal_moves") => {
                    asked = false;
                    let Some(s) = seat else { continue };
                    let lv = m["version"].as_u64().unwrap_or(u64::MAX);
                    let moves = m["moves"].as_array().cloned().unwrap_or_default();
                    if lv != version
                        || !game.as_ref().is_some_and(|g| g.awaiting.contains(&s))
                        || !pending.is_empty()
                        || moves.is_empty()
                    {
                        continue;
                    }
                    let mv = if world.progress_bias.load(Ordering::SeqCst) && rng.below(6) != 0 {
                        let best = moves.iter().map(progress_rank).max().unwrap_or(0);
                        let top: Vec<&Value> =
                            moves.iter().filter(|m| progress_rank(m) == best).collect();
                        top[rng.below(top.len() as u64) as usize].clone()
                    } else {
                        moves[rng.below(moves.len() as u64) as usize].clone()
                    };
                    if max_pause_ms > 0 {
                        tokio::time::sleep(rng.ms(0, max_pause_ms)).await;
                    }
                    let id = next_id;
                    next_id += 1;
                    pending.insert(id, (version, mv.clone()));
                    world.moves_sent.fetch_add(1, Ordering::SeqCst);
                    let msg = json!({"type": "move", "id": id, "version": version, "mv": mv});
                    if !paced(&mut c, &mut last_send, &msg).await {
                        break;
                    }
                    asked = true;
                    continue;
                }
                _ => {}
            }
            if let Some(s) = seat
                && !asked
                && pending.is_empty()
                && game.as_ref().is_some_and(|g| g.awaiting.contains(&s))
            {
                if !paced(&mut c, &mut last_send, &json!({"type": "legal_moves"})).await {
                    break;
                }
                asked = true;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// How much a Big City move brings the end of the game closer.
pub fn progress_rank(m: &Value) -> usize {
    match m["type"].as_str() {
        Some("build") => 10 + m["cells"].as_array().map_or(0, Vec::len),
        Some("place_neighborhood") => 8,
        Some("trade_offer" | "exchange") => 0,
        Some("streetcar") => 1,
        _ => 5,
    }
}

/// Who plays the third seat of a [`big_city_table`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ThirdSeat {
    /// A random bot, so the server moves for one seat by itself.
    Bot,
    /// A third player, so every turn waits for a client.
    Player,
}

/// Sets up a Big City table: seat 0 the host, seat 1 a second player, seat 2 as
/// `third` says; starts the game. Returns the table record and the players'
/// tokens, by seat.
pub async fn big_city_table(addr: SocketAddr, third: ThirdSeat) -> (Arc<TableRec>, Vec<String>) {
    let (invite, spectate, host_token) = create_table(
        addr,
        &json!({"game": "big-city", "name": "Ana",
                "settings": {"seats": 3, "options": {}, "spectators_allowed": true, "public": false}}),
    )
    .await;
    let url = format!("ws://{addr}/ws/{invite}");
    let mut host = Client::join(&url, "Ana", Some(&host_token)).await;
    let mut tokens = vec![host_token];
    let mut guests = Vec::new();
    let players = if third == ThirdSeat::Player { 3 } else { 2 };
    for seat in 1..players {
        let mut guest = Client::join(&url, "Bo", None).await;
        guest
            .send(&json!({"type": "take_seat", "seat": seat}))
            .await;
        let token = loop {
            let w = guest.recv_type("welcome").await;
            if let Some(t) = w["you"]["token"].as_str()
                && w["you"]["seat"] == seat
            {
                break t.to_owned();
            }
        };
        tokens.push(token);
        guests.push(guest);
    }
    if third == ThirdSeat::Bot {
        host.send(&json!({"type": "add_bot", "seat": 2, "level": "random"}))
            .await;
    }
    host.send(&json!({"type": "start"})).await;
    host.recv_type("snapshot").await;
    host.close().await;
    for guest in guests {
        guest.close().await;
    }
    let rec = Arc::new(TableRec {
        invite,
        spectate,
        ..TableRec::default()
    });
    (rec, tokens)
}

/// A Big City table (see [`big_city_table`]) with its clients playing: the
/// players and a spectator, each a [`play`] task. `seed` gives each client's seed
/// from its seat (`None`: the spectator).
pub async fn big_city_table_in_play(
    addr: SocketAddr,
    world: &Arc<World>,
    third: ThirdSeat,
    mut seed: impl FnMut(Option<u64>) -> u64,
    max_pause_ms: u64,
) -> (Arc<TableRec>, Vec<tokio::task::JoinHandle<()>>) {
    let (rec, tokens) = big_city_table(addr, third).await;
    let clients = tokens
        .into_iter()
        .enumerate()
        .map(|(seat, token)| (Some(seat as u64), Some(token)))
        .chain([(None, None)]);
    let tasks = clients
        .map(|(seat, token)| {
            tokio::spawn(play(
                world.clone(),
                rec.clone(),
                seat,
                token,
                seed(seat),
                max_pause_ms,
            ))
        })
        .collect();
    (rec, tasks)
}

/// Checks a table against the committed log: the log is contiguous, holds every
/// acknowledged move at its place and reaches every version a client saw, and every
/// view a client rebuilt equals the view of an independent replay of the log.
/// Returns the number of log entries.
pub async fn verify_table(store: &store::Store, rec: &TableRec) -> u64 {
    let violations = rec.violations.lock().unwrap().clone();
    assert!(
        violations.is_empty(),
        "{}: {} broken promises, first: {:?}",
        rec.invite,
        violations.len(),
        &violations[..violations.len().min(5)]
    );
    let table = store
        .table_by_code(&rec.invite)
        .await
        .expect("store")
        .expect("table stored");
    let (game, moves) = store
        .latest_game(table.id)
        .await
        .expect("store")
        .expect("game stored");
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.seq, i as i64, "the log has no gap");
    }
    let n = moves.len() as u64;
    let max_seen = rec.max_seen.load(Ordering::SeqCst);
    assert!(
        max_seen <= n,
        "{}: clients saw version {max_seen}, the log holds {n} entries",
        rec.invite
    );
    for (v, (seat, mv)) in rec.acked.lock().unwrap().iter() {
        let entry = &moves
            .get((*v - 1) as usize)
            .unwrap_or_else(|| panic!("acknowledged version {v} is not in the log ({n} entries)"))
            .entry;
        // A move picked from the legal list may carry what it would score (`points`):
        // advice for the player, not part of the move, so the log stores it without.
        let mut played = mv.clone();
        if let Some(fields) = played.as_object_mut() {
            fields.remove("points");
        }
        let logged = entry.to_value().expect("a logged entry");
        assert_eq!(
            logged,
            json!({"move": {"seat": seat, "mv": played}}),
            "the acknowledged move at version {v} is the logged one"
        );
    }
    // Replay independently and compare every view a client rebuilt.
    let kind = server::games::Registry::all()
        .get(&table.game)
        .expect("game kind");
    let setup: server::games::SetupDoc = serde_json::from_value(game.setup.clone()).expect("setup");
    let mut by_version: BTreeMap<u64, Vec<(String, u64)>> = BTreeMap::new();
    for (viewer, v, h) in rec.views.lock().unwrap().iter() {
        by_version.entry(*v).or_default().push((viewer.clone(), *h));
    }
    let mut state = kind.start(&setup).expect("setup replays");
    for v in 0..=n {
        if v > 0 {
            state = state
                .try_entry(&moves[(v - 1) as usize].entry)
                .unwrap_or_else(|e| panic!("entry {} replays: {e:?}", v - 1))
                .state;
        }
        if let Some(seen) = by_version.get(&v) {
            for (viewer, h) in seen {
                let who = match viewer.strip_prefix("seat:") {
                    Some(s) => engine::Viewer::Seat(s.parse().expect("seat")),
                    None => engine::Viewer::Spectator,
                };
                assert_eq!(
                    *h,
                    hash_value(&state.view(who)),
                    "{}: the view {viewer} rebuilt at version {v} is the replayed one",
                    rec.invite
                );
            }
        }
    }
    n
}
