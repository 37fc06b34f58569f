//! `attack`: the hostile client of the hostile-client scenario (`reliability/hostile.sh`).
//!
//! `attack preload --data-dir DIR` writes a finished Big City game of 10,000 to
//! 15,000 log entries (five random bots, the first seed that long) into the
//! SQLite store in DIR, as a host who filled every seat with bots would leave
//! it, and prints its spectator code.
//!
//! `attack run --addr HOST:PORT --code CODE --seconds N` then attacks for N
//! seconds, each attack from an address of its own on the loopback range
//! (127.0.0.66-69), and prints what the server answered:
//! - the record of CODE's game fetched by 20 requests at once, again and again;
//! - 256 WebSockets that join a table, ask for snapshots and never read;
//! - a table-creation flood;
//! - an idle-connection flood: up to 5,000 TCP connections that never send a byte.

#![allow(clippy::unwrap_used)]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use big_city::{BigCity, Options};
use engine::{BotLevel, Setup};
use futures_util::SinkExt;
use protocol::TableSettings;
use serde_json::json;
use server::room::{SeatDoc, TableDoc};
use store::{GameRow, MoveRow, Store, TableRow};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use uuid::Uuid;

/// The record's game: the first seed whose game ends within this many entries.
const ENTRIES: std::ops::RangeInclusive<usize> = 10_000..=15_000;
const SEATS: u8 = 5;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    match args.first().map(String::as_str) {
        Some("preload") => {
            let dir = PathBuf::from(flag("--data-dir").expect("--data-dir DIR"));
            preload(&dir).await;
        }
        Some("run") => {
            let addr: SocketAddr = flag("--addr").expect("--addr").parse().unwrap();
            let code = flag("--code").expect("--code");
            let seconds: u64 = flag("--seconds").map_or(30, |s| s.parse().unwrap());
            run(addr, &code, Duration::from_secs(seconds)).await;
        }
        _ => {
            eprintln!(
                "usage: attack preload --data-dir DIR | attack run --addr HOST:PORT --code CODE --seconds N"
            );
            std::process::exit(2);
        }
    }
}

async fn preload(dir: &std::path::Path) {
    let (seed, log) = (0u64..)
        .find_map(|seed| {
            let setup = Setup {
                seats: SEATS,
                seed,
                options: Options::default(),
                first_seat: None,
            };
            let levels = [BotLevel::Random; SEATS as usize];
            let (game, log) =
                engine::play_out::<BigCity>(&setup, &levels, seed, *ENTRIES.end()).unwrap();
            (engine::Game::outcome(&game).is_some() && ENTRIES.contains(&log.len()))
                .then_some((seed, log))
        })
        .unwrap();
    let store = Store::open(None, dir).await.unwrap();
    let now = server::now_ms();
    let doc = TableDoc {
        settings: TableSettings {
            seats: SEATS,
            options: serde_json::to_value(Options::default()).unwrap(),
            turn_seconds: None,
            time_bank_seconds: None,
            spectators_allowed: true,
            public: false,
            stand_in: None,
        },
        host: String::new(),
        players: Vec::new(),
        seats: vec![
            SeatDoc::Bot {
                level: BotLevel::Random
            };
            usize::from(SEATS)
        ],
    };
    let table = TableRow {
        id: Uuid::new_v4(),
        game: "big-city".to_owned(),
        invite_code: server::codes::new_code(),
        spectator_code: server::codes::new_code(),
        status: protocol::TableStatus::Finished,
        public: false,
        doc: serde_json::to_value(&doc).unwrap(),
        updated_at_ms: now,
    };
    store.upsert_table(&table).await.unwrap();
    let names: Vec<String> = (1..=SEATS).map(|i| format!("Bot (random) {i}")).collect();
    let game = GameRow {
        id: Uuid::new_v4(),
        table_id: table.id,
        number: 1,
        setup: json!({"seats": SEATS, "seed": seed, "options": Options::default(),
                      "first_seat": null, "names": names}),
        started_at_ms: now,
        outcome: None,
    };
    store.insert_game(&game).await.unwrap();
    let moves: Vec<MoveRow> = log
        .iter()
        .enumerate()
        .map(|(seq, entry)| MoveRow {
            game_id: game.id,
            seq: seq as i64,
            entry: protocol::RawJson::of(entry).unwrap(),
            at_ms: now,
        })
        .collect();
    for chunk in moves.chunks(1_000) {
        store.append_moves(chunk).await.unwrap();
    }
    store.close().await;
    eprintln!("preloaded seed {seed}: {} entries", log.len());
    println!("{}", table.spectator_code);
}

fn source(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

async fn connect_from(from: IpAddr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(to).await
}

/// One HTTP request; the status (0 when the connection failed or was closed)
/// and the body.
async fn http(from: IpAddr, to: SocketAddr, request: &str) -> (u16, String) {
    let Ok(mut tcp) = connect_from(from, to).await else {
        return (0, String::new());
    };
    if tcp.write_all(request.as_bytes()).await.is_err() {
        return (0, String::new());
    }
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(60), tcp.read_to_end(&mut buf)).await;
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_owned())
}

