//! The WebSocket test client, and the one place that turns a recipient's `snapshot` and
//! `update` frames into his view of the game ([`GameView`], [`patched`]) and a game
//! record into its public views ([`record_views`]).

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::ClientMsg;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;
/// A WebSocket frame, for tests that send frames other than JSON text.
pub use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::WAIT;

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Called with every message a client receives (raw text and JSON).
pub type Check = Box<dyn FnMut(&str, &Value) + Send>;

/// How long an upgrade may take.
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// Why an upgrade gave no socket.
#[derive(Debug)]
pub enum Refused {
    /// The server answered the upgrade request with this HTTP status and body.
    Http { status: u16, body: Vec<u8> },
    /// No answer (connection refused or closed, no answer in time, ...).
    Other(String),
}

impl Refused {
    /// The HTTP status the upgrade was refused with, if it was answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Refused::Http { status, .. } => Some(*status),
            Refused::Other(_) => None,
        }
    }

    /// The refusal's body as JSON.
    pub fn json(&self) -> Value {
        match self {
            Refused::Http { body, .. } => serde_json::from_slice(body).expect("a JSON body"),
            Refused::Other(e) => panic!("no HTTP answer: {e}"),
        }
    }
}

impl From<tungstenite::Error> for Refused {
    fn from(e: tungstenite::Error) -> Refused {
        match e {
            tungstenite::Error::Http(r) => Refused::Http {
                status: r.status().as_u16(),
                body: r.body().clone().unwrap_or_default(),
            },
            e => Refused::Other(e.to_string()),
        }
    }
}

/// Why [`Client::next_within`] returned no message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMessage {
    /// Nothing arrived in time.
    Quiet,
    /// The socket closed.
    Closed,
}

/// A table socket.
pub struct Client {
    pub ws: Ws,
    /// The latest `you` from a `welcome`.
    pub you: Value,
    /// Sees every message received, before it is returned.
    pub check: Option<Check>,
}

impl Client {
    fn new(ws: Ws) -> Client {
        Client {
            ws,
            you: Value::Null,
            check: None,
        }
    }

    /// Opens a socket (a URL, or a request with headers of its own).
    pub async fn open<R>(request: R) -> Result<Client, Refused>
    where
        R: IntoClientRequest + Unpin,
    {
        match tokio::time::timeout(CONNECT_WAIT, tokio_tungstenite::connect_async(request)).await {
            Ok(Ok((ws, _))) => Ok(Client::new(ws)),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(Refused::Other("no answer in time".to_owned())),
        }
    }

    /// Opens a socket with extra request headers (`origin`, ...).
    pub async fn open_with(url: &str, headers: &[(&str, &str)]) -> Result<Client, Refused> {
        let mut request = url.into_client_request().expect("a WebSocket URL");
        for (name, value) in headers {
            request.headers_mut().insert(
                tungstenite::http::HeaderName::from_bytes(name.as_bytes()).expect("a header name"),
                value.parse().expect("a header value"),
            );
        }
        Client::open(request).await
    }

    /// Opens a socket over a TCP connection the test set up itself.
    pub async fn open_on(tcp: TcpStream, url: &str) -> Result<Client, Refused> {
        let tcp = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
        match tokio::time::timeout(CONNECT_WAIT, tokio_tungstenite::client_async(url, tcp)).await {
            Ok(Ok((ws, _))) => Ok(Client::new(ws)),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(Refused::Other("no answer in time".to_owned())),
        }
    }

    /// `None` when no socket opens.
    pub async fn try_connect(url: &str) -> Option<Client> {
        Client::open(url).await.ok()
    }

    pub async fn connect(url: &str) -> Client {
        Client::open(url)
            .await
            .unwrap_or_else(|e| panic!("connect ws {url}: {e:?}"))
    }

    /// Opens a socket, says hello and waits for `welcome`.
    pub async fn join(url: &str, name: &str, token: Option<&str>) -> Client {
        let mut c = Client::connect(url).await;
        c.hello(name, token).await;
        c.recv_type("welcome").await;
        c
    }

