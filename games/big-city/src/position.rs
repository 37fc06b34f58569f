//! A text position format for Big City, its parser and writer, and the loader that
//! builds a consistent game state from a position ([`BigCity::from_position`]).
//!
//! A position says what a photograph of the table would show plus what the server
//! keeps hidden (hands' faces, stack order) and where the turn stands. Everything
//! that follows from it is computed by the loader, never written: the supply, the
//! scores, the streetcars left, the legal neighborhood placements, the outskirts,
//! the starting round's order, the winners. Tests build their tables from it
//! through the public API; [`BigCity::to_position`] writes a state back.
//!
//! The text is one statement per line: a keyword, then values separated by spaces.
//! `#` starts a comment. Only `seats` is required; the order of lines is free,
//! except that `tile`, `building` and `streetcar` lines are taken in the order
//! written (the order they were placed in).
//!
//! | line | meaning |
//! |---|---|
//! | `seats 3` | 2 to 5 players |
//! | `first 0` | the starting player (default 0) |
//! | `options trade_cards trade_window_ms=20000` | any of `trade_cards`, `useless_must_be_exchanged`, `single_streetcar_line`, `limited_streetcar_line`, `limited_card_drawing`, `trade_window_ms=<ms>` |
//! | `tile 3 3 0 [90]` | neighborhood, x, y, rotation (default 0); neighborhood 1 is always at 0 0 (G3) and is not written |
//! | `building residence_double 11 12 by 0 points 14` | piece (as on the wire), cells, owner, points when placed (default 0) |
//! | `streetcar 0 0 1 0` | a segment from grid point (x1, y1) to (x2, y2) |
//! | `hand 0 13 15 16` | a seat's cards; a seat without a line holds none |
//! | `stack 1 14 17 18 19` | a stack's cards, top first (the next draw first) |
//! | `discards 11 12` | face-up discards, oldest first |
//! | `turn 0` | whose turn it is (default: the starting player, or who places next in the starting round) |
//! | `step drawing 2` | `starting_city`, `action` (default), `second_streetcar`, `drawing <cards left>`, `trade_answers`, `trade_accept`, `trade_exchange`, `over city_complete` or `over all_passed` |
//! | `drawn 7 7 1` | the stacks drawn from this turn, one per card (C4) |
//! | `useless 1` | useless cards discarded this turn, replaced with its draws (C5) |
//! | `passes 1` | passes in a row (F2) |
//! | `turn_number 3` | default 1 (0 in the starting round) |
//! | `period 12` | the decision period of `engine::Awaiting` (default 0) |
//! | `trade 15 16 wants 2` | the offered cards, and the neighborhoods wanted if any (A7) |
//! | `answer 1 21` | a seat's answer; `answer 2` alone declines; no line: not answered yet |
//!
//! Cards not written anywhere are placed by the parser: the cards a building was
//! built with (its properties' cards, or a park's or factory's special card) go to
//! the discards unless a `discards` line is written; every other card goes to its
//! stack unless that stack has a line, lowest number on top.
//!
//! ```
//! use big_city::{BigCity, Position};
//!
//! let text = "
//! seats 3
//! options trade_cards trade_window_ms=20000
//! tile 3 3 0
//! tile 2 0 3
//! building city_hall 35 by 1
//! building residence_double 11 12 by 0 points 14
//! streetcar 0 0 1 0
//! hand 0 13 15 16
//! hand 1 21 22
//! hand 2 31
//! stack 1 19 18 17 14   # 11 and 12 were played, 13 15 16 are in hand 0
//! turn 0
//! step trade_answers
//! trade 15 16 wants 2
//! answer 1 21           # seat 2 has not answered yet
//! ";
//! let game = BigCity::from_position(&Position::parse(text).unwrap()).unwrap();
//! let view = game.view(engine::Viewer::Spectator);
//! assert_eq!(view.scores, vec![14, 0, 0]); // from the buildings' points
//! assert_eq!(view.streetcars_left, 16);
//! assert_eq!(view.discards, vec![35, 11, 12]); // the cards the buildings were built with
//! assert_eq!(game.awaiting().seats, vec![2]);
//! // The writer spells every line out; reading it back gives the same position.
//! let written = game.to_position().to_string();
//! assert_eq!(Position::parse(&written).unwrap(), game.to_position());
//! ```

use std::fmt;

use crate::game::{BigCity, Building, Step, Trade, hand_size, starting_round};
use crate::geometry::{self, Cell, CityMap, Edge, PlacementError, TilePlacement};
use crate::pieces::{ALL_PIECES, STREETCARS, is_card, stack_of};
use crate::wire::{EndReason, Options, Piece, Segment};
use engine::{Setup, SetupError};

