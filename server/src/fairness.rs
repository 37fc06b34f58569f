//! Provably fair shuffles: every game's seed comes with a secret salt, the
//! players see `SHA-256(seed ‖ salt)` when it starts, and its record reveals
//! both once it is over. [`check_record`] is the check anyone can run on a
//! record (`citytable verify`, `POST /api/records/verify`): the seed is the one
//! committed to, and replaying it with the record's moves gives every view the
//! record shows, the public one and each seat's private overlay (its hand, its
//! draws), so every card, tile and draw dealt came from that seed.

use engine::{Outcome, Seat, Viewer};
use protocol::RawJson;
use protocol::api::{CommitmentCheck, ReplayCheck};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::games::{Registry, SetupDoc};

/// The largest record `check_record` is given by the API (`POST
/// /api/records/verify`): a long Building Cities game with four players' hands
/// and palettes takes several MiB. Its patches are read one at a time as the
/// check goes, so a check holds little more than the record's text.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// A new salt: 16 bytes from the system's random source, as 32 hex digits.
pub fn new_salt() -> String {
    let mut hasher = Sha256::new();
    hasher.update(Uuid::new_v4().as_bytes());
    hasher.update(Uuid::new_v4().as_bytes());
    hex(&hasher.finalize()[..16])
}

/// The seed as the record writes it: its 8 bytes, big-endian, in hex.
pub fn seed_hex(seed: u64) -> String {
    format!("{seed:016x}")
}

