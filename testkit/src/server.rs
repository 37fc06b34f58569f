//! The server in process: on port 0, in a runtime of its own (so a test can kill it
//! abruptly), with the test configuration.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use server::Config;
use server::db::{Db, StoreDb};
use tokio::sync::oneshot;

use crate::client::Client;
use crate::db::TestDb;
use crate::{WAIT, http};

/// The configuration tests run the server with: bots move at once, and table and
/// record creation budgets are off (tests create many tables from one address;
/// `server/tests/hostile.rs` checks the budgets with a configuration of its own).
pub fn test_config() -> Config {
    Config {
        bot_delay: Duration::ZERO,
        tables_per_minute: 0.0,
        records_per_minute: 0.0,
        ..Config::default()
    }
}

/// A server running in its own runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    rt: Option<tokio::runtime::Runtime>,
    stop: Option<oneshot::Sender<()>>,
    stopped: Option<oneshot::Receiver<()>>,
}

impl TestServer {
    /// Starts a server on the test database (opening the store inside the server's
    /// runtime, as a fresh process would).
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

    /// Starts a server on a given store, optionally with paused time (timers then
    /// fire as soon as the server is idle).
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

    /// Stops the server abruptly, as `kill -9` would: every task is dropped wherever
    /// it is.
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

    /// The server is still serving: it has neither stopped nor panicked.
    pub fn is_up(&mut self) -> bool {
        self.stopped
            .as_mut()
            .is_some_and(|s| matches!(s.try_recv(), Err(oneshot::error::TryRecvError::Empty)))
    }

    pub fn ws_url(&self, code: &str) -> String {
        format!("ws://{}/ws/{code}", self.addr)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        http::http(self.addr, "GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        http::http(self.addr, "POST", path, Some(body)).await
    }

    pub async fn get_text(&self, path: &str) -> (u16, String) {
        http::http_text(self.addr, "GET", path, None).await
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
        http::create_table(self.addr, &req).await
    }

    /// Opens a socket and says hello; returns the client after its `welcome`.
    pub async fn join(&self, code: &str, name: &str, token: Option<&str>) -> Client {
        Client::join(&self.ws_url(code), name, token).await
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

/// Runs an async test body (`async fn(&TestDb)`) against SQLite and Postgres: a module
/// `$name` with the tests `sqlite` and `postgres`.
#[macro_export]
macro_rules! both_stores {
    ($name:ident, $body:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = $crate::TestDb::sqlite();
                super::$body(&db).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = $crate::TestDb::postgres().await else {
                    return;
                };
                super::$body(&db).await;
            }
        }
    };
}