/// A whole Big City position, hidden information included. Parsed from text with
/// [`Position::parse`], written with `Display`, loaded with
/// [`BigCity::from_position`], read from a state with [`BigCity::to_position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub seats: u8,
    /// The starting player (F1).
    pub first_seat: u8,
    pub options: Options,
    /// Neighborhoods placed after neighborhood 1, in placement order.
    pub tiles: Vec<TilePlacement>,
    /// Buildings, parks and factories, in placement order.
    pub buildings: Vec<PlacedBuilding>,
    /// The streetcar line, in placement order.
    pub streetcars: Vec<Segment>,
    /// Each seat's cards, ascending.
    pub hands: Vec<Vec<u8>>,
    /// Stacks 1 to 8 at index 0 to 7, top card first.
    pub stacks: [Vec<u8>; 8],
    /// Face-up discards, oldest first.
    pub discards: Vec<u8>,
    /// Whose turn it is.
    pub turn: u8,
    pub stage: Stage,
    /// Cards drawn this turn from each stack (C4).
    pub drawn: [u8; 8],
    /// Useless cards discarded this turn, replaced with the turn's draws (C5).
    pub useless_discarded: u8,
    /// Passes in a row (F2).
    pub passes: u8,
    pub turn_number: u32,
    /// The decision period (`engine::Awaiting::period`).
    pub period: u64,
    pub trade: Option<TradePosition>,
}

/// A building, park or factory on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedBuilding {
    pub piece: Piece,
    /// Property numbers.
    pub cells: Vec<u8>,
    pub owner: u8,
    /// What it scored when placed (V1-V3).
    pub points: i32,
}

/// Which decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The starting round (F1): who places next follows from the tiles placed.
    StartingCity,
    Action,
    SecondStreetcar,
    /// `remaining` cards are still to be drawn this turn.
    Drawing {
        remaining: u8,
    },
    TradeAnswers,
    TradeAccept,
    TradeExchange,
    Over(EndReason),
}

/// A trade in progress (A7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TradePosition {
    /// The cards offered by the seat whose turn it is.
    pub offered: Vec<u8>,
    /// Neighborhoods wanted, ascending.
    pub wanted: Vec<u8>,
    /// The answers given so far: seat and cards (none: declined), by seat.
    pub answers: Vec<(u8, Vec<u8>)>,
}

