//! Games behind one object-safe interface.
//!
//! The room machinery knows nothing of any particular game: it holds a
//! `Box<dyn ErasedGame>` and talks JSON values. [`Adapter`] wraps any
//! [`engine::Game`] and does the serde work at this edge: a wire move becomes a
//! game move only through a decode that either yields a typed move or a
//! [`MoveError::BadMove`]. [`Registry`] lists the game kinds this server hosts.

use engine::{
    Awaiting, BotLevel, Entry, Game, GameRng, Illegal, Outcome, Played, Seat, Setup, SetupError,
    Viewer,
};
use protocol::{ErrorArgs, ErrorReason, RawJson};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// What a game is started from, as stored in the database (`game.setup`). The seed
/// lives here and never leaves the server while the game runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupDoc {
    pub seats: u8,
    pub seed: u64,
    /// Drawn with the seed and as secret until the game is over: the players
    /// are shown `fairness::commitment(seed, salt)` (absent in games stored
    /// before commitments were made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    pub options: Value,
    pub first_seat: Option<Seat>,
    /// Display names by seat at the start (for the game record).
    #[serde(default)]
    pub names: Vec<String>,
}

/// A move or log entry was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveError {
    /// The JSON does not describe a move (or entry) of this game (the decoder's
    /// detail, for the log).
    BadMove(String),
    /// The game refused it: its rule's stable code and arguments (`args` of the
    /// game's serde-tagged rule, absent when it has none).
    Illegal {
        rule: &'static str,
        args: Option<Value>,
    },
}

impl MoveError {
    fn illegal<R: engine::Rule>(illegal: Illegal<R>) -> MoveError {
        let args = match to_value(&illegal) {
            Value::Object(mut o) => o.remove("args"),
            _ => None,
        };
        MoveError::Illegal {
            rule: illegal.code(),
            args,
        }
    }
}

/// The result of applying a move to a copy of the state.
pub struct Applied {
    pub state: Box<dyn ErasedGame>,
    /// The log line (`engine::Entry` as JSON), exactly as it will be stored and replayed.
    pub entry: RawJson,
    /// Public events.
    pub events: Vec<Value>,
}

/// A running game of any kind.
pub trait ErasedGame: Send + Sync {
    fn awaiting(&self) -> Awaiting;
    fn view(&self, viewer: Viewer) -> Value;
    /// The same view as JSON text (cheaper than a `Value` when it is only sent or compared).
    fn view_json(&self, viewer: Viewer) -> String;
    /// `seat`'s private overlay on the public view ([`engine::Game::Private`]),
    /// as JSON text (compared as it is: most moves leave most overlays as they were).
    fn private_view_json(&self, seat: Seat) -> String;
    fn outcome(&self) -> Option<Outcome>;
    /// The legal moves of `seat`, or the part `of` names ([`Game::legal_moves_of`]).
    fn legal_moves(&self, seat: Seat, of: Option<&str>) -> Vec<Value>;
    /// Decodes and applies `seat`'s move to a copy; `self` is never changed.
    fn try_move(&self, seat: Seat, mv: &RawJson) -> Result<Applied, MoveError>;
    /// Applies one log entry (a move, a timeout or an undo) to a copy.
    fn try_entry(&self, entry: &RawJson) -> Result<Applied, MoveError>;
    /// Takes back `seat`'s last move, on a copy ([`engine::Entry::Undo`]).
    fn try_undo(&self, seat: Seat) -> Result<Applied, MoveError>;
    /// The seat that may take back its last move now ([`Game::may_take_back`]).
    fn undo_seat(&self) -> Option<Seat>;
    /// A bot's move for `seat`, as JSON.
    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<RawJson>;
}

