//! Reliability test support: the real `citytable` binary as a child process (so a
//! test can SIGKILL it), its captured output, fresh Postgres databases, a TCP
//! proxy that can cut the server off its database, a Postgres server of the test's
//! own to stop and start, small WebSocket and HTTP
//! clients, and a verifier that compares what clients saw with the stored log.
//!
//! Postgres: `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`)
//! names a server to create and drop test databases on (see `support`). An
//! unreachable server fails the Postgres tests unless `CITYTABLE_SKIP_POSTGRES=1`.

#![allow(dead_code, clippy::unwrap_used)]

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;

// The server tests' fresh databases and settings, shared rather than copied.
#[path = "../support/mod.rs"]
mod support;

pub use support::{Kind, TestDb};

/// An environment variable as a number, or a default.
pub fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// xorshift64*: the tests' own seeded randomness.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    pub fn ms(&mut self, lo: u64, hi: u64) -> Duration {
        Duration::from_millis(lo + self.below(hi.saturating_sub(lo).max(1)))
    }
}

/// A stable hash of a JSON value (serde_json maps are sorted, so the text is canonical).
pub fn hash_value(v: &Value) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    v.to_string().hash(&mut h);
    h.finish()
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

// ----- databases -----

/// `(user@host:port, database name)` parts of a Postgres URL.
pub fn pg_parts(url: &str) -> (String, String, String) {
    let (scheme, rest) = url.split_once("://").expect("scheme");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let db = path.split('?').next().unwrap_or("").to_owned();
    (scheme.to_owned(), authority.to_owned(), db)
}

/// Where the admin URL's Postgres listens.
pub fn pg_addr() -> String {
    let (_, authority, _) = pg_parts(&testdb::admin_url());
    let host = authority
        .rsplit('@')
        .next()
        .unwrap_or(&authority)
        .to_owned();
    if host.contains(':') {
        host
    } else {
        format!("{host}:5432")
    }
}

/// A fresh SQLite directory or Postgres database (the server tests' [`TestDb`],
/// removed when dropped), with what process tests add: the data directory made
/// up front, a URL through a proxy, and direct access to the store.
pub struct Fresh(TestDb);

impl std::ops::Deref for Fresh {
    type Target = TestDb;
    fn deref(&self) -> &TestDb {
        &self.0
    }
}

impl Fresh {
    fn made(db: TestDb) -> Fresh {
        std::fs::create_dir_all(&db.dir).expect("data dir");
        Fresh(db)
    }

    pub fn sqlite() -> Fresh {
        Fresh::made(TestDb::sqlite())
    }

    /// `None` when Postgres tests are skipped on purpose.
    pub async fn postgres() -> Option<Fresh> {
        TestDb::new(Kind::Postgres).await.map(Fresh::made)
    }

    /// The database URL for the server, with its host and port replaced by `via` if given.
    pub fn url(&self, via: Option<SocketAddr>) -> Option<String> {
        let (admin, name) = self.0.pg()?;
        let (scheme, authority, _) = pg_parts(admin);
        let authority = match via {
            Some(addr) => match authority.rsplit_once('@') {
                Some((user, _)) => format!("{user}@{addr}"),
                None => addr.to_string(),
            },
            None => authority,
        };
        Some(format!("{scheme}://{authority}/{name}"))
    }

    /// Opens the store directly (for checking what was committed).
    pub async fn open_store(&self) -> store::Store {
        store::Store::open(self.url(None).as_deref(), &self.dir)
            .await
            .expect("open store")
    }
}

// ----- a Postgres server of the test's own -----

/// A Postgres server of the test's own: a new cluster in a temporary directory on
/// a free port, which the test stops and starts as an operator would
/// (`pg_ctl stop -m fast`: sessions are ended, then the server exits). Postgres
/// refuses to run as root, so as root its programs run as the `postgres` user.
pub struct PgCluster {
    bin: PathBuf,
    root: PathBuf,
    as_postgres: bool,
    pub port: u16,
}

