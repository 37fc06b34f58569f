//! Writes the Building Cities positions of the browser's board tests
//! (`web/test/fixtures/buildingcities-*.json`) and the handbook as the server
//! serves it (`buildingcities-handbook.json`, the body of
//! `/api/games/building-cities/reference`).
//!
//! `cargo run -p building-cities --example building_cities_fixtures [out_dir]`
//!
//! Every position is a real game of the rules crate played by the greedy bot
//! from a fixed seed. To reach in a few rounds what takes dozens, the test-setup
//! API tops up banks and puts a chosen card on top of a deck; one seat may
//! follow a scripted policy instead of the bot (keep its challenges, refuse
//! nothing). Each file holds, for its `seat`:
//!
//! ```json
//! {"seat": 0, "awaiting": [0], "window_ms": null, "options": {...},
//!  "view": {...}, "views": [{...}, ...], "spectator": {...}, "legal": [...], "outcome": null}
//! ```
//!
//! `view` is `view(Viewer::Seat(seat))`, `views` every seat's view, `spectator` the
//! public view, `legal` `legal_moves(seat)`.

use building_cities::{Block, BuildingCities, Mode, Move, Options, Phase};
use engine::{BotLevel, Entry, Game, GameRng, Seat, Setup, Viewer};
use serde_json::{Value, json};

/// One game being played towards a position.
struct Run {
    game: BuildingCities,
    options: Options,
    rng: GameRng,
    steps: usize,
}

impl Run {
    fn new(mode: Mode, seats: u8, objective: &str, seed: u64, protected: bool) -> Run {
        let options = Options {
            mode,
            objective: Some(objective.to_owned()),
            protected_areas: protected,
            ..Options::default()
        };
        let setup = Setup {
            seats,
            seed,
            options: options.clone(),
            first_seat: Some(0),
        };
        let game = BuildingCities::new(&setup).unwrap_or_else(|e| panic!("setup: {e:?}"));
        Run {
            game,
            options,
            rng: GameRng::new(seed ^ 0xf1c5),
            steps: 0,
        }
    }

    /// One entry: the first awaited seat's move (`policy` first, else the
    /// greedy bot), or a timeout when nobody has one.
    fn step(&mut self, policy: &dyn Fn(&BuildingCities, Seat) -> Option<Move>) {
        let awaiting = self.game.awaiting();
        let seat = awaiting.seats.first().copied();
        let entry = match seat.and_then(|s| {
            policy(&self.game, s)
                .or_else(|| self.game.bot_move(s, BotLevel::Greedy, &mut self.rng))
                .map(|mv| (s, mv))
        }) {
            Some((seat, mv)) => Entry::Move { seat, mv },
            None => Entry::Timeout {
                period: awaiting.period,
            },
        };
        engine::apply_entry(&mut self.game, &entry)
            .unwrap_or_else(|e| panic!("bot move refused: {e:?}"));
        self.steps += 1;
    }

    /// Plays until `found`; panics after `max` entries or at the end.
    fn until(
        &mut self,
        max: usize,
        policy: &dyn Fn(&BuildingCities, Seat) -> Option<Move>,
        before: &mut dyn FnMut(&mut BuildingCities),
        found: &dyn Fn(&BuildingCities) -> bool,
    ) {
        for _ in 0..max {
            if found(&self.game) {
                return;
            }
            assert!(
                self.game.outcome().is_none(),
                "the game ended first: {:?}",
                (
                    self.game.round(),
                    self.game
                        .view(Viewer::Spectator)
                        .players
                        .iter()
                        .map(|p| (
                            p.status,
                            p.bank,
                            p.city.districts.clone(),
                            p.city.tiles.len(),
                            p.city.roads.len()
                        ))
                        .collect::<Vec<_>>()
                )
            );
            before(&mut self.game);
            self.step(policy);
        }
        panic!("not found within {max} entries");
    }

    fn position(&self, seat: Seat) -> Value {
        let g = &self.game;
        let awaiting = g.awaiting();
        json!({
            "seat": seat,
            "awaiting": awaiting.seats,
            "window_ms": awaiting.window_ms,
            "options": self.options,
            "view": g.view(Viewer::Seat(seat)),
            "views": (0..g.seats()).map(|s| g.view(Viewer::Seat(s))).collect::<Vec<_>>(),
            "spectator": g.view(Viewer::Spectator),
            "legal": g.legal_moves(seat),
            "outcome": g.outcome(),
        })
    }
}