/// A kind of game this server can host.
pub trait GameKind: Send + Sync {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    fn seats(&self) -> RangeInclusive<u8>;
    fn default_options(&self) -> Value;
    /// Checks a seat count and options for this game; the options as they are
    /// kept (every option named, none unknown), or the `bad_settings` arguments
    /// (boxed: a refusal is rare and its arguments are large).
    fn check(&self, seats: u8, options: &Value) -> Result<Value, Box<ErrorArgs>>;
    /// Starts a game.
    fn start(&self, setup: &SetupDoc) -> Result<Box<dyn ErasedGame>, String>;
    /// Rebuilds a game from its setup and move log (`engine::replay`), handing
    /// each entry's public events to `on_events` with the entry's index and
    /// whose decision the game awaited after it.
    fn replay(
        &self,
        setup: &SetupDoc,
        entries: &[&RawJson],
        on_events: &mut dyn FnMut(usize, Vec<Value>, &Awaiting),
    ) -> Result<Box<dyn ErasedGame>, String>;
    /// TypeScript declarations of the game's Options, Move, View, Event and Rule and
    /// everything they use, by type name.
    fn ts_decls(&self, cfg: &ts_rs::Config, out: &mut BTreeMap<String, String>);
}

/// Wraps an [`engine::Game`] as an [`ErasedGame`] / [`GameKind`].
pub struct Adapter<G>(PhantomData<fn() -> G>);

impl<G> Adapter<G> {
    pub fn kind() -> Arc<dyn GameKind>
    where
        G: Game,
        G::Options: ts_rs::TS + 'static,
        G::Move: ts_rs::TS + 'static,
        G::View: ts_rs::TS + 'static,
        G::Event: ts_rs::TS + 'static,
        G::Rule: ts_rs::TS + 'static,
    {
        Arc::new(Adapter::<G>(PhantomData))
    }
}

struct Running<G: Game>(Played<G>);

fn to_value<T: Serialize>(v: &T) -> Value {
    // Serializing our own plain data types cannot fail (no maps with non-string keys).
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn to_raw<T: Serialize>(v: &T) -> RawJson {
    // As above: our own types always serialize.
    RawJson::of(v).unwrap_or_default()
}

/// The public events of an entry: the game's, or the table's own for an undo
/// (`{"undone": {"seat": 0}}`: the game has none, and the others should know).
fn public_events<G: Game>(entry: &Entry<G::Move>, events: &[G::Event]) -> Vec<Value> {
    match entry {
        Entry::Undo { seat } => vec![serde_json::json!({"undone": {"seat": seat}})],
        _ => events.iter().map(to_value).collect(),
    }
}

/// A log entry of game `G`, decoded from its stored text.
fn decode_entry<G: Game>(entry: &RawJson) -> Result<Entry<G::Move>, serde_json::Error> {
    serde_json::from_str(entry.get())
}

fn typed_setup<G: Game>(setup: &SetupDoc) -> Result<Setup<G::Options>, String> {
    let options: G::Options = serde_json::from_value(setup.options.clone())
        .map_err(|e| format!("options do not fit this game: {e}"))?;
    Ok(Setup {
        seats: setup.seats,
        seed: setup.seed,
        options,
        first_seat: setup.first_seat,
    })
}

impl<G: Game> Running<G> {
    fn game(&self) -> &G {
        self.0.game()
    }

    /// `entry` applied to a copy; `self` is never changed.
    fn applied(&self, entry: &Entry<G::Move>) -> Result<Applied, MoveError> {
        let (next, events) = self.0.next(entry).map_err(MoveError::illegal)?;
        Ok(Applied {
            state: Box::new(Running(next)),
            entry: to_raw(entry),
            events: public_events::<G>(entry, &events),
        })
    }
}

impl<G: Game> ErasedGame for Running<G> {
    fn awaiting(&self) -> Awaiting {
        self.game().awaiting()
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_value(&self.game().view(viewer))
    }

    fn view_json(&self, viewer: Viewer) -> String {
        // Serializing our own plain data types cannot fail.
        serde_json::to_string(&self.game().view(viewer)).unwrap_or_default()
    }

    fn private_view_json(&self, seat: Seat) -> String {
        // Serializing our own plain data types cannot fail.
        serde_json::to_string(&self.game().private_view(seat)).unwrap_or_default()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game().outcome()
    }

    fn legal_moves(&self, seat: Seat, of: Option<&str>) -> Vec<Value> {
        let moves = match of {
            Some(of) => self.game().legal_moves_of(seat, of),
            None => self.game().legal_moves(seat),
        };
        moves.iter().map(to_value).collect()
    }

    fn try_move(&self, seat: Seat, mv: &RawJson) -> Result<Applied, MoveError> {
        // Decoded once, from the text the message carried.
        let mv: G::Move = serde_json::from_str(mv.get())
            .map_err(|e| MoveError::BadMove(format!("not a move of this game: {e}")))?;
        self.applied(&Entry::Move { seat, mv })
    }

    fn try_entry(&self, entry: &RawJson) -> Result<Applied, MoveError> {
        let entry = decode_entry::<G>(entry)
            .map_err(|e| MoveError::BadMove(format!("not a log entry of this game: {e}")))?;
        self.applied(&entry)
    }

    fn try_undo(&self, seat: Seat) -> Result<Applied, MoveError> {
        self.applied(&Entry::Undo { seat })
    }

    fn undo_seat(&self) -> Option<Seat> {
        self.0.undo_seat()
    }

    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<RawJson> {
        self.game().bot_move(seat, level, rng).map(|m| to_raw(&m))
    }
}

/// Collects TypeScript declarations of a type and everything it depends on.
pub struct DeclCollector<'a> {
    pub cfg: &'a ts_rs::Config,
    pub out: &'a mut BTreeMap<String, String>,
}

