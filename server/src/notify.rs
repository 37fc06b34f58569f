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
//!
//! A webhook is an address anyone at a table may give, so the server must not
//! become a way into its own network: unless the server allows local webhooks
//! (`WEBHOOK_ALLOW_LOCAL`, for a home server), a webhook is an `https` address
//! of a public host, checked when it is given and again when a post connects
//! (a name is resolved by [`PublicOnly`], which drops every address that is
//! not public, so a name that points inside, now or once it was accepted, is
//! never reached).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
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
    allow_local: bool,
}

impl Notifier {
    /// Starts the sender: posts to each table's webhooks at most once per
    /// `interval`; to local addresses and over plain `http` too if `allow_local`.
    pub fn start(interval: Duration, allow_local: bool) -> Notifier {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(send_notices(rx, client(allow_local), interval, allow_local));
        Notifier { tx, allow_local }
    }

    /// Whether `url` may be a player's webhook here (see [`webhook_allowed`]).
    pub fn accepts(&self, url: &str) -> bool {
        webhook_allowed(url, self.allow_local)
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

/// The client that posts: no proxy, no redirect (a redirect could lead
/// inside), and, unless `allow_local`, names resolved to public addresses only.
fn client(allow_local: bool) -> reqwest::Client {
    let builder = reqwest::Client::builder()
        .timeout(POST_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy();
    let builder = if allow_local {
        builder
    } else {
        builder.dns_resolver(Arc::new(PublicOnly))
    };
    builder.build().unwrap_or_default()
}

/// Whether `url` may be a player's webhook: an `https` URL of at most
/// [`MAX_WEBHOOK_CHARS`] whose host is not an address or name of this machine
/// or a private network; where the server allows local webhooks (a home
/// server's), any host, over plain `http` too.
pub fn webhook_allowed(url: &str, allow_local: bool) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let host_allowed = match parsed.host() {
        None => false,
        Some(_) if allow_local => true,
        Some(url::Host::Ipv4(ip)) => is_public(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => is_public(IpAddr::V6(ip)),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.');
            name != "localhost" && !name.ends_with(".localhost")
        }
    };
    url.chars().count() <= MAX_WEBHOOK_CHARS
        && host_allowed
        && parsed.username().is_empty()
        && (parsed.scheme() == "https" || (allow_local && parsed.scheme() == "http"))
}

/// Whether `ip` is an address of the public Internet: not this machine's, a
/// private or shared network's, a link's, a multicast group's, nor one set
/// aside (documentation, benchmarks, future use).
fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => is_public_v4(ip),
        IpAddr::V6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(ip),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (carrier NAT)
        || (a == 192 && b == 0 && c == 0) // protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240) // reserved
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let [s0, s1, ..] = ip.segments();
    let embeds_v4 = s0 == 0x64 && s1 == 0xff9b; // NAT64: judged by the address it carries
    if embeds_v4 {
        let [.., a, b, c, d] = ip.octets();
        return is_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (s0 & 0xfe00) == 0xfc00 // unique local
        || (s0 & 0xffc0) == 0xfe80 // link local
        || (s0 & 0xffc0) == 0xfec0 // site local (deprecated)
        || (s0 == 0x2001 && s1 == 0x0db8) // documentation
        || (s0 == 0 && s1 == 0)) // IPv4-compatible and other reserved forms
}

/// Resolves a webhook's host name to its public addresses alone; a name with
/// none is an error, so nothing inside is ever connected to.
struct PublicOnly;

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let public: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|addr| is_public(addr.ip()))
                .collect();
            if public.is_empty() {
                return Err("the webhook's host has no public address".into());
            }
            Ok(Box::new(public.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// One table's notices to one address.
#[derive(Default)]
struct Batch {
    lines: Vec<String>,
    events: Vec<Value>,
    /// When the last post to it left.
    last_post: Option<Instant>,
}

async fn send_notices(
    mut rx: mpsc::Receiver<Notice>,
    client: reqwest::Client,
    interval: Duration,
    allow_local: bool,
) {
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
            // Checked again: an address saved before the server stopped allowing
            // local webhooks, or one whose host is an address (never resolved).
            if webhook_allowed(url, allow_local) {
                tokio::spawn(post(client.clone(), url.clone(), body));
            } else {
                tracing::warn!("a webhook address is no longer allowed; a notice was dropped");
            }
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
    fn only_https_webhooks_of_public_hosts_unless_local_ones_are_allowed() {
        assert!(webhook_allowed(
            "https://discord.com/api/webhooks/1/abc",
            false
        ));
        assert!(webhook_allowed("https://93.184.215.14/hook", false));
        assert!(webhook_allowed("https://[2606:4700::1111]/hook", false));
        for inside in [
            "http://discord.com/api/webhooks/1/abc",
            "https://127.0.0.1:5432/",
            "https://localhost/hook",
            "https://LOCALHOST./hook",
            "https://db.localhost/hook",
            "https://10.0.0.5/hook",
            "https://192.168.1.5/hook",
            "https://172.30.77.2/hook",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/hook",
            "https://0.0.0.0/hook",
            "https://[::1]/hook",
            "https://[::ffff:127.0.0.1]/hook",
            "https://[fd00::1]/hook",
            "https://[fe80::1]/hook",
            "https://[64:ff9b::a00:1]/hook",
            "https://2130706433/hook", // 127.0.0.1, written as one number
        ] {
            assert!(!webhook_allowed(inside, false), "{inside}");
        }
        assert!(webhook_allowed("http://192.168.1.5/hook", true));
        assert!(webhook_allowed("http://localhost:8000/hook", true));
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
    fn public_addresses_are_those_of_no_machine_nor_network_of_ours() {
        for public in [
            "8.8.8.8",
            "93.184.215.14",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(public.parse().expect("an address")), "{public}");
        }
        for inside in [
            "127.0.0.2",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.0.1",
            "169.254.1.1",
            "100.127.255.255",
            "0.1.2.3",
            "192.0.0.8",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "240.0.0.1",
            "::",
            "::1",
            "fc00::1",
            "fe80::1",
            "2001:db8::1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "ff02::1",
        ] {
            assert!(!is_public(inside.parse().expect("an address")), "{inside}");
        }
    }

    /// A name that resolves to this machine is never connected to, unless
    /// local webhooks are allowed: checked by whether a listener here is reached.
    #[tokio::test]
    async fn a_name_resolving_inside_is_never_connected_to() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!(
            "https://localhost:{}/hook",
            listener.local_addr().expect("its address").port()
        );
        let reached = async {
            tokio::time::timeout(Duration::from_secs(2), listener.accept())
                .await
                .is_ok()
        };
        let (sent, reached_) = tokio::join!(client(false).post(&url).send(), reached);
        assert!(sent.is_err());
        assert!(!reached_, "the listener was reached");
        let (sent, reached_) = tokio::join!(client(true).post(&url).send(), async {
            tokio::time::timeout(Duration::from_secs(5), listener.accept())
                .await
                .is_ok()
        });
        assert!(sent.is_err(), "no TLS there");
        assert!(reached_, "allowed, the listener is reached");
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