fn no_policy(_: &BuildingCities, _: Seat) -> Option<Move> {
    None
}

/// Seat 0 keeps its challenges (so its hand grows); the others follow the bot.
fn seat0_keeps(g: &BuildingCities, seat: Seat) -> Option<Move> {
    let phase = g.view(Viewer::Spectator).phase;
    (seat == 0 && matches!(phase, Phase::PlayChallenge { seat: 0 }))
        .then(|| {
            g.legal_moves(0)
                .into_iter()
                .find(|m| matches!(m, Move::KeepChallenges {}))
        })
        .flatten()
}

/// The road network of seat 0's mid-game city: down column 3 from the junction
/// through D1 and D4, along row 3 through D2 and D3, and down column 11 through
/// D2 and D5 (one T junction per district), leaving building rows on both sides.
fn planned_roads() -> Vec<Block> {
    let down = (0..16).map(|y| Block::new(3, y));
    let east = (4..24).map(|x| Block::new(x, 3));
    let south = (4..16).map(|y| Block::new(11, y));
    down.chain(east).chain(south).collect()
}

/// A builder in a hurry for seat 0 in a building phase: lays the planned roads
/// first, buys a district when it may, lets the bot build, and where the bot
/// would end its turn builds on with a tile picked by the die (so the city fills
/// with many kinds of tiles).
fn seat0_builds(
    rng: std::cell::RefCell<GameRng>,
) -> impl Fn(&BuildingCities, Seat) -> Option<Move> {
    let plan = planned_roads();
    move |g: &BuildingCities, seat: Seat| {
        if seat != 0 || g.view(Viewer::Spectator).phase != Phase::Building {
            return None;
        }
        let moves = g.legal_moves(0);
        let planned = plan.iter().find_map(|b| {
            moves
                .iter()
                .find(|m| matches!(m, Move::Road { block } if block == b))
        });
        if let Some(mv) =
            planned.or_else(|| moves.iter().find(|m| matches!(m, Move::BuyDistrict { .. })))
        {
            return Some(mv.clone());
        }
        let mut rng = rng.borrow_mut();
        let bot = g.bot_move(0, BotLevel::Greedy, &mut rng)?;
        if !matches!(bot, Move::EndTurn {} | Move::Road { .. }) {
            return Some(bot);
        }
        let builds: Vec<&Move> = moves
            .iter()
            .filter(|m| matches!(m, Move::Tile { .. } | Move::Truck { .. }))
            .collect();
        rng.choose(&builds).map(|m| (*m).clone()).or(Some(bot))
    }
}

/// Every playing seat holds at least `bank` at the start of a building phase.
fn top_up(bank: i32) -> impl FnMut(&mut BuildingCities) {
    move |g: &mut BuildingCities| {
        if g.view(Viewer::Spectator).phase != Phase::Building {
            return;
        }
        for s in 0..g.seats() {
            if g.bank(s) < bank && g.moves_left(s) == 10 {
                g.test_set_bank(s, bank);
            }
        }
    }
}

fn building_for(g: &BuildingCities, seat: Seat) -> bool {
    g.view(Viewer::Spectator).phase == Phase::Building && g.awaiting().seats.contains(&seat)
}

/// Solo, the first decision: an empty D1, 200 Maya.
fn solo_start() -> Value {
    Run::new(Mode::Solo, 1, "obj_tutorial", 1, false).position(0)
}

/// Solo, a city of three districts with roads, tiles and trucks, protected
/// areas, at the start of a building phase.
fn solo_mid() -> Value {
    let mut run = Run::new(Mode::Solo, 1, "obj_twelve_offices", 3, true);
    let builds = seat0_builds(std::cell::RefCell::new(GameRng::new(3)));
    run.until(4000, &builds, &mut top_up(2500), &|g| {
        let city = g.city(0);
        building_for(g, 0)
            && g.moves_left(0) == 10
            && city.districts().len() >= 3
            && city.to_data().tiles.len() >= 36
            && g.legal_moves(0)
                .iter()
                .any(|m| matches!(m, Move::Tile { building, .. } if building != "house"))
            && !city.to_data().trucks.is_empty()
    });
    run.position(0)
}

