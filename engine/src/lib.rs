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
//! - [`Illegal`] and [`Rule`]: a refusal is a stable code with typed arguments, never a sentence.
//! - [`GameRng`]: the only source of randomness, stored inside the state.
//! - [`text`]: cleaning what people type (names, a room's card titles).

mod rng;
pub mod text;

pub use rng::GameRng;

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::Debug;
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
}

impl Rule for EngineRule {
    fn code(&self) -> &'static str {
        match self {
            EngineRule::NotYourTurn => "not_your_turn",
            EngineRule::GameOver => "game_over",
            EngineRule::StaleTimeout => "stale_timeout",
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

/// Applies one log entry. A timeout for another period than the current one is refused.
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
    mut on_events: impl FnMut(usize, Vec<G::Event>, &G),
) -> Result<G, ReplayError> {
    let mut game = G::new(setup).map_err(ReplayError::Setup)?;
    for (index, entry) in entries.iter().enumerate() {
        let events = apply_entry(&mut game, entry).map_err(|illegal| match entry {
            Entry::Timeout { .. } => ReplayError::StaleTimeout { index },
            Entry::Move { .. } => ReplayError::Illegal {
                index,
                code: illegal.code(),
            },
        })?;
        on_events(index, events, &game);
    }
    Ok(game)
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
}
