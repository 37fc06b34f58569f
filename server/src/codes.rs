//! Unguessable codes and seat tokens.
//!
//! Invite and spectator codes carry 100 random bits, seat tokens 240, all from the
//! operating system's CSPRNG (through `uuid` v4). Tokens are stored only as SHA-256
//! hashes, so a leaked table document does not give anyone a seat.

use sha2::{Digest, Sha256};

const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// Random bytes from the OS CSPRNG: the 15 fully random bytes of a v4 UUID
/// (byte 6 holds the version, byte 8 the variant).
fn random_bytes(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 15);
    while out.len() < n {
        let b = uuid::Uuid::new_v4().into_bytes();
        out.extend_from_slice(&b[..6]);
        out.push(b[7]);
        out.extend_from_slice(&b[9..]);
    }
    out.truncate(n);
    out
}

/// `chars` base-32 characters, 5 random bits each.
fn random_base32(chars: usize) -> String {
    let bytes = random_bytes(chars.div_ceil(8) * 5);
    let mut bits: u64 = 0;
    let mut held = 0;
    let mut out = String::with_capacity(chars);
    for b in bytes {
        bits = (bits << 8) | u64::from(b);
        held += 8;
        while held >= 5 && out.len() < chars {
            held -= 5;
            out.push(char::from(ALPHABET[((bits >> held) & 31) as usize]));
        }
    }
    out
}

/// An invite or spectator code: 20 characters, 100 random bits.
pub fn new_code() -> String {
    random_base32(20)
}

/// A seat token: 48 characters, 240 random bits.
pub fn new_token() -> String {
    random_base32(48)
}

/// The stored form of a token.
pub fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a string could be a code at all (cheap check before any lookup).
pub fn plausible_code(code: &str) -> bool {
    code.len() == 20 && code.bytes().all(|b| ALPHABET.contains(&b))
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same_secret(given: &str, expected: &str) -> bool {
    let (a, b) = (Sha256::digest(given), Sha256::digest(expected));
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_distinct_and_well_formed() {
        let codes: HashSet<String> = (0..1000).map(|_| new_code()).collect();
        assert_eq!(codes.len(), 1000);
        assert!(codes.iter().all(|c| plausible_code(c)));
        assert_eq!(new_token().len(), 48);
        assert!(!plausible_code("short"));
    }

    #[test]
    fn hashes_are_stable_hex() {
        assert_eq!(hash_token("a"), hash_token("a"));
        assert_ne!(hash_token("a"), hash_token("b"));
        assert_eq!(hash_token("a").len(), 64);
    }
}
