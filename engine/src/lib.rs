//! The contract every CityTable game implements.
//!
//! A game crate (`games/*`) is a pure, deterministic state machine: the same
//! [`Setup`] and the same list of [`Entry`]s always give the same state, bit for
//! bit. Nothing here knows about tokio, sockets, databases or JSON; the server
//! adapts a [`Game`] to its rooms and the protocol crate to the wire.
//!
//! Layout:
//! - [`Game`]: setup, whose decision is awaited, legal moves, apply, views, outcome, bots.
//! - [`Awaiting`]: one seat (turn-based), several at once (simultaneous
//!   decisions) and optionally a rules-imposed time window (objections).
//! - [`Entry`] and [`replay`]: the move log is the truth; a game is rebuilt from it.
//! - [`Played`]: a game and the moves its last mover may take back ([`Entry::Undo`]).
//! - [`Illegal`] and [`Rule`]: a refusal is a stable code with typed arguments, never a sentence.
//! - [`GameRng`]: the only source of randomness, stored inside the state.
//! - [`text`]: cleaning what people type (names, a room's card titles).

mod rng;
pub mod text;

pub use rng::GameRng;

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::Debug;
use std::sync::Arc;
use ts_rs::TS;

/// A seat at the table, numbered from 0 in turn order.
pub type Seat = u8;

/// Who looks at the game: a seated player or a spectator (public information only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// Everything a game needs to start. The seed never leaves the server while the game runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup<O> {
    /// Number of seats taken (players and bots).
    pub seats: u8,
    pub seed: u64,
    pub options: O,
    /// The host's choice of starting seat; `None` lets the game draw one from the seed.
    pub first_seat: Option<Seat>,
}

/// Whose decision the game waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaiting {
    /// Seats that still have to decide. Empty once the game is over. Several seats
    /// means simultaneous decisions (each seat submits one move; the game keeps them
    /// hidden until it resolves them together).
    pub seats: Vec<Seat>,
    /// Changes whenever a new decision period starts (a new turn, a new round, a new
    /// objection window). The server restarts its timer when it changes, so a turn
    /// made of several moves (build, then draw one card at a time) is one period.
    pub period: u64,
    /// Set when the rules themselves limit the time of this period (e.g. an objection
    /// window). Otherwise the room's optional turn timer applies.
    pub window_ms: Option<u64>,
}

impl Awaiting {
    pub fn nobody(period: u64) -> Self {
        Awaiting {
            seats: Vec::new(),
            period,
            window_ms: None,
        }
    }

    pub fn includes(&self, seat: Seat) -> bool {
        self.seats.contains(&seat)
    }
}

/// The [`Game::Private`] of a game whose viewers all see the same: an empty overlay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NothingPrivate {}

/// A game's own reasons to refuse a move: a serde-tagged enum whose tag is the stable
/// code and whose fields are the typed arguments a sentence about it needs
/// (`{"code": "stack_empty", "args": {"stack": 3}}`: `#[serde(tag = "code", content =
/// "args")]`). Each language renders it at the edge; a rules crate builds no sentence.
/// The arguments never carry another seat's hidden information.
pub trait Rule: Clone + Debug + PartialEq + Serialize + Send + Sync + 'static {
    /// The stable code: the serde tag of this variant.
    fn code(&self) -> &'static str;
}

/// The refusals every game shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum EngineRule {
    /// The move was sent by a seat whose decision is not awaited.
    NotYourTurn,
    /// The game is over; no move applies any more.
    GameOver,
    /// A timeout for a decision period that already ended.
    StaleTimeout,
    /// An undo with no move of this seat's to take back (none made since another
    /// entry, or the last one revealed or drew something: [`Game::may_take_back`]).
    NothingToUndo,
}

impl Rule for EngineRule {
    fn code(&self) -> &'static str {
        match self {
            EngineRule::NotYourTurn => "not_your_turn",
            EngineRule::GameOver => "game_over",
            EngineRule::StaleTimeout => "stale_timeout",
            EngineRule::NothingToUndo => "nothing_to_undo",
        }
    }
}