/// A `POST /api/tables` request for a two-seat table of `game`.
fn new_table_request(game: &str, name: &str, public: bool) -> String {
    let body = json!({"game": game, "name": name,
        "settings": {"seats": 2, "options": {}, "spectators_allowed": true, "public": public}})
    .to_string();
    format!(
        "POST /api/tables HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[derive(Default)]
struct Tally {
    ok: AtomicU64,
    refused: AtomicU64,
    failed: AtomicU64,
}

impl Tally {
    fn count(&self, status: u16) {
        let n = match status {
            200..=299 => &self.ok,
            400..=499 => &self.refused,
            _ => &self.failed,
        };
        n.fetch_add(1, Ordering::Relaxed);
    }

    fn line(&self) -> String {
        format!(
            "{} answered, {} refused, {} failed or cut",
            self.ok.load(Ordering::Relaxed),
            self.refused.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed)
        )
    }
}

async fn run(addr: SocketAddr, code: &str, length: Duration) {
    let until = Instant::now() + length;
    let records = Arc::new(Tally::default());
    let creations = Arc::new(Tally::default());
    let idle = Arc::new(Tally::default());
    let lurkers = Arc::new(Tally::default());
    let mut tasks = Vec::new();

    // 1. The record, 20 at a time.
    {
        let records = Arc::clone(&records);
        let request = format!(
            "GET /api/tables/{code}/record HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
        );
        tasks.push(tokio::spawn(async move {
            while Instant::now() < until {
                let batch = (0..20).map(|_| http(source(66), addr, &request));
                for (status, _) in futures_util::future::join_all(batch).await {
                    records.count(status);
                }
            }
        }));
    }

    // 2. 256 sockets that ask for snapshots and never read.
    {
        let lurkers = Arc::clone(&lurkers);
        tasks.push(tokio::spawn(async move {
            let request = new_table_request("big-city", "Lurk", false);
            let (_, body) = http(source(67), addr, &request).await;
            let Ok(table) = serde_json::from_str::<serde_json::Value>(&body) else {
                return;
            };
            let invite = table["invite_code"].as_str().unwrap_or_default().to_owned();
            let mut sockets = Vec::new();
            for _ in 0..256 {
                let Ok(tcp) = connect_from(source(67), addr).await else {
                    lurkers.count(0);
                    continue;
                };
                // Nothing is ever read: what the server writes piles up.
                match tokio_tungstenite::client_async(format!("ws://{addr}/ws/{invite}"), tcp).await
                {
                    Ok((mut ws, _)) => {
                        let hello = json!({"type": "hello", "name": "Lurk"}).to_string();
                        let _ = ws.send(Message::text(hello)).await;
                        lurkers.count(200);
                        sockets.push(ws);
                    }
                    Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
                        lurkers.count(r.status().as_u16())
                    }
                    Err(_) => lurkers.count(0),
                }
            }
            while Instant::now() < until {
                for ws in &mut sockets {
                    let _ = ws
                        .send(Message::text(json!({"type": "resync"}).to_string()))
                        .await;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }));
    }

    // 3. Table creation as fast as answers come.
    {
        let creations = Arc::clone(&creations);
        tasks.push(tokio::spawn(async move {
            let request = new_table_request("tic-tac-toe", "Flood", true);
            while Instant::now() < until {
                let (status, _) = http(source(68), addr, &request).await;
                creations.count(status);
            }
        }));
    }

    // 4. Idle connections that never send a byte.
    {
        let idle = Arc::clone(&idle);
        tasks.push(tokio::spawn(async move {
            let mut held = Vec::new();
            for _ in 0..5_000 {
                if Instant::now() >= until {
                    break;
                }
                match connect_from(source(69), addr).await {
                    Ok(tcp) => {
                        idle.count(200);
                        held.push(tcp);
                    }
                    Err(_) => idle.count(0),
                }
            }
            tokio::time::sleep_until(until.into()).await;
            // How many the server still holds open: it closes idle ones itself.
            let mut open = 0;
            for tcp in &mut held {
                let mut b = [0u8; 512];
                match tokio::time::timeout(Duration::from_millis(1), tcp.read(&mut b)).await {
                    Err(_) => open += 1,
                    Ok(Ok(n)) if n > 0 => {}
                    Ok(_) => {}
                }
            }
            eprintln!(
                "idle flood: {open} of {} connections still open at the end",
                held.len()
            );
        }));
    }

    for t in tasks {
        let _ = t.await;
    }
    println!("record fetches (20 at once): {}", records.line());
    println!("non-reading sockets: {}", lurkers.line());
    println!("table creations: {}", creations.line());
    println!("idle connections accepted by TCP: {}", idle.line());
}
