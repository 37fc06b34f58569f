//! A test's database: a fresh SQLite directory or a fresh Postgres database, removed
//! when the test ends (also when it fails), and a store opened on it.

use std::net::SocketAddr;
use std::path::PathBuf;

use store::Store;
use uuid::Uuid;

use crate::postgres::{PgDatabase, with_address};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// A test database, removed when dropped. Its directory always exists: it holds the
/// SQLite file, and is the server's data directory either way.
pub struct TestDb {
    pub kind: Kind,
    /// The database URL (Postgres), `None` for SQLite in [`TestDb::dir`].
    pub url: Option<String>,
    pub dir: PathBuf,
    pg: Option<PgDatabase>,
}

impl TestDb {
    /// A fresh SQLite directory.
    pub fn sqlite() -> TestDb {
        TestDb {
            kind: Kind::Sqlite,
            url: None,
            dir: new_dir(),
            pg: None,
        }
    }

    /// A fresh Postgres database (and a data directory); `None` when Postgres tests are
    /// skipped on purpose.
    pub async fn postgres() -> Option<TestDb> {
        let pg = PgDatabase::create("citytable_test").await?;
        Some(TestDb {
            kind: Kind::Postgres,
            url: Some(pg.url.clone()),
            dir: new_dir(),
            pg: Some(pg),
        })
    }

    /// `None` when Postgres tests are skipped on purpose.
    pub async fn new(kind: Kind) -> Option<TestDb> {
        match kind {
            Kind::Sqlite => Some(TestDb::sqlite()),
            Kind::Postgres => TestDb::postgres().await,
        }
    }

    /// The Postgres database URL with its host and port replaced by `addr` (a proxy's).
    pub fn url_via(&self, addr: SocketAddr) -> Option<String> {
        self.url.as_deref().map(|url| with_address(url, addr))
    }

    /// Opens a store on this database (as a server would; each call a new one).
    pub async fn open_store(&self) -> Store {
        Store::open(self.url.as_deref(), &self.dir)
            .await
            .unwrap_or_else(|e| panic!("open the {:?} store: {e}", self.kind))
    }

    /// Drops the Postgres database now (connections are forced off): every store on it
    /// stays usable as a handle, but every call fails.
    pub async fn drop_postgres_database(&self) {
        if let Some(pg) = &self.pg {
            pg.drop_now().await;
        }
    }
}

fn new_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("citytable-test-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("data dir");
    dir
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // The Postgres database (if any) drops itself.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One test's database and a store opened on it.
pub struct TestStore {
    pub db: TestDb,
    pub store: Store,
}

impl TestStore {
    pub async fn sqlite() -> TestStore {
        TestStore::on(TestDb::sqlite()).await
    }

    /// `None` when Postgres tests are skipped on purpose.
    pub async fn postgres() -> Option<TestStore> {
        Some(TestStore::on(TestDb::postgres().await?).await)
    }

    async fn on(db: TestDb) -> TestStore {
        let store = db.open_store().await;
        TestStore { db, store }
    }

    /// A second, independent store on the same database (as after a restart).
    pub async fn reopen(&self) -> Store {
        self.db.open_store().await
    }
}
