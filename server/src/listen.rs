//! Accepting TCP connections.
//!
//! An address may open connections at a bounded rate (a burst of 400, then 40 a
//! second); faster ones are closed at once, unanswered. Every connection, plain
//! HTTP or WebSocket, holds one of its address's places
//! (`MAX_CONNECTIONS_PER_ADDRESS`) from accept to close: a WebSocket takes over
//! the place of the connection it was upgraded from. A connection must send a
//! request's headers within `header_timeout`, so sockets that say nothing
//! cannot pile up until the server runs out of file descriptors.
//!
//! A connection from a trusted reverse proxy (`TRUSTED_PROXIES`) is not a
//! client: it is neither rated nor given a place. Each of its requests is
//! counted instead against the client it names ([`ClientAddr`]): it takes one of
//! that client's new connections and holds one of its places until its answer
//! is sent, or, upgraded to a WebSocket, for the life of the socket. Over
//! either budget it is answered 429, since closing the connection would fail the
//! proxy's other clients too.

use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use crate::client_addr::ClientAddr;
use crate::http::ApiErr;
use crate::{AddressSlot, AppState};

/// A connection's place in its address's budget (behind a trusted proxy, a
/// request's place in its client's), handed to the request so that a WebSocket
/// upgrade can keep it for the life of the socket.
#[derive(Clone, Default)]
pub struct ConnectionSlot(Arc<Mutex<Option<AddressSlot>>>);

impl ConnectionSlot {
    fn new(slot: AddressSlot) -> ConnectionSlot {
        ConnectionSlot(Arc::new(Mutex::new(Some(slot))))
    }

    /// Takes the place over (once); `None` if it was already taken.
    pub fn take(&self) -> Option<AddressSlot> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// Refusals answered at once (a `429` written to the socket) while others are
/// still being written; beyond that, a connection over its address's budget is
/// closed without an answer.
const REFUSALS_IN_FLIGHT: usize = 64;
/// How long a refused connection gets to send its request before its `429`.
const REFUSAL_READ: Duration = Duration::from_secs(2);

/// Serves `router` on `listener` until `shutdown` resolves, then lets every
/// connection finish its request.
pub async fn serve(
    listener: TcpListener,
    app: AppState,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let (stop_tx, stop_rx) = watch::channel(false);
    let (open_tx, open_rx) = watch::channel(());
    let refusals = Arc::new(Semaphore::new(REFUSALS_IN_FLIGHT));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (tcp, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, most likely: wait for some to close.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let peer = if app.0.config.trusted_proxies.contains(addr.ip()) {
            Peer::Proxy(addr.ip())
        } else {
            if !app.0.accepts.take(addr.ip()) {
                // An address opening connections faster than any page or client
                // needs: dropped before any work is spent on it.
                app.0.metrics.refused_connections.inc();
                continue;
            }
            let Some(slot) = app.address_slot(addr.ip()) else {
                app.0.metrics.refused_connections.inc();
                if let Ok(permit) = Arc::clone(&refusals).try_acquire_owned() {
                    tokio::spawn(async move {
                        refuse(tcp).await;
                        drop(permit);
                    });
                }
                continue;
            };
            Peer::Client(ClientAddr(addr.ip()), ConnectionSlot::new(slot))
        };
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let connection = connection(tcp, peer, app.clone(), router.clone(), stop_rx.clone());
        let open = open_rx.clone();
        tokio::spawn(async move {
            connection.await;
            drop(open);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(open_rx);
    // Every connection task holds a receiver: wait until they have all ended.
    open_tx.closed().await;
}

/// Who is at the other end of a connection.
enum Peer {
    /// A client, and the place its connection holds.
    Client(ClientAddr, ConnectionSlot),
    /// A trusted reverse proxy, by its address.
    Proxy(IpAddr),
}

async fn connection(
    tcp: TcpStream,
    peer: Peer,
    app: AppState,
    router: Router,
    mut stop: watch::Receiver<bool>,
) {
    let header_timeout = app.0.config.header_timeout;
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let admitted = match &peer {
            Peer::Client(client, slot) => Some((*client, slot.clone())),
            Peer::Proxy(proxy) => admit_forwarded(&app, *proxy, req.headers()),
        };
        let proxied = matches!(peer, Peer::Proxy(_));
        let router = router.clone();
        async move {
            let Some((client, slot)) = admitted else {
                return Ok::<_, Infallible>(ApiErr::too_many_connections().into_response());
            };
            req.extensions_mut().insert(client);
            req.extensions_mut().insert(slot.clone());
            let response = match router.oneshot(req.map(Body::new)).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            if !proxied {
                // The connection holds its place until it closes.
                return Ok(response);
            }
            Ok(response.map(|body| Body::new(Holding { body, _slot: slot })))
        }
    });
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .serve_connection(TokioIo::new(tcp), service)
        .with_upgrades();
    let mut conn = std::pin::pin!(conn);
    let mut stopping = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::trace!(error = %e, "connection ended with an error");
                }
                break;
            }
            changed = stop.changed(), if !stopping => {
                stopping = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// A request from a trusted proxy: counted against the client it names, which
/// must have a new connection and a place left (`None`: answer 429).
fn admit_forwarded(
    app: &AppState,
    proxy: IpAddr,
    headers: &HeaderMap,
) -> Option<(ClientAddr, ConnectionSlot)> {
    let client = ClientAddr::of(proxy, headers, &app.0.config.trusted_proxies);
    let slot = if app.0.accepts.take(client.0) {
        app.address_slot(client.0)
    } else {
        None
    };
    if slot.is_none() {
        app.0.metrics.refused_connections.inc();
    }
    Some((client, ConnectionSlot::new(slot?)))
}

/// An answer's body that keeps its request's place in the client's budget
/// until it has been sent.
struct Holding {
    body: Body,
    _slot: ConnectionSlot,
}

impl hyper::body::Body for Holding {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Answers a connection over its address's budget with a `429` and closes it.
/// The request is read first (briefly), so the close does not reset the
/// connection before the client has read the answer.
async fn refuse(mut tcp: TcpStream) {
    let response = ApiErr::too_many_connections().http1_bytes();
    let mut request = [0u8; 4096];
    let _ = tokio::time::timeout(REFUSAL_READ, tcp.read(&mut request)).await;
    let _ = tokio::time::timeout(REFUSAL_READ, async {
        tcp.write_all(&response).await?;
        tcp.shutdown().await
    })
    .await;
}
