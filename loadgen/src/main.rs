//! `loadgen`: measures a CityTable server (or the boardgame.io reference server)
//! over real WebSockets on the loopback interface.
//!
//! - `loadgen play`: R rooms of bot players and spectators play complete games on an
//!   open-loop schedule; the offered rate steps up until p99 crosses a limit. Per
//!   step: moves/s, due→ack and due→last-recipient latency (p50, p99, p99.9, max),
//!   bytes on the wire per move, the server's CPU and RSS. See `play`.
//! - `loadgen idle`: N idle connections (spectators spread over tables), the
//!   server's resident memory before and after, per connection.
//!
//! Layout: `stats` (HDR histograms, percentiles, the knee), `procstat` (/proc),
//! `net` (sockets, byte counters, a small HTTP client), `play` (schedule, tracker,
//! ramp), `citytable` and `bgio` (one room on each server's protocol), `idle`.

mod bgio;
mod citytable;
mod idle;
mod net;
mod play;
mod procstat;
mod stats;
mod timer;

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::citytable::MoveSource;
use crate::play::{RampOpts, RoomFn};

const USAGE: &str = "usage:
  loadgen play [--target citytable|bgio] [--addr 127.0.0.1:8080[,127.0.0.1:8081...]] [--game tic-tac-toe]
               [--seats 2] [--spectators 2] [--rooms 200] [--rates 1000,2000,4000]
               [--warmup 3] [--measure 10] [--p99-limit-ms 5] [--min-ratio 0.95]
               [--keep-going 0] [--moves local|server] [--server-pid N] [--db-pid N]
               [--sources 127.0.0.1,127.0.0.2] [--threads 1] [--label TEXT] [--out FILE.jsonl]
  loadgen idle [--target citytable|bgio] [--addr 127.0.0.1:8080] [--game tic-tac-toe]
               [--conns 20000] [--per-table 10] [--steps 5000,10000,20000] [--hold 5]
               [--server-pid N] [--sources 127.0.0.1,...] [--threads 1] [--label TEXT] [--out FILE.jsonl]
Every option has the default shown. The server pid is found from the port when not given.
Several addresses (the nodes of a cluster): each connection and request goes to the next
one in turn; CPU and RSS are summed over their processes.";

struct Args(HashMap<String, String>);

impl Args {
    fn parse(args: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut map = HashMap::new();
        let mut it = args.peekable();
        while let Some(a) = it.next() {
            let key = a
                .strip_prefix("--")
                .ok_or_else(|| format!("unexpected argument {a:?}"))?
                .to_owned();
            let value = it.next().ok_or_else(|| format!("--{key} needs a value"))?;
            map.insert(key, value);
        }
        Ok(Args(map))
    }

    fn str(&self, key: &str, default: &str) -> String {
        self.0
            .get(key)
            .cloned()
            .unwrap_or_else(|| default.to_owned())
    }

    fn num<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.0.get(key) {
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{key}: not a number: {v:?}")),
            None => Ok(default),
        }
    }

    fn list<T: std::str::FromStr>(&self, key: &str, default: &str) -> Result<Vec<T>, String> {
        self.str(key, default)
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.trim()
                    .parse()
                    .map_err(|_| format!("--{key}: bad item {s:?}"))
            })
            .collect()
    }
}

/// Raises the open-file limit to its hard maximum (tens of thousands of sockets).
fn raise_nofile() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct we pass.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur = lim.rlim_max;
            let _ = libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

fn main() {
    let mut argv = std::env::args().skip(1);
    let cmd = argv.next().unwrap_or_default();
    let result = Args::parse(argv).and_then(|args| {
        let threads: usize = args.num("threads", 1)?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads.max(1))
            .enable_all()
            .build()
            .map_err(|e| format!("runtime: {e}"))?;
        raise_nofile();
        match cmd.as_str() {
            "play" => rt.block_on(play(args)),
            "idle" => rt.block_on(idle::run(args)),
            _ => Err(USAGE.to_owned()),
        }
    });
    if let Err(e) = result {
        eprintln!("loadgen: {e}");
        std::process::exit(2);
    }
}