impl PgCluster {
    /// A new, stopped cluster; `None` when Postgres tests are skipped on purpose.
    /// Panics when Postgres's server programs cannot be found.
    pub async fn create() -> Option<PgCluster> {
        if testdb::skip_postgres() {
            eprintln!("CITYTABLE_SKIP_POSTGRES=1: skipping a Postgres test");
            return None;
        }
        let bin = pg_bin_dir().expect(
            "Postgres's server programs (initdb, pg_ctl) are neither on PATH nor under \
             /usr/lib/postgresql/*/bin: install postgresql or set CITYTABLE_SKIP_POSTGRES=1",
        );
        let root = std::env::temp_dir().join(format!("citytable-pg-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&root).expect("cluster dir");
        let as_postgres = output("id", &["-u"]).await == "0";
        if as_postgres {
            output("chown", &["postgres:", root.to_str().unwrap()]).await;
        }
        let cluster = PgCluster {
            bin,
            root,
            as_postgres,
            port: free_port(),
        };
        let data = cluster.data();
        cluster
            .run("initdb", &["-D", &data, "-U", "postgres", "--auth=trust"])
            .await;
        Some(cluster)
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    pub async fn start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.root.display()
        );
        let log = self.root.join("server.log");
        let data = self.data();
        self.run(
            "pg_ctl",
            &[
                "-D",
                &data,
                "-l",
                log.to_str().unwrap(),
                "-o",
                &options,
                "-w",
                "start",
            ],
        )
        .await;
    }

    pub async fn stop(&self) {
        let data = self.data();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"])
            .await;
    }

    fn data(&self) -> String {
        self.root.join("data").to_str().unwrap().to_owned()
    }

    /// `program` of the cluster's Postgres, run as the `postgres` user when needed.
    fn command(&self, program: &str) -> std::process::Command {
        let program = self.bin.join(program);
        if self.as_postgres {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            std::process::Command::new(program)
        }
    }

    async fn run(&self, program: &str, args: &[&str]) {
        let out = Command::from(self.command(program))
            .args(args)
            .output()
            .await
            .expect("run a Postgres program");
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The directory holding `initdb` and `pg_ctl`: on PATH, else the newest
/// `/usr/lib/postgresql/<version>/bin` (where Debian's packages put them).
fn pg_bin_dir() -> Option<PathBuf> {
    let has_both = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(d) = std::env::split_paths(&path).find(|d| has_both(d)) {
        return Some(d);
    }
    std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            has_both(&bin).then_some((version, bin))
        })
        .max()
        .map(|(_, bin)| bin)
}

/// What a command printed, trimmed; panics when it fails.
async fn output(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .await
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    assert!(out.status.success(), "{program} {args:?} failed");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

// ----- the server process -----

/// The `citytable` binary: the one cargo built for this test, else `CITYTABLE_BIN`,
/// else the one next to the running executable (e.g. `target/release/citytable`).
pub fn server_bin() -> PathBuf {
    if let Some(p) = option_env!("CARGO_BIN_EXE_citytable") {
        return PathBuf::from(p);
    }
    if let Some(p) = std::env::var_os("CITYTABLE_BIN") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe.parent().expect("exe dir");
    let dir = if dir.ends_with("deps") {
        dir.parent().expect("target dir")
    } else {
        dir
    };
    dir.join("citytable")
}

/// The `citytable` binary running as a child process, its output captured line by line.
pub struct Proc {
    child: Child,
    pub pid: u32,
    pub addr: SocketAddr,
    /// Every line the process wrote to stdout and stderr, in arrival order.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Proc {
    /// Starts the server on `port` (127.0.0.1) with the default log level and
    /// waits until `/healthz` answers.
    pub async fn start(
        data_dir: &Path,
        database_url: Option<&str>,
        port: u16,
        bot_delay_ms: u64,
        log: Arc<Mutex<Vec<String>>>,
    ) -> Proc {
        let mut cmd = Command::new(server_bin());
        cmd.env("PORT", port.to_string())
            .env("DATA_DIR", data_dir)
            .env("BOT_DELAY_MS", bot_delay_ms.to_string())
            .env("TABLES_PER_MINUTE", "0")
            .env("RECORDS_PER_MINUTE", "0")
            .env("DATABASE_URL", database_url.unwrap_or(""))
            .env_remove("RUST_LOG")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = cmd.spawn().expect("spawn citytable");
        let pid = child.id().expect("pid");
        for out in [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Unpin + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Unpin + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let log = log.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(out).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    log.lock().unwrap().push(line);
                }
            });
        }
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
        let mut p = Proc {
            child,
            pid,
            addr,
            log,
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = p.child.try_wait() {
                let log = p.log.lock().unwrap().join("\n");
                panic!("citytable exited at start ({status}):\n{log}");
            }
            if let Some((200, _)) = try_http(p.addr, "GET", "/healthz", None).await {
                return p;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "citytable did not come up"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL: no shutdown code runs.
    pub async fn kill(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }

    /// SIGTERM, then wait (a graceful stop).
    pub async fn stop(mut self) {
        let pid = i32::try_from(self.pid).expect("pid");
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status();
        if tokio::time::timeout(Duration::from_secs(20), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.start_kill();
            let _ = self.child.wait().await;
        }
    }

    /// Resident memory of the process in KiB (Linux).
    pub fn rss_kib(&self) -> Option<u64> {
        rss_kib(self.pid)
    }

    pub fn ws_url(&self, code: &str) -> String {
        format!("ws://{}/ws/{code}", self.addr)
    }
}

pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
}

// ----- HTTP -----

/// One HTTP/1.1 request; `None` when the server is not reachable.
pub async fn try_http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Option<(u16, String)> {
    let mut s = tokio::time::timeout(Duration::from_secs(5), TcpStream::connect(addr))
        .await
        .ok()?
        .ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.ok()?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf))
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = text.split_whitespace().nth(1)?.parse().ok()?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Some((status, body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest.get(n + 2..).unwrap_or("");
    }
    out
}

pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let (status, text) = try_http(addr, method, path, body)
        .await
        .expect("server reachable");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Creates a table; returns (invite code, spectator code, host token).
pub async fn create_table(addr: SocketAddr, req: &Value) -> (String, String, String) {
    let (status, body) = http(addr, "POST", "/api/tables", Some(req)).await;
    assert_eq!(status, 200, "create table: {body}");
    (
        body["invite_code"].as_str().expect("invite").to_owned(),
        body["spectator_code"]
            .as_str()
            .expect("spectator")
            .to_owned(),
        body["token"].as_str().expect("token").to_owned(),
    )
}

// ----- WebSocket -----

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A table socket.
pub struct Client {
    pub ws: Ws,
    pub you: Value,
    /// Every text frame received, raw.
    pub raw: Vec<String>,
    pub keep_raw: bool,
}

impl Client {
    pub async fn try_connect(url: &str) -> Option<Client> {
        let (ws, _) = tokio::time::timeout(
            Duration::from_secs(5),
            tokio_tungstenite::connect_async(url),
        )
        .await
        .ok()?
        .ok()?;
        Some(Client {
            ws,
            you: Value::Null,
            raw: Vec::new(),
            keep_raw: false,
        })
    }

    pub async fn connect(url: &str) -> Client {
        Client::try_connect(url).await.expect("connect ws")
    }

    /// Opens a socket, says hello and waits for `welcome`.
    pub async fn join(url: &str, name: &str, token: Option<&str>) -> Client {
        let mut c = Client::connect(url).await;
        let mut hello = json!({"type": "hello", "name": name});
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        c.send(&hello).await;
        c.recv_type("welcome").await;
        c
    }

    pub async fn send(&mut self, v: &Value) -> bool {
        self.ws.send(Message::text(v.to_string())).await.is_ok()
    }

    pub async fn send_text(&mut self, s: String) -> bool {
        self.ws.send(Message::text(s)).await.is_ok()
    }

    /// The next JSON message within `wait`; `Err(true)` on timeout, `Err(false)` when closed.
    pub async fn next_within(&mut self, wait: Duration) -> Result<Value, bool> {
        loop {
            let msg = match tokio::time::timeout(wait, self.ws.next()).await {
                Err(_) => return Err(true),
                Ok(m) => m,
            };
            match msg {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("server sends JSON");
                    if self.keep_raw {
                        self.raw.push(t.as_str().to_owned());
                    }
                    if v["type"] == "welcome" {
                        self.you = v["you"].clone();
                    }
                    return Ok(v);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Err(false),
                Some(Ok(_)) => continue,
            }
        }
    }

    pub async fn recv(&mut self) -> Value {
        self.next_within(Duration::from_secs(20))
            .await
            .expect("a message in time")
    }

    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == ty {
                return v;
            }
            if v["type"] == "error" && ty != "error" {
                panic!("expected {ty}, got {v}");
            }
        }
    }

    pub async fn expect_error(&mut self, code: &str) -> Value {
        let e = self.recv_type("error").await;
        assert_eq!(e["code"], code, "unexpected error {e}");
        e
    }

    pub fn token(&self) -> Option<String> {
        self.you["token"].as_str().map(str::to_owned)
    }
}

// ----- a cuttable TCP proxy -----

