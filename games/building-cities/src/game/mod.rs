//! The state machine (rulings B1, B4, B5, B7, B8, E1-E8, W1-W4).
//!
//! A round (W4): every playing seat builds at the same time (`Stage::Building`;
//! each seat's moves apply to his own city at once), `end_turn` marks him done;
//! then, in seat order, each resolves his end of turn in steps
//! ([`turn`]): event (its trade included) and the choices it leaves open, turn
//! marker, district value, challenge and the choices it leaves open (a B5
//! demand), loan, objective; then the Despicable auction, the E3 forced
//! purchase and the Despicable challenge play, each a decision that stops the
//! resolution.
//!
//! Files: `build` (building moves), `value` (counts, requirements, limits,
//! priorities, district value, objective), `turn` (end of turn and rounds),
//! `cards` (effects), `choice` (choices a card leaves open), `duel` (Despicable decisions), `view`.

mod build;
mod cards;
mod choice;
mod duel;
mod listing;
mod play;
mod preview;
#[cfg(feature = "testing")]
mod testing;
mod turn;
mod value;
mod view;

pub use listing::OTHER;

use crate::city::{City, CityRules, protected};
use crate::handbook::custom::CustomError;
use crate::handbook::{Handbook, Variant};
pub(crate) use crate::wire::Event;
use crate::wire::{EndReason, EventKind, Mode, Options, Status};
use engine::{Awaiting, GameRng, Outcome, Seat, Setup, SetupError};
use std::collections::VecDeque;
use std::sync::Arc;

/// A card of the challenge deck: one of its own, a Task Force, or a legendary
/// event card shuffled in (E7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chal {
    Card(usize),
    TaskForce,
    Event(usize),
}

/// A metro station and whether it found its pair (B8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Metro {
    pub(crate) tile: u32,
    pub(crate) turn: u32,
    pub(crate) paired: bool,
}

/// A legendary building this seat may build (E7) and the card that offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Offer {
    pub(crate) building: String,
    pub(crate) card: Chal,
    /// Won at auction: already paid.
    pub(crate) paid: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) city: City,
    pub(crate) bank: i32,
    pub(crate) status: Status,
    pub(crate) loan_due: Option<u32>,
    pub(crate) loan_used: bool,
    pub(crate) moves_left: u32,
    pub(crate) spent: u32,
    /// The bank when the building phase started (B7).
    pub(crate) phase_bank: i32,
    pub(crate) done: bool,
    pub(crate) inactive: u32,
    /// E8: levels of (power, water) per district; 1 once built.
    pub(crate) grid: [[u8; 2]; 6],
    pub(crate) goods: Vec<String>,
    pub(crate) task_forces: u32,
    pub(crate) hand: Vec<Chal>,
    pub(crate) offers: Vec<Offer>,
    pub(crate) metros: Vec<Metro>,
    pub(crate) skip: u32,
    pub(crate) moves_pct: Option<(u32, u32)>,
    pub(crate) value_pct: Option<(u32, u32)>,
    pub(crate) penalties: [u32; 6],
    /// Card demands (B5 through a card): a target and the count it must reach.
    pub(crate) demands: Vec<(crate::handbook::model::Target, u32)>,
    pub(crate) district_value: i32,
    pub(crate) frozen_round: Option<u32>,
    /// Completed the objective at this resolution index (W2 ties).
    pub(crate) finish_order: Option<u32>,
    /// E5: turns counted on the Challenge track since the 2nd district.
    pub(crate) challenge_marker: u32,
    /// E3: must buy a district at the end of this turn.
    pub(crate) must_buy: bool,
    /// W2: completed a race objective this round.
    pub(crate) raced: bool,
}

/// Whose decision it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Building,
    Forced(Seat),
    Play(Seat),
    Prompt {
        by: Seat,
        target: Seat,
        card: Chal,
    },
    Auction(duel::Auction),
    /// A choice a card leaves to a player (E5, E6).
    Choose(choice::Pending),
    Over,
}

/// A game of Building Cities.
#[derive(Clone, Debug)]
pub struct BuildingCities {
    pub(crate) hb: Arc<Handbook>,
    pub(crate) mode: Mode,
    pub(crate) rng: GameRng,
    pub(crate) objective: usize,
    pub(crate) players: Vec<Player>,
    pub(crate) events: VecDeque<usize>,
    pub(crate) challenges: VecDeque<Chal>,
    pub(crate) round: u32,
    pub(crate) stage: Stage,
    pub(crate) period: u64,
    /// The seat whose end of turn is being resolved and its step.
    pub(crate) cursor: usize,
    pub(crate) step: u8,
    pub(crate) last_event: Option<usize>,
    pub(crate) last_challenge: Option<String>,
    pub(crate) first_completion: Option<u32>,
    pub(crate) finishers: u32,
    pub(crate) trade_turn: usize,
    /// Choices queued by card effects, opened in order (E5, E6).
    pub(crate) pending: VecDeque<choice::Pending>,
    pub(crate) end: Option<EndReason>,
    pub(crate) winners: Vec<Seat>,
    pub(crate) options: Options,
}

