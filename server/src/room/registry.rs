//! The rooms in memory, by invite and spectator code, and the public listing
//! they keep current (the lobby page reads it; a private table is never in it).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use protocol::api::PublicTable;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::RoomMsg;

/// Live rooms by code, and the public tables.
#[derive(Default)]
pub struct Rooms {
    by_code: Mutex<HashMap<String, Entry>>,
    listing: Mutex<BTreeMap<Uuid, PublicTable>>,
}

#[derive(Clone)]
struct Entry {
    tx: mpsc::Sender<RoomMsg>,
    /// The code is the spectator code.
    spectator: bool,
    table: Uuid,
}

impl Rooms {
    /// The inbox of the room in memory with this code, and whether it is its
    /// spectator code.
    pub fn get(&self, code: &str) -> Option<(mpsc::Sender<RoomMsg>, bool)> {
        let rooms = self.by_code.lock().ok()?;
        rooms.get(code).map(|e| (e.tx.clone(), e.spectator))
    }

    /// Registers a room's codes. When a room with that invite code is already
    /// registered (someone else loaded it first), its inbox, and nothing changes.
    pub fn register(
        &self,
        table: Uuid,
        invite: &str,
        spectate: &str,
        tx: &mpsc::Sender<RoomMsg>,
    ) -> Result<Option<mpsc::Sender<RoomMsg>>, String> {
        let Ok(mut rooms) = self.by_code.lock() else {
            return Err("room registry poisoned".into());
        };
        if let Some(existing) = rooms.get(invite) {
            return Ok(Some(existing.tx.clone()));
        }
        for (code, spectator) in [(invite, false), (spectate, true)] {
            rooms.insert(
                code.to_owned(),
                Entry {
                    tx: tx.clone(),
                    spectator,
                    table,
                },
            );
        }
        Ok(None)
    }

    /// Forgets a room's codes (it is reloaded from the store on demand).
    pub fn unregister(&self, table: Uuid) {
        if let Ok(mut rooms) = self.by_code.lock() {
            rooms.retain(|_, e| e.table != table);
        }
    }

    /// The inbox of every room in memory.
    pub fn inboxes(&self) -> Vec<mpsc::Sender<RoomMsg>> {
        match self.by_code.lock() {
            Ok(rooms) => rooms
                .values()
                .filter(|e| !e.spectator)
                .map(|e| e.tx.clone())
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Lists a public table, or updates its entry.
    pub fn list(&self, table: Uuid, entry: PublicTable) {
        if let Ok(mut listing) = self.listing.lock() {
            listing.insert(table, entry);
        }
    }

    /// Takes a table off the listing.
    pub fn unlist(&self, table: Uuid) {
        if let Ok(mut listing) = self.listing.lock() {
            listing.remove(&table);
        }
    }

    /// Up to `n` public tables after `after` (by table id), and whether more follow.
    pub fn page(&self, after: Option<Uuid>, n: usize) -> (Vec<(Uuid, PublicTable)>, bool) {
        let Ok(listing) = self.listing.lock() else {
            return (Vec::new(), false);
        };
        let from = match after {
            Some(id) => std::ops::Bound::Excluded(id),
            None => std::ops::Bound::Unbounded,
        };
        let mut listed = listing.range((from, std::ops::Bound::Unbounded));
        let tables: Vec<(Uuid, PublicTable)> = listed
            .by_ref()
            .take(n)
            .map(|(id, t)| (*id, t.clone()))
            .collect();
        let more = listed.next().is_some();
        (tables, more)
    }
}
