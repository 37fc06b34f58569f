//! One test suite, run against both stores: every `async fn` below taking a `&TestStore` runs
//! once on a fresh SQLite file (`sqlite::*`) and once on a fresh Postgres database
//! (`postgres::*`).
//!
//! Postgres: see the test kit's `postgres` module (`TEST_DATABASE_URL`,
//! `CITYTABLE_SKIP_POSTGRES=1`).

use protocol::{RawJson, TableStatus};
use serde_json::json;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use store::{
    Committer, Fence, GameRow, Lease, MoveRow, Recovered, Store, StoreError, TableRow, Write,
};
use testkit::{Kind, TestStore};
use uuid::Uuid;

/// A marker placed in hidden fields: it must never appear in an error message.
const SECRET: &str = "s3cret-hand-7f2a";

fn table(status: TableStatus, updated_at_ms: i64) -> TableRow {
    let id = Uuid::new_v4();
    TableRow {
        id,
        game: "tic-tac-toe".into(),
        invite_code: format!("inv-{}", id.simple()),
        spectator_code: format!("spec-{}", id.simple()),
        status,
        public: true,
        doc: json!({
            "seats": [{"name": "Ada", "token_hash": SECRET}, {"name": "Bot", "bot": true}],
            "settings": {"turn_seconds": 60},
            "host": 0,
        }),
        updated_at_ms,
    }
}

fn game(table_id: Uuid, number: i32) -> GameRow {
    GameRow {
        id: Uuid::new_v4(),
        table_id,
        number,
        setup: json!({
            "seats": 2,
            // Above 2^53 and at the very top of u64: must come back exactly.
            "seed": u64::MAX,
            "options": {"variant": "standard", "ratio": 0.25, "name": "Zoë's table ✓"},
            "first_seat": 1,
        }),
        started_at_ms: 1_700_000_000_000 + i64::from(number),
        outcome: None,
    }
}

fn mv(game_id: Uuid, seq: i64) -> MoveRow {
    MoveRow {
        game_id,
        seq,
        entry: RawJson::of(
            &json!({"seat": seq % 2, "move": {"type": "place", "cell": seq}, "hand": SECRET}),
        )
        .expect("JSON"),
        at_ms: 1_700_000_000_000 + seq,
    }
}

/// A table in `status` with one started game.
async fn table_with_game(store: &Store, status: TableStatus) -> (TableRow, GameRow) {
    let t = table(status, 1);
    store.upsert_table(&t).await.expect("upsert table");
    let g = game(t.id, 1);
    store.insert_game(&g).await.expect("insert game");
    (t, g)
}

async fn moves_of(store: &Store, table_id: Uuid) -> Vec<MoveRow> {
    store
        .latest_game(table_id)
        .await
        .expect("latest game")
        .map(|(_, moves)| moves)
        .unwrap_or_default()
}