/// Turns a [`crate::handbook::VariantError`] or an option into a setup error.
fn range(name: &'static str, min: u64, max: u64) -> SetupError {
    SetupError::OptionRange { name, min, max }
}

/// A refused custom card as a setup error (`option_invalid`).
fn invalid(e: CustomError) -> SetupError {
    SetupError::OptionInvalid {
        name: e.deck.option(),
        item: e.item,
        problem: e.code(),
        limit: e.limit(),
    }
}

/// M4: the room's own layout, checked (`option_invalid` named `protected_layout`).
fn own_layout(o: &Options, hb: &Handbook) -> Result<(), SetupError> {
    let refuse = |problem, item, limit: Option<u32>| SetupError::OptionInvalid {
        name: "protected_layout",
        item,
        problem,
        limit: limit.map(u64::from),
    };
    if o.protected_layout.is_empty() {
        return Ok(());
    }
    // The rulebook lets Despicable Annihilation rooms lay out their own.
    if o.mode != Mode::Despicable {
        return Err(refuse("mode", None, None));
    }
    if o.protected_areas {
        return Err(refuse("exclusive", None, None));
    }
    protected::check_layout(&o.protected_layout, hb.economy.protected_blocks_max)
        .map_err(|e| refuse(e.code(), e.item(), e.limit()))
}

impl BuildingCities {
    /// Starts a game (E1, M4, W3, H).
    pub fn start(setup: &Setup<Options>) -> Result<Self, SetupError> {
        let o = &setup.options;
        let (min, max) = match o.mode {
            Mode::Solo => (1, 1),
            Mode::FairPlay | Mode::Despicable => (2, 4),
        };
        if !(min..=max).contains(&setup.seats) {
            return Err(SetupError::Seats { min, max });
        }
        if setup.first_seat.is_some_and(|s| s >= setup.seats) {
            return Err(SetupError::FirstSeat);
        }
        if !(1..=8).contains(&o.max_intersections) {
            return Err(range("max_intersections", 1, 8));
        }
        for (name, ms) in [
            ("task_force_ms", o.task_force_ms),
            ("auction_ms", o.auction_ms),
        ] {
            if !(1_000..=300_000).contains(&ms) {
                return Err(range(name, 1_000, 300_000));
            }
        }
        if o.variant.check().is_err() {
            return Err(range(
                "variant",
                u64::from(*Variant::PERCENT.start()),
                u64::from(*Variant::PERCENT.end()),
            ));
        }
        let hb = Handbook::with_variant(&o.variant)
            .with_custom(&o.custom_objectives, &o.custom_events, &o.custom_challenges)
            .map_err(invalid)?;
        own_layout(o, &hb)?;
        let mut rng = GameRng::new(setup.seed);
        let mut events = Vec::new();
        // E1: the objective first; blank cards the room wrote are cards (H).
        let playable: Vec<usize> = (0..hb.objectives.len())
            .filter(|&i| !hb.objectives[i].blank)
            .collect();
        let objective = match &o.objective {
            Some(id) => hb
                .objectives
                .iter()
                .position(|x| &x.id == id && !x.blank)
                .ok_or(range("objective", 0, playable.len() as u64))?,
            None => playable[rng.below(playable.len())],
        };
        events.push(EventKind::ObjectiveDrawn {
            objective: hb.objectives[objective].id.clone(),
        });
        let face = o.protected_areas.then(|| rng.below(6) as u8 + 1);
        let rules = CityRules {
            max_intersections: o.max_intersections,
            ..CityRules::default()
        };
        let mut event_deck = Vec::new();
        for (i, c) in hb.events.iter().enumerate() {
            if !matches!(c.effect, crate::handbook::cards::Effect::Blank) {
                event_deck.extend(std::iter::repeat_n(i, c.copies as usize));
            }
        }
        rng.shuffle(&mut event_deck);
        let mut chal = Vec::new();
        for (i, c) in hb.challenges.iter().enumerate() {
            if !matches!(c.effect, crate::handbook::cards::Effect::Blank) {
                chal.extend(std::iter::repeat_n(Chal::Card(i), c.copies as usize));
            }
        }
        let tf = hb.task_forces(usize::from(setup.seats));
        chal.extend(std::iter::repeat_n(Chal::TaskForce, tf as usize));
        rng.shuffle(&mut chal);
        let start_bank = hb.economy.start_bank as i32;
        let city = match face {
            Some(_) => City::with_layout(rules, face),
            None => City::new(rules, &o.protected_layout),
        };
        let player = Player {
            city,
            bank: start_bank,
            status: Status::Playing,
            loan_due: None,
            loan_used: false,
            moves_left: 0,
            spent: 0,
            phase_bank: start_bank,
            done: false,
            inactive: 0,
            grid: [[0; 2]; 6],
            goods: Vec::new(),
            task_forces: 0,
            hand: Vec::new(),
            offers: Vec::new(),
            metros: Vec::new(),
            skip: 0,
            moves_pct: None,
            value_pct: None,
            penalties: [0; 6],
            demands: Vec::new(),
            district_value: 0,
            frozen_round: None,
            finish_order: None,
            challenge_marker: 0,
            must_buy: false,
            raced: false,
        };
        let mut game = BuildingCities {
            hb: Arc::new(hb),
            mode: o.mode,
            rng,
            objective,
            players: vec![player; usize::from(setup.seats)],
            events: event_deck.into(),
            challenges: chal.into(),
            round: 1,
            stage: Stage::Building,
            period: 0,
            cursor: 0,
            step: 0,
            last_event: None,
            last_challenge: None,
            first_completion: None,
            finishers: 0,
            trade_turn: 0,
            pending: VecDeque::new(),
            end: None,
            winners: Vec::new(),
            options: o.clone(),
        };
        if let Some(face) = face {
            events.push(EventKind::ProtectedLayout { face });
        }
        if game.hb.economy.prebuilt_first_district {
            for seat in 0..game.players.len() {
                game.prebuild(seat);
            }
        }
        game.start_building();
        Ok(game)
    }