/// Why a position does not parse or does not describe a consistent state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Line `line` (from 1) is not understood, or repeats a one-time keyword.
    Syntax { line: usize, text: String },
    /// A required line is missing.
    Missing { keyword: &'static str },
    /// Seats, starting seat or options refused by the game's setup.
    Setup(SetupError),
    /// A seat number that is not one of the table's.
    Seat { seat: u8 },
    /// A tile that cannot be placed where the position says (G2, G6).
    Tile { neighborhood: u8, error: TileError },
    /// Building number `index` (from 0) cannot stand there; `code` is the code a
    /// build move would be refused with (`cell_covered`, `wrong_shape`,
    /// `piece_unavailable`, ...).
    Building { index: usize, code: &'static str },
    /// Streetcar number `index` (from 0) cannot lie there; `code` as for a
    /// streetcar move (`street_closed`, `streetcar_not_connected`, ...).
    Streetcar { index: usize, code: &'static str },
    /// A card out of place.
    Card { card: u8, problem: CardProblem },
    /// A hand above the hand size (C2).
    HandTooLarge { seat: u8, cards: usize },
    /// The step does not fit the rest of the position (`code` says how).
    Stage { code: &'static str },
    /// The trade does not fit the rest of the position (`code` says how).
    Trade { code: &'static str },
}

/// Why a tile cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileError {
    UnknownNeighborhood,
    Placement(PlacementError),
}

/// What is wrong with a card's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardProblem {
    /// Not one of the 72 cards.
    NotACard,
    /// In two places.
    Twice,
    /// Nowhere.
    Missing,
    /// On another neighborhood's stack.
    WrongStack,
    /// Played for a building on the board, yet in a hand or a stack.
    Played,
    /// Offered or answered in a trade without being in that seat's hand.
    NotHeld,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Syntax { line, text } => write!(f, "line {line}: cannot read {text:?}"),
            PositionError::Missing { keyword } => write!(f, "no `{keyword}` line"),
            PositionError::Setup(s) => write!(f, "setup: {s}"),
            PositionError::Seat { seat } => write!(f, "there is no seat {seat}"),
            PositionError::Tile {
                neighborhood,
                error,
            } => write!(f, "neighborhood {neighborhood} cannot be placed: {error:?}"),
            PositionError::Building { index, code } => write!(f, "building {index}: {code}"),
            PositionError::Streetcar { index, code } => write!(f, "streetcar {index}: {code}"),
            PositionError::Card { card, problem } => write!(f, "card {card}: {problem:?}"),
            PositionError::HandTooLarge { seat, cards } => {
                write!(f, "seat {seat} holds {cards} cards, above the hand size")
            }
            PositionError::Stage { code } => write!(f, "step: {code}"),
            PositionError::Trade { code } => write!(f, "trade: {code}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// The text name of a piece (as on the wire).
fn piece_key(p: Piece) -> &'static str {
    match p {
        Piece::ResidenceSingle => "residence_single",
        Piece::ResidenceDouble => "residence_double",
        Piece::ResidenceTriple => "residence_triple",
        Piece::BusinessSingle => "business_single",
        Piece::BusinessDouble => "business_double",
        Piece::BusinessTriple => "business_triple",
        Piece::CityHall => "city_hall",
        Piece::Church => "church",
        Piece::Cinema => "cinema",
        Piece::PostOffice => "post_office",
        Piece::Bank => "bank",
        Piece::ShoppingCenter => "shopping_center",
        Piece::LincolnPark => "lincoln_park",
        Piece::CentralPark => "central_park",
        Piece::StanfordCorporation => "stanford_corporation",
        Piece::RockwellIndustries => "rockwell_industries",
    }
}

/// The cards a building was built with: its properties' cards, or its special card.
fn played_cards(b: &PlacedBuilding) -> Vec<u8> {
    match b.piece.special_card() {
        Some(card) => vec![card],
        None => b.cells.clone(),
    }
}

impl Position {
    /// Reads a position (see the module docs). Checks the syntax and places the
    /// cards not written; [`BigCity::from_position`] checks the rest.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let mut seats = None;
        let mut first_seat = None;
        let mut options = None;
        let mut tiles = Vec::new();
        let mut buildings = Vec::new();
        let mut streetcars = Vec::new();
        let mut hands: Vec<(u8, Vec<u8>)> = Vec::new();
        let mut stacks: [Option<Vec<u8>>; 8] = Default::default();
        let mut discards = None;
        let mut turn = None;
        let mut stage = None;
        let mut drawn = None;
        let mut useless = None;
        let mut passes = None;
        let mut turn_number = None;
        let mut period = None;
        let mut offer: Option<(Vec<u8>, Vec<u8>)> = None;
        let mut answers: Vec<(u8, Vec<u8>)> = Vec::new();

        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = || PositionError::Syntax {
                line: i + 1,
                text: line.to_string(),
            };
            let mut words = line.split_whitespace();
            let Some(keyword) = words.next() else {
                continue;
            };
            let rest: Vec<&str> = words.collect();
            match keyword {
                "seats" => once(
                    &mut seats,
                    num::<u8>(one(&rest, bad)?).ok_or_else(bad)?,
                    bad,
                )?,
                "first" => once(
                    &mut first_seat,
                    num::<u8>(one(&rest, bad)?).ok_or_else(bad)?,
                    bad,
                )?,
                "options" => once(&mut options, parse_options(&rest).ok_or_else(bad)?, bad)?,
                "tile" => {
                    let t = match rest.as_slice() {
                        [n, x, y] => (num(n), num(x), num(y), Some(0)),
                        [n, x, y, r] => (num(n), num(x), num(y), num(r)),
                        _ => return Err(bad()),
                    };
                    let (Some(neighborhood), Some(x), Some(y), Some(rotation)) = t else {
                        return Err(bad());
                    };
                    tiles.push(TilePlacement {
                        neighborhood,
                        x,
                        y,
                        rotation,
                    });
                }
                "building" => buildings.push(parse_building(&rest).ok_or_else(bad)?),
                "streetcar" => {
                    let v = numbers::<i16>(&rest).ok_or_else(bad)?;
                    let [x1, y1, x2, y2] = v[..] else {
                        return Err(bad());
                    };
                    streetcars.push(Segment { x1, y1, x2, y2 });
                }
                "hand" => {
                    let v = numbers::<u8>(&rest).ok_or_else(bad)?;
                    let (&seat, cards) = v.split_first().ok_or_else(bad)?;
                    if hands.iter().any(|(s, _)| *s == seat) {
                        return Err(bad());
                    }
                    hands.push((seat, cards.to_vec()));
                }
                "stack" => {
                    let v = numbers::<u8>(&rest).ok_or_else(bad)?;
                    let (&n, cards) = v.split_first().ok_or_else(bad)?;
                    let slot = (1..=8)
                        .contains(&n)
                        .then(|| &mut stacks[usize::from(n - 1)])
                        .ok_or_else(bad)?;
                    once(slot, cards.to_vec(), bad)?;
                }
                "discards" => once(&mut discards, numbers::<u8>(&rest).ok_or_else(bad)?, bad)?,
                "turn" => once(&mut turn, num::<u8>(one(&rest, bad)?).ok_or_else(bad)?, bad)?,
                "step" => once(&mut stage, parse_stage(&rest).ok_or_else(bad)?, bad)?,
                "drawn" => {
                    let mut d = [0u8; 8];
                    for s in numbers::<u8>(&rest).ok_or_else(bad)? {
                        if !(1..=8).contains(&s) {
                            return Err(bad());
                        }
                        d[usize::from(s - 1)] += 1;
                    }
                    once(&mut drawn, d, bad)?;
                }
                "useless" => once(
                    &mut useless,
                    num::<u8>(one(&rest, bad)?).ok_or_else(bad)?,
                    bad,
                )?,
                "passes" => once(
                    &mut passes,
                    num::<u8>(one(&rest, bad)?).ok_or_else(bad)?,
                    bad,
                )?,
                "turn_number" => once(
                    &mut turn_number,
                    num::<u32>(one(&rest, bad)?).ok_or_else(bad)?,
                    bad,
                )?,
                "period" => once(
                    &mut period,
                    num::<u64>(one(&rest, bad)?).ok_or_else(bad)?,
                    bad,
                )?,
                "trade" => {
                    let split = rest.iter().position(|w| *w == "wants");
                    let (cards, wanted) = match split {
                        Some(k) => (&rest[..k], &rest[k + 1..]),
                        None => (&rest[..], &[][..]),
                    };
                    let cards = numbers::<u8>(cards).ok_or_else(bad)?;
                    let wanted = numbers::<u8>(wanted).ok_or_else(bad)?;
                    once(&mut offer, (cards, wanted), bad)?;
                }
                "answer" => {
                    let v = numbers::<u8>(&rest).ok_or_else(bad)?;
                    let (&seat, cards) = v.split_first().ok_or_else(bad)?;
                    if answers.iter().any(|(s, _)| *s == seat) {
                        return Err(bad());
                    }
                    answers.push((seat, cards.to_vec()));
                }
                _ => return Err(bad()),
            }
        }

        let seats = seats.ok_or(PositionError::Missing { keyword: "seats" })?;
        let mut hand_list = vec![Vec::new(); usize::from(seats)];
        for (seat, mut cards) in hands {
            let slot = hand_list
                .get_mut(usize::from(seat))
                .ok_or(PositionError::Seat { seat })?;
            cards.sort_unstable();
            *slot = cards;
        }
        if offer.is_none() && !answers.is_empty() {
            return Err(PositionError::Trade {
                code: "answer_without_offer",
            });
        }
        answers.sort_by_key(|(s, _)| *s);
        let trade = offer.map(|(offered, wanted)| TradePosition {
            offered,
            wanted,
            answers,
        });
        let discards =
            discards.unwrap_or_else(|| buildings.iter().flat_map(played_cards).collect());
        // Every card not written goes to its stack, lowest on top.
        let mut placed = [false; 90];
        for &c in hand_list
            .iter()
            .flatten()
            .chain(&discards)
            .chain(stacks.iter().flatten().flatten())
        {
            if let Some(p) = placed.get_mut(usize::from(c)) {
                *p = true;
            }
        }
        let stacks: [Vec<u8>; 8] = std::array::from_fn(|i| match &stacks[i] {
            Some(s) => s.clone(),
            None => crate::pieces::stack_cards(i as u8 + 1)
                .into_iter()
                .filter(|&c| !placed[usize::from(c)])
                .collect(),
        });
        let first_seat = first_seat.unwrap_or(0);
        let stage = stage.unwrap_or(Stage::Action);
        let turn = match turn {
            Some(t) => t,
            None if stage == Stage::StartingCity => {
                let (_, queue) = starting_round(seats.clamp(2, 5), first_seat);
                queue.get(tiles.len()).copied().unwrap_or(first_seat)
            }
            None => first_seat,
        };
        Ok(Position {
            seats,
            first_seat,
            options: options.unwrap_or_default(),
            tiles,
            buildings,
            streetcars,
            hands: hand_list,
            stacks,
            discards,
            turn,
            stage,
            drawn: drawn.unwrap_or([0; 8]),
            useless_discarded: useless.unwrap_or(0),
            passes: passes.unwrap_or(0),
            turn_number: turn_number.unwrap_or(if stage == Stage::StartingCity { 0 } else { 1 }),
            period: period.unwrap_or(0),
            trade,
        })
    }
}

impl std::str::FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::parse(s)
    }
}

