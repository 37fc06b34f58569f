//! The real `citytable` binary as a child process: started on a port of the test's
//! choosing and waited for until `/healthz` answers, stopped by SIGKILL (no shutdown code
//! runs) or SIGTERM, started again on the same port and store.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::http::try_http;

/// The `citytable` binary: cargo's build for the calling test crate when it has one
/// (`CARGO_BIN_EXE_citytable`, read where the macro is used), else [`server_bin`]'s
/// fallbacks.
#[macro_export]
macro_rules! citytable_bin {
    () => {
        $crate::process::server_bin(option_env!("CARGO_BIN_EXE_citytable"))
    };
}

/// The `citytable` binary: `built` (the one cargo built for a test), else
/// `CITYTABLE_BIN`, else the one next to the running executable (e.g.
/// `target/release/citytable`).
pub fn server_bin(built: Option<&str>) -> PathBuf {
    if let Some(p) = built {
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

/// How to start the server process; start it again with the same value to restart it
/// on the same port and store.
#[derive(Clone)]
pub struct Launch {
    pub bin: PathBuf,
    pub data_dir: PathBuf,
    /// Postgres; SQLite in `data_dir` when `None`.
    pub database_url: Option<String>,
    /// On 127.0.0.1.
    pub port: u16,
    pub bot_delay_ms: u64,
    /// More environment variables of the process (cluster mode's `NATS_URL`, ...).
    pub env: Vec<(String, String)>,
    /// Every line the processes wrote to stdout and stderr, in arrival order.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Launch {
    /// SQLite in `data_dir`, a free port, bots without delay, the test configuration's
    /// budgets (table and record creation unlimited).
    pub fn new(bin: PathBuf, data_dir: &Path) -> Launch {
        Launch {
            bin,
            data_dir: data_dir.to_owned(),
            database_url: None,
            port: crate::free_port(),
            bot_delay_ms: 0,
            env: Vec::new(),
            log: Arc::default(),
        }
    }

    pub fn database_url(mut self, url: Option<&str>) -> Launch {
        self.database_url = url.map(str::to_owned);
        self
    }

    pub fn bot_delay_ms(mut self, ms: u64) -> Launch {
        self.bot_delay_ms = ms;
        self
    }

    /// One more environment variable of the process.
    pub fn env(mut self, name: &str, value: &str) -> Launch {
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Starts the server with the default log level and waits until `/healthz` answers.
    pub async fn start(&self) -> Proc {
        let mut cmd = Command::new(&self.bin);
        cmd.env("PORT", self.port.to_string())
            .env("DATA_DIR", &self.data_dir)
            .env("BOT_DELAY_MS", self.bot_delay_ms.to_string())
            .env("TABLES_PER_MINUTE", "0")
            .env("RECORDS_PER_MINUTE", "0")
            .env("DATABASE_URL", self.database_url.as_deref().unwrap_or(""))
            .env_remove("RUST_LOG")
            .env("NO_COLOR", "1")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", self.bin.display()));
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
            let log = self.log.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(out).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    log.lock().unwrap().push(line);
                }
            });
        }
        let addr: SocketAddr = format!("127.0.0.1:{}", self.port).parse().expect("addr");
        let mut p = Proc {
            child,
            pid,
            addr,
            log: self.log.clone(),
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
    /// SIGKILL: no shutdown code runs.
    pub async fn kill(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }

    /// Sends a signal (`STOP`, `CONT`, ...) without waiting for anything.
    pub fn signal(&self, name: &str) {
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &self.pid.to_string()])
            .status()
            .expect("kill");
        assert!(status.success(), "kill -{name} {}", self.pid);
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

    /// Polls `/readyz` until it answers `want`; fails after `secs`.
    pub async fn readyz_becomes(&self, want: u16, secs: u64) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let got = try_http(self.addr, "GET", "/readyz", None).await;
            if got.as_ref().map(|g| g.0) == Some(want) {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "/readyz should answer {want}, got {got:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
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

/// Resident memory of a process in KiB (Linux).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
}