/// Forwards connections to `upstream` until cut; a cut closes every forwarded
/// connection and refuses new ones until restored.
pub struct Proxy {
    pub addr: SocketAddr,
    cut: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Proxy {
    pub async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("proxy bind");
        let addr = listener.local_addr().expect("proxy addr");
        let cut = Arc::new(AtomicBool::new(false));
        let conns: Arc<Mutex<Vec<tokio::task::AbortHandle>>> = Arc::default();
        let (c2, k2) = (cut.clone(), conns.clone());
        let accept = tokio::spawn(async move {
            while let Ok((mut down, _)) = listener.accept().await {
                if c2.load(Ordering::SeqCst) {
                    drop(down);
                    continue;
                }
                let upstream = upstream.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut up) = TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut down, &mut up).await;
                    }
                });
                k2.lock().unwrap().push(task.abort_handle());
            }
        });
        Proxy {
            addr,
            cut,
            conns,
            accept,
        }
    }

    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for c in self.conns.lock().unwrap().drain(..) {
            c.abort();
        }
    }

    pub fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.accept.abort();
    }
}

// ----- clients that play through restarts and outages -----

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
    c.send(v).await
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
        let mut hello =
            json!({"type": "hello", "name": if seat.is_some() { "Player" } else { "Watcher" }});
        if let Some(t) = &token {
            hello["token"] = json!(t);
        }
        if !paced(&mut c, &mut last_send, &hello).await {
            continue;
        }
        let mut view: Option<Value> = None;
        let mut version = 0u64;
        let mut awaiting: Vec<u64> = Vec::new();
        let mut pending: HashMap<u64, (u64, Value)> = HashMap::new();
        let mut asked = false;
        let mut snapshot_seen = false;
        loop {
            if world.stop.load(Ordering::SeqCst) {
                return;
            }
            if world.drops.load(Ordering::SeqCst) != drops {
                let _ = c.ws.close(None).await;
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
                Err(true) => {
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
                Err(false) => break,
            };
            match m["type"].as_str() {
                Some("snapshot") => {
                    let g = &m["game"];
                    version = g["version"].as_u64().unwrap_or(0);
                    view = Some(g["view"].clone());
                    awaiting = seats(&g["awaiting"]);
                    if g.get("outcome").is_some_and(|o| !o.is_null()) {
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
                    rec.views.lock().unwrap().push((
                        viewer.clone(),
                        version,
                        hash_value(view.as_ref().unwrap_or(&Value::Null)),
                    ));
                    pending.clear();
                    asked = false;
                }
                Some("update") => {
                    let v = m["version"].as_u64().unwrap_or(0);
                    let Some(current) = view.as_mut() else {
                        continue;
                    };
                    if v != version + 1 {
                        view = None;
                        let _ = paced(&mut c, &mut last_send, &json!({"type": "resync"})).await;
                        continue;
                    }
                    let patch: json_patch::Patch =
                        serde_json::from_value(m["patch"].clone()).expect("a JSON patch");
                    if let Err(e) = json_patch::patch(current, &patch) {
                        rec.violation(format!("{viewer}: patch does not apply: {e}"));
                        view = None;
                        let _ = paced(&mut c, &mut last_send, &json!({"type": "resync"})).await;
                        continue;
                    }
                    version = v;
                    awaiting = seats(&m["awaiting"]);
                    if m.get("outcome").is_some_and(|o| !o.is_null()) {
                        rec.finished.store(true, Ordering::SeqCst);
                    }
                    rec.saw(v);
                    rec.views
                        .lock()
                        .unwrap()
                        .push((viewer.clone(), v, hash_value(current)));
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
                        || !awaiting.contains(&s)
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
                && view.is_some()
                && awaiting.contains(&s)
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

fn seats(awaiting: &Value) -> Vec<u64> {
    awaiting["seats"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
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
    let _ = host.ws.close(None).await;
    for mut guest in guests {
        let _ = guest.ws.close(None).await;
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
        assert_eq!(
            *entry,
            json!({"move": {"seat": seat, "mv": mv}}),
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
            state = kind
                .replay_step(state.as_ref(), &moves[(v - 1) as usize].entry)
                .unwrap_or_else(|| panic!("entry {} replays", v - 1));
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

/// Replays one entry on a copy (the server's own adapter, used here only to step).
pub trait ReplayStep {
    fn replay_step(
        &self,
        state: &dyn server::games::ErasedGame,
        entry: &Value,
    ) -> Option<Box<dyn server::games::ErasedGame>>;
}

impl ReplayStep for Arc<dyn server::games::GameKind> {
    fn replay_step(
        &self,
        state: &dyn server::games::ErasedGame,
        entry: &Value,
    ) -> Option<Box<dyn server::games::ErasedGame>> {
        state.try_entry(entry).ok().map(|a| a.state)
    }
}
