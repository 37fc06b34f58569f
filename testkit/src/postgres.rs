//! Postgres for tests.
//!
//! `TEST_DATABASE_URL` (default [`DEFAULT_TEST_DATABASE_URL`]) names a server and a
//! database to connect to for creating and dropping `<prefix>_<uuid>` databases
//! ([`PgDatabase`]). An unreachable server fails the Postgres tests unless
//! `CITYTABLE_SKIP_POSTGRES=1`.
//!
//! For outages: [`PgCluster`], a Postgres server of the test's own, stopped and started
//! with `pg_ctl`, and [`Proxy`], a TCP proxy the test cuts and restores.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use sqlx::Connection;
use sqlx::postgres::PgConnection;
use tokio::net::{TcpListener, TcpStream};
use tokio::process::Command;
use uuid::Uuid;

pub const DEFAULT_TEST_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// Postgres tests are skipped on purpose (`CITYTABLE_SKIP_POSTGRES=1`).
pub fn skip_postgres() -> bool {
    std::env::var("CITYTABLE_SKIP_POSTGRES").is_ok_and(|v| v == "1")
}

/// The URL tests create and drop their databases through.
pub fn admin_url() -> String {
    std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_TEST_DATABASE_URL.to_string())
}

/// `(scheme, authority, path with query)` of a URL (path and query without the `/`).
fn split_url(url: &str) -> (&str, &str, Option<&str>) {
    let (scheme, rest) = url.split_once("://").expect("database url has a scheme");
    match rest.find(['/', '?']) {
        Some(i) => {
            let (authority, tail) = rest.split_at(i);
            (
                scheme,
                authority,
                Some(tail.strip_prefix('/').unwrap_or(tail)),
            )
        }
        None => (scheme, rest, None),
    }
}

/// `url` with its database name replaced by `name` (query string kept).
pub fn with_database(url: &str, name: &str) -> String {
    let (scheme, authority, tail) = split_url(url);
    match tail.and_then(|t| t.split_once('?')) {
        Some((_, q)) => format!("{scheme}://{authority}/{name}?{q}"),
        None => format!("{scheme}://{authority}/{name}"),
    }
}

/// `url` with its host and port replaced by `addr` (user, database and query kept).
pub fn with_address(url: &str, addr: SocketAddr) -> String {
    let (scheme, authority, tail) = split_url(url);
    let authority = match authority.rsplit_once('@') {
        Some((user, _)) => format!("{user}@{addr}"),
        None => addr.to_string(),
    };
    match tail {
        Some(t) if t.starts_with('?') => format!("{scheme}://{authority}{t}"),
        Some(t) => format!("{scheme}://{authority}/{t}"),
        None => format!("{scheme}://{authority}"),
    }
}

/// Where the admin URL's Postgres listens (`host:port`).
pub fn pg_addr() -> String {
    let url = admin_url();
    let (_, authority, _) = split_url(&url);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    if host.contains(':') {
        host.to_owned()
    } else {
        format!("{host}:5432")
    }
}

/// A database created for one test and dropped (connections forced off) when this
/// value is dropped, also when the test fails.
#[derive(Debug)]
pub struct PgDatabase {
    pub admin_url: String,
    pub name: String,
    /// Where the test connects.
    pub url: String,
}

impl PgDatabase {
    /// A new empty database named `<prefix>_<uuid>`; `None` when Postgres tests are
    /// skipped on purpose.
    pub async fn create(prefix: &str) -> Option<PgDatabase> {
        if skip_postgres() {
            eprintln!("CITYTABLE_SKIP_POSTGRES=1: skipping a Postgres test");
            return None;
        }
        let admin_url = admin_url();
        let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|e| {
            panic!(
                "Postgres for tests is unreachable at TEST_DATABASE_URL ({e}); start it or set \
                 CITYTABLE_SKIP_POSTGRES=1"
            )
        });
        let name = format!("{prefix}_{}", Uuid::new_v4().simple());
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("create database {name}")))
            .execute(&mut admin)
            .await
            .expect("create test database");
        let _ = admin.close().await;
        let url = with_database(&admin_url, &name);
        Some(PgDatabase {
            admin_url,
            name,
            url,
        })
    }

    /// Drops the database now; later connections fail.
    pub async fn drop_now(&self) {
        drop_database(&self.admin_url, &self.name).await;
    }
}

async fn drop_database(admin_url: &str, name: &str) {
    let mut admin = PgConnection::connect(admin_url)
        .await
        .expect("connect to drop the test database");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "drop database if exists {name} with (force)"
    )))
    .execute(&mut admin)
    .await
    .expect("drop test database");
    let _ = admin.close().await;
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // Drop may run inside a test's runtime, which cannot block on async work: use a
        // runtime of its own on another thread.
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        let joined = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime to drop the test database");
            rt.block_on(drop_database(&admin_url, &name));
        })
        .join();
        if joined.is_err() && !std::thread::panicking() {
            panic!("dropping the test database failed");
        }
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
        if skip_postgres() {
            eprintln!("CITYTABLE_SKIP_POSTGRES=1: skipping a Postgres test");
            return None;
        }
        let bin = pg_bin_dir().expect(
            "Postgres's server programs (initdb, pg_ctl) are neither on PATH nor under \
             /usr/lib/postgresql/*/bin: install postgresql or set CITYTABLE_SKIP_POSTGRES=1",
        );
        let root = std::env::temp_dir().join(format!("citytable-pg-{}", Uuid::new_v4()));
        std::fs::create_dir_all(&root).expect("cluster dir");
        let as_postgres = output("id", &["-u"]).await == "0";
        if as_postgres {
            output("chown", &["postgres:", root.to_str().unwrap()]).await;
        }
        let cluster = PgCluster {
            bin,
            root,
            as_postgres,
            port: crate::free_port(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_database_keeps_server_and_query() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/postgres?sslmode=disable", "x"),
            "postgres://u:p@h:5432/x?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
        assert_eq!(with_database("postgres://h?a=b", "x"), "postgres://h/x?a=b");
    }

    #[test]
    fn with_address_keeps_user_database_and_query() {
        let addr: SocketAddr = "127.0.0.1:7777".parse().unwrap();
        assert_eq!(
            with_address("postgres://u:p@h:5432/db?sslmode=disable", addr),
            "postgres://u:p@127.0.0.1:7777/db?sslmode=disable"
        );
        assert_eq!(
            with_address("postgres://h/db", addr),
            "postgres://127.0.0.1:7777/db"
        );
        assert_eq!(
            with_address("postgres://h", addr),
            "postgres://127.0.0.1:7777"
        );
    }
}