/// The single value of a line.
fn one<'a>(rest: &[&'a str], bad: impl Fn() -> PositionError) -> Result<&'a str, PositionError> {
    match rest {
        [w] => Ok(w),
        _ => Err(bad()),
    }
}

/// Fills a one-time keyword's slot, which must still be empty.
fn once<T>(
    slot: &mut Option<T>,
    v: T,
    bad: impl Fn() -> PositionError,
) -> Result<(), PositionError> {
    if slot.is_some() {
        return Err(bad());
    }
    *slot = Some(v);
    Ok(())
}

fn num<T: std::str::FromStr>(w: &str) -> Option<T> {
    w.parse().ok()
}

fn numbers<T: std::str::FromStr>(ws: &[&str]) -> Option<Vec<T>> {
    ws.iter().map(|w| num(w)).collect()
}

fn parse_options(words: &[&str]) -> Option<Options> {
    let mut o = Options::default();
    for w in words {
        match *w {
            "trade_cards" => o.trade_cards = true,
            "useless_must_be_exchanged" => o.useless_must_be_exchanged = true,
            "single_streetcar_line" => o.single_streetcar_line = true,
            "limited_streetcar_line" => o.limited_streetcar_line = true,
            "limited_card_drawing" => o.limited_card_drawing = true,
            _ => o.trade_window_ms = num(w.strip_prefix("trade_window_ms=")?)?,
        }
    }
    Some(o)
}