fn assert_conflict(result: Result<(), StoreError>) -> StoreError {
    match result {
        Err(e @ StoreError::Conflict(_)) => {
            let text = e.to_string();
            assert!(!text.contains(SECRET), "error shows hidden data: {text}");
            e
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
}

fn assert_fenced(result: Result<(), StoreError>, table_id: Uuid, epoch: i64) {
    assert_eq!(result, Err(StoreError::Fenced { table_id, epoch }));
}

/// Long enough that a lease taken for it cannot lapse during a test.
const HELD: Duration = Duration::from_secs(60);
/// A lease taken for no time is lapsed at once: tests of expiry need no sleep.
const LAPSED: Duration = Duration::ZERO;

// ---------------------------------------------------------------------------------------------
// The shared suite.

async fn kind_and_ping(ctx: &TestStore) {
    let expected = match ctx.db.kind {
        Kind::Sqlite => "sqlite",
        Kind::Postgres => "postgres",
    };
    assert_eq!(ctx.store.kind(), expected);
    ctx.store.ping().await.expect("ping");
}

async fn table_round_trip_and_lookup_by_either_code(ctx: &TestStore) {
    let store = &ctx.store;
    let mut t = table(TableStatus::Lobby, 10);
    t.public = false;
    store.upsert_table(&t).await.expect("insert");
    assert_eq!(
        store
            .table_by_code(&t.invite_code)
            .await
            .expect("by invite"),
        Some(t.clone())
    );
    assert_eq!(
        store
            .table_by_code(&t.spectator_code)
            .await
            .expect("by spectator"),
        Some(t.clone())
    );
    assert_eq!(
        store.table_by_id(t.id).await.expect("by id"),
        Some(t.clone())
    );
    assert_eq!(
        store
            .table_by_code("no-such-code")
            .await
            .expect("unknown code"),
        None
    );
    assert_eq!(
        store.table_by_id(Uuid::new_v4()).await.expect("unknown id"),
        None
    );

    // Upsert replaces every column.
    t.status = TableStatus::Playing;
    t.public = true;
    t.doc = json!({"seats": [], "note": "changed"});
    t.updated_at_ms = 20;
    t.invite_code = format!("{}-2", t.invite_code);
    store.upsert_table(&t).await.expect("update");
    assert_eq!(
        store
            .table_by_code(&t.invite_code)
            .await
            .expect("by new code"),
        Some(t.clone())
    );
    assert_eq!(store.table_by_id(t.id).await.expect("by id"), Some(t));
}

async fn a_code_matching_an_invite_code_finds_that_table_first(ctx: &TestStore) {
    // Codes are unique per kind; should an invite code equal another table's spectator code,
    // the lookup is still deterministic.
    let store = &ctx.store;
    let mut watched = table(TableStatus::Playing, 1);
    watched.spectator_code = "same-code".into();
    store.upsert_table(&watched).await.expect("watched");
    let mut invited = table(TableStatus::Lobby, 2);
    invited.invite_code = "same-code".into();
    store.upsert_table(&invited).await.expect("invited");
    assert_eq!(
        store.table_by_code("same-code").await.expect("lookup"),
        Some(invited)
    );
}

async fn table_codes_are_unique(ctx: &TestStore) {
    let store = &ctx.store;
    let a = table(TableStatus::Lobby, 1);
    store.upsert_table(&a).await.expect("insert a");

    let mut b = table(TableStatus::Lobby, 2);
    b.invite_code = a.invite_code.clone();
    let e = assert_conflict(store.upsert_table(&b).await);
    assert!(
        !e.to_string().contains(&a.invite_code),
        "error shows a code: {e}"
    );

    let mut c = table(TableStatus::Lobby, 3);
    c.spectator_code = a.spectator_code.clone();
    assert_conflict(store.upsert_table(&c).await);

    // Nothing of the rejected tables was stored.
    assert_eq!(store.table_by_id(b.id).await.expect("b"), None);
    assert_eq!(store.table_by_id(c.id).await.expect("c"), None);
}

async fn game_round_trip_and_finish(ctx: &TestStore) {
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    assert_eq!(
        store.latest_game(t.id).await.expect("latest"),
        Some((g.clone(), vec![]))
    );

    let outcome = json!({"winners": [1], "scores": [3, 7], "seed": u64::MAX});
    store.finish_game(g.id, &outcome).await.expect("finish");
    let (got, _) = store
        .latest_game(t.id)
        .await
        .expect("latest")
        .expect("a game");
    assert_eq!(got.outcome, Some(outcome));
    assert_eq!(got.setup, g.setup);

    // A second game becomes the latest one.
    let g2 = game(t.id, 2);
    store.insert_game(&g2).await.expect("insert game 2");
    assert_eq!(
        store.latest_game(t.id).await.expect("latest"),
        Some((g2, vec![]))
    );

    assert_eq!(
        store.latest_game(Uuid::new_v4()).await.expect("no table"),
        None
    );
}

async fn game_conflicts(ctx: &TestStore) {
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    // Same number at the same table.
    assert_conflict(store.insert_game(&game(t.id, 1)).await);
    // Same id.
    let mut again = game(t.id, 2);
    again.id = g.id;
    assert_conflict(store.insert_game(&again).await);
    // Unknown table.
    assert_conflict(store.insert_game(&game(Uuid::new_v4(), 1)).await);
    // Unknown game.
    assert_conflict(store.finish_game(Uuid::new_v4(), &json!({})).await);
    // Moves of an unknown game.
    assert_conflict(store.append_moves(&[mv(Uuid::new_v4(), 0)]).await);
}

async fn moves_round_trip_in_seq_order(ctx: &TestStore) {
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    store.append_moves(&[]).await.expect("nothing to append");
    // Out of order inside one call, and over several calls.
    store
        .append_moves(&[mv(g.id, 2), mv(g.id, 0), mv(g.id, 1)])
        .await
        .expect("append 0..3");
    store.append_moves(&[mv(g.id, 3)]).await.expect("append 3");
    let expected: Vec<MoveRow> = (0..4).map(|s| mv(g.id, s)).collect();
    assert_eq!(moves_of(store, t.id).await, expected);
}

async fn duplicate_move_is_a_conflict(ctx: &TestStore) {
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    store.append_moves(&[mv(g.id, 0)]).await.expect("first");
    let mut changed = mv(g.id, 0);
    changed.entry = RawJson::of(&json!({"other": true})).expect("JSON");
    assert_conflict(store.append_moves(&[changed]).await);
    assert_eq!(moves_of(store, t.id).await, vec![mv(g.id, 0)]);
}

async fn append_is_all_or_nothing(ctx: &TestStore) {
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    let (t2, g2) = table_with_game(store, TableStatus::Playing).await;
    store.append_moves(&[mv(g.id, 0)]).await.expect("first");

    // A batch of two games whose last row repeats a stored (game_id, seq).
    assert_conflict(
        store
            .append_moves(&[mv(g2.id, 0), mv(g.id, 1), mv(g.id, 0)])
            .await,
    );
    // A batch repeating a key within itself.
    assert_conflict(store.append_moves(&[mv(g2.id, 0), mv(g2.id, 0)]).await);
    // A batch spanning several statements, failing at its very end.
    let mut big: Vec<MoveRow> = (0..1500).map(|s| mv(g2.id, s)).collect();
    big.push(mv(g.id, 0));
    assert_conflict(store.append_moves(&big).await);
    assert_eq!(moves_of(store, t.id).await, vec![mv(g.id, 0)]);
    assert_eq!(moves_of(store, t2.id).await, vec![]);

    // The same big batch without the duplicate is stored whole.
    big.pop();
    store.append_moves(&big).await.expect("big batch");
    assert_eq!(moves_of(store, t2.id).await, big);
}

/// Tables, games, moves and outcomes of different rooms in one transaction, whatever order
/// they were queued in; a failing one stores nothing of the batch.
async fn commit_mixes_every_kind_of_write_all_or_nothing(ctx: &TestStore) {
    let store = &ctx.store;
    let (t1, g1) = table_with_game(store, TableStatus::Playing).await;
    store.append_moves(&[mv(g1.id, 0)]).await.expect("move 0");
    let new_table = table(TableStatus::Playing, 2);
    let new_game = game(new_table.id, 1);
    let mut t1_finished = t1.clone();
    t1_finished.status = TableStatus::Finished;
    let outcome = json!({"winners": [0], "scores": [1, 0]});
    let batch = vec![
        Write::Outcome {
            game_id: g1.id,
            outcome: outcome.clone(),
        },
        Write::Move(mv(g1.id, 1)),
        Write::Game(new_game.clone()),
        Write::Table(t1_finished.clone()),
        Write::Table(new_table.clone()),
    ];
    // With a failing write (a move of an unknown game) nothing of it is stored.
    let mut failing = batch.clone();
    failing.push(Write::Move(mv(Uuid::new_v4(), 0)));
    assert_conflict(store.commit(&failing).await);
    assert_eq!(store.latest_game(new_table.id).await.expect("latest"), None);
    assert_eq!(moves_of(store, t1.id).await, vec![mv(g1.id, 0)]);

    store.commit(&batch).await.expect("commit");
    let (got, moves) = store
        .latest_game(t1.id)
        .await
        .expect("latest")
        .expect("game");
    assert_eq!(got.outcome, Some(outcome));
    assert_eq!(moves, vec![mv(g1.id, 0), mv(g1.id, 1)]);
    assert_eq!(
        store.table_by_id(t1.id).await.expect("table"),
        Some(t1_finished)
    );
    assert_eq!(
        store.latest_game(new_table.id).await.expect("latest"),
        Some((new_game, vec![]))
    );
}

/// The committer groups every kind of write; a taken code fails only its own caller.
async fn committer_groups_table_and_game_writes(ctx: &TestStore) {
    let committer = Committer::spawn(ctx.store.clone());
    let taken = table(TableStatus::Lobby, 1);
    ctx.store.upsert_table(&taken).await.expect("taken");
    let mut tasks = Vec::new();
    let mut tables = Vec::new();
    for _ in 0..10 {
        let t = table(TableStatus::Lobby, 1);
        let g = game(t.id, 1);
        tables.push((t.clone(), g.clone()));
        let committer = committer.clone();
        tasks.push(tokio::spawn(async move {
            committer.write(Write::Table(t)).await?;
            committer.write(Write::Game(g.clone())).await?;
            committer.write(Write::Move(mv(g.id, 0))).await?;
            committer
                .write(Write::Outcome {
                    game_id: g.id,
                    outcome: json!({"winners": []}),
                })
                .await
        }));
    }
    let mut clash = table(TableStatus::Lobby, 1);
    clash.invite_code = taken.invite_code.clone();
    let clash_result = committer.write(Write::Table(clash.clone())).await;
    for task in tasks {
        task.await.expect("task").expect("stored");
    }
    assert_conflict(clash_result);
    assert_eq!(committer.stats().rows, 40);
    assert_eq!(committer.stats().failed, 1);
    for (t, g) in &tables {
        let (got, moves) = ctx
            .store
            .latest_game(t.id)
            .await
            .expect("latest")
            .expect("game");
        assert_eq!(got.outcome, Some(json!({"winners": []})));
        assert_eq!(moves, vec![mv(g.id, 0)]);
    }
    assert_eq!(ctx.store.table_by_id(clash.id).await.expect("lookup"), None);
}

async fn load_unfinished_returns_lobby_and_playing_tables(ctx: &TestStore) {
    let store = &ctx.store;
    // A lobby without any game.
    let lobby = table(TableStatus::Lobby, 1);
    store.upsert_table(&lobby).await.expect("lobby");
    // A table playing its second game; the first one is over.
    let playing = table(TableStatus::Playing, 2);
    store.upsert_table(&playing).await.expect("playing");
    let first = game(playing.id, 1);
    store.insert_game(&first).await.expect("game 1");
    store
        .append_moves(&[mv(first.id, 0), mv(first.id, 1)])
        .await
        .expect("moves of game 1");
    store
        .finish_game(first.id, &json!({"winner": 0}))
        .await
        .expect("finish game 1");
    let second = game(playing.id, 2);
    store.insert_game(&second).await.expect("game 2");
    store
        .append_moves(&[mv(second.id, 1), mv(second.id, 0)])
        .await
        .expect("moves of game 2");
    store
        .append_moves(&[mv(second.id, 2)])
        .await
        .expect("move 2 of game 2");
    // A lobby waiting for a rematch: its latest game is over.
    let rematch = table(TableStatus::Lobby, 3);
    store.upsert_table(&rematch).await.expect("rematch");
    let mut over = game(rematch.id, 1);
    over.outcome = Some(json!({"draw": true}));
    store.insert_game(&over).await.expect("finished game");
    // A finished table: left out.
    let (finished, fg) = table_with_game(store, TableStatus::Finished).await;
    store
        .append_moves(&[mv(fg.id, 0)])
        .await
        .expect("move of finished");

    let got = store.load_unfinished().await.expect("load");
    let ids: Vec<Uuid> = got.iter().map(|r| r.table.id).collect();
    assert_eq!(
        ids,
        vec![lobby.id, playing.id, rematch.id],
        "lobby/playing tables by update time"
    );
    assert!(!ids.contains(&finished.id));

    assert_eq!(
        got[0],
        Recovered {
            table: lobby,
            game: None,
            moves: vec![]
        }
    );
    assert_eq!(
        got[1],
        Recovered {
            table: playing,
            game: Some(second.clone()),
            moves: (0..3).map(|s| mv(second.id, s)).collect(),
        }
    );
    assert_eq!(
        got[2],
        Recovered {
            table: rematch,
            game: Some(over),
            moves: vec![]
        }
    );
}

async fn committer_acknowledges_only_committed_moves(ctx: &TestStore) {
    let (t, g) = table_with_game(&ctx.store, TableStatus::Playing).await;
    let committer = Committer::spawn(ctx.store.clone());
    committer.append(mv(g.id, 0)).await.expect("append");
    // Another store (another pool, as after a crash and restart) sees the acknowledged move.
    let fresh = ctx.reopen().await;
    assert_eq!(moves_of(&fresh, t.id).await, vec![mv(g.id, 0)]);
    fresh.close().await;

    // A duplicate is refused and leaves the log as it was.
    assert_conflict(committer.append(mv(g.id, 0)).await);
    assert_eq!(moves_of(&ctx.store, t.id).await, vec![mv(g.id, 0)]);
}

async fn committer_concurrent_appends_all_land_in_order(ctx: &TestStore) {
    const GAMES: usize = 40;
    const MOVES: i64 = 30;
    let committer = Committer::spawn(ctx.store.clone());
    let mut games = Vec::new();
    for _ in 0..GAMES {
        games.push(table_with_game(&ctx.store, TableStatus::Playing).await);
    }
    let mut tasks = Vec::new();
    for (_, g) in &games {
        let committer = committer.clone();
        let game_id = g.id;
        // Like a room: the next move only after the previous one is durable.
        tasks.push(tokio::spawn(async move {
            for seq in 0..MOVES {
                committer.append(mv(game_id, seq)).await?;
            }
            Ok::<(), StoreError>(())
        }));
    }
    for task in tasks {
        task.await
            .expect("task finished")
            .expect("all appends stored");
    }
    let stats = committer.stats();
    assert_eq!(stats.rows, GAMES as u64 * MOVES as u64);
    assert_eq!(stats.failed, 0);
    assert!(
        stats.commits >= 1 && stats.commits <= stats.rows,
        "{stats:?}"
    );
    let fresh = ctx.reopen().await;
    for (t, g) in &games {
        let expected: Vec<MoveRow> = (0..MOVES).map(|s| mv(g.id, s)).collect();
        assert_eq!(moves_of(&fresh, t.id).await, expected);
    }
    fresh.close().await;
}

async fn committer_conflict_fails_only_its_caller(ctx: &TestStore) {
    let (bad_t, bad) = table_with_game(&ctx.store, TableStatus::Playing).await;
    ctx.store
        .append_moves(&[mv(bad.id, 0)])
        .await
        .expect("first move");
    let mut good = Vec::new();
    for _ in 0..20 {
        good.push(table_with_game(&ctx.store, TableStatus::Playing).await);
    }
    // One slow transaction at a time: the appends below queue up and share batches.
    let committer = Committer::spawn(ctx.store.clone());
    let mut tasks = Vec::new();
    for (_, g) in &good {
        let committer = committer.clone();
        let row = mv(g.id, 0);
        tasks.push(tokio::spawn(async move { committer.append(row).await }));
    }
    let dup = {
        let committer = committer.clone();
        let row = mv(bad.id, 0);
        tokio::spawn(async move { committer.append(row).await })
    };
    for task in tasks {
        task.await.expect("task").expect("a good move is stored");
    }
    assert_conflict(dup.await.expect("dup task"));
    assert_eq!(committer.stats().failed, 1);
    assert_eq!(committer.stats().rows, 20);
    for (t, g) in &good {
        assert_eq!(moves_of(&ctx.store, t.id).await, vec![mv(g.id, 0)]);
    }
    assert_eq!(moves_of(&ctx.store, bad_t.id).await, vec![mv(bad.id, 0)]);
}

async fn committer_small_batches_keep_order(ctx: &TestStore) {
    // With one row per transaction the order of a game's moves is still the order of appends.
    let (t, g) = table_with_game(&ctx.store, TableStatus::Playing).await;
    let committer = Committer::spawn_with(ctx.store.clone(), 1);
    for seq in 0..10 {
        committer.append(mv(g.id, seq)).await.expect("append");
    }
    let expected: Vec<MoveRow> = (0..10).map(|s| mv(g.id, s)).collect();
    assert_eq!(moves_of(&ctx.store, t.id).await, expected);
}

async fn committer_concurrent_rooms_keep_each_games_order(ctx: &TestStore) {
    // Rooms append one move at a time each, many rooms at once: transactions overlap
    // (several are in flight), and each game's log is still complete and in order.
    let committer = Committer::spawn(ctx.store.clone());
    let mut rooms = Vec::new();
    for _ in 0..8 {
        let (t, g) = table_with_game(&ctx.store, TableStatus::Playing).await;
        let committer = committer.clone();
        rooms.push(tokio::spawn(async move {
            for seq in 0..25 {
                committer.append(mv(g.id, seq)).await.expect("append");
            }
            (t, g)
        }));
    }
    for room in rooms {
        let (t, g) = room.await.expect("room task");
        let expected: Vec<MoveRow> = (0..25).map(|s| mv(g.id, s)).collect();
        assert_eq!(moves_of(&ctx.store, t.id).await, expected);
    }
    let stats = committer.stats();
    assert_eq!((stats.rows, stats.failed), (200, 0));
    assert!(stats.commits >= 25, "{stats:?}");
    assert!(stats.storing_micros > 0, "{stats:?}");
}

async fn data_survives_a_restart(ctx: &TestStore) {
    let (t, g) = table_with_game(&ctx.store, TableStatus::Playing).await;
    let committer = Committer::spawn(ctx.store.clone());
    for seq in 0..5 {
        committer.append(mv(g.id, seq)).await.expect("append");
    }
    drop(committer);
    ctx.store.close().await;
    assert!(ctx.store.ping().await.expect_err("closed").is_unavailable());

    // Opening again also re-runs the (already applied) migrations.
    let reopened = ctx.reopen().await;
    let got = reopened.load_unfinished().await.expect("load");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].table, t);
    assert_eq!(got[0].game, Some(g.clone()));
    assert_eq!(
        got[0].moves,
        (0..5).map(|s| mv(g.id, s)).collect::<Vec<_>>()
    );
    reopened.close().await;
}

