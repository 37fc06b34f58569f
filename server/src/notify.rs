//! Webhook notices: a player of a turn-based table may give a URL (a Discord or
//! Slack incoming webhook, or any endpoint that takes JSON) that the server
//! calls when the table waits for him and he has no page open there.
//!
//! A room hands a notice over without waiting (a bounded queue; when it is full
//! the notice is dropped and logged: a table never waits on a webhook). The
//! sender posts at most once per table and address per interval (an hour by
//! default); notices that come meanwhile go together in the next post. A post
//! that fails is tried again with growing pauses. A notice says which table
//! waits for whom and the time left, in the player's language: nothing hidden.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};
use uuid::Uuid;

/// Notices waiting for the sender, across all tables.
const QUEUE: usize = 1024;
/// Tries of one post, the first included.
const TRIES: u32 = 5;
/// The pause after a failed try, doubled after each.
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// Longest a post may take.
const POST_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest accepted webhook URL.
pub const MAX_WEBHOOK_CHARS: usize = 512;

/// One thing to tell one player's webhook.
#[derive(Clone, Debug)]
pub struct Notice {
    pub table: Uuid,
    pub url: String,
    /// The sentence, in the player's language.
    pub line: String,
    /// The same as typed fields (`{"event": "your_turn", ...}`).
    pub event: Value,
}

/// The way to the sender.
#[derive(Clone, Debug)]
pub struct Notifier {
    tx: mpsc::Sender<Notice>,
}

impl Notifier {
    /// Starts the sender: posts to each table's webhooks at most once per `interval`.
    pub fn start(interval: Duration) -> Notifier {
        let (tx, rx) = mpsc::channel(QUEUE);
        let client = reqwest::Client::builder()
            .timeout(POST_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        tokio::spawn(send_notices(rx, client, interval));
        Notifier { tx }
    }

    /// Hands a notice over; `false` (and nothing else) when the queue is full.
    pub fn send(&self, notice: Notice) -> bool {
        let sent = self.tx.try_send(notice).is_ok();
        if !sent {
            tracing::warn!("the webhook queue is full; a notice was dropped");
        }
        sent
    }
}

/// Whether `url` may be a player's webhook: an `https` URL (or `http` where the
/// server allows it, e.g. on a home network), of at most [`MAX_WEBHOOK_CHARS`].
pub fn webhook_allowed(url: &str, allow_http: bool) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    url.chars().count() <= MAX_WEBHOOK_CHARS
        && parsed.host_str().is_some()
        && parsed.username().is_empty()
        && (parsed.scheme() == "https" || (allow_http && parsed.scheme() == "http"))
}

/// One table's notices to one address.
#[derive(Default)]
struct Batch {
    lines: Vec<String>,
    events: Vec<Value>,
    /// When the last post to it left.
    last_post: Option<Instant>,
}

async fn send_notices(mut rx: mpsc::Receiver<Notice>, client: reqwest::Client, interval: Duration) {
    let mut batches: HashMap<(Uuid, String), Batch> = HashMap::new();
    loop {
        let next = batches
            .values()
            .filter(|b| !b.lines.is_empty())
            .filter_map(|b| b.last_post.map(|at| at + interval))
            .min();
        tokio::select! {
            notice = rx.recv() => {
                let Some(notice) = notice else { return };
                let batch = batches.entry((notice.table, notice.url)).or_default();
                batch.lines.push(notice.line);
                batch.events.push(notice.event);
            }
            _ = sleep_until(next.unwrap_or_else(Instant::now)), if next.is_some() => {}
        }
        let now = Instant::now();
        for ((_, url), batch) in batches.iter_mut() {
            let due = batch.last_post.is_none_or(|at| at + interval <= now);
            if batch.lines.is_empty() || !due {
                continue;
            }
            let body = json!({
                // Discord reads `content`, Slack `text`; both show the same lines.
                "content": batch.lines.join("\n"),
                "text": batch.lines.join("\n"),
                "username": "CityTable",
                "citytable": std::mem::take(&mut batch.events),
            });
            batch.lines.clear();
            batch.last_post = Some(now);
            tokio::spawn(post(client.clone(), url.clone(), body));
        }
        // Forget addresses whose interval is over and that have nothing to send.
        batches.retain(|_, b| {
            !b.lines.is_empty() || b.last_post.is_some_and(|at| at + interval > now)
        });
    }
}