impl ts_rs::TypeVisitor for DeclCollector<'_> {
    fn visit<T: ts_rs::TS + 'static + ?Sized>(&mut self) {
        if ts_rs::Dependency::from_ty::<T>(self.cfg).is_none() {
            return;
        }
        let name = T::ident(self.cfg);
        let decl = T::decl(self.cfg);
        if let Some(existing) = self.out.get(&name) {
            if *existing != decl {
                // Two different types with one TypeScript name: keep both visible
                // so the generator refuses to write an ambiguous file.
                self.out.insert(format!("{name} (conflict)"), decl);
            }
            return;
        }
        self.out.insert(name, decl);
        T::visit_dependencies(self);
    }
}

impl<G> GameKind for Adapter<G>
where
    G: Game,
    G::Options: ts_rs::TS + 'static,
    G::Move: ts_rs::TS + 'static,
    G::View: ts_rs::TS + 'static,
    G::Event: ts_rs::TS + 'static,
    G::Rule: ts_rs::TS + 'static,
{
    fn id(&self) -> &'static str {
        G::ID
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn seats(&self) -> RangeInclusive<u8> {
        G::SEATS
    }

    fn default_options(&self) -> Value {
        to_value(&G::Options::default())
    }

    fn check(&self, seats: u8, options: &Value) -> Result<Value, Box<ErrorArgs>> {
        if !G::SEATS.contains(&seats) {
            return Err(Box::new(setup_args(&SetupError::Seats {
                min: *G::SEATS.start(),
                max: *G::SEATS.end(),
            })));
        }
        // Options are the game's own type, nothing more: unknown fields are
        // refused rather than kept, stored and sent to every visitor. The
        // refusal never echoes what was sent.
        let not_options = || Box::new(ErrorArgs::reason(ErrorReason::NotOptions));
        let given = options.as_object().ok_or_else(not_options)?;
        let typed: G::Options =
            serde_json::from_value(options.clone()).map_err(|_| not_options())?;
        let kept = to_value(&typed);
        if let Some(known) = kept.as_object()
            && given.keys().any(|k| !known.contains_key(k))
        {
            return Err(not_options());
        }
        let setup = Setup {
            seats,
            seed: 0,
            options: typed,
            first_seat: None,
        };
        G::new(&setup).map_err(|e| Box::new(setup_args(&e)))?;
        Ok(kept)
    }

    fn start(&self, setup: &SetupDoc) -> Result<Box<dyn ErasedGame>, String> {
        let game = G::new(&typed_setup::<G>(setup)?).map_err(|e| e.to_string())?;
        Ok(Box::new(Running(Played::new(game))))
    }

    fn replay(
        &self,
        setup: &SetupDoc,
        entries: &[&RawJson],
        on_events: &mut dyn FnMut(usize, Vec<Value>, &Awaiting),
    ) -> Result<Box<dyn ErasedGame>, String> {
        let typed = typed_setup::<G>(setup)?;
        let entries: Vec<Entry<G::Move>> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| decode_entry::<G>(e).map_err(|err| format!("entry {i}: {err}")))
            .collect::<Result<_, _>>()?;
        let game = engine::replay_played::<G>(&typed, &entries, |index, events, game| {
            let events = entries
                .get(index)
                .map_or_else(Vec::new, |entry| public_events::<G>(entry, &events));
            on_events(index, events, &game.awaiting())
        })
        .map_err(|e| e.to_string())?;
        Ok(Box::new(Running(game)))
    }

    fn ts_decls(&self, cfg: &ts_rs::Config, out: &mut BTreeMap<String, String>) {
        use ts_rs::TypeVisitor;
        let mut c = DeclCollector { cfg, out };
        c.visit::<G::Options>();
        c.visit::<G::Move>();
        c.visit::<G::View>();
        c.visit::<G::Event>();
        c.visit::<G::Rule>();
    }
}