/// Despicable, three seats: seat 0 may play a challenge from a hand of two or
/// more face-down cards.
fn despicable_hand() -> Value {
    let mut run = Run::new(Mode::Despicable, 3, "obj_twelve_offices", 5, false);
    run.until(6000, &seat0_keeps, &mut top_up(2500), &|g| {
        g.view(Viewer::Spectator).phase == Phase::PlayChallenge { seat: 0 }
            && g.view(Viewer::Seat(0)).hand.is_some_and(|h| h.len() >= 2)
    });
    run.position(0)
}

/// Despicable: a challenge played on seat 0, who holds a Task Force.
fn task_force() -> Value {
    let mut run = Run::new(Mode::Despicable, 3, "obj_twelve_offices", 5, false);
    let mut before = |g: &mut BuildingCities| {
        top_up(2500)(g);
        // Seat 0 the richest, so the bots aim at it; Task Forces come to it.
        if g.view(Viewer::Spectator).phase == Phase::Building && g.bank(0) < 6000 {
            g.test_set_bank(0, 6000);
        }
        let holds_task_force = g
            .view(Viewer::Seat(0))
            .hand
            .is_some_and(|h| h.iter().any(|c| c == "ch_task_force"));
        if !holds_task_force {
            g.test_stack_challenge("ch_task_force");
        } else {
            g.test_stack_challenge("ch_lawsuit");
        }
    };
    run.until(6000, &seat0_keeps, &mut before, &|g| {
        matches!(
            g.view(Viewer::Spectator).phase,
            Phase::TaskForcePrompt { target: 0, .. }
        )
    });
    run.position(0)
}

/// Despicable: seat 1 drew a legendary offer and seat 0 may bid.
fn auction() -> Value {
    let mut run = Run::new(Mode::Despicable, 3, "obj_twelve_offices", 5, false);
    let mut before = |g: &mut BuildingCities| {
        top_up(2500)(g);
        let two = (0..g.seats()).all(|s| g.city(s).districts().len() >= 2);
        if two && g.view(Viewer::Spectator).phase == Phase::Building && g.awaiting().seats == [1] {
            // Seat 0 has ended its turn: the next event card is seat 0's; seat
            // 1's comes after it.
            g.test_stack_event("ev_legendary_symbol_of_freedom");
            g.test_stack_event("ev_calm");
        }
    };
    run.until(8000, &no_policy, &mut before, &|g| {
        matches!(
            g.view(Viewer::Spectator).phase,
            Phase::Auction { drawer: 1, .. }
        ) && g.awaiting().seats.contains(&0)
    });
    run.position(0)
}

/// Fair Play: a card's demand that seat 0 could build waits for its answer.
fn demand() -> Value {
    let mut run = Run::new(Mode::FairPlay, 2, "obj_twelve_offices", 8, false);
    let mut before = |g: &mut BuildingCities| {
        top_up(2500)(g);
        g.test_stack_challenge("ch_hotel_wanted");
    };
    run.until(8000, &no_policy, &mut before, &|g| {
        matches!(
            g.view(Viewer::Spectator).phase,
            Phase::Demand { seat: 0, .. }
        )
    });
    run.position(0)
}

/// Fair Play, two seats: the end, someone having completed the objective.
fn end() -> Value {
    for seed in 0..200 {
        let mut run = Run::new(Mode::FairPlay, 2, "obj_three_hotels", seed, false);
        while run.game.outcome().is_none() && run.steps < 20_000 {
            run.step(&no_policy);
        }
        let view = run.game.view(Viewer::Spectator);
        if run.game.outcome().is_some() && !view.winners.is_empty() && view.round > 10 {
            eprintln!("end: seed {seed}");
            return run.position(0);
        }
    }
    panic!("no seed below 200 ends with a winner");
}

/// Plays a game to one position and dumps it.
type Position = fn() -> Value;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "web/test/fixtures".to_owned());
    let handbook = serde_json::to_string(building_cities::handbook::Handbook::standard())?;
    std::fs::write(format!("{out}/buildingcities-handbook.json"), handbook)?;
    let positions: [(&str, Position); 7] = [
        ("solo-start", solo_start),
        ("solo-mid", solo_mid),
        ("despicable-hand", despicable_hand),
        ("taskforce", task_force),
        ("auction", auction),
        ("demand", demand),
        ("end", end),
    ];
    for (name, make) in positions {
        let doc = make();
        let path = format!("{out}/buildingcities-{name}.json");
        std::fs::write(&path, serde_json::to_string(&doc)?)?;
        eprintln!("{path}: {} bytes", std::fs::metadata(&path)?.len());
    }
    Ok(())
}
