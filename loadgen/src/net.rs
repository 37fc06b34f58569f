//! Sockets to the server under test: TCP from a rotating set of 127.0.0.x source
//! addresses (so tens of thousands of connections do not run out of ports),
//! WebSocket handshakes, a minimal HTTP/1.1 client for the JSON API, and byte
//! counters for everything on the wire.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

pub type Ws = WebSocketStream<TcpStream>;
pub type WsSink = SplitSink<Ws, Message>;

/// Bytes on the wire in each direction (WebSocket payload plus frame headers;
/// HTTP requests and responses as sent).
#[derive(Default)]
pub struct Counters {
    pub bytes_in: AtomicU64,
    pub bytes_out: AtomicU64,
}

impl Counters {
    pub fn snapshot(&self) -> (u64, u64) {
        (
            self.bytes_in.load(Ordering::Relaxed),
            self.bytes_out.load(Ordering::Relaxed),
        )
    }
}

/// Size of a WebSocket frame carrying `payload` bytes (RFC 6455 §5.2): client
/// frames are masked (4 more bytes).
pub fn frame_bytes(payload: usize, masked: bool) -> u64 {
    let header = if payload < 126 {
        2
    } else if payload <= 0xFFFF {
        4
    } else {
        10
    };
    (payload + header + if masked { 4 } else { 0 }) as u64
}

/// Where connections go and where they come from. With several servers (the
/// nodes of a cluster), each new connection goes to the next one in turn, so a
/// table's seats and spectators are spread over the nodes.
pub struct Net {
    servers: Vec<SocketAddr>,
    next_server: AtomicUsize,
    sources: Vec<Ipv4Addr>,
    next: AtomicUsize,
    pub counters: Arc<Counters>,
}

/// Only loopback traffic: the server and every source address must be in 127.0.0.0/8.
pub fn check_loopback(addr: IpAddr) -> Result<(), String> {
    if addr.is_loopback() {
        Ok(())
    } else {
        Err(format!(
            "{addr} is not a loopback address; loadgen only talks to 127.0.0.0/8"
        ))
    }
}

impl Net {
    pub fn new(servers: Vec<SocketAddr>, sources: Vec<Ipv4Addr>) -> Result<Net, String> {
        if servers.is_empty() {
            return Err("no server address".into());
        }
        for s in &servers {
            check_loopback(s.ip())?;
        }
        for s in &sources {
            check_loopback(IpAddr::V4(*s))?;
        }
        Ok(Net {
            servers,
            next_server: AtomicUsize::new(0),
            sources,
            next: AtomicUsize::new(0),
            counters: Arc::new(Counters::default()),
        })
    }

    /// The server the next connection goes to.
    fn pick(&self) -> SocketAddr {
        let i = self.next_server.fetch_add(1, Ordering::Relaxed);
        self.servers[i % self.servers.len()]
    }

    /// A TCP connection to `server` from the next source address.
    pub async fn tcp(&self, server: SocketAddr) -> Result<TcpStream, String> {
        let socket = TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
        if !self.sources.is_empty() {
            let i = self.next.fetch_add(1, Ordering::Relaxed) % self.sources.len();
            socket
                .bind(SocketAddr::new(IpAddr::V4(self.sources[i]), 0))
                .map_err(|e| format!("bind {}: {e}", self.sources[i]))?;
        }
        let stream = tokio::time::timeout(Duration::from_secs(10), socket.connect(server))
            .await
            .map_err(|_| "connect timed out".to_owned())?
            .map_err(|e| format!("connect: {e}"))?;
        stream
            .set_nodelay(true)
            .map_err(|e| format!("nodelay: {e}"))?;
        Ok(stream)
    }

    /// Opens a WebSocket at `path`, on the next server.
    pub async fn ws(&self, path: &str) -> Result<Ws, String> {
        let server = self.pick();
        let stream = self.tcp(server).await?;
        let url = format!("ws://{server}{path}");
        let (ws, response) = tokio::time::timeout(
            Duration::from_secs(10),
            tokio_tungstenite::client_async(url.as_str(), stream),
        )
        .await
        .map_err(|_| "websocket handshake timed out".to_owned())?
        .map_err(|e| format!("websocket {path}: {e}"))?;
        // The handshake itself is not counted per move; it is setup.
        drop(response);
        Ok(ws)
    }

