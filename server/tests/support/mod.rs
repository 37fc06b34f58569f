//! Test support: a server on port 0 in a runtime of its own (so a test can kill it
//! abruptly), a fresh SQLite directory or Postgres database per test, and small
//! WebSocket and HTTP clients.
//!
//! Postgres databases (`citytable_server_test_<uuid>`) come from the `testdb` crate
//! (`TEST_DATABASE_URL`, `CITYTABLE_SKIP_POSTGRES=1`).

#![allow(dead_code, clippy::unwrap_used)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use server::Config;
use server::db::{Db, StoreDb};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use uuid::Uuid;

/// How long a test waits for one message before failing.
pub const WAIT: Duration = Duration::from_secs(20);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// A test database, removed when dropped.
pub struct TestDb {
    pub url: Option<String>,
    pub dir: PathBuf,
    pg: Option<testdb::PgDatabase>,
}

impl TestDb {
    /// A fresh SQLite directory (not created yet: the store creates it).
    pub fn sqlite() -> TestDb {
        TestDb {
            url: None,
            dir: std::env::temp_dir().join(format!("citytable-server-test-{}", Uuid::new_v4())),
            pg: None,
        }
    }

    /// `(admin url, database name)` of a Postgres test database.
    pub fn pg(&self) -> Option<(&str, &str)> {
        self.pg
            .as_ref()
            .map(|db| (db.admin_url.as_str(), db.name.as_str()))
    }

