//! Rooms driven in process: turn timers under tokio's paused clock (no sleeps),
//! a connection that does not read; and a store that fails: nothing is applied
//! or acknowledged, and a bot's turn waits until the store is back.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use engine::BotLevel;
use protocol::api::{CreateTable, TableCreated};
use protocol::{ClientMsg, StandIn, TableSettings};
use serde_json::{Value, json};
use server::db::{Db, MemDb};
use server::room::{Outbox, RoomMsg};
use server::{AppState, Config};
use testkit::server::TestServer;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;

/// A connection made of channels, talking to a room directly.
struct Conn {
    id: u64,
    room: mpsc::Sender<RoomMsg>,
    rx: mpsc::Receiver<Utf8Bytes>,
}

impl Conn {
    async fn join(app: &AppState, code: &str, name: &str, token: Option<String>) -> Conn {
        let (room, spectator_link) = app.room_sender(code).expect("room");
        let (tx, rx) = mpsc::channel(1024);
        let id = app.new_conn_id();
        let (reply, joined) = oneshot::channel();
        room.send(RoomMsg::Join {
            conn: id,
            token,
            name: name.to_owned(),
            spectator_link,
            out: Outbox::new(tx, Arc::new(Notify::new())),
            reply,
        })
        .await
        .expect("room alive");
        assert!(joined.await.expect("reply"));
        Conn { id, room, rx }
    }

    async fn send(&self, msg: Value) {
        let msg: ClientMsg = serde_json::from_value(msg).expect("client message");
        self.room
            .send(RoomMsg::Client {
                conn: self.id,
                msg,
                received: Instant::now(),
            })
            .await
            .expect("room alive");
    }

    async fn recv(&mut self) -> Value {
        let m = self.rx.recv().await.expect("room keeps the connection");
        serde_json::from_str(m.as_str()).expect("JSON")
    }

    async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] == ty {
                return m;
            }
        }
    }
}

fn settings(turn_seconds: Option<u32>) -> TableSettings {
    TableSettings {
        seats: 2,
        options: json!({}),
        turn_seconds,
        time_bank_seconds: None,
        spectators_allowed: true,
        public: false,
        stand_in: None,
    }
}

/// A two-seat tic-tac-toe table hosted by "Host".
async fn tic_tac_toe_table(app: &AppState, settings: TableSettings) -> TableCreated {
    app.create_table(CreateTable {
        game: "tic-tac-toe".into(),
        settings,
        name: "Host".into(),
    })
    .await
    .expect("table")
}

/// The server's configuration, with bots that move at once.
fn bots_at_once() -> Config {
    Config {
        bot_delay: Duration::ZERO,
        ..Config::default()
    }
}