    pub fn seats(&self) -> u8 {
        self.players.len() as u8
    }

    pub fn handbook(&self) -> &Handbook {
        &self.hb
    }

    /// The current round (W4), from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// A seat's bank.
    pub fn bank(&self, seat: Seat) -> i32 {
        self.players[usize::from(seat)].bank
    }

    /// A seat's city.
    pub fn city(&self, seat: Seat) -> &City {
        &self.players[usize::from(seat)].city
    }

    /// The seat's total district value now: what his end of turn would collect
    /// (E2), before a card's percentage and the turn-track multiplier.
    pub fn district_value_now(&self, seat: Seat) -> i32 {
        self.district_value(usize::from(seat))
    }

    /// Moves left in the seat's building phase.
    pub fn moves_left(&self, seat: Seat) -> u32 {
        self.players[usize::from(seat)].moves_left
    }

    /// Whether a seat still plays.
    pub(crate) fn playing(&self, seat: usize) -> bool {
        self.players[seat].status == Status::Playing && self.players[seat].frozen_round.is_none()
    }

    pub(crate) fn awaiting(&self) -> Awaiting {
        let mut a = Awaiting::nobody(self.period);
        match &self.stage {
            Stage::Building => {
                a.seats = (0..self.players.len())
                    .filter(|&s| self.playing(s) && !self.players[s].done)
                    .map(|s| s as Seat)
                    .collect();
            }
            Stage::Forced(s) | Stage::Play(s) => a.seats = vec![*s],
            Stage::Prompt { target, .. } => {
                a.seats = vec![*target];
                a.window_ms = Some(u64::from(self.options.task_force_ms));
            }
            Stage::Auction(au) => {
                a.seats = au.bidders.clone();
                a.window_ms = Some(u64::from(self.options.auction_ms));
            }
            Stage::Choose(p) => a.seats = vec![p.chooser()],
            Stage::Over => {}
        }
        a
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.end.as_ref()?;
        Some(Outcome {
            scores: self.players.iter().map(|p| p.bank).collect(),
            winners: self.winners.clone(),
        })
    }

    /// Adds `amount` to a bank with its log line (Maya conservation).
    pub(crate) fn pay(
        &mut self,
        seat: usize,
        amount: i32,
        reason: crate::wire::BankReason,
        ev: &mut Vec<Event>,
    ) {
        if amount == 0 {
            return;
        }
        let p = &mut self.players[seat];
        p.bank = p.bank.saturating_add(amount);
        ev.push(
            EventKind::Bank {
                seat: seat as u8,
                amount,
                reason,
                bank: p.bank,
            }
            .into(),
        );
    }

    /// Ends the game.
    pub(crate) fn finish(&mut self, reason: EndReason, winners: Vec<Seat>, ev: &mut Vec<Event>) {
        for (s, p) in self.players.iter_mut().enumerate() {
            if p.status == Status::Playing {
                p.status = if winners.contains(&(s as Seat)) {
                    Status::Won
                } else {
                    Status::Lost
                };
            }
        }
        self.end = Some(reason);
        self.winners = winners.clone();
        self.stage = Stage::Over;
        self.period += 1;
        ev.push(EventKind::GameOver { reason, winners }.into());
    }
}