    /// `None` when Postgres tests are skipped on purpose.
    pub async fn new(kind: Kind) -> Option<TestDb> {
        match kind {
            Kind::Sqlite => Some(TestDb::sqlite()),
            Kind::Postgres => {
                let pg = testdb::PgDatabase::create("citytable_server_test").await?;
                let mut db = TestDb::sqlite();
                db.url = Some(pg.url.clone());
                db.pg = Some(pg);
                Some(db)
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // The Postgres database (if any) drops itself.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A server running in its own runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    rt: Option<tokio::runtime::Runtime>,
    stop: Option<oneshot::Sender<()>>,
    stopped: Option<oneshot::Receiver<()>>,
}

/// Applies an update's patch to a view.
pub fn patched(view: &Value, update: &Value) -> Value {
    let patch: json_patch::Patch =
        serde_json::from_value(update["patch"].clone()).expect("patch is RFC 6902");
    let mut v = view.clone();
    json_patch::patch(&mut v, &patch).expect("patch applies");
    v
}

/// Every public view of a game record: its first view, then each patch applied.
pub fn record_views(record: &Value) -> Vec<Value> {
    let mut view = record["first_view"].clone();
    let mut views = vec![view.clone()];
    for patch in record["patches"].as_array().expect("patches") {
        let patch: json_patch::Patch =
            serde_json::from_value(patch.clone()).expect("patch is RFC 6902");
        json_patch::patch(&mut view, &patch).expect("patch applies");
        views.push(view.clone());
    }
    views
}

pub fn test_config() -> Config {
    Config {
        bot_delay: Duration::ZERO,
        // Tests create many tables from one address; hostile.rs checks the budget.
        tables_per_minute: 0.0,
        records_per_minute: 0.0,
        ..Config::default()
    }
}

impl TestServer {
    /// Starts a server on the test database (opening the store inside the
    /// server's runtime, as a fresh process would).
    pub async fn start(db: &TestDb) -> TestServer {
        Self::start_config(db, test_config()).await
    }

    pub async fn start_config(db: &TestDb, config: Config) -> TestServer {
        let url = db.url.clone();
        let dir = db.dir.clone();
        Self::start_full(
            move || async move {
                let store = store::Store::open(url.as_deref(), &dir)
                    .await
                    .expect("open store");
                Arc::new(StoreDb::new(store)) as Arc<dyn Db>
            },
            false,
            config,
        )
        .await
    }

    /// Starts a server on a given store, optionally with paused time (timers
    /// then fire as soon as the server is idle).
    pub async fn start_with<F, Fut>(make_db: F, paused: bool) -> TestServer
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Arc<dyn Db>> + Send,
    {
        Self::start_full(make_db, paused, test_config()).await
    }

    pub async fn start_full<F, Fut>(make_db: F, paused: bool, config: Config) -> TestServer
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Arc<dyn Db>> + Send,
    {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        std_listener.set_nonblocking(true).expect("nonblocking");
        let addr = std_listener.local_addr().expect("addr");
        let (stop, stop_rx) = oneshot::channel::<()>();
        let (stopped_tx, stopped) = oneshot::channel::<()>();
        let (ready_tx, ready) = oneshot::channel::<()>();
        let task = async move {
            let listener = tokio::net::TcpListener::from_std(std_listener).expect("listener");
            let db = make_db().await;
            let _ = ready_tx.send(());
            server::serve(listener, db, config, async {
                let _ = stop_rx.await;
            })
            .await
            .expect("serve");
            let _ = stopped_tx.send(());
        };
        if paused {
            // A current-thread runtime runs only while someone blocks on it.
            let handle = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .start_paused(true)
                    .build()
                    .expect("paused runtime");
                rt.block_on(task);
            });
            drop(handle);
            ready.await.expect("server ready");
            return TestServer {
                addr,
                rt: None,
                stop: Some(stop),
                stopped: Some(stopped),
            };
        }
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("server runtime");
        rt.spawn(task);
        ready.await.expect("server ready");
        TestServer {
            addr,
            rt: Some(rt),
            stop: Some(stop),
            stopped: Some(stopped),
        }
    }

    /// Stops the server abruptly, as `kill -9` would: every task is dropped
    /// wherever it is.
    pub fn kill(mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }

    /// Graceful shutdown; waits until the server stopped.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(stopped) = self.stopped.take() {
            let _ = tokio::time::timeout(WAIT, stopped).await;
        }
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }

    pub fn ws_url(&self, code: &str) -> String {
        format!("ws://{}/ws/{code}", self.addr)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        http(self.addr, "GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        http(self.addr, "POST", path, Some(body)).await
    }

    pub async fn get_text(&self, path: &str) -> (u16, String) {
        http_raw(self.addr, "GET", path, None).await
    }

    /// Creates a table; returns (invite code, spectator code, host token).
    pub async fn create_table(
        &self,
        game: &str,
        seats: u8,
        public: bool,
    ) -> (String, String, String) {
        self.create_table_with(json!({
            "game": game,
            "name": "Host",
            "settings": {"seats": seats, "options": {}, "spectators_allowed": true, "public": public}
        }))
        .await
    }

    pub async fn create_table_with(&self, req: Value) -> (String, String, String) {
        let (status, body) = self.post("/api/tables", &req).await;
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

    /// Opens a socket and says hello; returns the client after its `welcome`.
    pub async fn join(&self, code: &str, name: &str, token: Option<&str>) -> Client {
        let mut c = Client::connect(&self.ws_url(code)).await;
        let mut hello = json!({"type": "hello", "name": name});
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        c.send(&hello).await;
        let w = c.recv_type("welcome").await;
        c.you = w["you"].clone();
        c
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

async fn http_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .expect("http answer in time")
        .expect("read");
    let text = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let (status, text) = http_raw(addr, method, path, body).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Called with every message a client receives (raw text and JSON).
pub type Check = Box<dyn FnMut(&str, &Value) + Send>;

/// A table socket.
pub struct Client {
    pub ws: Ws,
    /// The latest `you` from a `welcome`.
    pub you: Value,
    pub check: Option<Check>,
}

impl Client {
    pub async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect ws");
        Client {
            ws,
            you: Value::Null,
            check: None,
        }
    }

    pub async fn send(&mut self, v: &Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, s: String) {
        self.ws.send(Message::text(s)).await.expect("send");
    }

    /// The next JSON message; `None` when the socket closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time");
            match msg {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("server sends JSON");
                    if let Some(check) = self.check.as_mut() {
                        check(t.as_str(), &v);
                    }
                    if v["type"] == "welcome" {
                        self.you = v["you"].clone();
                    }
                    return Some(v);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    pub async fn recv(&mut self) -> Value {
        self.next().await.expect("socket open")
    }

    /// Skips messages until one of type `ty`.
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

    /// Skips messages until an error; asserts its code.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        let e = self.recv_type("error").await;
        assert_eq!(e["code"], code, "unexpected error {e}");
        e
    }

    /// Asks for a snapshot and returns its game.
    pub async fn snapshot(&mut self) -> Value {
        self.send(&json!({"type": "resync"})).await;
        self.recv_type("snapshot").await["game"].clone()
    }

    pub async fn table(&mut self) -> Value {
        self.send(&json!({"type": "resync"})).await;
        self.recv_type("welcome").await["table"].clone()
    }

    pub fn token(&self) -> Option<String> {
        self.you["token"].as_str().map(str::to_owned)
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Runs an async test body against SQLite and Postgres.
#[macro_export]
macro_rules! both_stores {
    ($name:ident, $body:ident) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = support::TestDb::new(support::Kind::Sqlite)
                    .await
                    .expect("sqlite db");
                $body(&db).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = support::TestDb::new(support::Kind::Postgres).await else {
                    return;
                };
                $body(&db).await;
            }
        }
    };
}
