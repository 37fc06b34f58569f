//! The address a request is counted against: the one place it is decided.
//!
//! Every per-address budget (open connections, new connections, table creations,
//! record fetches, WebSocket messages, wrong-code lookups) keys on [`ClientAddr`].
//! It is the TCP peer's address, unless the peer is one of the reverse proxies of
//! `TRUSTED_PROXIES`: then it is the rightmost `X-Forwarded-For` entry that is not
//! itself a trusted proxy (entries to its left were written by the client and
//! prove nothing). Without trusted proxies `X-Forwarded-For` is never read, so a
//! client cannot choose the address it is counted as.

use std::net::{IpAddr, SocketAddr};

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use ipnet::IpNet;

use crate::http::ApiErr;

/// The reverse proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`):
/// addresses and CIDR ranges; none by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// A comma-separated list of IP addresses and CIDR ranges
    /// (`10.0.0.5, 172.28.0.0/16, fd00::/8`); empty entries are skipped.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .map(|net| net.trunc())
                    .or_else(|_| {
                        entry
                            .parse::<IpAddr>()
                            .map(|ip| IpNet::from(ip.to_canonical()))
                    })
                    .map_err(|_| format!("{entry:?} is neither an IP address nor a CIDR range"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` is one of the trusted proxies (an IPv4 address written as
    /// IPv6, `::ffff:10.0.0.5`, counts as the IPv4 one).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }
}

/// The address a request is counted against (see the module's documentation);
/// an extractor for handlers, set on every request by the accept loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The client of a request that came from `peer` with `headers`.
    pub fn of(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> ClientAddr {
        if !trusted.contains(peer) {
            return ClientAddr(peer);
        }
        ClientAddr(forwarded_for(headers, trusted).unwrap_or(peer))
    }
}

/// The rightmost `X-Forwarded-For` entry that is not a trusted proxy (the
/// leftmost entry when they all are); `None` when the header is missing, or
/// unreadable before such an entry is found. Several header lines count as one
/// list, in order.
fn forwarded_for(headers: &HeaderMap, trusted: &TrustedProxies) -> Option<IpAddr> {
    let mut furthest = None;
    for line in headers.get_all("x-forwarded-for").iter().rev() {
        for entry in line.to_str().ok()?.rsplit(',') {
            let ip = forwarded_entry(entry)?;
            if !trusted.contains(ip) {
                return Some(ip);
            }
            furthest = Some(ip);
        }
    }
    furthest
}

/// One entry: an address, with or without a port (`1.2.3.4`, `1.2.3.4:5678`,
/// `2001:db8::1`, `[2001:db8::1]`, `[2001:db8::1]:5678`).
fn forwarded_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    let ip = entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| entry.strip_prefix('[')?.strip_suffix(']')?.parse().ok())?;
    Some(ip.to_canonical())
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiErr;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddr, ApiErr> {
        parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .ok_or_else(|| {
                // Only the accept loop (`listen.rs`) serves the routes, and it sets
                // the address on every request.
                tracing::error!("a request without its client's address");
                ApiErr::try_again()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("an address")
    }

    fn headers(lines: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(
                "x-forwarded-for",
                HeaderValue::from_str(line).expect("a header value"),
            );
        }
        headers
    }

    fn client(peer: &str, lines: &[&str], trusted: &str) -> IpAddr {
        let trusted = TrustedProxies::parse(trusted).expect("a list");
        ClientAddr::of(ip(peer), &headers(lines), &trusted).0
    }

    #[test]
    fn the_list_takes_addresses_and_ranges() {
        let trusted =
            TrustedProxies::parse(" 10.0.0.5, 172.28.0.0/16,,fd00::/8 ,::1").expect("a list");
        for yes in [
            "10.0.0.5",
            "172.28.3.4",
            "fd00::7",
            "::1",
            "::ffff:10.0.0.5",
        ] {
            assert!(trusted.contains(ip(yes)), "{yes}");
        }
        for no in ["10.0.0.6", "172.29.0.1", "fe80::1", "127.0.0.1"] {
            assert!(!trusted.contains(ip(no)), "{no}");
        }
        // A range written with host bits set is the range.
        let loose = TrustedProxies::parse("10.1.2.3/8").expect("a range");
        assert!(loose.contains(ip("10.200.0.1")));
        assert!(TrustedProxies::parse("").is_ok_and(|t| t.is_empty()));
        for wrong in ["10.0.0", "10.0.0.0/33", "proxy.example.org", "10.0.0.1, x"] {
            assert!(TrustedProxies::parse(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        assert_eq!(client("203.0.113.9", &["10.0.0.7"], ""), ip("203.0.113.9"));
        // Nor from a peer that is not one of them.
        assert_eq!(
            client("203.0.113.9", &["10.0.0.7"], "127.0.0.1"),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_rightmost_untrusted_entry_is_the_client() {
        let trusted = "127.0.0.1, 172.28.0.0/16";
        assert_eq!(client("127.0.0.1", &["10.0.0.7"], trusted), ip("10.0.0.7"));
        // Whatever the client wrote to the left proves nothing.
        assert_eq!(
            client("127.0.0.1", &["1.2.3.4, 10.0.0.7"], trusted),
            ip("10.0.0.7")
        );
        // Proxies in front of the proxy are skipped.
        assert_eq!(
            client("127.0.0.1", &["1.2.3.4, 10.0.0.7, 172.28.0.9"], trusted),
            ip("10.0.0.7")
        );
        // Several lines are one list, in order.
        assert_eq!(
            client("127.0.0.1", &["1.2.3.4", "10.0.0.7 , 172.28.0.9"], trusted),
            ip("10.0.0.7")
        );
        // Ports and brackets, and IPv4 written as IPv6.
        assert_eq!(
            client("127.0.0.1", &["10.0.0.7:5123"], trusted),
            ip("10.0.0.7")
        );
        assert_eq!(
            client("127.0.0.1", &["[2001:db8::1]:443"], trusted),
            ip("2001:db8::1")
        );
        assert_eq!(
            client("127.0.0.1", &["[2001:db8::1]"], trusted),
            ip("2001:db8::1")
        );
        assert_eq!(
            client("127.0.0.1", &["::ffff:10.0.0.7"], trusted),
            ip("10.0.0.7")
        );
        // Garbage left of the client's entry is never reached.
        assert_eq!(
            client("127.0.0.1", &["nonsense, 10.0.0.7"], trusted),
            ip("10.0.0.7")
        );
        // Only proxies: the furthest one.
        assert_eq!(
            client("127.0.0.1", &["172.28.0.8, 172.28.0.9"], trusted),
            ip("172.28.0.8")
        );
    }

    #[test]
    fn a_missing_or_unreadable_header_leaves_the_peer() {
        let trusted = "127.0.0.1";
        assert_eq!(client("127.0.0.1", &[], trusted), ip("127.0.0.1"));
        for wrong in ["", "nonsense", "10.0.0.7, nonsense", "10.0.0.7,", "unknown"] {
            assert_eq!(
                client("127.0.0.1", &[wrong], trusted),
                ip("127.0.0.1"),
                "{wrong}"
            );
        }
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_bytes(b"10.0.0.7\xff").expect("obs-text is a header value"),
        );
        let trusted = TrustedProxies::parse(trusted).expect("a list");
        assert_eq!(
            ClientAddr::of(ip("127.0.0.1"), &headers, &trusted).0,
            ip("127.0.0.1")
        );
    }
}
