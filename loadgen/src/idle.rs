//! Idle connections: how much server memory one more connected, idle client costs.
//!
//! CityTable: tables are created first (`POST /api/tables`), then spectators join
//! them (`/ws/{spectator_code}` + `hello`), `--per-table` to a table, until
//! `--conns` are open. The server's RSS is read before the tables, after the
//! tables, and at each step of open connections; memory per connection is the
//! growth since the tables existed divided by the connections opened.
//!
//! boardgame.io: spectators connect to the game's namespace and `sync` a match
//! (created on first sync), `--per-table` to a match.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::api::{CreateTable, TableCreated};
use protocol::{ClientMsg, TableSettings};
use serde_json::json;
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::net::{Net, Ws};
use crate::procstat;
use crate::stats::round3;
use crate::{Args, common};

/// Keeps a connection open and answers what must be answered (engine.io pings)
/// until `stop` resolves.
fn hold(mut ws: Ws, mut stop: tokio::sync::watch::Receiver<bool>) {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                frame = ws.next() => match frame {
                    Some(Ok(Message::Text(t))) if t.as_str() == "2" => {
                        if ws.send(Message::text("3")).await.is_err() { return; }
                    }
                    Some(Ok(_)) => {}
                    _ => return,
                },
                _ = stop.changed() => {
                    let _ = ws.close(None).await;
                    return;
                }
            }
        }
    });
}

async fn citytable_spectator(net: &Net, code: &str, i: usize) -> Result<Ws, String> {
    let mut ws = net.ws(&format!("/ws/{code}")).await?;
    let hello = ClientMsg::Hello {
        token: None,
        code: None,
        name: format!("idle{i}"),
    };
    ws.send(Message::text(
        serde_json::to_string(&hello).map_err(|e| e.to_string())?,
    ))
    .await
    .map_err(|e| e.to_string())?;
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let frame = tokio::time::timeout_at(until, ws.next())
            .await
            .map_err(|_| "welcome timed out".to_owned())?
            .ok_or_else(|| "closed before welcome".to_owned())?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = frame {
            if t.as_str().contains("\"type\":\"welcome\"") {
                return Ok(ws);
            }
            if t.as_str().contains("\"type\":\"error\"") {
                return Err(format!("hello refused: {}", t.as_str()));
            }
        }
    }
}

fn rss_mib(pids: &[u32]) -> Option<f64> {
    (!pids.is_empty()).then(|| procstat::sample_all(pids).rss_kib as f64 / 1024.0)
}