// ---------------------------------------------------------------------------------------------
// Table leases and fenced writes.

async fn lease_acquire_renew_and_release(ctx: &TestStore) {
    let store = &ctx.store;
    let t = table(TableStatus::Playing, 1);
    store.upsert_table(&t).await.expect("table");
    assert_eq!(store.lease(t.id).await.expect("no lease"), None);

    assert_eq!(store.acquire_lease(t.id, "a", HELD).await, Ok(Some(1)));
    let held = store.lease(t.id).await.expect("lease").expect("a lease");
    assert_eq!(
        (held.table_id, held.node_id.as_str(), held.epoch),
        (t.id, "a", 1)
    );
    // Held by another node: refused, and the lease is untouched.
    assert_eq!(store.acquire_lease(t.id, "b", HELD).await, Ok(None));
    assert_eq!(store.lease(t.id).await.expect("lease"), Some(held.clone()));
    // Our own live lease is extended under the same epoch.
    assert_eq!(store.acquire_lease(t.id, "a", HELD).await, Ok(Some(1)));

    // Renewal: only the holder, only with its epoch.
    assert_eq!(store.renew_lease(t.id, "a", 1, HELD).await, Ok(true));
    assert_eq!(store.renew_lease(t.id, "b", 1, HELD).await, Ok(false));
    assert_eq!(store.renew_lease(t.id, "a", 2, HELD).await, Ok(false));
    assert_eq!(
        store.renew_lease(Uuid::new_v4(), "a", 1, HELD).await,
        Ok(false)
    );

    // Release: only the holder, with its epoch; once.
    assert_eq!(store.release_lease(t.id, "b", 1).await, Ok(false));
    assert_eq!(store.release_lease(t.id, "a", 2).await, Ok(false));
    assert_eq!(store.release_lease(t.id, "a", 1).await, Ok(true));
    assert_eq!(store.release_lease(t.id, "a", 1).await, Ok(false));
    // A released lease is not ours to renew, and free for anyone, under the next epoch.
    assert_eq!(store.renew_lease(t.id, "a", 1, HELD).await, Ok(false));
    assert_eq!(store.acquire_lease(t.id, "b", HELD).await, Ok(Some(2)));
    assert_eq!(store.acquire_lease(t.id, "a", HELD).await, Ok(None));
    let taken = store.lease(t.id).await.expect("lease").expect("a lease");
    assert_eq!((taken.node_id.as_str(), taken.epoch), ("b", 2));

    // A lease needs a stored table and a node id.
    assert_conflict(
        store
            .acquire_lease(Uuid::new_v4(), "a", HELD)
            .await
            .map(|_| ()),
    );
    let other = table(TableStatus::Lobby, 1);
    store.upsert_table(&other).await.expect("other");
    assert_conflict(store.acquire_lease(other.id, "", HELD).await.map(|_| ()));
    assert_eq!(store.lease(other.id).await.expect("lease"), None);
}

