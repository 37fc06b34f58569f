//! "My tables": the tables a browser holds seats at, from the codes and seat
//! tokens it keeps, with whose turn it is and the time left. Everything here
//! is what the seat's player sees at the table (no hidden information): the
//! seats, whose decision the game awaits and the turn clock, found by
//! replaying the stored log, so it holds on every node of a cluster.

use protocol::TableStatus;
use protocol::api::{KeptSeat, MyTable};

use crate::codes::hash_token;
use crate::db::Db;
use crate::games::GameKind;
use crate::now_ms;
use crate::room::{SeatDoc, TableDoc, replay_log};
use store::TableRow;

/// The table of `row` as the holder of `kept` sees it, or `None` when his
/// token holds no seat there (left, kicked, or another table's).
pub async fn my_table(
    db: &dyn Db,
    kind: std::sync::Arc<dyn GameKind>,
    row: TableRow,
    kept: &KeptSeat,
) -> Result<Option<MyTable>, String> {
    let doc: TableDoc =
        serde_json::from_value(row.doc.clone()).map_err(|e| format!("table document: {e}"))?;
    let Some(seat) = doc.seat_of(Some(&hash_token(&kept.token))) else {
        return Ok(None);
    };
    let mut others = Vec::new();
    let mut bots = 0u8;
    for (i, s) in doc.seats.iter().enumerate() {
        match s {
            SeatDoc::Human { token_hash, .. } if i != usize::from(seat) => {
                others.push(doc.player_name(token_hash).unwrap_or_default().to_owned());
            }
            SeatDoc::Bot { .. } => bots = bots.saturating_add(1),
            _ => {}
        }
    }
    let mut table = MyTable {
        code: kept.code.clone(),
        game: row.game.clone(),
        status: row.status,
        seat,
        others,
        bots,
        awaiting: Vec::new(),
        time_left_ms: None,
        changed_ms: row.updated_at_ms,
    };
    if row.status != TableStatus::Playing {
        return Ok(Some(table));
    }
    let Some((game, moves)) = db
        .latest_game(row.id)
        .await
        .map_err(|e| format!("loading the game: {e}"))?
    else {
        return Ok(Some(table));
    };
    if let Some(last) = moves.last() {
        table.changed_ms = table.changed_ms.max(last.at_ms);
    }
    // Replaying is CPU work: off the threads that serve requests.
    let settings = doc.settings;
    let (awaiting, period_ms, started_ms) = tokio::task::spawn_blocking(move || {
        replay_log(kind.as_ref(), &settings, &game, &moves, |_, _| {}).map(|r| {
            let period_ms = r.period_ms(&settings);
            (r.state.awaiting().seats, period_ms, r.period_started_ms)
        })
    })
    .await
    .map_err(|e| format!("replaying: {e}"))??;
    table.awaiting = awaiting;
    if let Some(ms) = period_ms.filter(|_| !table.awaiting.is_empty()) {
        let elapsed = u64::try_from(now_ms().saturating_sub(started_ms)).unwrap_or(0);
        table.time_left_ms = Some(ms.saturating_sub(elapsed));
    }
    Ok(Some(table))
}