pub async fn run(args: Args) -> Result<(), String> {
    let (net, pid, target) = common(&args)?;
    let net = Arc::new(net);
    let game = args.str("game", "tic-tac-toe");
    let conns: usize = args.num("conns", 20_000)?;
    let per_table: usize = args.num::<usize>("per-table", 10)?.max(1);
    let mut steps: Vec<usize> = args.list("steps", &conns.to_string())?;
    steps.retain(|&s| s <= conns);
    if steps.last() != Some(&conns) {
        steps.push(conns);
    }
    let hold_secs: f64 = args.num("hold", 5.0)?;
    let label = args.str("label", &format!("{target} idle"));
    let concurrency: usize = args.num("concurrency", 64)?;
    let tables = conns.div_ceil(per_table);
    if conns > 200_000 {
        return Err("--conns is limited to 200000".into());
    }

    let rss0 = rss_mib(&pid);
    let started = Instant::now();
    // Codes (CityTable) or match ids (boardgame.io) to connect to.
    let mut codes: Vec<String> = Vec::with_capacity(tables);
    if target == "citytable" {
        let (options, min_seats, _) = crate::citytable::default_options(&net, &game).await?;
        let body = serde_json::to_string(&CreateTable {
            game: game.clone(),
            settings: TableSettings {
                seats: min_seats,
                options,
                turn_seconds: None,
                time_bank_seconds: None,
                spectators_allowed: true,
                public: false,
                stand_in: None,
            },
            name: "host".into(),
        })
        .map_err(|e| e.to_string())?;
        let gate = Arc::new(Semaphore::new(16));
        let mut handles = Vec::with_capacity(tables);
        for _ in 0..tables {
            let (net, body, gate) = (net.clone(), body.clone(), gate.clone());
            handles.push(tokio::spawn(async move {
                let _p = gate.acquire().await;
                let (status, text) = net.http("POST", "/api/tables", Some(&body)).await?;
                if status != 200 && status != 201 {
                    return Err(format!("create table: HTTP {status}"));
                }
                let t: TableCreated = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                Ok::<_, String>(t.spectator_code)
            }));
        }
        for h in handles {
            codes.push(h.await.map_err(|e| e.to_string())??);
        }
    } else if target == "bgio" {
        let run = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        codes = (0..tables).map(|t| format!("idle-{run}-{t}")).collect();
    } else {
        return Err(format!("--target {target:?}: citytable or bgio"));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss1 = rss_mib(&pid);
    eprintln!(
        "# {label}: {} tables ready in {:.1}s; server RSS {:?} MiB before, {:?} MiB with the tables",
        tables,
        started.elapsed().as_secs_f64(),
        rss0.map(round3),
        rss1.map(round3)
    );

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let gate = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut opened = 0usize;
    let mut failed = 0usize;
    let mut rows = Vec::new();
    println!(
        "{:>8} {:>10} {:>14} {:>16}",
        "conns", "rss_MiB", "KiB/conn", "KiB/conn+table"
    );
    for &step in &steps {
        let t0 = Instant::now();
        let mut handles = Vec::with_capacity(step - opened);
        for i in opened..step {
            let (net, gate, game) = (net.clone(), gate.clone(), game.clone());
            let code = codes[i / per_table].clone();
            let is_ct = target == "citytable";
            handles.push(tokio::spawn(async move {
                let _p = gate.acquire().await;
                if is_ct {
                    citytable_spectator(&net, &code, i).await
                } else {
                    crate::bgio::idle_spectator(&net, &game, &code).await
                }
            }));
        }
        for h in handles {
            match h.await {
                Ok(Ok(ws)) => hold(ws, stop_rx.clone()),
                Ok(Err(e)) => {
                    failed += 1;
                    if failed <= 5 {
                        eprintln!("#   connection failed: {e}");
                    }
                }
                Err(_) => failed += 1,
            }
        }
        opened = step;
        // Let the server settle (allocator, queued table broadcasts).
        tokio::time::sleep(Duration::from_secs_f64(hold_secs.clamp(0.0, 600.0))).await;
        let rss = rss_mib(&pid);
        let live = step - failed;
        let per = match (rss, rss1) {
            (Some(a), Some(b)) if live > 0 => Some((a - b) * 1024.0 / live as f64),
            _ => None,
        };
        let per_all = match (rss, rss0) {
            (Some(a), Some(b)) if live > 0 => Some((a - b) * 1024.0 / live as f64),
            _ => None,
        };
        println!(
            "{:>8} {:>10} {:>14} {:>16}   (opened in {:.1}s, {failed} failed)",
            live,
            rss.map_or("-".into(), |r| format!("{r:.1}")),
            per.map_or("-".into(), |p| format!("{p:.2}")),
            per_all.map_or("-".into(), |p| format!("{p:.2}")),
            t0.elapsed().as_secs_f64()
        );
        rows.push(json!({
            "label": label,
            "conns": live,
            "failed": failed,
            "tables": tables,
            "per_table": per_table,
            "rss_before_mib": rss0.map(round3),
            "rss_tables_mib": rss1.map(round3),
            "rss_mib": rss.map(round3),
            "kib_per_conn": per.map(round3),
            "kib_per_conn_with_table": per_all.map(round3),
        }));
    }
    let _ = stop_tx.send(true);
    tokio::time::sleep(Duration::from_millis(500)).await;
    if let Some(path) = args.0.get("out") {
        use std::io::Write;
        let mut text = String::new();
        for r in &rows {
            text.push_str(&r.to_string());
            text.push('\n');
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("writing {path}: {e}"))?;
    }
    Ok(())
}
