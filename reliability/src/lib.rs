//! Reliability checks for CityTable that live outside the server crate: property
//! tests of the protocol decoder and every game's move handling (`tests/fuzz.rs`)
//! and the `soak` binary (a long run with bots, spectators, reconnects and chat
//! against the real `citytable` process). See RELIABILITY.md at the repository root.
