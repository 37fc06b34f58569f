//! The HTTP side: the JSON API under `/api` (see `protocol::api`), `/healthz`,
//! `/readyz` and `/metrics`.

use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::ErrorCode;
use protocol::api::{
    ApiError, CodeInfo, CreateTable, GameInfo, KeptSeats, MAX_KEPT_SEATS, MyTables, PublicTables,
    RecordCheck, TableCreated,
};
use uuid::Uuid;

use crate::db::TableRow;
use crate::fairness::MAX_RECORD_BYTES;
use crate::records::{CheckError, RecordError};
use crate::refusal::{self, Refusal};
use crate::room::TableDoc;
use crate::{AppState, ClientAddr, LookupError, codes};

/// An API error: a status, a stable code and the arguments its sentence needs
/// (the client says the sentence; the server logs it through [`refusal::english`]).
pub struct ApiErr(StatusCode, Refusal);

impl ApiErr {
    pub fn new(status: StatusCode, code: ErrorCode) -> ApiErr {
        ApiErr(status, Refusal::new(code))
    }
    pub fn no_such_table() -> ApiErr {
        ApiErr::new(StatusCode::NOT_FOUND, ErrorCode::NoSuchTable)
    }
    /// 429 `rate_limited`: the address has used this budget up.
    pub fn rate_limited() -> ApiErr {
        ApiErr::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited)
    }
    pub fn too_many_connections() -> ApiErr {
        ApiErr::rate_limited()
    }
    fn body(&self) -> ApiError {
        tracing::debug!(code = ?self.1.code, "refused: {}", refusal::english(&self.1));
        ApiError {
            code: self.1.code,
            args: self
                .1
                .args
                .as_ref()
                .and_then(|a| serde_json::from_value(a.clone()).ok()),
        }
    }
    /// The whole HTTP/1.1 answer, for a connection refused before any request
    /// is served; the connection closes after it.
    pub fn http1_bytes(&self) -> Vec<u8> {
        let body = serde_json::to_string(&self.body()).unwrap_or_default();
        format!(
            "HTTP/1.1 {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            self.0,
            body.len()
        )
        .into_bytes()
    }
    pub fn table_elsewhere() -> ApiErr {
        ApiErr::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::TableElsewhere)
    }
    pub fn try_again() -> ApiErr {
        ApiErr::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::TryAgain)
    }
}

impl IntoResponse for ApiErr {
    fn into_response(self) -> Response {
        (self.0, Json(self.body())).into_response()
    }
}

impl From<LookupError> for ApiErr {
    fn from(e: LookupError) -> ApiErr {
        match e {
            LookupError::Store => ApiErr::try_again(),
            LookupError::Elsewhere { .. } => ApiErr::table_elsewhere(),
        }
    }
}

/// The largest request body the API reads (a table request is a few hundred bytes).
const MAX_BODY_BYTES: usize = 16 * 1024;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/games", get(games))
        .route("/api/games/{id}/reference", get(reference))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{code}", get(code_info))
        .route("/api/tables/{code}/record", get(record))
        .route("/api/records/verify", post(verify_record))
        .route("/api/my-tables", post(my_tables))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// The security headers of every answer: scripts, styles and connections from
/// this server only, never framed by another site, no MIME sniffing, and no
/// `Referer` (page addresses carry invite codes).
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; \
             object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Whether a request may act for a browser page: requests without `Origin`
/// (other programs) may; a browser's must come from this server's own address
/// (its `Host`) or from an origin in `ALLOWED_ORIGINS`.
pub fn origin_allowed(app: &AppState, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if app.0.config.allowed_origins.iter().any(|o| o == origin) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

pub fn cross_site() -> ApiErr {
    ApiErr::new(StatusCode::FORBIDDEN, ErrorCode::BadMessage)
}

async fn readyz(State(app): State<AppState>) -> Response {
    if let Some(cluster) = &app.0.cluster
        && !cluster.nats_connected()
    {
        return (StatusCode::SERVICE_UNAVAILABLE, "NATS unavailable").into_response();
    }
    match app.0.db.ping().await {
        Ok(()) => (StatusCode::OK, "ready").into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "store ping failed");
            (StatusCode::SERVICE_UNAVAILABLE, "store unavailable").into_response()
        }
    }
}

