//! One WebSocket connection to a table: `/ws/{code}`.
//!
//! A reader task decodes client frames (size limit, rate limits per connection and
//! per address, JSON shape, `hello` within `hello_timeout`) and forwards valid
//! messages to the room's inbox; a writer task drains the connection's bounded
//! outgoing queue. The room pushes with `try_send`, so a client that does not read
//! cannot slow the room down: when its queue is full the room tells the writer to
//! close, and the client resyncs when it reconnects. A write the socket does not
//! take within `write_timeout` ends the writer too, so a stalled socket never holds
//! its queue.

use std::sync::Arc;

use axum::Extension;
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMsg, ErrorArgs, ErrorCode, MAX_FRAME_BYTES};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::Instant;

use crate::budget::Bucket;
use crate::http::ApiErr;
use crate::listen::ConnectionSlot;
use crate::refusal::Refusal;
use crate::room::{Outbox, RoomMsg};
use crate::{AppState, ClientAddr, LookupError, OUT_QUEUE};

/// Refused messages after which a flooding connection is closed. With the
/// burst the bucket allows (40 by default, each answered with up to two frames,
/// as a `resync` is), the refusals still fit in the connection's queue
/// (`OUT_QUEUE`, 256) when its writer has sent nothing yet; more refusals could
/// fill it, and the room would then close the connection as too slow, dropping
/// the refusals that tell the client why.
const MAX_STRIKES: u32 = 100;
/// Read buffer of a connection, in bytes (see `upgrade`).
const READ_BUFFER_BYTES: usize = 4 * 1024;

pub fn routes() -> Router<AppState> {
    Router::new().route("/ws/{code}", get(upgrade))
}

async fn upgrade(
    State(app): State<AppState>,
    Path(code): Path<String>,
    ClientAddr(client): ClientAddr,
    connection_slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // Another site's page must not open a socket with its visitor's cookies or
    // address: browsers always say where a page comes from.
    if !crate::http::origin_allowed(&app, &headers) {
        return crate::http::cross_site().into_response();
    }
    // The socket keeps the place its HTTP connection (or, behind a proxy, its
    // request) held in the client's budget.
    let slot = connection_slot
        .and_then(|Extension(slot)| slot.take())
        .or_else(|| app.address_slot(client));
    let Some(slot) = slot else {
        return ApiErr::too_many_connections().into_response();
    };
    let room = match app.room_by_code(&code, client).await {
        Ok(Some(room)) => room,
        Ok(None) => return ApiErr::no_such_table().into_response(),
        Err(LookupError::Store) => return ApiErr::try_again().into_response(),
        Err(LookupError::Elsewhere { table, spectator }) => match &app.0.cluster {
            // Another node owns the table: play through it.
            Some(cluster) => (
                crate::forward::edge(
                    cluster.nats().clone(),
                    cluster.node_id.clone(),
                    table,
                    Arc::clone(&cluster.watches),
                    app.0.metrics.forwarded.clone(),
                ),
                spectator,
            ),
            None => return ApiErr::try_again().into_response(),
        },
    };
    // Frames up to four times the limit are read and answered with
    // `frame_too_large`; anything bigger is cut off by the WebSocket layer.
    // A small read buffer: tungstenite's default (128 KiB per connection) would
    // dominate the memory of idle connections; client frames are small.
    ws.read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(MAX_FRAME_BYTES * 4)
        .max_frame_size(MAX_FRAME_BYTES * 4)
        .on_upgrade(move |socket| async move {
            connection(app, room, socket, client).await;
            drop(slot);
        })
}