#[tokio::test(start_paused = true)]
async fn timeouts_mark_away_and_a_bot_takes_over() {
    let db = Arc::new(MemDb::default());
    let app = AppState::new(db.clone(), bots_at_once());
    let created = tic_tac_toe_table(&app, settings(Some(5))).await;
    let mut host = Conn::join(
        &app,
        &created.invite_code,
        "Host",
        Some(created.token.clone()),
    )
    .await;
    let guest = Conn::join(&app, &created.invite_code, "Guest", None).await;
    guest.send(json!({"type": "take_seat"})).await;
    host.send(json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await;
    let first = snap["game"]["awaiting"]["seats"][0].as_u64().unwrap();
    assert_eq!(snap["game"]["awaiting"]["timer_ms"], 5000);
    let started = Instant::now();

    // Nobody moves: each turn times out after 5 s of (paused, auto-advanced) time.
    let mut handed = false;
    let outcome = loop {
        let m = host.recv().await;
        match m["type"].as_str() {
            Some("table") => {
                let seat = &m["table"]["seats"][first as usize]["occupant"];
                if seat["away"] == true && !handed {
                    // Three timed-out turns in a row: the host hands the seat to a bot.
                    assert!(started.elapsed() >= Duration::from_secs(25));
                    host.send(json!({"type": "add_bot", "seat": first, "level": "greedy"}))
                        .await;
                    handed = true;
                }
            }
            Some("update") => {
                if let Some(o) = m.get("outcome") {
                    break o.clone();
                }
            }
            _ => {}
        }
    };
    assert!(handed, "the first seat was marked away");
    // The log: five timeouts (the first seat's third is the fifth entry, then
    // the other seat's third), then the bot's winning move for the first seat.
    let table = db
        .table_by_code(&created.invite_code)
        .await
        .unwrap()
        .unwrap();
    let (_, moves) = db.latest_game(table.id).await.unwrap().unwrap();
    let kinds: Vec<&str> = moves
        .iter()
        .map(|m| {
            if m.entry.to_value().unwrap().get("timeout").is_some() {
                "timeout"
            } else {
                "move"
            }
        })
        .collect();
    assert_eq!(
        kinds,
        ["timeout"; 6]
            .iter()
            .chain(["move"].iter())
            .copied()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        moves[6].entry.to_value().unwrap()["move"]["seat"].as_u64(),
        Some(first)
    );
    assert_eq!(outcome["winners"], json!([first]));
    // Six turns ran out, 5 s each, in virtual time.
    assert!(started.elapsed() >= Duration::from_secs(30));
    assert!(started.elapsed() < Duration::from_secs(31));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_store_applies_and_acknowledges_nothing() {
    let mem = Arc::new(MemDb::default());
    let db = mem.clone();
    let srv = TestServer::start_with(move || async move { db as Arc<dyn Db> }, false).await;
    let (invite, _, token) = srv.create_table("tic-tac-toe", 2, false).await;
    let mut host = srv.join(&invite, "Host", Some(&token)).await;
    let mut guest = srv.join(&invite, "Guest", None).await;
    guest.send(&json!({"type": "take_seat"})).await;
    guest.recv_type("welcome").await;
    host.send(&json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await["game"].clone();
    let mover = if snap["awaiting"]["seats"][0] == 0 {
        &mut host
    } else {
        &mut guest
    };
    mem.set_failing(true);
    let (status, _) = srv.get_text("/readyz").await;
    assert_eq!(status, 503);
    mover
        .send(&json!({"type": "move", "id": 1, "version": 0, "mv": {"cell": 4}}))
        .await;
    let e = mover.recv_type("error").await;
    assert_eq!(e["code"], "try_again");
    assert_eq!(e["id"], 1);
    mover
        .send(&json!({"type": "chat", "text": "still here"}))
        .await;
    mover.recv_type("chat").await;
    let now = mover.snapshot().await;
    assert_eq!(now["version"], 0, "nothing applied");
    assert_eq!(now["view"], snap["view"]);
    mem.set_failing(false);
    let (status, _) = srv.get_text("/readyz").await;
    assert_eq!(status, 200);
    mover
        .send(&json!({"type": "move", "id": 2, "version": 0, "mv": {"cell": 4}}))
        .await;
    let ok = mover.recv_type("move_ok").await;
    assert_eq!(ok["version"], 1);
    let (status, metrics) = srv.get_text("/metrics").await;
    assert_eq!(status, 200);
    assert!(metrics.contains("citytable_moves_total 1"), "{metrics}");
    assert!(metrics.contains("citytable_store_commit_seconds_count 1"));
    if cfg!(all(target_os = "linux", target_env = "gnu")) {
        // The allocator's figures, to tell state kept alive from fragmentation.
        let in_use: u64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix("citytable_heap_in_use_bytes ")?.parse().ok())
            .expect("heap in use reported");
        assert!(in_use > 0, "{metrics}");
        assert!(metrics.contains("citytable_heap_free_bytes "), "{metrics}");
    }
    let (status, health) = srv.get_text("/healthz").await;
    assert_eq!((status, health.as_str()), (200, "ok"));
    srv.stop().await;
}

#[tokio::test(start_paused = true)]
async fn a_bots_turn_waits_out_a_failing_store() {
    let mem = Arc::new(MemDb::default());
    let app = AppState::new(
        mem.clone(),
        Config {
            bot_delay: Duration::from_secs(2),
            ..Config::default()
        },
    );
    let created = tic_tac_toe_table(&app, settings(None)).await;
    let mut host = Conn::join(&app, &created.invite_code, "Host", Some(created.token)).await;
    host.send(json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(json!({"type": "start"})).await;
    let snap = host.recv_type("snapshot").await;
    let mut version = 0;
    if snap["game"]["awaiting"]["seats"][0] == 0 {
        host.send(json!({"type": "move", "id": 1, "version": 0, "mv": {"cell": 4}}))
            .await;
        version = host.recv_type("move_ok").await["version"].as_u64().unwrap();
    }
    // The bot is due in 2 s; the store goes away first.
    mem.set_failing(true);
    tokio::time::sleep(Duration::from_secs(10)).await;
    while let Ok(m) = host.rx.try_recv() {
        let m: Value = serde_json::from_str(m.as_str()).unwrap();
        assert_ne!(
            m["type"], "update",
            "nothing is applied while the store fails"
        );
    }
    mem.set_failing(false);
    // The bot's retry lands once the store is back, exactly once.
    let update = tokio::time::timeout(Duration::from_secs(60), host.recv_type("update"))
        .await
        .expect("the bot moves once the store is back");
    assert_eq!(update["version"], version + 1);
    let table = mem
        .table_by_code(&created.invite_code)
        .await
        .unwrap()
        .unwrap();
    let (_, moves) = mem.latest_game(table.id).await.unwrap().unwrap();
    assert_eq!(moves.len() as u64, version + 1);
    assert_eq!(
        moves[version as usize].entry.to_value().unwrap()["move"]["seat"],
        1
    );
}

#[tokio::test]
async fn a_connection_that_does_not_read_is_closed_and_play_goes_on() {
    let app = AppState::new(Arc::new(MemDb::default()), bots_at_once());
    let created = tic_tac_toe_table(&app, settings(None)).await;
    let mut host = Conn::join(
        &app,
        &created.invite_code,
        "Host",
        Some(created.token.clone()),
    )
    .await;
    // A spectator whose queue holds two messages and who never reads.
    let (room, spectator_link) = app.room_sender(&created.spectator_code).expect("room");
    assert!(spectator_link);
    let (tx, _never_read) = mpsc::channel(2);
    let close = Arc::new(Notify::new());
    let (reply, joined) = oneshot::channel();
    room.send(RoomMsg::Join {
        conn: app.new_conn_id(),
        token: None,
        name: "Sleepy".into(),
        spectator_link,
        out: Outbox::new(tx, close.clone()),
        reply,
    })
    .await
    .expect("room alive");
    assert!(joined.await.expect("reply"));
    host.send(json!({"type": "kick", "seat": 0})).await;
    host.send(json!({"type": "add_bot", "seat": 0, "level": "random"}))
        .await;
    host.send(json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(json!({"type": "start"})).await;
    // The room tells the slow connection's writer to close...
    tokio::time::timeout(Duration::from_secs(20), close.notified())
        .await
        .expect("the slow connection is closed");
    // ...and the game goes on to its end for everyone else.
    loop {
        let m = host.recv().await;
        if m["type"] == "update" && m.get("outcome").is_some() {
            break;
        }
    }
    let table = host.recv_type("table").await;
    assert_eq!(table["table"]["spectators"], 1, "only the host watches now");
}

/// A running game as the store holds it after a crash: a random bot in seat 0,
/// Bo in seat 1 (his token is returned with the invite code), and the log with
/// the time of each entry.
async fn stored_game(
    db: &MemDb,
    game: &str,
    settings: TableSettings,
    setup: Value,
    started_at_ms: i64,
    log: &[(Value, i64)],
) -> (String, String) {
    use server::db::{GameRow, MoveRow, TableRow};
    use server::room::{PlayerDoc, SeatDoc, TableDoc};
    let token = "a-token-of-seat-one".to_owned();
    let hash = server::codes::hash_token(&token);
    let doc = TableDoc {
        settings,
        host: hash.clone(),
        players: vec![PlayerDoc {
            token_hash: hash.clone(),
            name: "Bo".into(),
            webhook: None,
        }],
        seats: vec![
            SeatDoc::Bot {
                level: engine::BotLevel::Random,
            },
            SeatDoc::Human {
                token_hash: hash,
                away: false,
            },
        ],
    };
    let table = TableRow {
        id: uuid::Uuid::new_v4(),
        game: game.into(),
        invite_code: server::codes::new_code(),
        spectator_code: server::codes::new_code(),
        status: protocol::TableStatus::Playing,
        public: false,
        doc: serde_json::to_value(&doc).unwrap(),
        updated_at_ms: server::now_ms(),
    };
    let row = GameRow {
        id: uuid::Uuid::new_v4(),
        table_id: table.id,
        number: 1,
        setup,
        started_at_ms,
        outcome: None,
    };
    db.upsert_table(&table).await.unwrap();
    db.insert_game(&row).await.unwrap();
    for (seq, (entry, at_ms)) in log.iter().enumerate() {
        db.append(MoveRow {
            game_id: row.id,
            seq: seq as i64,
            entry: protocol::RawJson::of(entry).unwrap(),
            at_ms: *at_ms,
        })
        .await
        .unwrap();
    }
    (table.invite_code, token)
}

/// A server started on `db` recovers its one game; Bo comes back to it. His
/// connection and his first snapshot.
async fn restarted(db: &Arc<MemDb>, invite: &str, token: String) -> (Conn, Value) {
    let app = AppState::new(db.clone(), bots_at_once());
    assert_eq!(app.recover().await.unwrap(), 1);
    let mut bo = Conn::join(&app, invite, "", Some(token)).await;
    let snap = bo.recv_type("snapshot").await;
    (bo, snap)
}

/// A tic-tac-toe game whose one entry was logged `ago_ms` before the restart,
/// with a 30 s turn timer.
async fn crashed_game(db: &MemDb, ago_ms: i64) -> (String, String) {
    let now = server::now_ms();
    stored_game(
        db,
        "tic-tac-toe",
        settings(Some(30)),
        json!({"seats": 2, "seed": 7, "options": {}, "first_seat": 0, "names": ["Bot", "Bo"]}),
        now - 60_000,
        &[(
            json!({"move": {"seat": 0, "mv": {"cell": 4}}}),
            now - ago_ms,
        )],
    )
    .await
}

#[tokio::test(start_paused = true)]
async fn timers_resume_with_the_time_left_after_a_restart() {
    for (ago_ms, left_ms) in [(8_000, 22_000), (29_000, 10_000)] {
        let db = Arc::new(MemDb::default());
        let (invite, token) = crashed_game(&db, ago_ms).await;
        let (mut bo, snap) = restarted(&db, &invite, token).await;
        assert_eq!(snap["game"]["version"], 1);
        assert_eq!(snap["game"]["awaiting"]["seats"], json!([1]));
        let timer = snap["game"]["awaiting"]["timer_ms"].as_u64().unwrap();
        // Wall-clock milliseconds pass between writing the rows and recovering.
        assert!(
            (left_ms - 1_000..=left_ms).contains(&timer),
            "{ago_ms} ms ago: {timer} ms left"
        );
        let started = Instant::now();
        let update = bo.recv_type("update").await;
        assert_eq!(update["version"], 2, "the turn timed out");
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(timer) && waited <= Duration::from_millis(left_ms));
    }
}

/// A table with a time bank (60 s a turn, a 120 s reserve): Bo took 100 s
/// over his first move (40 s from his reserve), the bot 5 s; after a restart
/// the banks are found again from the log, and Bo's turn gives him the turn's
/// time and his 80 s reserve, counted from when it began.
#[tokio::test(start_paused = true)]
async fn time_banks_are_found_again_after_a_restart_and_extend_the_turn() {
    let now = server::now_ms();
    let db = Arc::new(MemDb::default());
    let (invite, token) = stored_game(
        &db,
        "tic-tac-toe",
        TableSettings {
            time_bank_seconds: Some(120),
            ..settings(Some(60))
        },
        json!({"seats": 2, "seed": 7, "options": {}, "first_seat": 1, "names": ["Bot", "Bo"]}),
        now - 200_000,
        &[
            (
                json!({"move": {"seat": 1, "mv": {"cell": 4}}}),
                now - 100_000,
            ),
            (
                json!({"move": {"seat": 0, "mv": {"cell": 0}}}),
                now - 95_000,
            ),
        ],
    )
    .await;
    let (mut bo, snap) = restarted(&db, &invite, token).await;
    let awaiting = &snap["game"]["awaiting"];
    assert_eq!(awaiting["seats"], json!([1]));
    assert_eq!(awaiting["banks_ms"], json!([120_000, 80_000]));
    let timer = awaiting["timer_ms"].as_u64().unwrap();
    assert!(
        (44_000..=45_000).contains(&timer),
        "60 s and the 80 s reserve, less the 95 s gone: not {timer} ms"
    );
    // Nothing comes before the reserve is spent too.
    let started = Instant::now();
    let update = bo.recv_type("update").await;
    assert_eq!(update["version"], 3, "the turn timed out");
    assert!(started.elapsed() >= Duration::from_millis(timer));
    // The next period shows Bo's reserve spent (the log's times are the wall
    // clock's, which this paused test does not move: only part of it).
    let banks = loop {
        let u = bo.recv_type("update").await;
        if let Some(banks) = u["awaiting"].get("banks_ms") {
            break banks.clone();
        }
    };
    assert_eq!(banks[0], 120_000);
    assert!(banks[1].as_u64().unwrap() < 80_000, "{banks}");
}

#[tokio::test(start_paused = true)]
async fn idle_rooms_leave_memory_and_come_back() {
    let app = AppState::new(Arc::new(MemDb::default()), Config::default());
    let created = tic_tac_toe_table(&app, settings(Some(60))).await;
    let mut host = Conn::join(
        &app,
        &created.invite_code,
        "Host",
        Some(created.token.clone()),
    )
    .await;
    host.send(json!({"type": "add_bot", "seat": 1, "level": "random"}))
        .await;
    host.send(json!({"type": "leave_seat"})).await;
    loop {
        let w = host.recv_type("welcome").await;
        if w["you"].get("seat").is_none() {
            break;
        }
    }
    drop(host.rx);
    host.room
        .send(RoomMsg::Leave { conn: host.id })
        .await
        .expect("room alive");
    // Nobody there: after the idle time the room is gone from memory...
    tokio::time::sleep(server::IDLE_ROOM + Duration::from_secs(1)).await;
    assert!(app.room_sender(&created.invite_code).is_none());
    assert!(host.room.is_closed());
    // ...and opening its code loads it again, as it was.
    let ip = std::net::IpAddr::from([127, 0, 0, 1]);
    let (_, spectator) = app
        .room_by_code(&created.invite_code, ip)
        .await
        .expect("store reachable")
        .expect("the table exists");
    assert!(!spectator);
    let mut back = Conn::join(&app, &created.invite_code, "", Some(created.token.clone())).await;
    let w = back.recv_type("welcome").await;
    assert_eq!(w["you"]["is_host"], true);
    assert!(w["you"].get("seat").is_none(), "the host had left his seat");
    assert_eq!(w["table"]["seats"][1]["occupant"]["kind"], "bot");
    assert_eq!(w["table"]["settings"]["turn_seconds"], 60);
}

/// A Big City turn of several moves (an action, then drawing cards): after a
/// restart its timer runs from the entry that began the turn, not from the
/// turn's latest move.
#[tokio::test(start_paused = true)]
async fn a_turn_of_several_moves_resumes_from_its_start() {
    use big_city::{BigCity, Options};
    use engine::{Entry, Setup};
    let setup = Setup {
        seats: 2,
        seed: 11,
        options: Options::default(),
        first_seat: Some(0),
    };
    // Bots play until seat 1 has made a move and still has more of the same turn
    // to make: the turn began at `began`, its latest move is the last entry.
    let mut game = BigCity::new(&setup).unwrap();
    let mut rng = engine::GameRng::new(3);
    let mut log: Vec<Entry<big_city::Move>> = Vec::new();
    let mut began = 0;
    loop {
        let awaiting = game.awaiting();
        let seat = awaiting.seats[0];
        let mv = game
            .bot_move(seat, engine::BotLevel::Random, &mut rng)
            .unwrap();
        game.apply(seat, &mv).unwrap();
        log.push(Entry::Move { seat, mv });
        let after = game.awaiting();
        if after.period != awaiting.period {
            began = log.len() - 1;
        } else if seat == 1 && after.seats == vec![1] && log.len() - 1 > began {
            break;
        }
    }
    let now = server::now_ms();
    // The turn began 40 s ago; its later moves came a second ago.
    let timed: Vec<(Value, i64)> = log
        .iter()
        .enumerate()
        .map(|(seq, entry)| {
            let at_ms = match seq {
                s if s < began => now - 300_000,
                s if s == began => now - 40_000,
                _ => now - 1_000,
            };
            (serde_json::to_value(entry).unwrap(), at_ms)
        })
        .collect();
    let db = Arc::new(MemDb::default());
    let (invite, token) = stored_game(
        &db,
        "big-city",
        TableSettings {
            seats: 2,
            options: serde_json::to_value(Options::default()).unwrap(),
            turn_seconds: Some(60),
            time_bank_seconds: None,
            spectators_allowed: true,
            public: false,
            stand_in: None,
        },
        json!({"seats": 2, "seed": 11, "options": Options::default(),
               "first_seat": 0, "names": ["Bot", "Bo"]}),
        now - 600_000,
        &timed,
    )
    .await;
    let (_bo, snap) = restarted(&db, &invite, token).await;
    assert_eq!(snap["game"]["awaiting"]["seats"], json!([1]));
    let timer = snap["game"]["awaiting"]["timer_ms"].as_u64().unwrap();
    assert!(
        (19_000..=20_000).contains(&timer),
        "20 s of the turn's 60 are left, not {timer} ms"
    );
}

/// A Big Cityz objection window open when the server stopped: after the restart
/// it runs from the placement, with the rules' window (not the room's turn
/// timer), and closes by itself, declining for whoever did not answer (B3).
/// (A window shorter than the recovery floor would start again in full.)
#[tokio::test(start_paused = true)]
async fn an_objection_window_resumes_with_the_time_left_after_a_restart() {
    use big_cityz::{BigCityz, Move, Options};
    use engine::{Entry, Game, Setup};
    let options = Options {
        objection_ms: 30_000,
    };
    let setup = Setup {
        seats: 2,
        seed: 5,
        options: options.clone(),
        first_seat: Some(0),
    };
    let mut game = BigCityz::new(&setup).unwrap();
    let place = game
        .legal_moves(0)
        .into_iter()
        .find(|m| matches!(m, Move::Place { .. }))
        .expect("the first player may place");
    game.apply(0, &place).unwrap();
    let window = game.awaiting();
    assert_eq!(window.seats, vec![1], "Bo may object");
    assert_eq!(window.window_ms, Some(30_000));
    let now = server::now_ms();
    let placed: Entry<Move> = Entry::Move { seat: 0, mv: place };
    let db = Arc::new(MemDb::default());
    let (invite, token) = stored_game(
        &db,
        "big-cityz",
        TableSettings {
            seats: 2,
            options: serde_json::to_value(&options).unwrap(),
            turn_seconds: Some(120),
            time_bank_seconds: None,
            spectators_allowed: true,
            public: false,
            stand_in: None,
        },
        json!({"seats": 2, "seed": 5, "options": options, "first_seat": 0, "names": ["Bot", "Bo"]}),
        now - 60_000,
        &[(serde_json::to_value(&placed).unwrap(), now - 4_000)],
    )
    .await;
    let (mut bo, snap) = restarted(&db, &invite, token).await;
    assert_eq!(snap["game"]["awaiting"]["seats"], json!([1]));
    assert_eq!(snap["game"]["view"]["phase"]["type"], "objections");
    let timer = snap["game"]["awaiting"]["timer_ms"].as_u64().unwrap();
    assert!(
        (25_000..=26_000).contains(&timer),
        "26 s of the 30 s window are left, not {timer} ms"
    );
    let started = Instant::now();
    let update = loop {
        let u = bo.recv_type("update").await;
        if u["events"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["kind"]["type"] == "judged"))
        {
            break u;
        }
    };
    assert!(
        update["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(
                |e| e["kind"]["type"] == "objections_timed_out" && e["kind"]["seats"] == json!([1])
            ),
        "Bo's silence declined: {update}"
    );
    assert!(started.elapsed() <= Duration::from_millis(26_000));
}

/// The log of the table's latest game: per entry, the seat that moved (`None`
/// for a timeout) and the stand-in's mark.
async fn entries(db: &MemDb, invite: &str) -> Vec<(Option<u64>, Option<String>)> {
    let table = db.table_by_code(invite).await.unwrap().unwrap();
    let (_, moves) = db.latest_game(table.id).await.unwrap().unwrap();
    moves
        .iter()
        .map(|m| {
            let e = m.entry.to_value().unwrap();
            (
                e["move"]["seat"].as_u64(),
                e["move"]["stand_in"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// A tic-tac-toe game as a connection follows it: the view and whose turn it
/// is, from its snapshots and updates.
#[derive(Default)]
struct Watched {
    view: Value,
    awaiting: Value,
}

impl Watched {
    /// Takes in a message; the game's version when it was a snapshot or update.
    fn take(&mut self, m: &Value) -> Option<u64> {
        match m["type"].as_str()? {
            "snapshot" => {
                self.view = m["game"]["view"].clone();
                self.awaiting = m["game"]["awaiting"]["seats"].clone();
                m["game"]["version"].as_u64()
            }
            "update" => {
                self.view = testkit::client::patched(&self.view, m);
                if let Some(a) = m.get("awaiting") {
                    self.awaiting = a["seats"].clone();
                }
                m["version"].as_u64()
            }
            _ => None,
        }
    }

    fn turn_of(&self, seat: u64) -> bool {
        self.awaiting == json!([seat])
    }

    /// A move on the lowest free cell.
    fn lowest_free(&self, version: u64) -> Value {
        let cell = self.view["cells"]
            .as_array()
            .unwrap()
            .iter()
            .position(Value::is_null)
            .unwrap();
        json!({"type": "move", "id": version, "version": version, "mv": {"cell": cell}})
    }
}

/// Whether an update shows a cell played for `seat` (by him, a bot or a timeout).
fn played_for(m: &Value, seat: u64) -> bool {
    m["events"]
        .as_array()
        .is_some_and(|events| events.iter().any(|e| e["seat"] == seat))
}

/// A stand-in table: tic-tac-toe, the host in seat 0 and "Guest" in seat 1.
async fn stand_in_table(
    app: &AppState,
    turn_seconds: Option<u32>,
    after_misses: u8,
) -> (TableCreated, Conn, Conn, String) {
    let with_stand_in = TableSettings {
        stand_in: Some(StandIn {
            level: BotLevel::Greedy,
            after_misses,
        }),
        ..settings(turn_seconds)
    };
    let created = tic_tac_toe_table(app, with_stand_in).await;
    let host = Conn::join(
        app,
        &created.invite_code,
        "Host",
        Some(created.token.clone()),
    )
    .await;
    let mut guest = Conn::join(app, &created.invite_code, "Guest", None).await;
    guest.send(json!({"type": "take_seat"})).await;
    let token = loop {
        let w = guest.recv_type("welcome").await;
        if let Some(t) = w["you"]["token"].as_str() {
            break t.to_owned();
        }
    };
    host.send(json!({"type": "start"})).await;
    (created, host, guest, token)
}

#[tokio::test(start_paused = true)]
async fn a_stand_in_plays_for_a_player_who_misses_his_turns_until_he_is_back() {
    let db = Arc::new(MemDb::default());
    let app = AppState::new(db.clone(), bots_at_once());
    let (created, mut host, guest, _) = stand_in_table(&app, Some(5), 1).await;
    // The host plays every turn of his; the guest none until a bot has played
    // for him, then says he is back and plays his next turn himself.
    let mut game = Watched::default();
    let (mut back, mut guest_played, mut marked_away) = (false, false, false);
    let outcome = loop {
        let m = host.recv().await;
        if m["type"] == "table" {
            marked_away |= m["table"]["seats"][1]["occupant"]["away"] == true;
        }
        let Some(version) = game.take(&m) else {
            continue;
        };
        if let Some(o) = m.get("outcome") {
            break o.clone();
        }
        // (His timeout plays a cell too; the seat is marked away after it.)
        if played_for(&m, 1) && marked_away && !back {
            guest.send(json!({"type": "back"})).await;
            back = true;
        }
        if game.turn_of(0) {
            host.send(game.lowest_free(version)).await;
        } else if game.turn_of(1) && back && !guest_played {
            guest.send(game.lowest_free(version)).await;
            guest_played = true;
        }
    };
    assert!(outcome["winners"].is_array());
    let log = entries(&db, &created.invite_code).await;
    let guest_entries: Vec<_> = log
        .iter()
        .skip_while(|(seat, _)| *seat == Some(0))
        .filter(|(seat, _)| *seat != Some(0))
        .collect();
    // His first decision timed out (one miss), then the bot played for him,
    // marked in the log; after `back` his own move carries no mark.
    assert_eq!(guest_entries[0], &(None, None), "{log:?}");
    assert_eq!(
        guest_entries[1],
        &(Some(1), Some("greedy".to_owned())),
        "{log:?}"
    );
    assert!(guest_played, "his next turn came: {log:?}");
    assert_eq!(guest_entries[2], &(Some(1), None), "{log:?}");
    assert!(
        log.iter()
            .all(|(seat, mark)| *seat != Some(0) || mark.is_none()),
        "the host's moves are his own: {log:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_stand_in_plays_for_a_player_gone_past_the_grace_until_he_reconnects() {
    let db = Arc::new(MemDb::default());
    let app = AppState::new(
        db.clone(),
        Config {
            left_grace: Duration::from_secs(30),
            ..bots_at_once()
        },
    );
    let (created, mut host, guest, token) = stand_in_table(&app, None, 3).await;
    let guest_id = guest.id;
    let room = guest.room.clone();
    let mut guest = Some(guest);
    let mut game = Watched::default();
    let mut left_at = None;
    let mut stood_in_after = None;
    let mut guest_played = false;
    let outcome = loop {
        let m = host.recv().await;
        let Some(version) = game.take(&m) else {
            continue;
        };
        if let Some(o) = m.get("outcome") {
            break o.clone();
        }
        if played_for(&m, 1) && stood_in_after.is_none() {
            stood_in_after = left_at.map(|t: Instant| t.elapsed());
            // He comes back with his token: his seat is his again.
            guest = Some(Conn::join(&app, &created.invite_code, "x", Some(token.clone())).await);
        }
        if game.turn_of(0) {
            host.send(game.lowest_free(version)).await;
        } else if game.turn_of(1) && left_at.is_none() {
            // His turn, and he closes the page.
            room.send(RoomMsg::Leave { conn: guest_id }).await.unwrap();
            guest = None;
            left_at = Some(Instant::now());
        } else if game.turn_of(1) && stood_in_after.is_some() {
            guest
                .as_ref()
                .unwrap()
                .send(game.lowest_free(version))
                .await;
            guest_played = true;
        }
    };
    assert!(outcome["winners"].is_array());
    let waited = stood_in_after.expect("a bot played for him");
    assert!(
        waited >= Duration::from_secs(30) && waited < Duration::from_secs(31),
        "the stand-in waits out the grace: {waited:?}"
    );
    let log = entries(&db, &created.invite_code).await;
    let mine: Vec<_> = log.iter().filter(|(seat, _)| *seat == Some(1)).collect();
    assert_eq!(mine[0], &(Some(1), Some("greedy".to_owned())), "{log:?}");
    assert!(guest_played, "his next turn came: {log:?}");
    assert_eq!(
        mine[1],
        &(Some(1), None),
        "back with his token, he plays: {log:?}"
    );
}
