//! Small HTTP/1.1 requests to a server under test (one connection each, `connection: close`).

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One request; `(status, body)`, or `None` when the server is not reachable or does not
/// answer in time.
pub async fn try_http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Option<(u16, String)> {
    let mut s = tokio::time::timeout(Duration::from_secs(5), TcpStream::connect(addr))
        .await
        .ok()?
        .ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    // A server may answer before it has read the whole body (413 for an oversized
    // one) and close: the write then fails, and the answer is still there to read.
    let wrote = s.write_all(req.as_bytes()).await;
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf)).await;
    if buf.is_empty() && (wrote.is_err() || !matches!(read, Ok(Ok(_)))) {
        return None;
    }
    let text = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = text.split_whitespace().nth(1)?.parse().ok()?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Some((status, body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest.get(n + 2..).unwrap_or("");
    }
    out
}

/// One request, answered: `(status, body)`.
pub async fn http_text(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String) {
    try_http(addr, method, path, body)
        .await
        .unwrap_or_else(|| panic!("{method} {path}: the server answers in time"))
}

/// One request, answered: `(status, body as JSON)`, or the body as a JSON string when it
/// is not JSON.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let (status, text) = http_text(addr, method, path, body).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Creates a table (`POST /api/tables` with `req`); returns (invite code, spectator
/// code, host token).
pub async fn create_table(addr: SocketAddr, req: &Value) -> (String, String, String) {
    let (status, body) = http(addr, "POST", "/api/tables", Some(req)).await;
    assert_eq!(status, 200, "create table: {body}");
    (
        body["invite_code"].as_str().expect("invite").to_owned(),
        body["spectator_code"]
            .as_str()
            .expect("spectator")
            .to_owned(),
        body["token"].as_str().expect("token").to_owned(),
    )
}