    /// The `hello` that opens a table socket.
    pub fn hello_msg(name: &str, token: Option<&str>) -> ClientMsg {
        ClientMsg::Hello {
            token: token.map(str::to_owned),
            code: None,
            name: name.to_owned(),
        }
    }

    pub async fn hello(&mut self, name: &str, token: Option<&str>) {
        self.send_msg(&Client::hello_msg(name, token)).await;
    }

    pub async fn send_msg(&mut self, msg: &ClientMsg) {
        self.send(&json!(msg)).await;
    }

    pub async fn send(&mut self, v: &Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, s: impl Into<String>) {
        self.send_frame(Message::text(s.into())).await;
    }

    pub async fn send_frame(&mut self, m: Message) {
        self.ws.send(m).await.expect("send");
    }

    /// Sends; `false` when the socket is gone.
    pub async fn try_send(&mut self, v: &Value) -> bool {
        self.try_send_frame(Message::text(v.to_string())).await
    }

    pub async fn try_send_msg(&mut self, msg: &ClientMsg) -> bool {
        self.try_send(&json!(msg)).await
    }

    pub async fn try_send_frame(&mut self, m: Message) -> bool {
        self.ws.send(m).await.is_ok()
    }

    /// The next JSON message within `wait`.
    pub async fn next_within(&mut self, wait: Duration) -> Result<Value, NoMessage> {
        loop {
            let msg = tokio::time::timeout(wait, self.ws.next())
                .await
                .map_err(|_| NoMessage::Quiet)?;
            match msg {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("server sends JSON");
                    if let Some(check) = self.check.as_mut() {
                        check(t.as_str(), &v);
                    }
                    if v["type"] == "welcome" {
                        self.you = v["you"].clone();
                    }
                    return Ok(v);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Err(NoMessage::Closed),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next JSON message; `None` when the socket closed. Fails the test when
    /// nothing comes within [`WAIT`].
    pub async fn next(&mut self) -> Option<Value> {
        match self.next_within(WAIT).await {
            Ok(v) => Some(v),
            Err(NoMessage::Closed) => None,
            Err(NoMessage::Quiet) => panic!("no message within {WAIT:?}"),
        }
    }

    pub async fn recv(&mut self) -> Value {
        self.next().await.expect("socket open")
    }

    /// Skips messages until one of type `ty`; fails on an error unless `ty` is `error`.
    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == ty {
                return v;
            }
            if v["type"] == "error" && ty != "error" {
                panic!("expected {ty}, got {v}");
            }
        }
    }

    /// Skips messages until an error; asserts its code.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        let e = self.recv_type("error").await;
        assert_eq!(e["code"], code, "unexpected error {e}");
        e
    }

    /// Asks for a snapshot and returns its game.
    pub async fn snapshot(&mut self) -> Value {
        self.send_msg(&ClientMsg::Resync).await;
        self.recv_type("snapshot").await["game"].clone()
    }

    /// Asks for a resync and returns the table of its `welcome`.
    pub async fn table(&mut self) -> Value {
        self.send_msg(&ClientMsg::Resync).await;
        self.recv_type("welcome").await["table"].clone()
    }

    /// Takes `seat` and returns this player's seat token, once the welcome shows him there.
    pub async fn take_seat(&mut self, seat: u8) -> String {
        self.send(&json!({"type": "take_seat", "seat": seat})).await;
        loop {
            let w = self.recv_type("welcome").await;
            if w["you"]["seat"] == seat {
                return w["you"]["token"].as_str().expect("a seat token").to_owned();
            }
        }
    }