async fn an_expired_lease_is_taken_under_the_next_epoch(ctx: &TestStore) {
    let store = &ctx.store;
    let t = table(TableStatus::Playing, 1);
    store.upsert_table(&t).await.expect("table");
    assert_eq!(store.acquire_lease(t.id, "a", LAPSED).await, Ok(Some(1)));
    // Lapsed: its holder cannot renew it, another node takes it over.
    assert_eq!(store.renew_lease(t.id, "a", 1, HELD).await, Ok(false));
    assert_eq!(store.acquire_lease(t.id, "b", HELD).await, Ok(Some(2)));
    assert_eq!(store.renew_lease(t.id, "b", 2, HELD).await, Ok(true));

    // The same node taking its own lapsed lease again also gets a new epoch: whatever it
    // still had in flight under the old one is fenced off.
    let u = table(TableStatus::Playing, 1);
    store.upsert_table(&u).await.expect("table");
    assert_eq!(store.acquire_lease(u.id, "a", LAPSED).await, Ok(Some(1)));
    assert_eq!(store.acquire_lease(u.id, "a", HELD).await, Ok(Some(2)));
    assert_eq!(store.acquire_lease(u.id, "a", HELD).await, Ok(Some(2)));

    // In real time: renewed, a lease outlives its first term; unrenewed, it lapses.
    let v = table(TableStatus::Playing, 1);
    store.upsert_table(&v).await.expect("table");
    let term = Duration::from_millis(1500);
    assert_eq!(store.acquire_lease(v.id, "a", term).await, Ok(Some(1)));
    tokio::time::sleep(term / 2).await;
    assert_eq!(store.renew_lease(v.id, "a", 1, term).await, Ok(true));
    tokio::time::sleep(term * 3 / 4).await;
    assert_eq!(store.acquire_lease(v.id, "b", HELD).await, Ok(None));
    tokio::time::sleep(term).await;
    assert_eq!(store.acquire_lease(v.id, "b", HELD).await, Ok(Some(2)));
}

