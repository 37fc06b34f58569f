//! Fresh Postgres databases for tests.
//!
//! `TEST_DATABASE_URL` (default [`DEFAULT_TEST_DATABASE_URL`]) names a server and a
//! database to connect to for creating and dropping `<prefix>_<uuid>` databases. An
//! unreachable server fails the Postgres tests unless `CITYTABLE_SKIP_POSTGRES=1`.

#![allow(clippy::unwrap_used)]

use sqlx::Connection;
use sqlx::postgres::PgConnection;
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
}