/// `/metrics`: with `METRICS_TOKEN` set, for requests bearing it; without, for
/// this machine only (loopback), never for the public (nor for a client behind
/// a proxy on this machine).
async fn metrics(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Response {
    let allowed = match &app.0.config.metrics_token {
        Some(token) => headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|given| codes::same_secret(given, token)),
        None => client.is_loopback(),
    };
    if !allowed {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        app.0.metrics.render(app.0.db.committer_stats()),
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

/// `/api/games/{id}/reference`: the game's reference data (Building Cities'
/// handbook), fixed for this build: revalidated by its `ETag` on every use, a
/// `304` when the browser holds it already.
async fn reference(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    reference_answer(&app.0.games, &id, headers.get(header::IF_NONE_MATCH))
}

fn reference_answer(
    games: &crate::games::Registry,
    id: &str,
    if_none_match: Option<&HeaderValue>,
) -> Response {
    let Some(doc) = games.reference(id) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let cache = [
        (header::ETAG, doc.etag.clone()),
        (header::CACHE_CONTROL, "public, no-cache".to_owned()),
    ];
    let held = if_none_match
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == doc.etag));
    if held {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [(header::CONTENT_TYPE, "application/json".to_owned())],
        doc.json.clone(),
    )
        .into_response()
}

/// One page of public tables: those after the `after` cursor, at most
/// [`crate::LOBBY_PAGE`]; `next` is the cursor of the following page.
async fn list_tables(
    State(app): State<AppState>,
    Query(page): Query<LobbyPage>,
) -> Json<PublicTables> {
    let after = page.after.as_deref().and_then(|a| Uuid::parse_str(a).ok());
    let (tables, more) = app.0.rooms.page(after, crate::LOBBY_PAGE);
    let next = match (more, tables.last()) {
        (true, Some((last, _))) => Some(last.to_string()),
        _ => None,
    };
    Json(PublicTables {
        tables: tables.into_iter().map(|(_, t)| t).collect(),
        next,
    })
}

#[derive(serde::Deserialize)]
struct LobbyPage {
    after: Option<String>,
}

fn bad_request(refusal: Refusal) -> ApiErr {
    ApiErr(StatusCode::BAD_REQUEST, refusal)
}

async fn create_table(
    State(app): State<AppState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<TableCreated>, ApiErr> {
    // A cross-site form can send only "simple" content types; JSON needs a
    // preflight this server never grants.
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/json")
        });
    if !json {
        return Err(ApiErr::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::BadMessage,
        ));
    }
    if !origin_allowed(&app, &headers) {
        return Err(cross_site());
    }
    if !app.may_create_table(client) {
        return Err(ApiErr::rate_limited());
    }
    let req: CreateTable =
        serde_json::from_slice(&body).map_err(|_| bad_request(ErrorCode::BadMessage.into()))?;
    match app.create_table(req).await {
        Ok(created) => Ok(Json(created)),
        Err(r) if r.code == ErrorCode::TryAgain => Err(ApiErr::try_again()),
        Err(r) => Err(bad_request(r)),
    }
}

/// The table of a code (one lookup, with its limiter of wrong guesses, for the
/// socket and the API: `lookup.rs`).
async fn find(app: &AppState, code: &str, client: ClientAddr) -> Result<TableRow, ApiErr> {
    match app.table_by_code(code, client.0).await {
        Ok(Some(row)) => Ok(row),
        Ok(None) => Err(ApiErr::no_such_table()),
        Err(e) => Err(e.into()),
    }
}

async fn code_info(
    State(app): State<AppState>,
    Path(code): Path<String>,
    client: ClientAddr,
) -> Result<Json<CodeInfo>, ApiErr> {
    let row = find(&app, &code, client).await?;
    let doc: TableDoc = serde_json::from_value(row.doc.clone()).map_err(|e| {
        tracing::error!(table = %row.id, error = %e, "a stored table document does not read");
        ApiErr::try_again()
    })?;
    Ok(Json(CodeInfo {
        spectator: row.spectator_code == code,
        game: row.game,
        status: row.status,
        host_name: doc.host_name().to_owned(),
        seats: doc.settings.seats,
        seats_taken: doc.seats_taken(),
    }))
}

