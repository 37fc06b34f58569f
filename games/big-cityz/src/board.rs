//! The game board (B1): four statement boards in a ring with four point squares
//! each, and a green and a red risk field between each two neighbours; which
//! squares a placement judges (B2) and the evidence shown when it is (B4).
//!
//! Squares are numbered 0-23 inside the crate: board `b`'s slots are
//! `4 * b .. 4 * b + 4` in the order of [`Slot::ALL`]; risk pair `p`'s green field
//! is `16 + 2 * p`, its red field `17 + 2 * p`.

use crate::cities::{City, Statement};
use crate::wire::{AirportView, Color, Evidence, Fact, Slot, Square};

/// Statement boards on the ring.
pub const BOARDS: usize = 4;
/// Point squares and risk fields.
pub const SQUARES: usize = 24;
/// Points for a right risk field (and a right "no free square", B6).
pub const RISK_RIGHT: i32 = 8;
/// Points for a wrong one.
pub const RISK_WRONG: i32 = -2;
/// Points an objector wins or loses (B4).
pub const OBJECTION: i32 = 3;

/// The crate's number of a wire square, `None` when its board or pair is not 0-3.
pub fn index(square: Square) -> Option<usize> {
    match square {
        Square::Board { board, slot } => {
            let b = usize::from(board);
            (b < BOARDS).then(|| 4 * b + slot as usize)
        }
        Square::Risk { pair, color } => {
            let p = usize::from(pair);
            (p < BOARDS).then(|| 16 + 2 * p + color as usize)
        }
    }
}

/// The wire square of number `i` (0-23).
pub fn square(i: usize) -> Square {
    if i < 16 {
        Square::Board {
            board: (i / 4) as u8,
            slot: Slot::ALL[i % 4],
        }
    } else {
        Square::Risk {
            pair: ((i - 16) / 2) as u8,
            color: if green(i) { Color::Green } else { Color::Red },
        }
    }
}

/// The boards whose statements a square judges: one, or both neighbours of a risk field.
pub fn boards_of(i: usize) -> Vec<usize> {
    if i < 16 {
        vec![i / 4]
    } else {
        let p = (i - 16) / 2;
        vec![p, (p + 1) % BOARDS]
    }
}

/// The squares whose cards leave the game when board `b` is replaced (B5): its
/// own four and the risk fields on both sides.
pub fn cleared_by(b: usize) -> Vec<usize> {
    let before = (b + BOARDS - 1) % BOARDS;
    let mut squares: Vec<usize> = (4 * b..4 * b + 4).collect();
    squares.extend([16 + 2 * before, 17 + 2 * before, 16 + 2 * b, 17 + 2 * b]);
    squares
}

/// B5: board `b` may be replaced when it holds at least 3 cards, or 2 while its
/// neighbouring risk fields hold at least 2 together.
pub fn replaceable(squares: &[Option<u16>; SQUARES], b: usize) -> bool {
    let on_board = (4 * b..4 * b + 4).filter(|&i| squares[i].is_some()).count();
    let on_risks = cleared_by(b)[4..]
        .iter()
        .filter(|&&i| squares[i].is_some())
        .count();
    on_board >= 3 || (on_board == 2 && on_risks >= 2)
}

/// Whether square `i` says "true" (green) rather than "not true" (red).
pub fn green(i: usize) -> bool {
    if i < 16 {
        i % 4 < 2
    } else {
        i.is_multiple_of(2)
    }
}

/// Whether a card on square `i` is right for `city` under these boards (B2).
pub fn right(boards: &[Statement; BOARDS], i: usize, city: &City) -> bool {
    let green = green(i);
    boards_of(i)
        .into_iter()
        .all(|b| boards[b].holds(city) == green)
}

/// Points for a right placement on square `i`.
pub fn value(i: usize) -> i32 {
    if i < 16 {
        Slot::ALL[i % 4].value()
    } else {
        RISK_RIGHT
    }
}

/// The numbers behind `statement` for `city`, with their sources.
pub fn fact(statement: Statement, city: &City) -> Fact {
    let s = |text: &str| text.to_owned();
    let evidence = match statement {
        Statement::FoundedBefore1700 => Evidence::FoundedBefore1700 {
            year: city.founded.value,
            source: s(city.founded.source),
        },
        Statement::SouthOfEquator => Evidence::SouthOfEquator {
            latitude: city.latitude,
            source: s(city.location_source),
        },
        Statement::Above708m => Evidence::Above708m {
            metres: city.elevation_m.value,
            source: s(city.elevation_m.source),
        },
        Statement::Mean11COrMore => Evidence::Mean11COrMore {
            celsius: city.temperature_c.value,
            station: s(city.station),
            source: s(city.temperature_c.source),
        },
        Statement::FiveHoursFromBerlin => Evidence::FiveHoursFromBerlin {
            utc_offset_minutes: city.utc_offset_minutes,
            time_zone: s(city.time_zone),
        },
        Statement::InternationalAirport => Evidence::InternationalAirport {
            airport: city.airport.map(|a| AirportView {
                iata: s(a.iata),
                name: s(a.name),
            }),
            source: s(city.airport_source),
        },
        Statement::MillionInhabitants => Evidence::MillionInhabitants {
            population: city.population.value,
            year: city.population_year,
            source: s(city.population.source),
        },
        Statement::LargerThan310Km2 => Evidence::LargerThan310Km2 {
            km2: city.area_km2.value,
            source: s(city.area_km2.source),
        },
        Statement::DrivesOnTheLeft => Evidence::DrivesOnTheLeft {
            value: city.drives_left.value,
            source: s(city.drives_left.source),
        },
        Statement::EuropeOrAsia => Evidence::EuropeOrAsia {
            continent: city.continent,
        },
        Statement::OnTheSeaCoast => Evidence::OnTheSeaCoast {
            value: city.coast.value,
            source: s(city.coast.source),
        },
        Statement::Capital => Evidence::Capital {
            value: city.capital.value,
            source: s(city.capital.source),
        },
    };
    Fact {
        holds: statement.holds(city),
        evidence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_numbers_round_trip() {
        for i in 0..SQUARES {
            assert_eq!(index(square(i)), Some(i));
        }
        assert_eq!(
            index(Square::Board {
                board: 4,
                slot: Slot::Red2
            }),
            None
        );
        assert_eq!(
            index(Square::Risk {
                pair: 9,
                color: Color::Green
            }),
            None
        );
    }

    #[test]
    fn risk_pairs_join_neighbours() {
        assert_eq!(boards_of(16), vec![0, 1]);
        assert_eq!(boards_of(23), vec![3, 0]);
        assert_eq!(cleared_by(0), vec![0, 1, 2, 3, 22, 23, 16, 17]);
        assert_eq!(cleared_by(2), vec![8, 9, 10, 11, 18, 19, 20, 21]);
    }
}
