//! The HTTP side: the JSON API under `/api` (see `protocol::api`), `/healthz`,
//! `/readyz` and `/metrics`.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use engine::{Outcome, Viewer};
use protocol::api::{
    ApiError, CodeInfo, CreateTable, GameInfo, GameRecord, PublicTable, TableCreated,
};
use protocol::{ErrorCode, TableStatus};

use crate::db::TableRow;
use crate::games::SetupDoc;
use crate::{AppState, LookupError, codes};

/// An API error: a status, a stable code and a sentence.
pub struct ApiErr(StatusCode, ErrorCode, String);

impl ApiErr {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> ApiErr {
        ApiErr(status, code, message.into())
    }
    pub fn no_such_table() -> ApiErr {
        ApiErr::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NoSuchTable,
            "There is no table with that code.",
        )
    }
    pub fn rate_limited() -> ApiErr {
        ApiErr::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "Too many wrong codes. Wait a minute.",
        )
    }
    pub fn too_many_connections() -> ApiErr {
        ApiErr::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "Too many connections from your address. Close some tabs and retry.",
        )
    }
    pub fn try_again() -> ApiErr {
        ApiErr::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::TryAgain,
            "The server cannot reach its store right now. Try again.",
        )
    }
}

impl IntoResponse for ApiErr {
    fn into_response(self) -> Response {
        (
            self.0,
            Json(ApiError {
                code: self.1,
                message: self.2,
            }),
        )
            .into_response()
    }
}

impl From<LookupError> for ApiErr {
    fn from(e: LookupError) -> ApiErr {
        match e {
            LookupError::RateLimited => ApiErr::rate_limited(),
            LookupError::Store => ApiErr::try_again(),
        }
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/games", get(games))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{code}", get(code_info))
        .route("/api/tables/{code}/record", get(record))
}

async fn readyz(State(app): State<AppState>) -> Response {
    match app.0.db.ping().await {
        Ok(()) => (StatusCode::OK, "ready").into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "store ping failed");
            (StatusCode::SERVICE_UNAVAILABLE, "store unavailable").into_response()
        }
    }
}

async fn metrics(State(app): State<AppState>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        app.0.metrics.render(),
    )
        .into_response()
}

async fn games(State(app): State<AppState>) -> Json<Vec<GameInfo>> {
    Json(
        app.0
            .games
            .kinds()
            .iter()
            .map(|k| GameInfo {
                id: k.id().to_owned(),
                name: k.name().to_owned(),
                min_seats: *k.seats().start(),
                max_seats: *k.seats().end(),
                default_options: k.default_options(),
            })
            .collect(),
    )
}

async fn list_tables(State(app): State<AppState>) -> Json<Vec<PublicTable>> {
    let list = app
        .0
        .lobby
        .lock()
        .map(|l| l.values().cloned().collect())
        .unwrap_or_default();
    Json(list)
}

fn bad_request(code: ErrorCode, message: impl Into<String>) -> ApiErr {
    ApiErr::new(StatusCode::BAD_REQUEST, code, message)
}

async fn create_table(
    State(app): State<AppState>,
    body: axum::body::Bytes,
) -> Result<Json<TableCreated>, ApiErr> {
    let req: CreateTable = serde_json::from_slice(&body)
        .map_err(|_| bad_request(ErrorCode::BadMessage, "That is not a table request."))?;
    match app.create_table(req).await {
        Ok(created) => Ok(Json(created)),
        Err((ErrorCode::TryAgain, _)) => Err(ApiErr::try_again()),
        Err((code, message)) => Err(bad_request(code, message)),
    }
}

async fn find(app: &AppState, code: &str, addr: SocketAddr) -> Result<TableRow, ApiErr> {
    if app.too_many_misses(addr.ip()) {
        return Err(ApiErr::rate_limited());
    }
    if !codes::plausible_code(code) {
        app.record_miss(addr.ip());
        return Err(ApiErr::no_such_table());
    }
    match app.0.db.table_by_code(code).await {
        Ok(Some(row)) => Ok(row),
        Ok(None) => {
            app.record_miss(addr.ip());
            Err(ApiErr::no_such_table())
        }
        Err(e) => {
            tracing::warn!(error = %e, "looking up a code failed");
            Err(ApiErr::try_again())
        }
    }
}

fn status_of(s: &str) -> TableStatus {
    match s {
        "playing" => TableStatus::Playing,
        "finished" => TableStatus::Finished,
        _ => TableStatus::Lobby,
    }
}

async fn code_info(
    State(app): State<AppState>,
    Path(code): Path<String>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Result<Json<CodeInfo>, ApiErr> {
    let row = find(&app, &code, addr).await?;
    Ok(Json(CodeInfo {
        spectator: row.spectator_code == code,
        game: row.game,
        status: status_of(&row.status),
    }))
}

/// The record of the table's latest game, once it is finished (the seed is
/// revealed only then).
async fn record(
    State(app): State<AppState>,
    Path(code): Path<String>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Result<Json<GameRecord>, ApiErr> {
    let row = find(&app, &code, addr).await?;
    let not_over = || {
        ApiErr::new(
            StatusCode::CONFLICT,
            ErrorCode::WrongStatus,
            "The record is shown once the game is over.",
        )
    };
    let (game, moves) = match app.0.db.latest_game(row.id).await {
        Ok(Some(x)) => x,
        Ok(None) => return Err(not_over()),
        Err(e) => {
            tracing::warn!(error = %e, "loading a record failed");
            return Err(ApiErr::try_again());
        }
    };
    let kind = app.0.games.get(&row.game).ok_or_else(ApiErr::try_again)?;
    let broken = |e: String| {
        tracing::error!(table = %row.id, error = %e, "a stored game does not replay");
        ApiErr::try_again()
    };
    let setup: SetupDoc =
        serde_json::from_value(game.setup.clone()).map_err(|e| broken(e.to_string()))?;
    let mut state = kind.start(&setup).map_err(broken)?;
    let mut views = vec![state.view(Viewer::Spectator)];
    let mut entries = Vec::with_capacity(moves.len());
    for m in &moves {
        let applied = state
            .try_entry(&m.entry)
            .map_err(|e| broken(format!("entry {}: {e:?}", m.seq)))?;
        state = applied.state;
        views.push(state.view(Viewer::Spectator));
        entries.push(m.entry.clone());
    }
    let outcome: Option<Outcome> = state.outcome();
    if outcome.is_none() {
        return Err(not_over());
    }
    Ok(Json(GameRecord {
        game: row.game,
        seats: setup.seats,
        seed: setup.seed,
        options: setup.options,
        first_seat: setup.first_seat,
        names: setup.names,
        entries,
        views,
        outcome,
    }))
}