    /// A JSON HTTP request to the next server; returns the status and the body.
    pub async fn http(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) -> Result<(u16, String), String> {
        let server = self.pick();
        let mut stream = self.tcp(server).await?;
        let body = body.unwrap_or("");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let io = async {
            stream.write_all(request.as_bytes()).await?;
            let mut buf = Vec::new();
            stream.read_to_end(&mut buf).await?;
            Ok::<_, std::io::Error>(buf)
        };
        let buf = tokio::time::timeout(Duration::from_secs(30), io)
            .await
            .map_err(|_| format!("{method} {path} timed out"))?
            .map_err(|e| format!("{method} {path}: {e}"))?;
        parse_response(&buf)
    }
}

/// Splits an HTTP/1.1 response into status and body (plain or chunked).
pub fn parse_response(buf: &[u8]) -> Result<(u16, String), String> {
    let text = String::from_utf8_lossy(buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| "truncated HTTP response".to_owned())?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| "no HTTP status".to_owned())?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase().starts_with("transfer-encoding:")
            && l.to_ascii_lowercase().contains("chunked")
    });
    if !chunked {
        return Ok((status, body.to_owned()));
    }
    let mut out = String::new();
    let mut rest = body;
    for _ in 0..100_000 {
        let Some((size, after)) = rest.split_once("\r\n") else {
            break;
        };
        let n = usize::from_str_radix(size.trim(), 16).map_err(|_| "bad chunk size".to_owned())?;
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    Ok((status, out))
}

/// A text frame (or the end of a connection) as received, stamped on arrival.
pub enum Incoming {
    Text {
        conn: usize,
        at: Instant,
        text: tokio_tungstenite::tungstenite::Utf8Bytes,
    },
    Closed,
}

/// Reads one connection until it ends, stamping and counting every frame, and
/// forwards text frames to the room's channel.
pub fn spawn_reader(
    conn: usize,
    mut stream: SplitStream<Ws>,
    tx: mpsc::UnboundedSender<Incoming>,
    counters: Arc<Counters>,
) {
    tokio::spawn(async move {
        while let Some(frame) = stream.next().await {
            let at = Instant::now();
            let Ok(frame) = frame else { break };
            match frame {
                Message::Text(text) => {
                    counters
                        .bytes_in
                        .fetch_add(frame_bytes(text.len(), false), Ordering::Relaxed);
                    if tx.send(Incoming::Text { conn, at, text }).is_err() {
                        return;
                    }
                }
                Message::Close(_) => break,
                other => {
                    counters
                        .bytes_in
                        .fetch_add(frame_bytes(other.len(), false), Ordering::Relaxed);
                }
            }
        }
        let _ = tx.send(Incoming::Closed);
    });
}

/// Sends one text frame and counts it.
pub async fn send_text(sink: &mut WsSink, counters: &Counters, text: String) -> Result<(), String> {
    counters
        .bytes_out
        .fetch_add(frame_bytes(text.len(), true), Ordering::Relaxed);
    sink.send(Message::text(text))
        .await
        .map_err(|e| format!("send: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_sizes_follow_rfc6455() {
        assert_eq!(frame_bytes(10, false), 12);
        assert_eq!(frame_bytes(10, true), 16);
        assert_eq!(frame_bytes(200, false), 204);
        assert_eq!(frame_bytes(70_000, false), 70_010);
    }

    #[test]
    fn responses_plain_and_chunked() {
        let plain = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(parse_response(plain), Ok((200, "{}".to_owned())));
        let chunked = b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n";
        assert_eq!(parse_response(chunked), Ok((201, "{\"a\":1}".to_owned())));
        assert!(parse_response(b"nonsense").is_err());
    }

    #[test]
    fn only_loopback() {
        assert!(check_loopback("127.0.0.9".parse().expect("ip")).is_ok());
        assert!(check_loopback("10.0.0.1".parse().expect("ip")).is_err());
    }
}