async fn a_round_of_renewals_renews_only_the_leases_still_held(ctx: &TestStore) {
    let store = &ctx.store;
    let mut ids = Vec::new();
    for _ in 0..6 {
        let t = table(TableStatus::Playing, 1);
        store.upsert_table(&t).await.expect("table");
        ids.push(t.id);
    }
    let [held, also_held, other_epoch, lapsed, released, others] = ids[..] else {
        unreachable!()
    };
    for id in [held, also_held, other_epoch, released] {
        assert_eq!(store.acquire_lease(id, "a", HELD).await, Ok(Some(1)));
    }
    assert_eq!(store.acquire_lease(lapsed, "a", LAPSED).await, Ok(Some(1)));
    assert_eq!(store.release_lease(released, "a", 1).await, Ok(true));
    assert_eq!(store.acquire_lease(others, "b", HELD).await, Ok(Some(1)));
    let before = store.lease(held).await.expect("lease").expect("held");

    let mut round: Vec<(Uuid, i64)> = vec![
        (held, 1),
        (also_held, 1),
        (other_epoch, 2),
        (lapsed, 1),
        (released, 1),
        (others, 1),
    ];
    // More than one statement's worth, most of them no table at all.
    round.extend((0..1200).map(|_| (Uuid::new_v4(), 1)));
    let renewed = store
        .renew_leases("a", &round, HELD * 2)
        .await
        .expect("renewed");
    assert_eq!(renewed, HashSet::from([held, also_held]));
    let after = store.lease(held).await.expect("lease").expect("held");
    assert!(after.expires_at_ms > before.expires_at_ms, "extended");
    assert_eq!((after.node_id.as_str(), after.epoch), ("a", 1));
    // What was not renewed is as it was: the lapsed lease is free, b's is b's.
    assert_eq!(store.acquire_lease(lapsed, "b", HELD).await, Ok(Some(2)));
    let theirs = store.lease(others).await.expect("lease").expect("b's");
    assert_eq!((theirs.node_id.as_str(), theirs.epoch), ("b", 1));
    assert_eq!(store.renew_leases("a", &[], HELD).await, Ok(HashSet::new()));
}

async fn expired_leases_are_listed_and_claimed_once(ctx: &TestStore) {
    let store = &ctx.store;
    let mut tables = Vec::new();
    for status in [
        TableStatus::Playing,  // lapsed
        TableStatus::Playing,  // released
        TableStatus::Finished, // lapsed, but nothing to take over
        TableStatus::Playing,  // held
        TableStatus::Playing,  // never leased
        TableStatus::Lobby,    // lapsed, opened again on demand
    ] {
        let t = table(status, 1);
        store.upsert_table(&t).await.expect("table");
        tables.push(t.id);
    }
    let [lapsed, released, finished, held, _never, lobby] = tables[..] else {
        unreachable!()
    };
    assert_eq!(store.acquire_lease(lobby, "a", LAPSED).await, Ok(Some(1)));
    assert_eq!(store.acquire_lease(lapsed, "a", LAPSED).await, Ok(Some(1)));
    assert_eq!(store.acquire_lease(released, "a", HELD).await, Ok(Some(1)));
    assert_eq!(store.release_lease(released, "a", 1).await, Ok(true));
    assert_eq!(
        store.acquire_lease(finished, "a", LAPSED).await,
        Ok(Some(1))
    );
    assert_eq!(store.acquire_lease(held, "a", HELD).await, Ok(Some(1)));

    let ids = |leases: &[Lease]| -> HashSet<Uuid> { leases.iter().map(|l| l.table_id).collect() };
    let expired = store.expired_leases(10).await.expect("expired");
    assert_eq!(ids(&expired), HashSet::from([lapsed, released]));
    assert!(expired.iter().all(|l| l.node_id == "a" && l.epoch == 1));
    assert_eq!(store.expired_leases(1).await.expect("one").len(), 1);

    let claimed = store
        .claim_expired_leases("b", HELD, 10)
        .await
        .expect("claim");
    assert_eq!(ids(&claimed), HashSet::from([lapsed, released]));
    assert!(claimed.iter().all(|l| l.node_id == "b" && l.epoch == 2));
    for l in &claimed {
        assert_eq!(
            store.lease(l.table_id).await.expect("lease"),
            Some(l.clone())
        );
        assert_eq!(store.renew_lease(l.table_id, "b", 2, HELD).await, Ok(true));
    }
    assert_eq!(store.expired_leases(10).await.expect("expired"), vec![]);
    assert_eq!(
        store
            .claim_expired_leases("c", HELD, 10)
            .await
            .expect("claim"),
        vec![]
    );
    let kept = store.lease(held).await.expect("lease").expect("held");
    assert_eq!((kept.node_id.as_str(), kept.epoch), ("a", 1));
}

