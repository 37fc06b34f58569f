//! Computer players. A bot's knowledge is a model, not the data: for each
//! statement about the card in play it "knows" the answer with a probability set
//! by its level ([`knowledge`]), drawn from the bot's own rng and the card;
//! otherwise it guesses from what is public (the country, hence the continent and
//! the side of the road). It places where its expected points are best and
//! objects when it believes a placement is wrong, keeping its last veto marker
//! for placements worth 4 or more unless it is nearly sure.

use crate::board::{self, BOARDS, OBJECTION, RISK_RIGHT, RISK_WRONG, SQUARES};
use crate::cities::{City, Continent, Statement};
use crate::game::BigCityz;
use crate::wire::Move;
use engine::{BotLevel, GameRng, Seat};

/// The chance that a bot of this level knows a fact: the weaker (`Random`) 60 %,
/// the stronger (`Greedy`) 90 %.
pub fn knowledge(level: BotLevel) -> f64 {
    match level {
        BotLevel::Random => 0.6,
        BotLevel::Greedy => 0.9,
    }
}

/// How sure a bot is of what it knows.
const SURE: f64 = 0.97;
/// Expected cost of an objection against a wrong placement, per point of doubt.
const EXPOSURE: f64 = 1.5;

/// Countries driving on the left: public knowledge a bot always has.
const LEFT: &[&str] = &[
    "GB", "IE", "MT", "CY", "JP", "IN", "PK", "BD", "LK", "NP", "TH", "MY", "SG", "ID", "HK", "MO",
    "AU", "NZ", "ZA", "KE", "TZ", "UG", "ZM", "ZW", "MZ", "BW", "NA", "MU", "JM", "TT", "BS", "BB",
    "GY", "SR", "FJ", "PG", "BN", "BT", "TL", "LS", "SZ", "MW",
];

/// A bot's beliefs about one card: for each statement, the chance it holds.
struct Beliefs([f64; 12]);

impl Beliefs {
    fn new(city: &City, level: BotLevel, salt: u64, card: u16) -> Self {
        let mut p = [0.0; 12];
        for (k, st) in Statement::ALL.into_iter().enumerate() {
            let roll = unit(mix(salt ^ (u64::from(card) << 16) ^ k as u64));
            p[k] = if roll < knowledge(level) {
                if st.holds(city) { SURE } else { 1.0 - SURE }
            } else {
                prior(st, city)
            };
        }
        Beliefs(p)
    }

    fn holds(&self, st: Statement) -> f64 {
        self.0[st as usize]
    }

    /// The chance that a card on square `i` is right.
    fn right(&self, boards: &[Statement; BOARDS], i: usize) -> f64 {
        let green = board::green(i);
        board::boards_of(i)
            .into_iter()
            .map(|b| {
                let p = self.holds(boards[b]);
                if green { p } else { 1.0 - p }
            })
            .product()
    }
}

/// What a bot guesses from the public face of the card (country, continent).
fn prior(st: Statement, city: &City) -> f64 {
    use Continent::*;
    let c = city.continent;
    match st {
        Statement::EuropeOrAsia => {
            if matches!(c, Europe | Asia) {
                SURE
            } else {
                1.0 - SURE
            }
        }
        Statement::DrivesOnTheLeft => {
            if LEFT.contains(&city.country) {
                0.95
            } else {
                0.05
            }
        }
        Statement::SouthOfEquator => match c {
            Europe | NorthAmerica => 0.02,
            Asia => 0.08,
            Africa => 0.3,
            SouthAmerica => 0.8,
            Oceania => 0.9,
        },
        Statement::FiveHoursFromBerlin => match c {
            Europe => 0.02,
            Africa => 0.05,
            Asia => 0.55,
            NorthAmerica | SouthAmerica | Oceania => 0.95,
        },
        Statement::FoundedBefore1700 => match c {
            Europe => 0.9,
            Asia => 0.8,
            Africa => 0.5,
            SouthAmerica => 0.5,
            NorthAmerica => 0.3,
            Oceania => 0.05,
        },
        Statement::Mean11COrMore => match c {
            Europe => 0.35,
            NorthAmerica => 0.5,
            Asia => 0.7,
            Africa | SouthAmerica | Oceania => 0.9,
        },
        Statement::Above708m => match c {
            SouthAmerica | Africa => 0.25,
            _ => 0.1,
        },
        Statement::InternationalAirport => 0.75,
        Statement::MillionInhabitants => 0.35,
        Statement::LargerThan310Km2 => 0.4,
        Statement::OnTheSeaCoast => 0.4,
        Statement::Capital => 0.3,
    }
}