/// Why a move was refused: a stable code with typed arguments, never a sentence.
/// The state is unchanged whenever this is returned. Serialized as the rule itself
/// (`{"code": "not_your_turn"}`, `{"code": "stack_empty", "args": {"stack": 3}}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Illegal<R> {
    Engine(EngineRule),
    Rule(R),
}

impl<R: Rule> Illegal<R> {
    /// The move was sent by a seat whose decision is not awaited.
    pub fn not_your_turn() -> Self {
        Illegal::Engine(EngineRule::NotYourTurn)
    }

    /// The game is over; no move applies any more.
    pub fn game_over() -> Self {
        Illegal::Engine(EngineRule::GameOver)
    }

    /// The stable code (`not_your_turn`, `cards_not_held`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            Illegal::Engine(e) => e.code(),
            Illegal::Rule(r) => r.code(),
        }
    }
}

impl<R> From<R> for Illegal<R> {
    fn from(rule: R) -> Self {
        Illegal::Rule(rule)
    }
}

impl<R: Rule> std::fmt::Display for Illegal<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl<R: Rule> std::error::Error for Illegal<R> {}

/// Why a game could not be set up with these seats and options: a stable code with
/// its arguments (rendered by the server and the browser, like [`Illegal`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum SetupError {
    /// The game is not played by this number of seats.
    Seats { min: u8, max: u8 },
    /// The chosen starting seat is not at the table.
    FirstSeat,
    /// An option is outside its range (`name` is the option's field).
    OptionRange {
        name: &'static str,
        min: u64,
        max: u64,
    },
    /// An option's value is refused for a reason of the game's own: `name` is the
    /// option's field, `item` the entry of a list option (counted from 1),
    /// `problem` the game's stable code for the reason and `limit` the bound it
    /// speaks of.
    OptionInvalid {
        name: &'static str,
        item: Option<u32>,
        problem: &'static str,
        limit: Option<u64>,
    },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Seats { min, max } => write!(f, "seats {min}..={max}"),
            SetupError::FirstSeat => f.write_str("first_seat"),
            SetupError::OptionRange { name, min, max } => {
                write!(f, "option_range {name} {min}..={max}")
            }
            SetupError::OptionInvalid {
                name,
                item,
                problem,
                limit,
            } => {
                write!(f, "option_invalid {name}")?;
                if let Some(item) = item {
                    write!(f, "[{item}]")?;
                }
                write!(f, " {problem}")?;
                if let Some(limit) = limit {
                    write!(f, " (limit {limit})")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Outcome {
    /// Final score of each seat, indexed by seat.
    pub scores: Vec<i32>,
    /// The winning seats (several on a shared win).
    pub winners: Vec<Seat>,
}

/// Strength of a computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Picks uniformly among the legal moves.
    Random,
    /// Picks the move that looks best right now.
    Greedy,
}

/// One line of a game's move log: what the server persists, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry<M> {
    /// A seat's move.
    Move { seat: Seat, mv: M },
    /// The timer of the given decision period ran out ([`Game::timeout`]).
    Timeout { period: u64 },
    /// The seat takes back its last move ([`Game::may_take_back`], [`Played`]).
    Undo { seat: Seat },
}