/// The connections' source and targets, the server processes (every node's, for
/// CPU and RSS summed over them) and the target kind.
fn common(args: &Args) -> Result<(net::Net, Vec<u32>, String), String> {
    let addrs: Vec<SocketAddr> = args
        .list("addr", "127.0.0.1:8080")
        .map_err(|_| "--addr must be IP:PORT[,IP:PORT...]".to_owned())?;
    let sources: Vec<Ipv4Addr> = args.list("sources", "")?;
    let pids: Vec<u32> = match args.0.get("server-pid") {
        Some(_) => args.list("server-pid", "")?,
        None => addrs
            .iter()
            .filter_map(|a| procstat::pid_listening_on(a.port()))
            .collect(),
    };
    if pids.len() < addrs.len() {
        eprintln!(
            "# warning: not every server process was found ({} of {}); CPU and RSS will not be reported",
            pids.len(),
            addrs.len()
        );
    }
    let pids = if pids.len() < addrs.len() {
        Vec::new()
    } else {
        pids
    };
    let net = net::Net::new(addrs, sources)?;
    let target = args.str("target", "citytable");
    Ok((net, pids, target))
}

async fn play(args: Args) -> Result<(), String> {
    let (net, server_pids, target) = common(&args)?;
    let game = args.str("game", "tic-tac-toe");
    let spectators: usize = args.num("spectators", 2)?;
    let rooms: usize = args.num("rooms", 200)?;
    let label = args.str("label", &format!("{target} {game}"));
    let (room, per_conn_limit): (RoomFn, Option<f64>) = match target.as_str() {
        "citytable" => {
            let (options, min_seats, _) = citytable::default_options(&net, &game).await?;
            let seats: u8 = args.num("seats", min_seats)?;
            let moves = match args
                .str(
                    "moves",
                    if game == "tic-tac-toe" {
                        "local"
                    } else {
                        "server"
                    },
                )
                .as_str()
            {
                "local" if game == "tic-tac-toe" => MoveSource::Local,
                "local" => return Err("--moves local only knows tic-tac-toe".into()),
                "server" => MoveSource::Server,
                other => return Err(format!("--moves {other:?}: local or server")),
            };
            let cfg = citytable::RoomCfg {
                game: game.clone(),
                seats,
                spectators,
                options,
                moves,
            };
            // The server lets a connection send 20 messages a second; a seat sends
            // one move per `seats` moves (two messages with legal_moves).
            let per_move = if moves == MoveSource::Server {
                2.0
            } else {
                1.0
            };
            let limit = 20.0 * f64::from(seats) / per_move;
            let f: RoomFn = Arc::new(move |shared, i, gate| {
                Box::pin(citytable::run_room(shared, cfg.clone(), i, gate))
            });
            (f, Some(limit))
        }
        "bgio" => {
            if game != "tic-tac-toe" {
                return Err("the boardgame.io reference server only has tic-tac-toe".into());
            }
            let run = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            let cfg = bgio::RoomCfg {
                game: game.clone(),
                seats: args.num("seats", 2)?,
                spectators,
                run,
            };
            let f: RoomFn = Arc::new(move |shared, i, gate| {
                Box::pin(bgio::run_room(shared, cfg.clone(), i, gate))
            });
            (f, None)
        }
        other => return Err(format!("--target {other:?}: citytable or bgio")),
    };
    let opts = RampOpts {
        rooms,
        rates: args.list("rates", "1000,2000,4000")?,
        warmup: Duration::from_secs_f64(args.num("warmup", 3.0)?),
        measure: Duration::from_secs_f64(args.num("measure", 10.0)?),
        p99_limit_ms: args.num("p99-limit-ms", 5.0)?,
        min_ratio: args.num("min-ratio", 0.95)?,
        keep_going: args.num("keep-going", 0)?,
        setup_concurrency: args.num("setup-concurrency", 16)?,
        setup_timeout: Duration::from_secs_f64(args.num("setup-timeout", 300.0)?),
        server_pids,
        db_pid: match args.0.get("db-pid") {
            Some(p) => Some(
                p.parse()
                    .map_err(|_| "--db-pid must be a number".to_owned())?,
            ),
            None => None,
        },
        label,
        out: args.0.get("out").map(PathBuf::from),
        per_conn_limit,
    };
    if opts.rates.is_empty() || opts.rates.len() > 100 {
        return Err("--rates needs 1 to 100 steps".into());
    }
    play::ramp(net, opts, room).await
}
