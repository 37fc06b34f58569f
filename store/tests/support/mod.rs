//! Test databases: a fresh SQLite directory or a fresh Postgres database per test, removed when
//! the test ends (also when it fails). Postgres databases come from the `testdb` crate
//! (`TEST_DATABASE_URL`, `CITYTABLE_SKIP_POSTGRES=1`).

#![allow(dead_code)]

use std::path::PathBuf;

use store::Store;
use testdb::PgDatabase;
use uuid::Uuid;

pub enum Backend {
    Sqlite { dir: PathBuf },
    Postgres(PgDatabase),
}

/// One test's database and a store opened on it.
pub struct Ctx {
    pub backend: Backend,
    pub store: Store,
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
        let db = PgDatabase::create("citytable_test").await?;
        // From here on, dropping `db` drops the database.
        let store = Store::open(Some(&db.url), std::path::Path::new("unused"))
            .await
            .unwrap_or_else(|e| panic!("open postgres store: {e}"));
        Some(Ctx {
            backend: Backend::Postgres(db),
            store,
        })
    }

    /// A second, independent store on the same database (as after a restart).
    pub async fn reopen(&self) -> Store {
        match &self.backend {
            Backend::Sqlite { dir } => Store::open(None, dir).await.expect("reopen sqlite"),
            Backend::Postgres(db) => Store::open(Some(&db.url), std::path::Path::new("unused"))
                .await
                .expect("reopen postgres"),
        }
    }

    /// Drops the Postgres database now (connections are forced off); the store stays usable
    /// as a handle but every call now fails.
    pub async fn drop_postgres_database(&self) {
        if let Backend::Postgres(db) = &self.backend {
            db.drop_now().await;
        }
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        if let Backend::Sqlite { dir } = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