    pub fn token(&self) -> Option<String> {
        self.you["token"].as_str().map(str::to_owned)
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

// ----- what a recipient sees of the game -----

/// What one recipient knows of the game, rebuilt from his snapshots and updates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameView {
    pub version: u64,
    /// The game's view for this recipient.
    pub view: Value,
    /// The seats the game waits for.
    pub awaiting: Vec<u64>,
    /// The seat that may take back its last move (`awaiting.undo`).
    pub undo: Option<u64>,
    /// The game has an outcome.
    pub over: bool,
}

/// Why an update does not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateError {
    /// It is not the next version: updates were missed (the client resyncs).
    Gap { have: u64, got: u64 },
    /// It does not decode or its change does not apply to the view.
    Bad(String),
}

impl std::fmt::Display for UpdateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UpdateError::Gap { have, got } => {
                write!(f, "update missed: at version {have}, got {got}")
            }
            UpdateError::Bad(why) => write!(f, "bad update: {why}"),
        }
    }
}

fn seats(awaiting: &Value) -> Result<Vec<u64>, String> {
    awaiting["seats"]
        .as_array()
        .ok_or_else(|| format!("no awaited seats in {awaiting}"))?
        .iter()
        .map(|s| {
            s.as_u64()
                .ok_or_else(|| format!("a seat that is no number: {s}"))
        })
        .collect()
}

fn has_outcome(v: &Value) -> bool {
    v.get("outcome").is_some_and(|o| !o.is_null())
}

/// Applies an update's change to a recipient's view.
fn apply_change(view: &mut Value, update: &Value) -> Result<(), String> {
    let patch: json_patch::Patch = serde_json::from_value(update["patch"].clone())
        .map_err(|e| format!("the patch is not RFC 6902: {e}"))?;
    json_patch::patch(view, &patch).map_err(|e| format!("the patch does not apply: {e}"))
}

impl GameView {
    /// From a snapshot's `game`.
    pub fn from_snapshot(game: &Value) -> Result<GameView, String> {
        Ok(GameView {
            version: game["version"]
                .as_u64()
                .ok_or_else(|| format!("a snapshot without a version: {game}"))?,
            view: game["view"].clone(),
            awaiting: seats(&game["awaiting"])?,
            undo: game["awaiting"]["undo"].as_u64(),
            over: has_outcome(game),
        })
    }

    /// The version an update brings this view to, if it has one.
    pub fn update_version(update: &Value) -> Option<u64> {
        update["version"].as_u64()
    }

    /// Applies the next update; on an error the view is unchanged.
    pub fn apply_update(&mut self, update: &Value) -> Result<(), UpdateError> {
        let got = GameView::update_version(update)
            .ok_or_else(|| UpdateError::Bad(format!("no version in {update}")))?;
        if got != self.version + 1 {
            return Err(UpdateError::Gap {
                have: self.version,
                got,
            });
        }
        // An update without `awaiting` leaves it as it was.
        let (awaiting, undo) = match update.get("awaiting") {
            Some(awaiting) => (
                seats(awaiting).map_err(UpdateError::Bad)?,
                awaiting["undo"].as_u64(),
            ),
            None => (self.awaiting.clone(), self.undo),
        };
        let mut view = self.view.clone();
        apply_change(&mut view, update).map_err(UpdateError::Bad)?;
        *self = GameView {
            version: got,
            view,
            awaiting,
            undo,
            over: has_outcome(update),
        };
        Ok(())
    }
}

/// A view after an update (which must apply).
pub fn patched(view: &Value, update: &Value) -> Value {
    let mut v = view.clone();
    apply_change(&mut v, update).unwrap_or_else(|e| panic!("{e}"));
    v
}

/// Every public view of a game record: its first view, then each patch applied.
pub fn record_views(record: &Value) -> Vec<Value> {
    let mut view = record["first_view"].clone();
    let mut views = vec![view.clone()];
    for patch in record["patches"].as_array().expect("patches") {
        let patch: json_patch::Patch =
            serde_json::from_value(patch.clone()).expect("patch is RFC 6902");
        json_patch::patch(&mut view, &patch).expect("patch applies");
        views.push(view.clone());
    }
    views
}