fn parse_building(words: &[&str]) -> Option<PlacedBuilding> {
    let (name, rest) = words.split_first()?;
    let piece = ALL_PIECES.into_iter().find(|&p| piece_key(p) == *name)?;
    let by = rest.iter().position(|w| *w == "by")?;
    let cells = numbers::<u8>(&rest[..by])?;
    let (owner, points) = match &rest[by + 1..] {
        [o] => (num(o)?, 0),
        [o, "points", p] => (num(o)?, num(p)?),
        _ => return None,
    };
    Some(PlacedBuilding {
        piece,
        cells,
        owner,
        points,
    })
}

fn parse_stage(words: &[&str]) -> Option<Stage> {
    Some(match words {
        ["starting_city"] => Stage::StartingCity,
        ["action"] => Stage::Action,
        ["second_streetcar"] => Stage::SecondStreetcar,
        ["drawing", n] => Stage::Drawing { remaining: num(n)? },
        ["trade_answers"] => Stage::TradeAnswers,
        ["trade_accept"] => Stage::TradeAccept,
        ["trade_exchange"] => Stage::TradeExchange,
        ["over", "city_complete"] => Stage::Over(EndReason::CityComplete),
        ["over", "all_passed"] => Stage::Over(EndReason::AllPassed),
        _ => return None,
    })
}

fn write_list(f: &mut fmt::Formatter<'_>, head: &str, items: &[u8]) -> fmt::Result {
    f.write_str(head)?;
    for c in items {
        write!(f, " {c}")?;
    }
    writeln!(f)
}

/// Writes every line explicitly, so that parsing the text gives the same position.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "seats {}", self.seats)?;
        writeln!(f, "first {}", self.first_seat)?;
        let o = &self.options;
        let mut flags = Vec::new();
        for (on, name) in [
            (o.trade_cards, "trade_cards"),
            (o.useless_must_be_exchanged, "useless_must_be_exchanged"),
            (o.single_streetcar_line, "single_streetcar_line"),
            (o.limited_streetcar_line, "limited_streetcar_line"),
            (o.limited_card_drawing, "limited_card_drawing"),
        ] {
            if on {
                flags.push(name.to_string());
            }
        }
        if o.trade_window_ms != Options::default().trade_window_ms {
            flags.push(format!("trade_window_ms={}", o.trade_window_ms));
        }
        if !flags.is_empty() {
            writeln!(f, "options {}", flags.join(" "))?;
        }
        for t in &self.tiles {
            writeln!(f, "tile {} {} {} {}", t.neighborhood, t.x, t.y, t.rotation)?;
        }
        for b in &self.buildings {
            write!(f, "building {}", piece_key(b.piece))?;
            for c in &b.cells {
                write!(f, " {c}")?;
            }
            write!(f, " by {}", b.owner)?;
            if b.points != 0 {
                write!(f, " points {}", b.points)?;
            }
            writeln!(f)?;
        }
        for s in &self.streetcars {
            writeln!(f, "streetcar {} {} {} {}", s.x1, s.y1, s.x2, s.y2)?;
        }
        for (seat, h) in self.hands.iter().enumerate() {
            write_list(f, &format!("hand {seat}"), h)?;
        }
        for (i, s) in self.stacks.iter().enumerate() {
            write_list(f, &format!("stack {}", i + 1), s)?;
        }
        write_list(f, "discards", &self.discards)?;
        writeln!(f, "turn {}", self.turn)?;
        match self.stage {
            Stage::StartingCity => writeln!(f, "step starting_city")?,
            Stage::Action => writeln!(f, "step action")?,
            Stage::SecondStreetcar => writeln!(f, "step second_streetcar")?,
            Stage::Drawing { remaining } => writeln!(f, "step drawing {remaining}")?,
            Stage::TradeAnswers => writeln!(f, "step trade_answers")?,
            Stage::TradeAccept => writeln!(f, "step trade_accept")?,
            Stage::TradeExchange => writeln!(f, "step trade_exchange")?,
            Stage::Over(EndReason::CityComplete) => writeln!(f, "step over city_complete")?,
            Stage::Over(EndReason::AllPassed) => writeln!(f, "step over all_passed")?,
        }
        let drawn: Vec<u8> = (1..=8u8)
            .flat_map(|s| std::iter::repeat_n(s, usize::from(self.drawn[usize::from(s - 1)])))
            .collect();
        write_list(f, "drawn", &drawn)?;
        writeln!(f, "useless {}", self.useless_discarded)?;
        writeln!(f, "passes {}", self.passes)?;
        writeln!(f, "turn_number {}", self.turn_number)?;
        writeln!(f, "period {}", self.period)?;
        if let Some(t) = &self.trade {
            let mut line = String::from("trade");
            for c in &t.offered {
                line.push_str(&format!(" {c}"));
            }
            if !t.wanted.is_empty() {
                line.push_str(" wants");
                for n in &t.wanted {
                    line.push_str(&format!(" {n}"));
                }
            }
            writeln!(f, "{line}")?;
            for (seat, cards) in &t.answers {
                write_list(f, &format!("answer {seat}"), cards)?;
            }
        }
        Ok(())
    }
}