/// Posts `body`, trying again after a failure or a 5xx/429 answer.
async fn post(client: reqwest::Client, url: String, body: Value) {
    let mut pause = FIRST_RETRY;
    for attempt in 1..=TRIES {
        match client.post(&url).json(&body).send().await {
            Ok(answer) if answer.status().is_success() => return,
            Ok(answer)
                if answer.status().is_client_error()
                    && answer.status() != reqwest::StatusCode::TOO_MANY_REQUESTS =>
            {
                tracing::warn!(status = %answer.status(), "a webhook refused a notice");
                return;
            }
            Ok(answer) => {
                tracing::info!(status = %answer.status(), attempt, "a webhook post failed");
            }
            Err(e) => tracing::info!(error = %e.without_url(), attempt, "a webhook post failed"),
        }
        if attempt < TRIES {
            tokio::time::sleep(pause).await;
            pause *= 2;
        }
    }
    tracing::warn!("a webhook notice was given up after {TRIES} tries");
}

/// "Your turn" in the player's language (`en` or `fr`).
pub fn your_turn_line(lang: &str, game: &str, link: &str, left_ms: Option<u64>) -> String {
    let left = left_ms.map(|ms| duration(lang, ms));
    match (lang, left) {
        ("fr", Some(left)) => {
            format!("À vous de jouer à la table de {game} (encore {left}) : {link}")
        }
        ("fr", None) => format!("À vous de jouer à la table de {game} : {link}"),
        (_, Some(left)) => format!("Your turn at the {game} table ({left} left): {link}"),
        (_, None) => format!("Your turn at the {game} table: {link}"),
    }
}

/// "Your time runs low" (the turn's own time is over; the reserve runs).
pub fn time_low_line(lang: &str, game: &str, link: &str, left_ms: u64) -> String {
    let left = duration(lang, left_ms);
    if lang == "fr" {
        format!(
            "Votre temps s’épuise à la table de {game} : encore {left}, sur votre réserve : {link}"
        )
    } else {
        format!("Your time runs low at the {game} table: {left} left, from your reserve: {link}")
    }
}

/// A time left, as the page writes it.
fn duration(lang: &str, ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    let hours = secs / 3600;
    if hours == 0 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else if hours < 48 {
        format!("{hours} h {} min", (secs % 3600) / 60)
    } else {
        let d = if lang == "fr" { "j" } else { "d" };
        format!("{} {d} {} h", hours / 24, hours % 24)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_webhooks_unless_http_is_allowed() {
        assert!(webhook_allowed(
            "https://discord.com/api/webhooks/1/abc",
            false
        ));
        assert!(!webhook_allowed("http://192.168.1.5/hook", false));
        assert!(webhook_allowed("http://192.168.1.5/hook", true));
        for bad in [
            "ftp://x/y",
            "not a url",
            "https://user:pw@x/y",
            "file:///etc/passwd",
        ] {
            assert!(!webhook_allowed(bad, true), "{bad}");
        }
        let long = format!("https://x/{}", "a".repeat(MAX_WEBHOOK_CHARS));
        assert!(!webhook_allowed(&long, false));
    }

    #[test]
    fn the_line_says_the_time_left_as_the_page_does() {
        assert_eq!(
            your_turn_line(
                "en",
                "Big City",
                "https://t/x",
                Some(3 * 86_400_000 + 7_200_000)
            ),
            "Your turn at the Big City table (3 d 2 h left): https://t/x"
        );
        assert_eq!(
            your_turn_line("fr", "Big City", "https://t/x", Some(90_500)),
            "À vous de jouer à la table de Big City (encore 1:31) : https://t/x"
        );
    }
}
