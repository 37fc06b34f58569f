//! How many rounds the browser's Despicable Annihilation test
//! (`web/test/e2e/buildingcities-despicable.test.js`) may need: a three-seat
//! table with its rules (a 100,000 Maya starting bank, the pre-built first
//! district, prices ×10), its two humans' moves (road blocks until the second
//! district is for sale in round 1 and its purchase, then a road block a turn;
//! the host plays his first challenge on seat 1, every other hand is kept; no
//! bid) and a greedy bot in seat 2. For each seed: the round in which the host
//! first may play a challenge, the round in which a human first may bid in a
//! legendary auction, and the later of the two, which ends the test.
//!
//! `cargo run --release -p building-cities --example despicable_rounds -- [games]`

use building_cities::{BuildingCities, Move, Options, Phase};
use engine::{BotLevel, Game, GameRng, Seat, Setup, Viewer};

const OPTIONS: &str = r#"{"mode": "despicable", "objective": "obj_labor_city",
    "variant": {"start_bank": 100000, "prebuilt_first_district": true, "price_percent": 1000}}"#;
const BOT: Seat = 2;
const MAX_ROUNDS: u32 = 80;

/// The move a human of the test makes, or `None` when it has none to make.
fn human_move(g: &BuildingCities, seat: Seat, played: &mut bool) -> Option<Move> {
    let legal = g.legal_moves(seat);
    let find = |f: &dyn Fn(&Move) -> bool| legal.iter().find(|m| f(m)).cloned();
    let view = g.view(Viewer::Seat(seat));
    let me = &view.players[usize::from(seat)];
    match view.phase {
        Phase::Building => {
            let road = || find(&|m| matches!(m, Move::Road { .. }));
            if me.city.districts.len() < 2 {
                find(&|m| matches!(m, Move::BuyDistrict { .. }))
                    .or_else(road)
                    .or_else(|| find(&|m| matches!(m, Move::EndTurn {})))
            } else if me.spent == 0 {
                road().or_else(|| legal.first().cloned())
            } else {
                find(&|m| matches!(m, Move::EndTurn {})).or_else(road)
            }
        }
        Phase::PlayChallenge { .. } if seat == 0 && !*played => {
            *played = true;
            find(&|m| matches!(m, Move::PlayChallenge { target: 1, .. }))
        }
        Phase::PlayChallenge { .. } => find(&|m| matches!(m, Move::KeepChallenges {}))
            .or_else(|| find(&|m| matches!(m, Move::PlayChallenge { .. }))),
        Phase::Auction { .. } => find(&|m| matches!(m, Move::PassAuction {})),
        _ => legal.first().cloned(),
    }
}

/// The rounds of one game: the host's first play, a human's first chance to bid.
fn rounds(seed: u64) -> (Option<u32>, Option<u32>) {
    let options: Options = serde_json::from_str(OPTIONS).expect("options");
    let setup = Setup {
        seats: 3,
        seed,
        options,
        first_seat: None,
    };
    let mut g = BuildingCities::new(&setup).expect("setup");
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let (mut play, mut bid, mut played) = (None, None, false);
    while g.outcome().is_none() && g.round() <= MAX_ROUNDS && (play.is_none() || bid.is_none()) {
        let view = g.view(Viewer::Spectator);
        let mut moved = false;
        for seat in g.awaiting().seats {
            if seat != BOT {
                match view.phase {
                    Phase::PlayChallenge { .. } if seat == 0 => play = play.or(Some(g.round())),
                    Phase::Auction { high_bidder, .. } if high_bidder != seat => {
                        bid = bid.or(Some(g.round()))
                    }
                    _ => {}
                }
            }
            let mv = if seat == BOT {
                g.bot_move(seat, BotLevel::Greedy, &mut rng)
            } else {
                human_move(&g, seat, &mut played)
            };
            if let Some(mv) = mv {
                g.apply(seat, &mv).expect("a legal move");
                moved = true;
                break;
            }
        }
        if !moved {
            g.timeout();
        }
    }
    (play, bid)
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let mut play = Vec::new();
    let mut bid = Vec::new();
    let mut both = Vec::new();
    for seed in 0..games {
        let (p, b) = rounds(seed);
        let (p, b) = (p.unwrap_or(u32::MAX), b.unwrap_or(u32::MAX));
        play.push(p);
        bid.push(b);
        both.push(p.max(b));
    }
    for (name, mut v) in [("host plays", play), ("human may bid", bid), ("both", both)] {
        v.sort_unstable();
        let at = |q: usize| v[(v.len() * q / 100).min(v.len() - 1)];
        let never = v.iter().filter(|r| **r == u32::MAX).count();
        println!(
            "{name}: median round {}, 90% by {}, 99% by {}, last {} ({} games, {never} never)",
            at(50),
            at(90),
            at(99),
            v[v.len() - 1],
            v.len()
        );
    }
}