/// The `bad_settings` arguments of a game's setup refusal.
fn setup_args(e: &SetupError) -> ErrorArgs {
    match e {
        SetupError::Seats { min, max } => ErrorArgs {
            min: Some(u64::from(*min)),
            max: Some(u64::from(*max)),
            ..ErrorArgs::reason(ErrorReason::Seats)
        },
        SetupError::FirstSeat => ErrorArgs::reason(ErrorReason::FirstSeat),
        SetupError::OptionRange { name, min, max } => ErrorArgs {
            option: Some((*name).to_owned()),
            min: Some(*min),
            max: Some(*max),
            ..ErrorArgs::reason(ErrorReason::OptionRange)
        },
        SetupError::OptionInvalid {
            name,
            item,
            problem,
            limit,
        } => ErrorArgs {
            option: Some((*name).to_owned()),
            item: *item,
            problem: Some((*problem).to_owned()),
            max: *limit,
            ..ErrorArgs::reason(ErrorReason::OptionInvalid)
        },
    }
}

/// A game's reference data for the browser (the numbers and texts its board
/// shows, e.g. Building Cities' handbook): the rules crate's own embedded data,
/// serialized once, so the browser never keeps a second copy.
pub struct Reference {
    /// The game it belongs to.
    pub game: &'static str,
    /// The document, as served (JSON; shared, not copied, by each answer).
    pub json: axum::body::Bytes,
    /// A strong validator of `json` (quoted, as HTTP writes it).
    pub etag: String,
    /// TypeScript declarations of the document's type and what it uses.
    ts: fn(&ts_rs::Config, &mut BTreeMap<String, String>),
}

impl Reference {
    fn of<T: Serialize + ts_rs::TS + 'static>(game: &'static str, doc: &T) -> Reference {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_string(doc).unwrap_or_default();
        let digest = Sha256::digest(json.as_bytes());
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        Reference {
            game,
            json: json.into(),
            etag: format!("\"{hex}\""),
            ts: |cfg, out| {
                use ts_rs::TypeVisitor;
                DeclCollector { cfg, out }.visit::<T>();
            },
        }
    }

    /// Adds the document's TypeScript declarations to `out`.
    pub fn ts_decls(&self, cfg: &ts_rs::Config, out: &mut BTreeMap<String, String>) {
        (self.ts)(cfg, out);
    }
}

/// The game kinds this server hosts, by id, and their reference data.
#[derive(Clone)]
pub struct Registry {
    kinds: Vec<Arc<dyn GameKind>>,
    references: Vec<Arc<Reference>>,
}

impl Registry {
    /// Every game of this build.
    pub fn all() -> Registry {
        Registry {
            kinds: vec![
                Adapter::<big_city::BigCity>::kind(),
                Adapter::<big_cityz::BigCityz>::kind(),
                Adapter::<building_cities::BuildingCities>::kind(),
                Adapter::<my_city::MyCity>::kind(),
                Adapter::<tic_tac_toe::TicTacToe>::kind(),
            ],
            references: vec![Arc::new(Reference::of(
                <building_cities::BuildingCities as Game>::ID,
                building_cities::handbook::Handbook::standard(),
            ))],
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<dyn GameKind>> {
        self.kinds.iter().find(|k| k.id() == id).cloned()
    }

    pub fn kinds(&self) -> &[Arc<dyn GameKind>] {
        &self.kinds
    }

    /// A game's reference data, if it has any.
    pub fn reference(&self, id: &str) -> Option<Arc<Reference>> {
        self.references.iter().find(|r| r.game == id).cloned()
    }

    pub fn references(&self) -> &[Arc<Reference>] {
        &self.references
    }
}
