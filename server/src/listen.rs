//! Accepting TCP connections.
//!
//! An address may open connections at a bounded rate (a burst of 400, then 40 a
//! second); faster ones are closed at once, unanswered. Every connection, plain
//! HTTP or WebSocket, holds one of its address's places
//! (`MAX_CONNECTIONS_PER_ADDRESS`) from accept to close: a WebSocket takes over
//! the place of the connection it was upgraded from. A connection must send a
//! request's headers within `header_timeout`, so sockets that say nothing
//! cannot pile up until the server runs out of file descriptors.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use crate::http::ApiErr;
use crate::{AddressSlot, AppState};

/// A connection's place in its address's budget, handed to the request so that
/// a WebSocket upgrade can keep it for the life of the socket.
#[derive(Clone, Default)]
pub struct ConnectionSlot(Arc<Mutex<Option<AddressSlot>>>);

impl ConnectionSlot {
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
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let connection = connection(
            tcp,
            addr,
            ConnectionSlot(Arc::new(Mutex::new(Some(slot)))),
            router.clone(),
            app.0.config.header_timeout,
            stop_rx.clone(),
        );
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

async fn connection(
    tcp: TcpStream,
    addr: SocketAddr,
    slot: ConnectionSlot,
    router: Router,
    header_timeout: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(addr));
        req.extensions_mut().insert(slot.clone());
        let router = router.clone();
        async move {
            let response = router.oneshot(req.map(Body::new)).await;
            Ok::<_, Infallible>(match response {
                Ok(response) => response,
                Err(never) => match never {},
            })
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