async fn a_stale_epoch_cannot_write_and_the_owner_can(ctx: &TestStore) {
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    assert_eq!(store.acquire_lease(t.id, "a", LAPSED).await, Ok(Some(1)));
    let old = Fence {
        table_id: t.id,
        epoch: 1,
    };
    store
        .commit_fenced(&[Write::Move(mv(g.id, 0))], &[old])
        .await
        .expect("a's move while its epoch is current");
    assert_eq!(store.acquire_lease(t.id, "b", HELD).await, Ok(Some(2)));
    let new = Fence {
        table_id: t.id,
        epoch: 2,
    };

    // Node a, paused past its expiry, wakes up and writes: every kind of write is refused
    // and nothing of it is stored.
    assert_fenced(
        store
            .commit_fenced(&[Write::Move(mv(g.id, 1))], &[old])
            .await,
        t.id,
        1,
    );
    let mut changed = t.clone();
    changed.status = TableStatus::Finished;
    let next = game(t.id, 2);
    let stale_batch = [
        Write::Table(changed.clone()),
        Write::Game(next.clone()),
        Write::Move(mv(g.id, 1)),
        Write::Outcome {
            game_id: g.id,
            outcome: json!({"winners": [0]}),
        },
    ];
    for w in &stale_batch {
        assert_fenced(
            store.commit_fenced(std::slice::from_ref(w), &[old]).await,
            t.id,
            1,
        );
    }
    assert_fenced(store.commit_fenced(&stale_batch, &[old]).await, t.id, 1);
    // A fence on a table that has no lease never holds.
    let (u, _) = table_with_game(store, TableStatus::Playing).await;
    let unleased = Fence {
        table_id: u.id,
        epoch: 1,
    };
    assert_fenced(
        store
            .commit_fenced(&[Write::Table(u.clone())], &[unleased])
            .await,
        u.id,
        1,
    );
    // With several fences, the first stale one is named.
    assert_fenced(
        store
            .commit_fenced(&[Write::Move(mv(g.id, 1))], &[new, old, unleased])
            .await,
        t.id,
        1,
    );
    assert_eq!(moves_of(store, t.id).await, vec![mv(g.id, 0)]);
    assert_eq!(
        store.latest_game(t.id).await.expect("latest"),
        Some((g.clone(), vec![mv(g.id, 0)]))
    );
    assert_eq!(
        store.table_by_id(t.id).await.expect("table"),
        Some(t.clone())
    );
    let text = StoreError::Fenced {
        table_id: t.id,
        epoch: 1,
    }
    .to_string();
    assert!(!text.contains(SECRET), "{text}");

    // The current owner writes; writes without a fence are not checked at all, as with a
    // single node.
    store
        .commit_fenced(&[Write::Move(mv(g.id, 1))], &[new])
        .await
        .expect("b's move");
    store
        .append_moves(&[mv(g.id, 2)])
        .await
        .expect("unfenced move");
    assert_eq!(
        moves_of(store, t.id).await,
        (0..3).map(|s| mv(g.id, s)).collect::<Vec<_>>()
    );
    store
        .commit_fenced(&stale_batch[..2], &[new])
        .await
        .expect("b's table and game");
    assert_eq!(
        store.latest_game(t.id).await.expect("latest"),
        Some((next, vec![]))
    );
    assert_eq!(store.table_by_id(t.id).await.expect("table"), Some(changed));
    store
        .finish_game(g.id, &json!({"winners": [1]}))
        .await
        .expect("unfenced outcome");
    // Writing changed nothing of the lease.
    assert_eq!(store.acquire_lease(t.id, "a", HELD).await, Ok(None));
    assert_eq!(store.renew_lease(t.id, "b", 2, HELD).await, Ok(true));
}

async fn unfenced_writes_are_unchanged_by_leases(ctx: &TestStore) {
    // Single-node mode: no lease anywhere, every kind of write as before.
    let store = &ctx.store;
    let (t, g) = table_with_game(store, TableStatus::Playing).await;
    store.append_moves(&[mv(g.id, 0)]).await.expect("move 0");
    store
        .commit(&[Write::Move(mv(g.id, 1)), Write::Table(t.clone())])
        .await
        .expect("move 1 and table");
    let committer = Committer::spawn(ctx.store.clone());
    committer.append(mv(g.id, 2)).await.expect("move 2");
    committer
        .write_fenced(Write::Move(mv(g.id, 3)), None)
        .await
        .expect("move 3");
    assert_conflict(committer.append(mv(g.id, 3)).await);
    assert_eq!(
        moves_of(store, t.id).await,
        (0..4).map(|s| mv(g.id, s)).collect::<Vec<_>>()
    );
    assert_eq!(store.lease(t.id).await.expect("lease"), None);
    assert_eq!(store.expired_leases(10).await.expect("expired"), vec![]);
}

/// Through the group commit: the stale table's writes are refused, the other tables' writes
/// queued with them (fenced with current epochs or not fenced) are stored.
async fn committer_refuses_only_the_stale_tables_writes(ctx: &TestStore) {
    let store = &ctx.store;
    let (stale_t, stale_g) = table_with_game(store, TableStatus::Playing).await;
    assert_eq!(
        store.acquire_lease(stale_t.id, "a", LAPSED).await,
        Ok(Some(1))
    );
    assert_eq!(
        store.acquire_lease(stale_t.id, "b", HELD).await,
        Ok(Some(2))
    );
    let mut owned = Vec::new();
    for _ in 0..12 {
        let (t, g) = table_with_game(store, TableStatus::Playing).await;
        assert_eq!(store.acquire_lease(t.id, "a", HELD).await, Ok(Some(1)));
        owned.push((t, g));
    }
    let mut unleased = Vec::new();
    for _ in 0..4 {
        unleased.push(table_with_game(store, TableStatus::Playing).await);
    }
    let committer = Committer::spawn(store.clone());
    let mut tasks = Vec::new();
    let fence = |table_id| Fence { table_id, epoch: 1 };
    for (t, g) in owned.iter().chain(&unleased) {
        let committer = committer.clone();
        let (game_id, f) = (
            g.id,
            owned.iter().any(|(o, _)| o.id == t.id).then(|| fence(t.id)),
        );
        tasks.push(tokio::spawn(async move {
            for seq in 0..5 {
                committer
                    .write_fenced(Write::Move(mv(game_id, seq)), f)
                    .await?;
            }
            Ok::<(), StoreError>(())
        }));
    }
    let stale = {
        let committer = committer.clone();
        let (game_id, f) = (stale_g.id, fence(stale_t.id));
        tokio::spawn(async move {
            let mut answers = Vec::new();
            for seq in 0..5 {
                answers.push(
                    committer
                        .write_fenced(Write::Move(mv(game_id, seq)), Some(f))
                        .await,
                );
            }
            answers
        })
    };
    for task in tasks {
        task.await
            .expect("task")
            .expect("current writers are stored");
    }
    for answer in stale.await.expect("stale task") {
        assert_fenced(answer, stale_t.id, 1);
    }
    assert_eq!(moves_of(store, stale_t.id).await, vec![]);
    for (t, g) in owned.iter().chain(&unleased) {
        assert_eq!(
            moves_of(store, t.id).await,
            (0..5).map(|s| mv(g.id, s)).collect::<Vec<_>>()
        );
    }
    let stats = committer.stats();
    assert_eq!((stats.rows, stats.failed), (80, 5), "{stats:?}");
    // The new owner's writes go through.
    committer
        .write_fenced(
            Write::Move(mv(stale_g.id, 0)),
            Some(Fence {
                table_id: stale_t.id,
                epoch: 2,
            }),
        )
        .await
        .expect("the owner's move");
    assert_eq!(moves_of(store, stale_t.id).await, vec![mv(stale_g.id, 0)]);
}

