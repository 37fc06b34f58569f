//! The errors of the store: four kinds a caller can act on, worded without row contents.

use std::borrow::Cow;

use sqlx::error::ErrorKind;
use uuid::Uuid;

/// What went wrong with a storage call. The messages name the operation and, for constraint
/// violations, the schema object involved; they never contain stored values, so they are safe
/// to log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached or cannot serve the call right now (connection or I/O
    /// failure, pool exhausted, lock timeout, shutting down). Nothing was stored; trying again
    /// later may succeed.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// The call contradicts what is stored: a duplicate key (`(game_id, seq)`, an id, a table
    /// code), a reference to a missing table or game, or a value the schema rejects. Nothing
    /// was stored.
    #[error("storage conflict: {0}")]
    Conflict(String),
    /// A stored row could not be decoded (or the database file is damaged).
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// A fenced write was refused: `epoch` is no longer the lease epoch of table `table_id`
    /// (another node took the table over, or its lease lapsed and was taken again). Nothing
    /// was stored; the writer no longer owns the table and must drop it, not retry.
    #[error("write refused: lease epoch {epoch} of table {table_id} is no longer current")]
    Fenced { table_id: Uuid, epoch: i64 },
}

impl StoreError {
    /// True for [`StoreError::Unavailable`]: the caller may answer "try again".
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }

    /// True for [`StoreError::Conflict`].
    pub fn is_conflict(&self) -> bool {
        matches!(self, StoreError::Conflict(_))
    }

    /// True for [`StoreError::Fenced`]: the writer has lost the table.
    pub fn is_fenced(&self) -> bool {
        matches!(self, StoreError::Fenced { .. })
    }
}

/// Classifies a driver error. `what` names the operation. Driver messages are only copied when
/// they cannot hold row data (I/O errors, schema names of violated constraints).
pub(crate) fn db_error(what: &str, e: sqlx::Error) -> StoreError {
    use sqlx::Error as E;
    match e {
        E::Database(db) => database_error(what, db.as_ref()),
        E::Io(io) => StoreError::Unavailable(format!("{what}: {io}")),
        E::Tls(_) => StoreError::Unavailable(format!("{what}: tls handshake failed")),
        E::Configuration(_) => StoreError::Unavailable(format!("{what}: invalid configuration")),
        E::PoolTimedOut => StoreError::Unavailable(format!("{what}: no connection available")),
        E::PoolClosed => StoreError::Unavailable(format!("{what}: store is closed")),
        E::WorkerCrashed => StoreError::Unavailable(format!("{what}: database worker stopped")),
        E::Protocol(_) => StoreError::Unavailable(format!("{what}: database protocol error")),
        E::BeginFailed | E::InvalidSavePointStatement => {
            StoreError::Unavailable(format!("{what}: cannot begin a transaction"))
        }
        E::ColumnDecode { index, .. } => {
            StoreError::Corrupt(format!("{what}: cannot decode column {index}"))
        }
        E::ColumnNotFound(name) => StoreError::Corrupt(format!("{what}: missing column {name}")),
        E::ColumnIndexOutOfBounds { index, .. } => {
            StoreError::Corrupt(format!("{what}: missing column {index}"))
        }
        E::TypeNotFound { .. } | E::Decode(_) | E::RowNotFound => {
            StoreError::Corrupt(format!("{what}: cannot decode a row"))
        }
        E::Encode(_) => StoreError::Conflict(format!("{what}: cannot encode a value")),
        E::Migrate(m) => migrate_error(what, *m),
        _ => StoreError::Unavailable(format!("{what}: database error")),
    }
}

fn database_error(what: &str, db: &dyn sqlx::error::DatabaseError) -> StoreError {
    // Postgres names the violated constraint; SQLite's message names the columns or the
    // constraint ("UNIQUE constraint failed: game_move.game_id, game_move.seq"), never values.
    let object: Cow<'_, str> = match (db.constraint(), db.code()) {
        (Some(c), _) => Cow::Borrowed(c),
        (None, Some(code)) if is_sqlite_code(&code) => Cow::Borrowed(db.message()),
        _ => Cow::Borrowed("constraint"),
    };
    match db.kind() {
        ErrorKind::UniqueViolation => StoreError::Conflict(format!("{what}: duplicate ({object})")),
        ErrorKind::ForeignKeyViolation => {
            StoreError::Conflict(format!("{what}: refers to a missing row ({object})"))
        }
        ErrorKind::NotNullViolation | ErrorKind::CheckViolation | ErrorKind::ExclusionViolation => {
            StoreError::Conflict(format!("{what}: value rejected ({object})"))
        }
        _ => {
            let code = db.code().unwrap_or(Cow::Borrowed("unknown"));
            if is_sqlite_code(&code) {
                sqlite_error(what, &code)
            } else {
                postgres_error(what, &code)
            }
        }
    }
}

/// SQLite result codes are numbers below 10000; Postgres SQLSTATEs always have five characters.
pub(crate) fn is_sqlite_code(code: &str) -> bool {
    !code.is_empty() && code.len() < 5 && code.bytes().all(|b| b.is_ascii_digit())
}

fn sqlite_error(what: &str, code: &str) -> StoreError {
    // Extended result codes carry the primary code in their low byte.
    let primary = code.parse::<i64>().map(|c| c & 0xff).unwrap_or(-1);
    match primary {
        // SQLITE_CORRUPT, SQLITE_NOTADB
        11 | 26 => StoreError::Corrupt(format!("{what}: database file is damaged (sqlite {code})")),
        // SQLITE_CONSTRAINT not mapped to a kind above
        19 => StoreError::Conflict(format!("{what}: constraint failed (sqlite {code})")),
        // BUSY, LOCKED, IOERR, FULL, CANTOPEN, READONLY and anything else: retry may work
        _ => StoreError::Unavailable(format!("{what}: database error (sqlite {code})")),
    }
}

fn postgres_error(what: &str, code: &str) -> StoreError {
    match code.get(..2) {
        // integrity constraint violation not classified above
        Some("23") => StoreError::Conflict(format!("{what}: constraint violated ({code})")),
        // data exception: a value the column type rejects (e.g. `\u0000` in a jsonb string)
        Some("22") => StoreError::Conflict(format!("{what}: value rejected ({code})")),
        // connection, resources, operator intervention, serialization, system errors and the
        // rest: nothing was stored and a later attempt may succeed
        _ => StoreError::Unavailable(format!("{what}: database error ({code})")),
    }
}

/// A failed migration: the schema cannot be brought up to date, so the store is unusable.
pub(crate) fn migrate_error(what: &str, e: sqlx::migrate::MigrateError) -> StoreError {
    use sqlx::migrate::MigrateError as M;
    match e {
        M::Execute(inner) | M::ExecuteMigration(inner, _) => {
            match db_error(&format!("migrate {what}"), inner) {
                StoreError::Unavailable(m) | StoreError::Conflict(m) | StoreError::Corrupt(m) => {
                    StoreError::Unavailable(m)
                }
                fenced @ StoreError::Fenced { .. } => StoreError::Unavailable(fenced.to_string()),
            }
        }
        other => StoreError::Unavailable(format!("migrate {what}: {other}")),
    }
}