/// A rules crate. Implementations are pure: no I/O, clock, async or global RNG.
///
/// Every method that takes a move validates it completely; [`Game::apply`] leaves
/// `self` untouched when it returns an error, and `legal_moves` lists exactly the
/// moves `apply` accepts (for games where the full list is finite and small
/// enough; see [`Game::legal_moves`]).
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// Stable identifier used in URLs, the database and the protocol (`"big-city"`).
    const ID: &'static str;
    /// Human name (`"Big City"`).
    const NAME: &'static str;
    /// Allowed numbers of seats.
    const SEATS: std::ops::RangeInclusive<u8>;

    /// Variants and settings chosen in the lobby.
    type Options: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A seat's decision, as it arrives from the client once decoded. Decoding
    /// refuses unknown fields (`#[serde(deny_unknown_fields)]`; serde checks it for
    /// struct variants only, so a variant without fields is written `Pass {}`).
    type Move: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What one viewer may see. Never carries another seat's hidden information.
    type View: Clone + Debug + Serialize + Send + Sync;
    /// A public description of what just happened, for the game log ("Ana built ...").
    /// Events are sent to everyone, so they carry public information only. An event is
    /// its typed kind; each language renders it at the edge.
    type Event: Clone + Debug + Serialize + Send + Sync;
    /// The game's own reasons to refuse a move, beside the shared [`EngineRule`]s.
    type Rule: Rule;

    /// Starts a game. Fails if the seat count or options are not allowed.
    fn new(setup: &Setup<Self::Options>) -> Result<Self, SetupError>;

    /// Whose decision is awaited now.
    fn awaiting(&self) -> Awaiting;

    /// Every move `seat` may make now (empty when its decision is not awaited).
    fn legal_moves(&self, seat: Seat) -> Vec<Self::Move>;

    /// The part of [`Game::legal_moves`] that `of` names, for a board that shows
    /// one piece's places at a time (what `of` may name is the game's own: a
    /// building id, ...). Every move listed here is in `legal_moves`. A game
    /// without such parts ignores `of` and lists every legal move.
    fn legal_moves_of(&self, seat: Seat, of: &str) -> Vec<Self::Move> {
        let _ = of;
        self.legal_moves(seat)
    }

    /// Applies a move of `seat`. On error the state is unchanged.
    fn apply(
        &mut self,
        seat: Seat,
        mv: &Self::Move,
    ) -> Result<Vec<Self::Event>, Illegal<Self::Rule>>;

    /// The timer of the current period ran out: decide for every awaited seat as the
    /// game's rulings say (e.g. pass). Must make progress: afterwards the period has
    /// changed or the game is over.
    fn timeout(&mut self) -> Vec<Self::Event>;

    /// One seat's private information: what its view shows beyond the spectators'.
    /// Serialized, it is an overlay on the public view ([`Viewer::Spectator`]):
    /// an object of the overlay is laid over the object (or, its keys being
    /// indices, the array) at the same place of the public view; any other value,
    /// or an object where the public view holds neither, replaces what is there.
    /// `view(Viewer::Seat(seat))` is exactly the public view with this overlay.
    /// The server sends the public view's changes once for every viewer and each
    /// seat's overlay apart, so a game keeps its private parts small.
    type Private: Clone + Debug + Serialize + Send + Sync;

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// `seat`'s private overlay on the public view (see [`Game::Private`]).
    fn private_view(&self, seat: Seat) -> Self::Private;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A computer player's move for `seat`, or `None` if its decision is not awaited.
    /// Bots see only what `seat` may see; `rng` is the bot's own randomness.
    fn bot_move(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Option<Self::Move>;

    /// Whether `mv`, about to be made by `seat`, is of a kind that may be
    /// taken back once made (a cheap look at the move alone: only then is the
    /// state before it kept; [`Game::may_take_back`] decides once it is made).
    /// By default no move may be taken back.
    fn might_take_back(&self, seat: Seat, mv: &Self::Move) -> bool {
        let _ = (seat, mv);
        false
    }

    /// Whether `seat` may take back `mv`, just applied, a move
    /// [`Game::might_take_back`] allowed: `self` is the state after it,
    /// `before` the state before. Only a move that revealed nothing hidden and
    /// drew nothing random may be (what the player saw by making it is what he
    /// knew already). The chance lasts until the next entry that is not one of
    /// his moves that may be taken back: another seat's move, a draw, a
    /// reveal, a timeout.
    fn may_take_back(&self, before: &Self, seat: Seat, mv: &Self::Move) -> bool {
        let _ = (before, seat, mv);
        false
    }
}

/// The states a seat may go back to, latest last, shared between copies.
type TakeBacks<G> = Option<(Seat, Vec<Arc<G>>)>;

/// The result of applying an entry: the game after it and its events.
pub type Next<G> = Result<(Played<G>, Vec<<G as Game>::Event>), Illegal<<G as Game>::Rule>>;