/// Two nodes (two pools) race for the same lapsed lease, many times over: each time exactly
/// one gets it, under the next epoch, and the lease names it.
async fn racing_acquires_of_an_expired_lease_have_one_winner(ctx: &TestStore) {
    let other = ctx.reopen().await;
    for round in 0..20 {
        let t = table(TableStatus::Playing, 1);
        ctx.store.upsert_table(&t).await.expect("table");
        assert_eq!(
            ctx.store.acquire_lease(t.id, "old", LAPSED).await,
            Ok(Some(1))
        );
        let start = Arc::new(tokio::sync::Barrier::new(2));
        let race = |store: Store, node: &'static str| {
            let start = Arc::clone(&start);
            tokio::spawn(async move {
                start.wait().await;
                (node, store.acquire_lease(t.id, node, HELD).await)
            })
        };
        let one = race(ctx.store.clone(), "n1");
        let two = race(other.clone(), "n2");
        let results = [one.await.expect("n1"), two.await.expect("n2")];
        let winners: Vec<&str> = results
            .iter()
            .filter_map(|(node, r)| match r {
                Ok(Some(epoch)) => {
                    assert_eq!(*epoch, 2, "round {round}");
                    Some(*node)
                }
                Ok(None) => None,
                Err(e) => panic!("round {round}: {node}: {e}"),
            })
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {results:?}");
        let lease = ctx.store.lease(t.id).await.expect("lease").expect("lease");
        assert_eq!((lease.node_id.as_str(), lease.epoch), (winners[0], 2));
    }

    // Claims racing over many lapsed leases split them: none twice, none left.
    let mut lapsed = HashSet::new();
    for _ in 0..30 {
        let t = table(TableStatus::Playing, 1);
        ctx.store.upsert_table(&t).await.expect("table");
        ctx.store
            .acquire_lease(t.id, "old", LAPSED)
            .await
            .expect("lease");
        lapsed.insert(t.id);
    }
    let start = Arc::new(tokio::sync::Barrier::new(2));
    let claim = |store: Store, node: &'static str| {
        let start = Arc::clone(&start);
        tokio::spawn(async move {
            start.wait().await;
            let mut all = Vec::new();
            loop {
                let got = store
                    .claim_expired_leases(node, HELD, 4)
                    .await
                    .expect("claim");
                if got.is_empty() {
                    return all;
                }
                all.extend(got);
            }
        })
    };
    let one = claim(ctx.store.clone(), "n1");
    let two = claim(other.clone(), "n2");
    let (one, two) = (one.await.expect("n1"), two.await.expect("n2"));
    assert_eq!(one.len() + two.len(), lapsed.len(), "{one:?} {two:?}");
    let claimed: HashSet<Uuid> = one.iter().chain(&two).map(|l| l.table_id).collect();
    assert_eq!(claimed, lapsed);
    assert!(one.iter().all(|l| l.node_id == "n1" && l.epoch == 2));
    assert!(two.iter().all(|l| l.node_id == "n2" && l.epoch == 2));
    other.close().await;
}

macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let ctx = super::TestStore::sqlite().await;
                    super::$name(&ctx).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(ctx) = super::TestStore::postgres().await else { return };
                    super::$name(&ctx).await;
                }
            )*
        }
    };
}

suite!(
    kind_and_ping,
    table_round_trip_and_lookup_by_either_code,
    table_codes_are_unique,
    a_code_matching_an_invite_code_finds_that_table_first,
    game_round_trip_and_finish,
    game_conflicts,
    moves_round_trip_in_seq_order,
    duplicate_move_is_a_conflict,
    append_is_all_or_nothing,
    commit_mixes_every_kind_of_write_all_or_nothing,
    committer_groups_table_and_game_writes,
    load_unfinished_returns_lobby_and_playing_tables,
    committer_acknowledges_only_committed_moves,
    committer_concurrent_appends_all_land_in_order,
    committer_conflict_fails_only_its_caller,
    committer_small_batches_keep_order,
    committer_concurrent_rooms_keep_each_games_order,
    data_survives_a_restart,
    acknowledged_moves_survive_a_killed_process,
    lease_acquire_renew_and_release,
    an_expired_lease_is_taken_under_the_next_epoch,
    a_round_of_renewals_renews_only_the_leases_still_held,
    expired_leases_are_listed_and_claimed_once,
    a_stale_epoch_cannot_write_and_the_owner_can,
    unfenced_writes_are_unchanged_by_leases,
    committer_refuses_only_the_stale_tables_writes,
    racing_acquires_of_an_expired_lease_have_one_winner,
);

// ---------------------------------------------------------------------------------------------
// Failures that differ by backend.

#[tokio::test]
async fn postgres_down_is_unavailable_not_a_panic() {
    // Nothing listens on port 1.
    let err = Store::open(
        Some("postgres://postgres@127.0.0.1:1/postgres"),
        std::path::Path::new("x"),
    )
    .await
    .expect_err("no server");
    assert!(err.is_unavailable(), "{err:?}");
}

#[tokio::test]
async fn invalid_postgres_url_is_unavailable() {
    let err = Store::open(Some("postgres://[bad"), std::path::Path::new("x"))
        .await
        .expect_err("bad url");
    assert!(err.is_unavailable(), "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lost_after_open_is_unavailable() {
    let Some(ctx) = TestStore::postgres().await else {
        return;
    };
    let (_, g) = table_with_game(&ctx.store, TableStatus::Playing).await;
    let committer = Committer::spawn(ctx.store.clone());
    committer
        .append(mv(g.id, 0))
        .await
        .expect("append while up");
    ctx.db.drop_postgres_database().await;

    let err = ctx.store.ping().await.expect_err("database gone");
    assert!(err.is_unavailable(), "{err:?}");
    let err = committer
        .append(mv(g.id, 1))
        .await
        .expect_err("database gone");
    assert!(err.is_unavailable(), "{err:?}");
    let err = ctx
        .store
        .load_unfinished()
        .await
        .expect_err("database gone");
    assert!(err.is_unavailable(), "{err:?}");
}

#[tokio::test]
async fn sqlite_unusable_directory_is_unavailable() {
    let file = std::env::temp_dir().join(format!("citytable-store-file-{}", Uuid::new_v4()));
    std::fs::write(&file, b"not a directory").expect("write file");
    let err = Store::open(None, &file)
        .await
        .expect_err("a file is not a directory");
    let _ = std::fs::remove_file(&file);
    assert!(err.is_unavailable(), "{err:?}");
}

#[tokio::test]
async fn sqlite_file_is_created_in_wal_mode_with_full_sync() {
    use sqlx::Row;
    let ctx = TestStore::sqlite().await;
    let dir = &ctx.db.dir;
    assert!(dir.join(store::SQLITE_FILE).is_file());

    let (t, g) = table_with_game(&ctx.store, TableStatus::Playing).await;
    ctx.store
        .append_moves(&[mv(g.id, 0)])
        .await
        .expect("append");
    // The journal mode is a property of the file, so a raw connection sees it. (The per-connection
    // settings are checked by the crate's unit tests.)
    let raw = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        dir.join(store::SQLITE_FILE).display()
    ))
    .await
    .expect("raw connection");
    let mode: String = sqlx::query("pragma journal_mode")
        .fetch_one(&raw)
        .await
        .expect("journal mode")
        .try_get(0)
        .expect("text");
    assert_eq!(mode, "wal");
    raw.close().await;
    assert!(dir.join(format!("{}-wal", store::SQLITE_FILE)).exists());
    assert_eq!(moves_of(&ctx.store, t.id).await, vec![mv(g.id, 0)]);
}