/// `SHA-256(seed ‖ salt)` in hex: the seed's 8 bytes, big-endian, then the
/// salt's 16. `None` if the salt is not 32 hex digits.
pub fn commitment(seed: u64, salt: &str) -> Option<String> {
    let salt = unhex(salt).filter(|s| s.len() == 16)?;
    let mut hasher = Sha256::new();
    hasher.update(seed.to_be_bytes());
    hasher.update(&salt);
    Some(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The parts of a `protocol::api::GameRecord` a check reads. The seed may also be
/// a JSON number, as records written before commitments had it.
#[derive(Deserialize)]
struct Record {
    game: String,
    seats: u8,
    seed: SeedText,
    #[serde(default)]
    salt: Option<String>,
    #[serde(default)]
    commitment: Option<String>,
    options: Value,
    #[serde(default)]
    first_seat: Option<u8>,
    #[serde(default)]
    names: Vec<String>,
    entries: Vec<Box<RawValue>>,
    first_view: Value,
    /// Read one at a time as the check goes (a record's patches, decoded all
    /// at once, would take several times its text).
    patches: Vec<Box<RawValue>>,
    #[serde(default)]
    seat_views: Option<Vec<SeatViews>>,
    #[serde(default)]
    outcome: Option<Outcome>,
}

/// One seat's private overlays in a record (`protocol::api::SeatViews`).
#[derive(Deserialize)]
struct SeatViews {
    first: Value,
    patches: Vec<Box<RawValue>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum SeedText {
    Hex(String),
    Number(u64),
}

/// Checks a record's text. `Err` when it is not a game record at all (with the
/// decoder's words); otherwise what matched and what did not.
pub fn check_record(games: &Registry, text: &[u8]) -> Result<protocol::api::RecordCheck, String> {
    let record: Record = serde_json::from_slice(text).map_err(|e| e.to_string())?;
    let seat_patches = record.seat_views.iter().flatten().map(|v| &v.patches);
    for patches in std::iter::once(&record.patches).chain(seat_patches) {
        if patches.len() != record.entries.len() {
            return Err(format!(
                "{} entries but {} patches",
                record.entries.len(),
                patches.len()
            ));
        }
    }
    let seed = match &record.seed {
        SeedText::Number(n) => *n,
        SeedText::Hex(h) if h.len() == 16 => {
            u64::from_str_radix(h, 16).map_err(|_| format!("the seed {h:?} is not hex"))?
        }
        SeedText::Hex(h) => return Err(format!("the seed {h:?} is not 16 hex digits")),
    };
    let commitment = match (&record.salt, &record.commitment) {
        (Some(salt), Some(shown)) => {
            if commitment(seed, salt).is_some_and(|c| c.eq_ignore_ascii_case(shown)) {
                CommitmentCheck::Matches
            } else {
                CommitmentCheck::Differs
            }
        }
        (None, None) => CommitmentCheck::Absent,
        // A salt without its commitment, or the reverse, commits to nothing.
        _ => CommitmentCheck::Differs,
    };
    let replay = replay(games, &record, seed);
    Ok(protocol::api::RecordCheck { commitment, replay })
}

/// Replays the record's seed and moves and compares every view (the first one
/// patched step by step, as a browser shows the record), the public one and
/// each seat's, and the outcome with the record's.
fn replay(games: &Registry, record: &Record, seed: u64) -> ReplayCheck {
    let Some(kind) = games.get(&record.game) else {
        return ReplayCheck::BadSetup;
    };
    let setup = SetupDoc {
        seats: record.seats,
        seed,
        salt: record.salt.clone(),
        options: record.options.clone(),
        first_seat: record.first_seat,
        names: record.names.clone(),
    };
    let Ok(mut state) = kind.start(&setup) else {
        return ReplayCheck::BadSetup;
    };
    // Each seat's private overlay on the public view, as the record says. The
    // game guarantees that a seat's view is the public one with its overlay
    // laid over it (`engine::Game::Private`), so the overlays are compared.
    let mut overlays: Vec<(Seat, Value, &[Box<RawValue>])> = Vec::new();
    match &record.seat_views {
        Some(views) if views.len() == usize::from(record.seats) => {
            for (seat, views) in (0..record.seats).zip(views) {
                overlays.push((seat, views.first.clone(), &views.patches));
            }
        }
        // Without a commitment (an older record) the public views are all there is.
        None if record.commitment.is_none() => {}
        _ => return ReplayCheck::NoSeatViews,
    }
    let same = |text: String, shown: &Value| {
        serde_json::from_str::<Value>(&text).is_ok_and(|v| &v == shown)
    };
    // Every view at one step: the public one, then each seat's overlay.
    let check = |state: &dyn crate::games::ErasedGame,
                 public: &Value,
                 overlays: &[(Seat, Value, _)],
                 step| {
        if !same(state.view_json(Viewer::Spectator), public) {
            return Err(ReplayCheck::ViewDiffers { step, seat: None });
        }
        match overlays
            .iter()
            .find(|(seat, overlay, _)| !same(state.private_view_json(*seat), overlay))
        {
            Some((seat, ..)) => Err(ReplayCheck::ViewDiffers {
                step,
                seat: Some(*seat),
            }),
            None => Ok(()),
        }
    };
    let mut public = record.first_view.clone();
    if let Err(differs) = check(state.as_ref(), &public, &overlays, 0) {
        return differs;
    }
    for (index, (entry, patch)) in record.entries.iter().zip(&record.patches).enumerate() {
        let number = u32::try_from(index).unwrap_or(u32::MAX);
        let applied = RawJson::of(entry)
            .ok()
            .and_then(|raw| state.try_entry(&raw).ok());
        let Some(applied) = applied else {
            return ReplayCheck::Refused { entry: number };
        };
        state = applied.state;
        let step = number.saturating_add(1);
        if !patched(&mut public, Some(patch)) {
            return ReplayCheck::ViewDiffers { step, seat: None };
        }
        for (seat, overlay, patches) in &mut overlays {
            if !patched(overlay, patches.get(index).map(|p| &**p)) {
                return ReplayCheck::ViewDiffers {
                    step,
                    seat: Some(*seat),
                };
            }
        }
        if let Err(differs) = check(state.as_ref(), &public, &overlays, step) {
            return differs;
        }
    }
    if state.outcome() != record.outcome {
        return ReplayCheck::OutcomeDiffers;
    }
    ReplayCheck::Matches {
        entries: u32::try_from(record.entries.len()).unwrap_or(u32::MAX),
    }
}

/// Applies a record's patch, read now, to `doc`; `false` when it is not a JSON
/// Patch that applies (or there is none).
fn patched(doc: &mut Value, patch: Option<&RawValue>) -> bool {
    patch
        .and_then(|raw| serde_json::from_str::<json_patch::Patch>(raw.get()).ok())
        .is_some_and(|patch| json_patch::patch(doc, &patch).is_ok())
}

/// What `citytable verify` prints for a check, line by line, and whether all
/// of it held.
pub fn describe(check: &protocol::api::RecordCheck) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    lines.push(
        match check.commitment {
            CommitmentCheck::Matches => {
                "commitment: matches (SHA-256 of the revealed seed and salt)"
            }
            CommitmentCheck::Differs => {
                "commitment: DIFFERS: the revealed seed or salt is not the one committed to"
            }
            CommitmentCheck::Absent => {
                "commitment: none (the game started before commitments were made)"
            }
        }
        .to_owned(),
    );
    lines.push(match &check.replay {
        ReplayCheck::Matches { entries } => format!(
            "replay: matches: the seed and the {entries} logged moves give every view (each seat's too) and the outcome of the record"
        ),
        ReplayCheck::BadSetup => {
            "replay: FAILS: the game does not start from the record's setup".to_owned()
        }
        ReplayCheck::Refused { entry } => {
            format!("replay: FAILS: the game refuses entry {entry}")
        }
        ReplayCheck::ViewDiffers { step, seat: None } => {
            format!("replay: DIFFERS: the view after {step} entries is not the record's")
        }
        ReplayCheck::ViewDiffers {
            step,
            seat: Some(seat),
        } => format!(
            "replay: DIFFERS: seat {seat}'s view after {step} entries is not the record's"
        ),
        ReplayCheck::NoSeatViews => {
            "replay: FAILS: the record does not show what each seat was dealt".to_owned()
        }
        ReplayCheck::OutcomeDiffers => {
            "replay: DIFFERS: the outcome is not the record's".to_owned()
        }
    });
    let ok = check.commitment != CommitmentCheck::Differs
        && matches!(check.replay, ReplayCheck::Matches { .. });
    (lines, ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_sha256_of_the_seed_bytes_then_the_salt_bytes() {
        // printf 0000000000000001000102030405060708090a0b0c0d0e0f | xxd -r -p | sha256sum
        assert_eq!(
            commitment(1, "000102030405060708090a0b0c0d0e0f").as_deref(),
            Some("5c4fa852ca7e5b038da091b2cbb36c41df33c70fd9afffdebffc61edb938cc16")
        );
    }

    #[test]
    fn a_salt_must_be_16_bytes_of_hex() {
        assert_eq!(commitment(1, "0001"), None);
        assert_eq!(commitment(1, "zz0102030405060708090a0b0c0d0e0f"), None);
        assert_eq!(commitment(1, "é00102030405060708090a0b0c0d0e0"), None);
        let salt = new_salt();
        assert_eq!(salt.len(), 32);
        assert!(commitment(7, &salt).is_some());
        assert_ne!(salt, new_salt());
    }
}