impl BigCity {
    /// Builds the state a position describes, after checking that it is consistent:
    /// tiles placed legally in order (G6), buildings on free cells of their shape
    /// within the supply, a streetcar line of open streets that grows from its
    /// first segment (S3, S5), each of the 72 cards in exactly one place, hands
    /// within the hand size, and a step, a starting round and a trade that fit.
    /// It does not replay history: a building's prerequisites and points, for
    /// example, are taken as written.
    pub fn from_position(p: &Position) -> Result<BigCity, PositionError> {
        let mut g = BigCity::new(&Setup {
            seats: p.seats,
            seed: 0,
            options: p.options.clone(),
            first_seat: Some(p.first_seat),
        })
        .map_err(PositionError::Setup)?;
        let seats = p.seats;
        let seat_ok = |seat: u8| {
            if seat < seats {
                Ok(())
            } else {
                Err(PositionError::Seat { seat })
            }
        };

        // The city (G2, G3, G6). The legal placements are brought up to date tile
        // by tile from those of the starting city, as the game does.
        let mut map = CityMap::starting();
        let mut placements = std::mem::take(&mut g.placements);
        for t in &p.tiles {
            let tile_err = |error| PositionError::Tile {
                neighborhood: t.neighborhood,
                error,
            };
            if !(1..=8).contains(&t.neighborhood) {
                return Err(tile_err(TileError::UnknownNeighborhood));
            }
            map.place(*t)
                .map_err(|e| tile_err(TileError::Placement(e)))?;
            placements = map.update_placements(&placements, *t);
        }
        g.map = map;
        g.placements = placements;

        // Buildings (G7, A1), the supply and the scores.
        g.line = geometry::Line::default();
        g.buildings.clear();
        g.cover = [0; 90];
        g.scores = vec![0; usize::from(seats)];
        for p in ALL_PIECES {
            g.supply[p.index()] = p.supply();
        }
        for (index, b) in p.buildings.iter().enumerate() {
            seat_ok(b.owner)?;
            let err = |code| PositionError::Building { index, code };
            g.check_footprint(b.piece, &b.cells)
                .map_err(|f| err(f.code))?;
            if g.supply[b.piece.index()] == 0 {
                return Err(err("piece_unavailable"));
            }
            g.supply[b.piece.index()] -= 1;
            g.buildings.push(Building {
                piece: b.piece,
                cells: b.cells.clone(),
                owner: b.owner,
                points: b.points,
            });
            let id = g.buildings.len() as u16;
            for &c in &b.cells {
                g.cover[usize::from(c)] = id;
            }
            g.scores[usize::from(b.owner)] += b.points;
        }

        // The streetcar line (G8, S3, S5).
        for (index, s) in p.streetcars.iter().enumerate() {
            let err = |code| PositionError::Streetcar { index, code };
            if index >= usize::from(STREETCARS) {
                return Err(err("no_streetcars_left"));
            }
            let e = Edge::from_segment(s).ok_or(err("bad_segment"))?;
            if !geometry::in_grid(Cell::new(e.x, e.y)) {
                return Err(err("street_not_in_city"));
            }
            let [a, b] = e.sides();
            if g.map.prop_at(a).is_none() && g.map.prop_at(b).is_none() {
                return Err(err("street_not_in_city"));
            }
            let (ba, bb) = (g.building_at_cell(a), g.building_at_cell(b));
            if ba != 0 && ba == bb {
                return Err(err("street_closed"));
            }
            if g.line.contains(e) {
                return Err(err("streetcar_taken"));
            }
            if !g.line.may_extend(e, false) {
                return Err(err("streetcar_not_connected"));
            }
            if p.options.single_streetcar_line && !g.line.may_extend(e, true) {
                return Err(err("single_line"));
            }
            g.line.push(e);
        }
        g.streetcars_left = STREETCARS - p.streetcars.len() as u8;

        // Cards (C1, C2, C5): each of the 72 in exactly one place.
        let card_err = |card, problem| PositionError::Card { card, problem };
        let mut seen = [false; 90];
        let mut played = [false; 90];
        for b in &p.buildings {
            for c in played_cards(b) {
                played[usize::from(c)] = true;
            }
        }
        let hands = p.hands.iter().flatten();
        let stacked = p.stacks.iter().flatten();
        for &c in hands.clone().chain(stacked.clone()).chain(&p.discards) {
            if !is_card(c) {
                return Err(card_err(c, CardProblem::NotACard));
            }
            if std::mem::replace(&mut seen[usize::from(c)], true) {
                return Err(card_err(c, CardProblem::Twice));
            }
        }
        if let Some(c) = (11..90u8).find(|&c| is_card(c) && !seen[usize::from(c)]) {
            return Err(card_err(c, CardProblem::Missing));
        }
        if let Some(&c) = hands.chain(stacked).find(|&&c| played[usize::from(c)]) {
            return Err(card_err(c, CardProblem::Played));
        }
        for (i, s) in p.stacks.iter().enumerate() {
            if let Some(&c) = s.iter().find(|&&c| usize::from(stack_of(c)) != i + 1) {
                return Err(card_err(c, CardProblem::WrongStack));
            }
        }
        if p.hands.len() != usize::from(seats) {
            return Err(PositionError::Seat {
                seat: p.hands.len() as u8,
            });
        }
        for (seat, h) in p.hands.iter().enumerate() {
            if h.len() > hand_size(seats) {
                return Err(PositionError::HandTooLarge {
                    seat: seat as u8,
                    cards: h.len(),
                });
            }
            let mut h = h.clone();
            h.sort_unstable();
            g.hands[seat] = h;
        }
        // The state keeps a stack's top card last.
        for (i, s) in p.stacks.iter().enumerate() {
            g.stacks[i] = s.iter().rev().copied().collect();
        }
        g.discards = p.discards.clone();

        // Whose turn, which step.
        seat_ok(p.turn)?;
        let stage_err = |code| PositionError::Stage { code };
        let (set, queue) = starting_round(seats, p.first_seat);
        g.setup_set.clear();
        g.setup_queue.clear();
        g.step = match p.stage {
            Stage::StartingCity => {
                let k = p.tiles.len();
                if k >= set.len() || p.tiles.iter().any(|t| !set.contains(&t.neighborhood)) {
                    return Err(stage_err("starting_city_tiles"));
                }
                if !p.buildings.is_empty() || !p.streetcars.is_empty() {
                    return Err(stage_err("starting_city_built"));
                }
                if queue.get(k) != Some(&p.turn) {
                    return Err(stage_err("starting_city_turn"));
                }
                g.setup_set = set
                    .into_iter()
                    .filter(|&n| !g.map.has_neighborhood(n))
                    .collect();
                g.setup_queue = queue[k..].to_vec();
                Step::StartingCity
            }
            Stage::Action => Step::Action,
            Stage::SecondStreetcar => {
                if p.streetcars.len() < 2 {
                    return Err(stage_err("second_streetcar_without_line"));
                }
                Step::SecondStreetcar
            }
            Stage::Drawing { remaining: 0 } => return Err(stage_err("nothing_to_draw")),
            Stage::Drawing { remaining } => Step::Drawing { remaining },
            Stage::TradeAnswers => Step::TradeAnswers,
            Stage::TradeAccept => Step::TradeAccept,
            Stage::TradeExchange => Step::TradeExchange,
            Stage::Over(reason) => Step::Over(reason),
        };
        if p.drawn.iter().any(|&d| d > 2) {
            return Err(stage_err("stack_limit"));
        }
        if p.passes > seats {
            return Err(stage_err("too_many_passes"));
        }
        g.active = p.turn;
        g.drawn = p.drawn;
        g.useless_pending = p.useless_discarded;
        g.passes = p.passes;
        g.turn_number = p.turn_number;
        g.period = p.period;
        g.winners = Vec::new();
        if let Stage::Over(_) = p.stage {
            let best = g.scores.iter().copied().max().unwrap_or(0);
            g.winners = (0..seats)
                .filter(|&s| g.scores[usize::from(s)] == best)
                .collect();
        }
        g.trade = load_trade(&g, p)?;
        // The game skips the draws when no stack allows one (C4); it never waits
        // for them.
        if matches!(g.step, Step::Drawing { .. }) && g.drawable().is_empty() {
            return Err(stage_err("no_stack_to_draw"));
        }
        Ok(g)
    }