#[tokio::test]
async fn sqlite_undecodable_row_is_corrupt_without_its_contents() {
    let ctx = TestStore::sqlite().await;
    let dir = &ctx.db.dir;
    let t = table(TableStatus::Playing, 1);
    ctx.store.upsert_table(&t).await.expect("upsert");
    let raw = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        dir.join(store::SQLITE_FILE).display()
    ))
    .await
    .expect("raw connection");
    // An id that is not 16 bytes long.
    sqlx::query("update game_table set id = x'0102' where id = $1")
        .bind(t.id)
        .execute(&raw)
        .await
        .expect("damage the row");
    raw.close().await;

    for result in [
        ctx.store.load_unfinished().await.map(|_| ()),
        ctx.store.table_by_code(&t.invite_code).await.map(|_| ()),
    ] {
        match result {
            Err(e @ StoreError::Corrupt(_)) => {
                let text = e.to_string();
                assert!(
                    !text.contains(SECRET) && !text.contains(&t.invite_code),
                    "{text}"
                );
            }
            other => panic!("expected corrupt, got {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_rejects_nul_in_json_strings_as_a_conflict() {
    let Some(ctx) = TestStore::postgres().await else {
        return;
    };
    let mut t = table(TableStatus::Lobby, 1);
    t.doc = json!({"name": "a\u{0}b"});
    assert_conflict(ctx.store.upsert_table(&t).await);
    assert_eq!(ctx.store.table_by_id(t.id).await.expect("lookup"), None);
}

// ---------------------------------------------------------------------------------------------
// Crash: a process appending through the committer is killed (SIGKILL) mid-stream; every move
// it had seen acknowledged must be stored.

/// Env var telling `crash_child` where to write: `sqlite:<dir>` or `postgres:<url>`, then
/// `|` and the game ids separated by commas.
const CRASH_CHILD: &str = "CITYTABLE_STORE_CRASH_CHILD";

/// Runs only when started by `acknowledged_moves_survive_a_killed_process`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "child process of acknowledged_moves_survive_a_killed_process"]
async fn crash_child() {
    let spec = std::env::var(CRASH_CHILD).expect("started by the crash test");
    let (target, games) = spec.split_once('|').expect("target|games");
    let store = if let Some(dir) = target.strip_prefix("sqlite:") {
        Store::open(None, std::path::Path::new(dir)).await
    } else {
        let url = target.strip_prefix("postgres:").expect("postgres target");
        Store::open(Some(url), std::path::Path::new("unused")).await
    }
    .expect("child opens the store");
    let committer = Committer::spawn(store);
    let mut tasks = Vec::new();
    for game in games.split(',') {
        let game_id: Uuid = game.parse().expect("game id");
        let committer = committer.clone();
        tasks.push(tokio::spawn(async move {
            for seq in 0.. {
                committer.append(mv(game_id, seq)).await.expect("append");
                println!("acked {game_id} {seq}");
            }
        }));
    }
    for task in tasks {
        task.await.expect("appending task");
    }
}

async fn acknowledged_moves_survive_a_killed_process(ctx: &TestStore) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};

    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(table_with_game(&ctx.store, TableStatus::Playing).await);
    }
    let target = match &ctx.db.url {
        None => format!("sqlite:{}", ctx.db.dir.display()),
        Some(url) => format!("postgres:{url}"),
    };
    let ids: Vec<String> = games.iter().map(|(_, g)| g.id.to_string()).collect();
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "crash_child", "--ignored", "--nocapture"])
        .env(CRASH_CHILD, format!("{target}|{}", ids.join(",")))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the child");
    let stdout = child.stdout.take().expect("child stdout");

    // Read acknowledgements; kill the child without warning once enough have arrived, then
    // keep what it printed before dying.
    let acked = tokio::task::spawn_blocking(move || {
        let mut acked = Vec::new();
        let mut killed = false;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let mut words = line.split_whitespace();
            if words.next() != Some("acked") {
                continue;
            }
            let game: Uuid = words.next().and_then(|w| w.parse().ok()).expect("game id");
            let seq: i64 = words.next().and_then(|w| w.parse().ok()).expect("seq");
            acked.push((game, seq));
            if acked.len() >= 800 && !killed {
                child.kill().expect("kill the child");
                killed = true;
            }
        }
        let _ = child.wait();
        (acked, killed)
    })
    .await
    .expect("reader");
    let (acked, killed) = acked;
    assert!(
        killed,
        "the child stopped before it was killed ({} acks)",
        acked.len()
    );

    let fresh = ctx.reopen().await;
    for (t, g) in &games {
        let stored: Vec<i64> = moves_of(&fresh, t.id).await.iter().map(|m| m.seq).collect();
        // The log is gap-free from 0 ...
        assert_eq!(stored, (0..stored.len() as i64).collect::<Vec<_>>());
        // ... and holds every acknowledged move.
        let last_acked = acked
            .iter()
            .filter(|(id, _)| *id == g.id)
            .map(|(_, s)| *s)
            .max();
        if let Some(last) = last_acked {
            assert!(
                (stored.len() as i64) > last,
                "move {last} was acknowledged but only {} are stored",
                stored.len()
            );
        }
    }
    fresh.close().await;
}

#[tokio::test]
async fn a_sqlite_url_opens_that_file() {
    let ctx = TestStore::sqlite().await;
    let dir = &ctx.db.dir;
    let file = dir.join("elsewhere.db");
    let url = format!("sqlite://{}", file.display());
    let store = Store::open(Some(&url), std::path::Path::new("unused"))
        .await
        .expect("open by url");
    assert_eq!(store.kind(), "sqlite");
    let (t, g) = table_with_game(&store, TableStatus::Lobby).await;
    store.append_moves(&[mv(g.id, 0)]).await.expect("append");
    store.close().await;
    assert!(file.is_file());
    let again = Store::open(Some(&url), std::path::Path::new("unused"))
        .await
        .expect("reopen by url");
    assert_eq!(moves_of(&again, t.id).await, vec![mv(g.id, 0)]);
    again.close().await;
}
