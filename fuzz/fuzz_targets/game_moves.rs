//! Every game's `apply` on arbitrary JSON moves: no panic, and a refused move
//! leaves the state equal. Input: 8 bytes of seed, 1 byte of game, 1 byte of
//! prefix length (bot moves), then lines of JSON, each `{"seat": n, "mv": ...}`.
#![no_main]

use engine::{BotLevel, Game, Setup};
use libfuzzer_sys::fuzz_target;

fn run<G: Game>(seed: u64, seats: u8, prefix: usize, lines: &str) {
    let setup = Setup {
        seats,
        seed,
        options: G::Options::default(),
        first_seat: None,
    };
    let Ok((mut game, _)) = engine::play_out::<G>(&setup, &[BotLevel::Random], seed, prefix) else {
        return;
    };
    for line in lines.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let seat = v["seat"].as_u64().unwrap_or(0) as u8 % seats;
        let Ok(mv) = serde_json::from_value::<G::Move>(v["mv"].clone()) else {
            continue;
        };
        let mut copy = game.clone();
        match copy.apply(seat, &mv) {
            Ok(_) => game = copy,
            Err(_) => assert_eq!(format!("{copy:?}"), format!("{game:?}")),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 {
        return;
    }
    let seed = u64::from_le_bytes(data[..8].try_into().expect("8 bytes"));
    let prefix = usize::from(data[9]);
    let Ok(lines) = std::str::from_utf8(&data[10..]) else {
        return;
    };
    match data[8] % 5 {
        0 => run::<big_city::BigCity>(seed, 2 + data[8] / 5 % 4, prefix, lines),
        1 => run::<my_city::MyCity>(seed, 1 + data[8] / 5 % 4, prefix, lines),
        2 => run::<big_cityz::BigCityz>(seed, 2 + data[8] / 5 % 5, prefix, lines),
        3 => run::<building_cities::BuildingCities>(seed, 1, prefix, lines),
        _ => run::<tic_tac_toe::TicTacToe>(seed, 2, prefix.min(8), lines),
    }
});