    /// The position of this state: everything, hidden information included. It is
    /// for tests and tools; it never goes to a viewer.
    pub fn to_position(&self) -> Position {
        let me = self.active;
        Position {
            seats: self.seats,
            first_seat: self.first_seat,
            options: self.options.clone(),
            tiles: self.map.tiles.iter().skip(1).copied().collect(),
            buildings: self
                .buildings
                .iter()
                .map(|b| PlacedBuilding {
                    piece: b.piece,
                    cells: b.cells.clone(),
                    owner: b.owner,
                    points: b.points,
                })
                .collect(),
            streetcars: self.line.edges().iter().map(|e| e.segment()).collect(),
            hands: self.hands.clone(),
            stacks: std::array::from_fn(|i| self.stacks[i].iter().rev().copied().collect()),
            discards: self.discards.clone(),
            turn: me,
            stage: match self.step {
                Step::StartingCity => Stage::StartingCity,
                Step::Action => Stage::Action,
                Step::SecondStreetcar => Stage::SecondStreetcar,
                Step::Drawing { remaining } => Stage::Drawing { remaining },
                Step::TradeAnswers => Stage::TradeAnswers,
                Step::TradeAccept => Stage::TradeAccept,
                Step::TradeExchange => Stage::TradeExchange,
                Step::Over(r) => Stage::Over(r),
            },
            drawn: self.drawn,
            useless_discarded: self.useless_pending,
            passes: self.passes,
            turn_number: self.turn_number,
            period: self.period,
            trade: self.trade.as_ref().map(|t| TradePosition {
                offered: t.offered.clone(),
                wanted: t.wanted.clone(),
                answers: (0..self.seats)
                    .filter(|&s| s != me)
                    .filter_map(|s| Some((s, t.answers[usize::from(s)].clone()?)))
                    .collect(),
            }),
        }
    }
}