/// A game as its log played it: the state and, when its last mover may take
/// moves back ([`Game::may_take_back`]), the states before them. The server
/// and every replay go through it, so an [`Entry::Undo`] means the same
/// everywhere: the state before the undone move, exactly.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    game: G,
    take_backs: TakeBacks<G>,
}

impl<G: Game> Played<G> {
    pub fn new(game: G) -> Self {
        Played {
            game,
            take_backs: None,
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn into_game(self) -> G {
        self.game
    }

    /// The seat that may take back its last move now, if any.
    pub fn undo_seat(&self) -> Option<Seat> {
        self.take_backs.as_ref().map(|(seat, _)| *seat)
    }

    /// The game after `entry`; `self` is unchanged (on error too).
    pub fn next(&self, entry: &Entry<G::Move>) -> Next<G> {
        if let Entry::Undo { seat } = entry {
            let mut take_backs = self.take_backs.clone();
            let game = match &mut take_backs {
                Some((by, states)) if by == seat => states.pop(),
                _ => None,
            }
            .ok_or(Illegal::Engine(EngineRule::NothingToUndo))?;
            if take_backs
                .as_ref()
                .is_some_and(|(_, states)| states.is_empty())
            {
                take_backs = None;
            }
            let game = Arc::unwrap_or_clone(game);
            return Ok((Played { game, take_backs }, Vec::new()));
        }
        let mut game = self.game.clone();
        let events = apply_entry(&mut game, entry)?;
        let take_backs = self.take_backs_after(&game, entry);
        Ok((Played { game, take_backs }, events))
    }

    /// Applies `entry` in place; on error nothing changes.
    pub fn apply(&mut self, entry: &Entry<G::Move>) -> Result<Vec<G::Event>, Illegal<G::Rule>> {
        let keep = match entry {
            Entry::Undo { .. } => true,
            Entry::Move { seat, mv } => self.game.might_take_back(*seat, mv),
            Entry::Timeout { .. } => false,
        };
        if keep {
            let (next, events) = self.next(entry)?;
            *self = next;
            return Ok(events);
        }
        // A move that may not be taken back: no copy of the state before it.
        let events = apply_entry(&mut self.game, entry)?;
        self.take_backs = None;
        Ok(events)
    }

    fn take_backs_after(&self, after: &G, entry: &Entry<G::Move>) -> TakeBacks<G> {
        let Entry::Move { seat, mv } = entry else {
            return None;
        };
        if !self.game.might_take_back(*seat, mv) || !after.may_take_back(&self.game, *seat, mv) {
            return None;
        }
        let mut states = match &self.take_backs {
            Some((by, states)) if by == seat => states.clone(),
            _ => Vec::new(),
        };
        states.push(Arc::new(self.game.clone()));
        Some((*seat, states))
    }
}

/// Why a move log could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Setup(SetupError),
    /// Entry number `index` was refused.
    Illegal {
        index: usize,
        /// The refusal's stable code.
        code: &'static str,
    },
    /// Entry number `index` is a timeout for a period that is not the current one.
    StaleTimeout {
        index: usize,
    },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Setup(e) => write!(f, "setup: {e}"),
            ReplayError::Illegal { index, code } => write!(f, "entry {index}: {code}"),
            ReplayError::StaleTimeout { index } => write!(f, "entry {index}: stale_timeout"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Applies one log entry. A timeout for another period than the current one is
/// refused, and so is an undo: a bare state keeps nothing to go back to ([`Played`]).
pub fn apply_entry<G: Game>(
    game: &mut G,
    entry: &Entry<G::Move>,
) -> Result<Vec<G::Event>, Illegal<G::Rule>> {
    match entry {
        Entry::Move { seat, mv } => game.apply(*seat, mv),
        Entry::Timeout { period } => {
            if game.awaiting().period != *period || game.outcome().is_some() {
                return Err(Illegal::Engine(EngineRule::StaleTimeout));
            }
            Ok(game.timeout())
        }
        Entry::Undo { .. } => Err(Illegal::Engine(EngineRule::NothingToUndo)),
    }
}

/// Rebuilds a game from its setup and move log.
pub fn replay<G: Game>(
    setup: &Setup<G::Options>,
    entries: &[Entry<G::Move>],
) -> Result<G, ReplayError> {
    replay_with(setup, entries, |_, _, _| {})
}

/// [`replay`], handing each entry's events to `on_events` with the entry's index
/// and the game as that entry left it.
pub fn replay_with<G: Game>(
    setup: &Setup<G::Options>,
    entries: &[Entry<G::Move>],
    on_events: impl FnMut(usize, Vec<G::Event>, &G),
) -> Result<G, ReplayError> {
    replay_played(setup, entries, on_events).map(Played::into_game)
}

/// [`replay_with`], keeping what the last mover may still take back.
pub fn replay_played<G: Game>(
    setup: &Setup<G::Options>,
    entries: &[Entry<G::Move>],
    mut on_events: impl FnMut(usize, Vec<G::Event>, &G),
) -> Result<Played<G>, ReplayError> {
    let mut played = Played::new(G::new(setup).map_err(ReplayError::Setup)?);
    for (index, entry) in entries.iter().enumerate() {
        let events = played.apply(entry).map_err(|illegal| match entry {
            Entry::Timeout { .. } => ReplayError::StaleTimeout { index },
            Entry::Move { .. } | Entry::Undo { .. } => ReplayError::Illegal {
                index,
                code: illegal.code(),
            },
        })?;
        on_events(index, events, played.game());
    }
    Ok(played)
}

/// A finished (or stopped) play-out: the final state and the log that produced it.
pub type PlayOut<G> = (G, Vec<Entry<<G as Game>::Move>>);

/// Plays a whole game with bots of the given levels (one per seat), for tests,
/// benchmarks and property checks. Returns the final state and its move log.
/// Stops after `max_entries` entries even if the game is not over.
pub fn play_out<G: Game>(
    setup: &Setup<G::Options>,
    levels: &[BotLevel],
    bot_seed: u64,
    max_entries: usize,
) -> Result<PlayOut<G>, ReplayError> {
    let mut game = G::new(setup).map_err(ReplayError::Setup)?;
    let mut rng = GameRng::new(bot_seed);
    let mut log = Vec::new();
    while game.outcome().is_none() && log.len() < max_entries {
        let awaiting = game.awaiting();
        let Some(&seat) = awaiting.seats.first() else {
            break;
        };
        let level = levels
            .get(usize::from(seat))
            .copied()
            .unwrap_or(BotLevel::Random);
        let entry = match game.bot_move(seat, level, &mut rng) {
            Some(mv) => Entry::Move { seat, mv },
            None => Entry::Timeout {
                period: awaiting.period,
            },
        };
        let index = log.len();
        apply_entry(&mut game, &entry).map_err(|illegal| ReplayError::Illegal {
            index,
            code: illegal.code(),
        })?;
        log.push(entry);
    }
    Ok((game, log))
}

/// What [`check_take_backs`] saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TakeBackCounts {
    /// Moves taken back, each giving back exactly the state before it.
    pub taken_back: usize,
    /// Undos refused, each changing nothing.
    pub refused: usize,
}

/// Bots play a game (as [`play_out`]); after every entry, an undo is tried for
/// every seat on a copy. Where [`Played::undo_seat`] names the mover, his undo
/// must give back exactly what every viewer saw before his move (views,
/// overlays, legal moves, whose decision); everywhere else every undo must be
/// refused and change nothing. `may_not` names moves that must never be taken
/// back (a draw, a reveal). For each game's tests.
pub fn check_take_backs<G: Game>(
    setup: &Setup<G::Options>,
    bot_seed: u64,
    max_entries: usize,
    may_not: impl Fn(&G::Move) -> bool,
) -> Result<TakeBackCounts, String> {
    fn seen<G: Game>(game: &G, seats: u8) -> String {
        let mut out = format!("{:?} {:?}", game.awaiting(), game.view(Viewer::Spectator));
        for seat in 0..seats {
            out += &format!(
                " | {:?} {:?} {:?}",
                game.view(Viewer::Seat(seat)),
                game.private_view(seat),
                game.legal_moves(seat)
            );
        }
        out
    }
    let mut played = Played::new(G::new(setup).map_err(|e| e.to_string())?);
    let mut rng = GameRng::new(bot_seed);
    let mut counts = TakeBackCounts::default();
    for index in 0..max_entries {
        if played.game().outcome().is_some() {
            break;
        }
        let awaiting = played.game().awaiting();
        let Some(&seat) = awaiting.seats.get(rng.below(awaiting.seats.len().max(1))) else {
            break;
        };
        let entry = match played.game().bot_move(seat, BotLevel::Random, &mut rng) {
            Some(mv) => Entry::Move { seat, mv },
            None => Entry::Timeout {
                period: awaiting.period,
            },
        };
        let before = seen(played.game(), setup.seats);
        played
            .apply(&entry)
            .map_err(|e| format!("entry {index}: {}", e.code()))?;
        let after = seen(played.game(), setup.seats);
        for other in 0..setup.seats {
            let mut copy = played.clone();
            let undone = copy.apply(&Entry::Undo { seat: other });
            if played.undo_seat() == Some(other) {
                if !matches!(entry, Entry::Move { seat: s, .. } if s == other) {
                    return Err(format!(
                        "entry {index}: seat {other} may undo another's entry"
                    ));
                }
                if let Entry::Move { mv, .. } = &entry
                    && may_not(mv)
                {
                    return Err(format!("entry {index}: {mv:?} may be taken back"));
                }
                undone.map_err(|e| format!("entry {index}: undo refused: {}", e.code()))?;
                if seen(copy.game(), setup.seats) != before {
                    return Err(format!(
                        "entry {index}: the undo did not give back the state before it"
                    ));
                }
                counts.taken_back += 1;
            } else {
                if undone.is_ok() || seen(copy.game(), setup.seats) != after {
                    return Err(format!(
                        "entry {index}: seat {other}'s undo was not refused"
                    ));
                }
                counts.refused += 1;
            }
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two seats take turns taking 1 or 2 from a pile of 5; whoever empties it wins.
    #[derive(Clone, Debug)]
    struct Pile {
        left: u8,
        turn: Seat,
    }

    impl Game for Pile {
        const ID: &'static str = "pile";
        const NAME: &'static str = "Pile";
        const SEATS: std::ops::RangeInclusive<u8> = 2..=2;
        type Options = ();
        type Move = u8;
        type View = u8;
        type Event = u8;
        type Rule = EngineRule;
        type Private = NothingPrivate;

        fn new(_: &Setup<()>) -> Result<Self, SetupError> {
            Ok(Pile { left: 5, turn: 0 })
        }

        fn awaiting(&self) -> Awaiting {
            let mut a = Awaiting::nobody(u64::from(5 - self.left));
            if self.left > 0 {
                a.seats = vec![self.turn];
            }
            a
        }

        fn legal_moves(&self, seat: Seat) -> Vec<u8> {
            if !self.awaiting().includes(seat) {
                return Vec::new();
            }
            (1..=self.left.min(2)).collect()
        }

        fn apply(&mut self, seat: Seat, mv: &u8) -> Result<Vec<u8>, Illegal<EngineRule>> {
            if !self.legal_moves(seat).contains(mv) {
                return Err(Illegal::not_your_turn());
            }
            self.left -= mv;
            self.turn = 1 - self.turn;
            Ok(vec![*mv])
        }

        fn timeout(&mut self) -> Vec<u8> {
            let seat = self.turn;
            self.apply(seat, &1).unwrap_or_default()
        }

        fn view(&self, _: Viewer) -> u8 {
            self.left
        }

        fn private_view(&self, _: Seat) -> NothingPrivate {
            NothingPrivate {}
        }

        fn outcome(&self) -> Option<Outcome> {
            (self.left == 0).then(|| Outcome {
                scores: vec![0, 0],
                winners: vec![1 - self.turn],
            })
        }

        fn bot_move(&self, seat: Seat, _: BotLevel, _: &mut GameRng) -> Option<u8> {
            self.legal_moves(seat).last().copied()
        }
    }

    #[test]
    fn a_game_without_parts_lists_every_legal_move_whatever_is_asked() {
        let setup = Setup {
            seats: 2,
            seed: 0,
            options: (),
            first_seat: None,
        };
        let (game, log) = play_out::<Pile>(&setup, &[BotLevel::Greedy; 2], 0, 1).expect("plays");
        assert_eq!(log.len(), 1);
        for seat in 0..2 {
            for of in ["", "anything", "other"] {
                assert_eq!(game.legal_moves_of(seat, of), game.legal_moves(seat));
            }
        }
        assert_eq!(game.legal_moves_of(1, "x"), vec![1, 2]);
        assert_eq!(game.legal_moves_of(0, "x"), Vec::<u8>::new());
    }

    /// Each seat in turn adds to its own sum: 1..=3 (may be taken back), 9
    /// draws a random 0..10 (may not), 0 ends the turn.
    #[derive(Clone, Debug, PartialEq)]
    struct Tally {
        sums: [u32; 2],
        turn: Seat,
        turns: u64,
        rng: GameRng,
    }

    impl Game for Tally {
        const ID: &'static str = "tally";
        const NAME: &'static str = "Tally";
        const SEATS: std::ops::RangeInclusive<u8> = 2..=2;
        type Options = ();
        type Move = u8;
        type View = [u32; 2];
        type Event = u8;
        type Rule = EngineRule;
        type Private = NothingPrivate;

        fn new(setup: &Setup<()>) -> Result<Self, SetupError> {
            Ok(Tally {
                sums: [0; 2],
                turn: 0,
                turns: 0,
                rng: GameRng::new(setup.seed),
            })
        }

        fn awaiting(&self) -> Awaiting {
            let mut a = Awaiting::nobody(self.turns);
            if self.turns < 6 {
                a.seats = vec![self.turn];
            }
            a
        }

        fn legal_moves(&self, seat: Seat) -> Vec<u8> {
            if !self.awaiting().includes(seat) {
                return Vec::new();
            }
            vec![0, 1, 2, 3, 9]
        }

        fn apply(&mut self, seat: Seat, mv: &u8) -> Result<Vec<u8>, Illegal<EngineRule>> {
            if !self.legal_moves(seat).contains(mv) {
                return Err(Illegal::not_your_turn());
            }
            let add = match mv {
                0 => {
                    self.turn = 1 - self.turn;
                    self.turns += 1;
                    0
                }
                9 => self.rng.below(10) as u32,
                n => u32::from(*n),
            };
            self.sums[usize::from(seat)] += add;
            Ok(vec![*mv])
        }

        fn timeout(&mut self) -> Vec<u8> {
            let seat = self.turn;
            self.apply(seat, &0).unwrap_or_default()
        }

        fn view(&self, _: Viewer) -> [u32; 2] {
            self.sums
        }

        fn private_view(&self, _: Seat) -> NothingPrivate {
            NothingPrivate {}
        }

        fn outcome(&self) -> Option<Outcome> {
            (self.turns >= 6).then(|| Outcome {
                scores: self.sums.iter().map(|&s| s as i32).collect(),
                winners: vec![0],
            })
        }

        fn bot_move(&self, seat: Seat, _: BotLevel, _: &mut GameRng) -> Option<u8> {
            self.legal_moves(seat).first().copied()
        }

        fn might_take_back(&self, _: Seat, mv: &u8) -> bool {
            matches!(mv, 1..=3)
        }

        fn may_take_back(&self, before: &Self, _: Seat, _: &u8) -> bool {
            self.turns == before.turns
        }
    }

    fn tally_setup() -> Setup<()> {
        Setup {
            seats: 2,
            seed: 7,
            options: (),
            first_seat: None,
        }
    }

    fn mv(seat: Seat, mv: u8) -> Entry<u8> {
        Entry::Move { seat, mv }
    }

    #[test]
    fn an_undo_gives_back_exactly_the_state_before_each_undone_move() {
        let mut played = Played::new(Tally::new(&tally_setup()).expect("starts"));
        let start = played.game().clone();
        played.apply(&mv(0, 2)).expect("legal");
        let after_first = played.game().clone();
        played.apply(&mv(0, 3)).expect("legal");
        assert_eq!(played.undo_seat(), Some(0));
        // Only the mover may take back, and only his own moves.
        let refused = played.apply(&Entry::Undo { seat: 1 });
        assert_eq!(refused, Err(Illegal::Engine(EngineRule::NothingToUndo)));
        played.apply(&Entry::Undo { seat: 0 }).expect("undo");
        assert_eq!(played.game(), &after_first);
        played.apply(&Entry::Undo { seat: 0 }).expect("undo");
        assert_eq!(played.game(), &start);
        assert_eq!(played.undo_seat(), None);
        assert!(played.apply(&Entry::Undo { seat: 0 }).is_err());
        assert_eq!(played.game(), &start);
    }

    #[test]
    fn no_undo_across_a_draw_another_seats_move_or_a_timeout() {
        let mut played = Played::new(Tally::new(&tally_setup()).expect("starts"));
        let nothing = Err(Illegal::Engine(EngineRule::NothingToUndo));
        // A random draw ends the chance, for the moves before it too.
        played.apply(&mv(0, 1)).expect("legal");
        played.apply(&mv(0, 9)).expect("legal");
        let drawn = played.game().clone();
        assert_eq!(played.apply(&Entry::Undo { seat: 0 }), nothing);
        assert_eq!(played.game(), &drawn);
        // Ending the turn ends it, and the next seat's moves are his own.
        played.apply(&mv(0, 1)).expect("legal");
        played.apply(&mv(0, 0)).expect("legal");
        assert_eq!(played.apply(&Entry::Undo { seat: 0 }), nothing);
        played.apply(&mv(1, 2)).expect("legal");
        assert_eq!(played.apply(&Entry::Undo { seat: 0 }), nothing);
        assert_eq!(played.undo_seat(), Some(1));
        played
            .apply(&Entry::Timeout { period: 1 })
            .expect("the timer of turn 1");
        assert_eq!(played.apply(&Entry::Undo { seat: 1 }), nothing);
        // A bare state keeps nothing to go back to.
        let mut bare = played.game().clone();
        assert_eq!(apply_entry(&mut bare, &Entry::Undo { seat: 0 }), nothing);
    }

    #[test]
    fn a_log_with_undos_replays_to_the_same_state_and_chance() {
        let log = vec![
            mv(0, 3),
            mv(0, 2),
            Entry::Undo { seat: 0 },
            mv(0, 9),
            mv(0, 1),
            Entry::Undo { seat: 0 },
            mv(0, 0),
            mv(1, 1),
            mv(1, 2),
            Entry::Undo { seat: 0 },
        ];
        // The last undo is not the mover's: the log is refused there.
        let refused = replay::<Tally>(&tally_setup(), &log);
        assert!(
            matches!(
                refused,
                Err(ReplayError::Illegal {
                    index: 9,
                    code: "nothing_to_undo"
                })
            ),
            "{refused:?}"
        );
        let log = &log[..9];
        let mut live = Played::new(Tally::new(&tally_setup()).expect("starts"));
        for entry in log {
            live.apply(entry).expect("legal");
        }
        let replayed = replay_played::<Tally>(&tally_setup(), log, |_, _, _| {}).expect("replays");
        assert_eq!(replayed.game(), live.game());
        assert_eq!(replayed.undo_seat(), Some(1));
        // The same as the log without the moves taken back.
        let kept = [mv(0, 3), mv(0, 9), mv(0, 0), mv(1, 1), mv(1, 2)];
        assert_eq!(
            &replay::<Tally>(&tally_setup(), &kept).expect("replays"),
            live.game()
        );
        let mut again = replayed.clone();
        again.apply(&Entry::Undo { seat: 1 }).expect("undo");
        live.apply(&Entry::Undo { seat: 1 }).expect("undo");
        assert_eq!(again.game(), live.game());
    }
}
