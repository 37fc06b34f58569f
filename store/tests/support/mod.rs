//! Test databases: a fresh SQLite directory or a fresh Postgres database per test, removed when
//! the test ends (also when it fails).
//!
//! Postgres: `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`) names
//! a server and a database to connect to for creating and dropping `citytable_test_<uuid>`
//! databases. An unreachable server fails the Postgres tests unless
//! `CITYTABLE_SKIP_POSTGRES=1`.

#![allow(dead_code)]

use std::path::PathBuf;

use sqlx::Connection;
use sqlx::postgres::PgConnection;
use store::Store;
use uuid::Uuid;

pub const DEFAULT_TEST_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

pub enum Backend {
    Sqlite {
        dir: PathBuf,
    },
    Postgres {
        admin_url: String,
        name: String,
        url: String,
    },
}

/// One test's database and a store opened on it.
pub struct Ctx {
    pub backend: Backend,
    pub store: Store,
}

pub fn skip_postgres() -> bool {
    std::env::var("CITYTABLE_SKIP_POSTGRES").is_ok_and(|v| v == "1")
}

pub fn admin_url() -> String {
    std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_TEST_DATABASE_URL.to_string())
}

/// `url` with its database name replaced by `name` (query string kept).
pub fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("database url has a scheme");
    let (authority, query) = match rest.split_once('/') {
        Some((authority, path)) => (authority, path.split_once('?').map(|(_, q)| q)),
        None => match rest.split_once('?') {
            Some((authority, q)) => (authority, Some(q)),
            None => (rest, None),
        },
    };
    match query {
        Some(q) => format!("{scheme}://{authority}/{name}?{q}"),
        None => format!("{scheme}://{authority}/{name}"),
    }
}

impl Ctx {
    pub async fn sqlite() -> Ctx {
        let dir = std::env::temp_dir().join(format!("citytable-store-test-{}", Uuid::new_v4()));
        let store = Store::open(None, &dir).await.expect("open sqlite store");
        Ctx {
            backend: Backend::Sqlite { dir },
            store,
        }
    }

    /// `None` when Postgres tests are skipped on purpose.
    pub async fn postgres() -> Option<Ctx> {
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
        let name = format!("citytable_test_{}", Uuid::new_v4().simple());
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("create database {name}")))
            .execute(&mut admin)
            .await
            .expect("create test database");
        admin.close().await.expect("close admin connection");
        let url = with_database(&admin_url, &name);
        let backend = Backend::Postgres {
            admin_url,
            name,
            url: url.clone(),
        };
        // From here on, dropping `backend` drops the database.
        let store = match Store::open(Some(&url), std::path::Path::new("unused")).await {
            Ok(store) => store,
            Err(e) => {
                drop(backend);
                panic!("open postgres store: {e}");
            }
        };
        Some(Ctx { backend, store })
    }

    /// A second, independent store on the same database (as after a restart).
    pub async fn reopen(&self) -> Store {
        match &self.backend {
            Backend::Sqlite { dir } => Store::open(None, dir).await.expect("reopen sqlite"),
            Backend::Postgres { url, .. } => Store::open(Some(url), std::path::Path::new("unused"))
                .await
                .expect("reopen postgres"),
        }
    }

    /// Drops the Postgres database now (connections are forced off); the store stays usable
    /// as a handle but every call now fails.
    pub async fn drop_postgres_database(&self) {
        if let Backend::Postgres {
            admin_url, name, ..
        } = &self.backend
        {
            drop_database(admin_url, name).await;
        }
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

impl Drop for Backend {
    fn drop(&mut self) {
        match self {
            Backend::Sqlite { dir } => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Backend::Postgres {
                admin_url, name, ..
            } => {
                // Drop runs inside the test's runtime, which cannot block on async work:
                // use a runtime of its own on another thread.
                let admin_url = admin_url.clone();
                let name = name.clone();
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
    }
}
