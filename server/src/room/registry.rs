//! The rooms in memory, by invite and spectator code, and the public listing
//! they keep current (the lobby page reads it; a private table is never in it).
//! In cluster mode the listing also holds the other nodes' public tables, as
//! they last told them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use protocol::api::PublicTable;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::RoomMsg;

/// Live rooms by code, and the public tables.
#[derive(Default)]
pub struct Rooms {
    by_code: Mutex<HashMap<String, Entry>>,
    listing: Mutex<BTreeMap<Uuid, PublicTable>>,
    /// Other nodes' public tables, by node.
    remote: Mutex<HashMap<String, Told>>,
}

/// What another node last told of its public tables, and when.
struct Told {
    at: Instant,
    tables: Vec<(Uuid, PublicTable)>,
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

    /// Up to `n` of this node's public tables, by table id.
    pub fn local(&self, n: usize) -> Vec<(Uuid, PublicTable)> {
        match self.listing.lock() {
            Ok(listing) => listing
                .iter()
                .take(n)
                .map(|(id, t)| (*id, t.clone()))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Replaces what `node` last told of its public tables.
    pub fn set_remote(&self, node: String, tables: Vec<(Uuid, PublicTable)>) {
        if let Ok(mut remote) = self.remote.lock() {
            remote.insert(
                node,
                Told {
                    at: Instant::now(),
                    tables,
                },
            );
        }
    }

    /// Forgets the tables of nodes silent for longer than `age`.
    pub fn forget_remote_older_than(&self, age: Duration) {
        if let Ok(mut remote) = self.remote.lock() {
            remote.retain(|_, told| told.at.elapsed() <= age);
        }
    }

    /// Up to `n` public tables after `after` (by table id), and whether more
    /// follow: this node's and, in cluster mode, the others'. A table two nodes
    /// list (it just moved) is listed once, as this node has it when it has it.
    pub fn page(&self, after: Option<Uuid>, n: usize) -> (Vec<(Uuid, PublicTable)>, bool) {
        let from = match after {
            Some(id) => std::ops::Bound::Excluded(id),
            None => std::ops::Bound::Unbounded,
        };
        // The first n + 1 of this node's and of each other node's after `after`
        // (each tells its tables in id order): the first n + 1 of all are among them.
        let mut picked: BTreeMap<Uuid, PublicTable> = match self.listing.lock() {
            Ok(listing) => listing
                .range((from, std::ops::Bound::Unbounded))
                .take(n + 1)
                .map(|(id, t)| (*id, t.clone()))
                .collect(),
            Err(_) => return (Vec::new(), false),
        };
        if let Ok(remote) = self.remote.lock() {
            for told in remote.values() {
                for (id, table) in told
                    .tables
                    .iter()
                    .filter(|(id, _)| after.is_none_or(|a| *id > a))
                    .take(n + 1)
                {
                    picked.entry(*id).or_insert_with(|| table.clone());
                }
            }
        }
        let mut listed = picked.into_iter();
        let tables: Vec<(Uuid, PublicTable)> = listed.by_ref().take(n).collect();
        let more = listed.next().is_some();
        (tables, more)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::TableStatus;

    fn table(code: &str) -> PublicTable {
        PublicTable {
            invite_code: code.into(),
            game: "tic-tac-toe".into(),
            status: TableStatus::Lobby,
            seats: 2,
            seats_taken: 1,
            spectators_allowed: true,
            host_name: "Ana".into(),
        }
    }

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    fn codes(page: &[(Uuid, PublicTable)]) -> Vec<&str> {
        page.iter().map(|(_, t)| t.invite_code.as_str()).collect()
    }

    #[test]
    fn the_lobby_pages_through_every_nodes_public_tables_once_each() {
        let rooms = Rooms::default();
        rooms.list(id(2), table("here-2"));
        rooms.list(id(5), table("here-5"));
        rooms.set_remote(
            "b".into(),
            vec![
                (id(1), table("b-1")),
                (id(5), table("b-5")),
                (id(6), table("b-6")),
            ],
        );
        rooms.set_remote("c".into(), vec![(id(3), table("c-3"))]);
        let (first, more) = rooms.page(None, 3);
        assert_eq!(codes(&first), ["b-1", "here-2", "c-3"]);
        assert!(more);
        let (second, more) = rooms.page(Some(id(3)), 3);
        assert_eq!(
            codes(&second),
            ["here-5", "b-6"],
            "a table listed by two nodes, once, as this node has it"
        );
        assert!(!more);
        assert_eq!(
            codes(&rooms.local(10)),
            ["here-2", "here-5"],
            "a node tells only its own"
        );
    }

    #[test]
    fn a_silent_nodes_tables_are_forgotten() {
        let rooms = Rooms::default();
        rooms.set_remote("b".into(), vec![(id(1), table("b-1"))]);
        rooms.forget_remote_older_than(Duration::from_secs(60));
        assert_eq!(rooms.page(None, 10).0.len(), 1);
        rooms.forget_remote_older_than(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        rooms.forget_remote_older_than(Duration::ZERO);
        assert!(rooms.page(None, 10).0.is_empty());
        // What a node tells replaces what it told before.
        rooms.set_remote("c".into(), vec![(id(1), table("c-1"))]);
        rooms.set_remote("c".into(), vec![]);
        assert!(rooms.page(None, 10).0.is_empty());
    }
}