async fn connection(
    app: AppState,
    (room, spectator_link): (mpsc::Sender<RoomMsg>, bool),
    socket: WebSocket,
    ip: std::net::IpAddr,
) {
    let conn = app.next_conn();
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(OUT_QUEUE);
    let close = Arc::new(Notify::new());
    let out = Outbox::new(tx.clone(), close.clone());

    let write_timeout = app.0.config.write_timeout;
    let metrics_app = app.clone();
    let mut writer = tokio::spawn(async move {
        loop {
            let first = tokio::select! {
                biased;
                _ = close.notified() => break,
                msg = rx.recv() => match msg {
                    Some(text) => text,
                    None => break,
                },
            };
            // Write everything already queued, then flush once: one system call
            // for a burst of updates instead of one each.
            let burst = async {
                let mut batch = Some(first);
                while let Some(text) = batch {
                    sink.feed(Message::Text(text)).await?;
                    batch = rx.try_recv().ok();
                }
                sink.flush().await
            };
            // A client that stops reading blocks the write once its socket's
            // buffers are full: give up after the bound, so the queue is freed
            // and the connection closed, instead of holding both forever.
            let written = tokio::select! {
                biased;
                _ = close.notified() => return,
                written = tokio::time::timeout(write_timeout, burst) => written,
            };
            match written {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return,
                Err(_) => {
                    metrics_app.0.metrics.stalled_connections.inc();
                    return;
                }
            }
        }
        // Frames queued before the close go first: they may say why (`try_again`
        // from an edge whose owner stopped answering, or from a room that lost its
        // table), and the close alone would drop them.
        let bye = async {
            while let Ok(text) = rx.try_recv() {
                sink.feed(Message::Text(text)).await?;
            }
            sink.send(Message::Close(Some(CloseFrame {
                code: 1000,
                reason: Utf8Bytes::from_static("bye"),
            })))
            .await
        };
        let _ = tokio::time::timeout(write_timeout, bye).await;
    });
    let mut writer_done = false;
    let hello_by = Instant::now() + app.0.config.hello_timeout;

    let mut joined = false;
    let mut bucket = Bucket::new(app.0.config.rate_burst, app.0.config.rate_per_second);
    let mut strikes = 0u32;
    let refuse = |refusal: Refusal| {
        // If even an error does not fit, the writer is far behind; the room
        // closes such connections anyway.
        let _ = out.tx.try_send(refusal.msg(None));
    };
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = &mut writer, if !writer_done => {
                // The writer gave up on this client: nothing more can reach it.
                writer_done = true;
                break;
            }
            () = tokio::time::sleep_until(hello_by), if !joined => {
                refuse(ErrorCode::HelloFirst.into());
                break;
            }
        };
        let Some(Ok(frame)) = frame else {
            break;
        };
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                refuse(ErrorCode::BadMessage.into());
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if text.len() > MAX_FRAME_BYTES {
            refuse(Refusal::with(
                ErrorCode::FrameTooLarge,
                ErrorArgs {
                    max_bytes: Some(MAX_FRAME_BYTES as u32),
                    ..ErrorArgs::default()
                },
            ));
            break;
        }
        if !bucket.take() || !app.0.messages.take(ip) {
            strikes += 1;
            if strikes > MAX_STRIKES {
                break;
            }
            // A refused move still names its id, so the client knows which one.
            let id = ClientMsg::decode(text.as_str())
                .ok()
                .and_then(|msg| msg.move_id());
            let limited = Refusal::with(
                ErrorCode::RateLimited,
                ErrorArgs {
                    retry_after_ms: Some(bucket.retry_after_ms().max(1)),
                    ..ErrorArgs::default()
                },
            );
            let _ = out.tx.try_send(limited.msg(id));
            continue;
        }
        let msg = match ClientMsg::decode(text.as_str()) {
            Ok(msg) => msg,
            Err(_) => {
                refuse(ErrorCode::BadMessage.into());
                continue;
            }
        };
        match (joined, msg) {
            (
                false,
                ClientMsg::Hello {
                    token,
                    code: _,
                    name,
                },
            ) => {
                let (reply, answer) = oneshot::channel();
                let join = RoomMsg::Join {
                    conn,
                    token,
                    name,
                    spectator_link,
                    out: out.clone(),
                    reply,
                };
                if room.send(join).await.is_err() {
                    break;
                }
                joined = answer.await.unwrap_or(false);
            }
            (false, _) => refuse(ErrorCode::HelloFirst.into()),
            (true, msg) => {
                let msg = RoomMsg::Client {
                    conn,
                    msg,
                    received: Instant::now(),
                };
                if room.send(msg).await.is_err() {
                    break;
                }
            }
        }
    }
    if joined {
        let _ = room.send(RoomMsg::Leave { conn }).await;
        app.0.metrics.connections.dec();
    }
    drop(out);
    drop(tx);
    // The room dropped its copy of the queue on Leave; the writer sends what is
    // left, then the close frame.
    if !writer_done {
        let abort = writer.abort_handle();
        if tokio::time::timeout(std::time::Duration::from_secs(5), writer)
            .await
            .is_err()
        {
            abort.abort();
        }
    }
}