/// The tables this browser holds seats at, by the codes and seat tokens it
/// keeps (`my_tables.rs`); codes that name no table and tokens that hold no
/// seat are left out.
async fn my_tables(
    State(app): State<AppState>,
    client: ClientAddr,
    body: axum::body::Bytes,
) -> Result<Json<MyTables>, ApiErr> {
    if !app.may_list_my_tables(client.0) {
        return Err(ApiErr::rate_limited());
    }
    let asked: KeptSeats =
        serde_json::from_slice(&body).map_err(|_| bad_request(ErrorCode::BadMessage.into()))?;
    if asked.seats.len() > MAX_KEPT_SEATS {
        return Err(bad_request(Refusal::with(
            ErrorCode::BadMessage,
            protocol::ErrorArgs {
                max: Some(MAX_KEPT_SEATS as u64),
                ..Default::default()
            },
        )));
    }
    let mut tables = Vec::new();
    for kept in &asked.seats {
        let row = match find(&app, &kept.code, client).await {
            Ok(row) => row,
            Err(ApiErr(StatusCode::NOT_FOUND, _)) => continue,
            Err(e) => return Err(e),
        };
        let Some(kind) = app.0.games.get(&row.game) else {
            continue;
        };
        let table_id = row.id;
        match crate::my_tables::my_table(app.0.db.as_ref(), kind, row, kept).await {
            Ok(Some(table)) => tables.push(table),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(table = %table_id, error = %e, "a kept seat's table could not be read");
                return Err(ApiErr::try_again());
            }
        }
    }
    Ok(Json(MyTables { tables }))
}

/// The record of the table's latest game, once it is finished (the seed is
/// revealed only then): built once, then served from memory (`records.rs`).
async fn record(
    State(app): State<AppState>,
    Path(code): Path<String>,
    client: ClientAddr,
) -> Result<Response, ApiErr> {
    if !app.may_fetch_record(client.0) {
        return Err(ApiErr::rate_limited());
    }
    let row = find(&app, &code, client).await?;
    let kind = app.0.games.get(&row.game).ok_or_else(ApiErr::try_again)?;
    match app
        .0
        .records
        .get(&app.0.db, kind, &row, &app.0.metrics.records_built)
        .await
    {
        Ok(record) => Ok(([(header::CONTENT_TYPE, "application/json")], record).into_response()),
        Err(RecordError::NotOver) => Err(ApiErr::new(StatusCode::CONFLICT, ErrorCode::WrongStatus)),
        Err(RecordError::Store | RecordError::Broken) => Err(ApiErr::try_again()),
    }
}

/// Checks an uploaded game record (`fairness.rs`): the same check as
/// `citytable verify`, for the replay page. It replays a whole game, so it
/// spends one of the address's record fetches, and one more per second the
/// check took: a long game's record costs its address more.
async fn verify_record(
    State(app): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Result<Json<RecordCheck>, ApiErr> {
    // Another site's page must not spend its visitor's budget.
    if !origin_allowed(&app, &headers) {
        return Err(cross_site());
    }
    if !app.may_fetch_record(client.0) {
        return Err(ApiErr::rate_limited());
    }
    match app.0.records.check(&app.0.games, body).await {
        Ok((check, took)) => {
            app.charge_record_check(client.0, took);
            Ok(Json(check))
        }
        Err(CheckError::Busy) => Err(ApiErr::try_again()),
        Err(CheckError::TooLarge) => Err(ApiErr(
            StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::with(
                ErrorCode::FrameTooLarge,
                protocol::ErrorArgs {
                    max_bytes: u32::try_from(MAX_RECORD_BYTES).ok(),
                    ..Default::default()
                },
            ),
        )),
        Err(CheckError::NotARecord(detail)) => {
            tracing::debug!(detail, "an uploaded record does not read");
            Err(ApiErr::new(StatusCode::BAD_REQUEST, ErrorCode::BadMessage))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[tokio::test]
    async fn the_reference_is_the_crate_handbook_revalidated_by_its_etag() {
        let games = crate::games::Registry::all();
        let answer = reference_answer(&games, "building-cities", None);
        assert_eq!(answer.status(), StatusCode::OK);
        let etag = answer.headers()[header::ETAG].clone();
        assert_eq!(
            answer.headers()[header::CACHE_CONTROL],
            HeaderValue::from_static("public, no-cache")
        );
        let served: serde_json::Value =
            serde_json::from_str(&body(answer).await).unwrap_or_default();
        assert_eq!(
            served,
            serde_json::to_value(building_cities::handbook::Handbook::standard())
                .unwrap_or_default()
        );
        assert!(served["buildings"].as_array().is_some_and(|b| b.len() > 40));

        let again = reference_answer(&games, "building-cities", Some(&etag));
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(body(again).await.is_empty());
        let other = HeaderValue::from_static("\"0123\"");
        assert_eq!(
            reference_answer(&games, "building-cities", Some(&other)).status(),
            StatusCode::OK
        );
    }

    #[test]
    fn games_without_reference_data_answer_404() {
        let games = crate::games::Registry::all();
        for id in ["tic-tac-toe", "big-city", "chess"] {
            assert_eq!(
                reference_answer(&games, id, None).status(),
                StatusCode::NOT_FOUND
            );
        }
    }
}
