//! The browser client, embedded in the binary (read from disk in debug builds,
//! so edits under `web/` show without recompiling). Unknown paths get
//! `index.html`, so `/t/{code}` opens the table page.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../web"]
#[allow_missing = true]
#[exclude = "node_modules/*"]
#[exclude = "test/*"]
#[exclude = "screenshots/*"]
#[exclude = "test-results/*"]
#[exclude = "package.json"]
#[exclude = "package-lock.json"]
#[exclude = "tsconfig.json"]
#[exclude = "*.ts"]
struct Assets;

fn file(path: &str) -> Option<Response> {
    let asset = Assets::get(path)?;
    let mime = asset.metadata.mimetype().to_owned();
    Some(
        (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, "no-cache".to_owned()),
            ],
            asset.data.into_owned(),
        )
            .into_response(),
    )
}

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || path.starts_with("ws/") {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    if let Some(resp) = (!path.is_empty()).then(|| file(path)).flatten() {
        return resp;
    }
    // Paths that name a file (with an extension) and do not exist are 404s.
    let last = path.rsplit('/').next().unwrap_or_default();
    if last.contains('.') {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    file("index.html").unwrap_or_else(|| {
        (StatusCode::NOT_FOUND, "the web client is not built in").into_response()
    })
}