/// splitmix64's finalizer: spreads a seed over all bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn unit(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// Expected points of a placement that is right with chance `p`.
fn expected(p: f64, win: i32, loss: i32, exposed: bool) -> f64 {
    let doubt = 1.0 - p;
    p * f64::from(win) + doubt * f64::from(loss) - if exposed { doubt * EXPOSURE } else { 0.0 }
}

pub(crate) fn bot_move(
    game: &BigCityz,
    seat: Seat,
    level: BotLevel,
    rng: &mut GameRng,
) -> Option<Move> {
    let legal = game.legal_moves(seat);
    if legal.is_empty() {
        return None;
    }
    let card = game.card_in_play()?;
    let beliefs = Beliefs::new(game.city(card), level, rng.next_u64(), card);
    if let Some(w) = &game.window {
        let (p, stake) = match w.target {
            Some(i) => (beliefs.right(&game.boards, i), board::value(i)),
            None => (no_free_square_chance(game, &beliefs), RISK_RIGHT),
        };
        let vetoes = game.vetoes[usize::from(seat)];
        let object =
            f64::from(OBJECTION) * (1.0 - 2.0 * p) > 0.6 && (vetoes > 1 || stake >= 4 || p < 0.1);
        return Some(if object && legal.contains(&Move::Object {}) {
            Move::Object {}
        } else {
            Move::Decline {}
        });
    }
    let exposed = (0..game.seats()).any(|s| s != seat && game.vetoes[usize::from(s)] > 0);
    let mut best: Option<(f64, Move)> = None;
    let mut consider = |value: f64, mv: Move| {
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, mv));
        }
    };
    for mv in &legal {
        match *mv {
            Move::Place { square } => {
                let i = board::index(square).expect("legal");
                let p = beliefs.right(&game.boards, i);
                let loss = if i < 16 { 0 } else { RISK_WRONG };
                consider(expected(p, board::value(i), loss, exposed), *mv);
            }
            Move::NoFreeSquare {} => {
                let p = no_free_square_chance(game, &beliefs);
                consider(expected(p, RISK_RIGHT, RISK_WRONG, exposed), *mv);
            }
            Move::Replace { .. } => {
                consider(replace_value(game, &beliefs, exposed), *mv);
            }
            Move::Object {} | Move::Decline {} => {}
        }
    }
    best.map(|(_, mv)| mv)
}

/// The chance that every free square is wrong (B6), taking the squares as independent.
fn no_free_square_chance(game: &BigCityz, beliefs: &Beliefs) -> f64 {
    (0..SQUARES)
        .filter(|&i| game.squares[i].is_none())
        .map(|i| 1.0 - beliefs.right(&game.boards, i))
        .product()
}

/// Expected points of replacing a board: the best 4-point square of a statement
/// from the pile. The pile's content is public (neither on a board nor discarded,
/// or the discards once the pile is empty); the card's facts for it are guessed.
fn replace_value(game: &BigCityz, beliefs: &Beliefs, exposed: bool) -> f64 {
    let candidates: Vec<Statement> = if game.statement_pile.is_empty() {
        game.statement_discards.clone()
    } else {
        Statement::ALL
            .into_iter()
            .filter(|s| !game.boards.contains(s) && !game.statement_discards.contains(s))
            .collect()
    };
    if candidates.is_empty() {
        return f64::MIN;
    }
    let total: f64 = candidates
        .iter()
        .map(|&s| {
            let p = beliefs.holds(s);
            expected(p.max(1.0 - p), 4, 0, exposed)
        })
        .sum();
    // Replacing also clears cards the others could have used: a small discount.
    total / candidates.len() as f64 - 0.25
}