/// The trade of a position, checked against the hands and the step (A7).
fn load_trade(g: &BigCity, p: &Position) -> Result<Option<Trade>, PositionError> {
    let err = |code| PositionError::Trade { code };
    let trading = matches!(
        p.stage,
        Stage::TradeAnswers | Stage::TradeAccept | Stage::TradeExchange
    );
    let Some(t) = &p.trade else {
        return if trading {
            Err(err("missing"))
        } else {
            Ok(None)
        };
    };
    if !trading {
        return Err(err("outside_a_trade_step"));
    }
    if !p.options.trade_cards {
        return Err(err("trade_disabled"));
    }
    let held = |seat: u8, cards: &[u8], max: usize| {
        if cards.len() > max {
            return Err(err("too_many_cards"));
        }
        for (i, &c) in cards.iter().enumerate() {
            if cards[..i].contains(&c) {
                return Err(err("duplicate_cards"));
            }
            if g.hand(seat).binary_search(&c).is_err() {
                return Err(PositionError::Card {
                    card: c,
                    problem: CardProblem::NotHeld,
                });
            }
        }
        Ok(())
    };
    if t.offered.is_empty() {
        return Err(err("too_few_cards"));
    }
    held(p.turn, &t.offered, 2)?;
    if t.wanted.len() > 2
        || t.wanted.windows(2).any(|w| w[0] >= w[1])
        || t.wanted.iter().any(|n| !(1..=8).contains(n))
    {
        return Err(err("bad_wanted"));
    }
    let mut answers = vec![None; usize::from(p.seats)];
    answers[usize::from(p.turn)] = Some(Vec::new());
    for (seat, cards) in &t.answers {
        if *seat >= p.seats {
            return Err(PositionError::Seat { seat: *seat });
        }
        if *seat == p.turn {
            return Err(err("answer_from_the_offering_seat"));
        }
        held(*seat, cards, 2)?;
        answers[usize::from(*seat)] = Some(cards.clone());
    }
    let all = answers.iter().all(Option::is_some);
    if p.stage == Stage::TradeAnswers && all {
        return Err(err("every_answer_in"));
    }
    if p.stage != Stage::TradeAnswers && !all {
        return Err(err("answers_missing"));
    }
    Ok(Some(Trade {
        offered: t.offered.clone(),
        wanted: t.wanted.clone(),
        answers,
    }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn piece_names_are_the_wire_names() {
        for p in ALL_PIECES {
            let wire = serde_json::to_string(&p).unwrap();
            assert_eq!(wire, format!("\"{}\"", piece_key(p)));
        }
    }
}
