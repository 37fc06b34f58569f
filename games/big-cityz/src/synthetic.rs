//! Invented cities for tests, examples and benchmarks, so that they do not depend
//! on how complete `data/cities.json` is. Their facts are drawn from a seed with
//! plausible links to the continent (southern cities in South America and
//! Oceania, far time zones in the Americas, old cities in Europe...), so that
//! guessing from the public face helps, as with real cities.
//!
//! The names are leaked to get `&'static str`s: call it once per test or run.

use crate::cities::{Airport, City, Continent, Sourced};
use engine::GameRng;

const SOURCE: &str = "synthetic";

/// Countries per continent: (ISO code, drives on the left).
const COUNTRIES: [(Continent, &[(&str, bool)]); 6] = [
    (
        Continent::Europe,
        &[
            ("DE", false),
            ("FR", false),
            ("GB", true),
            ("IT", false),
            ("PL", false),
        ],
    ),
    (
        Continent::Asia,
        &[
            ("JP", true),
            ("IN", true),
            ("CN", false),
            ("TR", false),
            ("ID", true),
        ],
    ),
    (
        Continent::Africa,
        &[
            ("ZA", true),
            ("KE", true),
            ("NG", false),
            ("EG", false),
            ("MA", false),
        ],
    ),
    (
        Continent::NorthAmerica,
        &[("US", false), ("MX", false), ("CA", false), ("JM", true)],
    ),
    (
        Continent::SouthAmerica,
        &[
            ("BR", false),
            ("AR", false),
            ("CO", false),
            ("PE", false),
            ("GY", true),
        ],
    ),
    (
        Continent::Oceania,
        &[("AU", true), ("NZ", true), ("FJ", true), ("PG", true)],
    ),
];

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn chance(rng: &mut GameRng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// `count` invented cities drawn from `seed`, ids `synthetic_0` ...
pub fn synthetic_cities(count: usize, seed: u64) -> &'static [City] {
    let mut rng = GameRng::new(seed);
    let cities: Vec<City> = (0..count)
        .map(|i| {
            let (continent, countries) = COUNTRIES[rng.below(COUNTRIES.len())];
            let (country, left) = countries[rng.below(countries.len())];
            let south = match continent {
                Continent::Europe | Continent::NorthAmerica => 0,
                Continent::Asia => 8,
                Continent::Africa => 30,
                Continent::SouthAmerica => 80,
                Continent::Oceania => 90,
            };
            let latitude =
                (5 + rng.below(55)) as f64 * if chance(&mut rng, south) { -1.0 } else { 1.0 };
            let offset = match continent {
                Continent::Europe => 60 * rng.below(3) as i32,
                Continent::Africa => 60 * rng.below(4) as i32,
                Continent::Asia => 60 * (2 + rng.below(8) as i32),
                Continent::NorthAmerica => -60 * (5 + rng.below(4) as i32),
                Continent::SouthAmerica => -60 * (3 + rng.below(3) as i32),
                Continent::Oceania => 60 * (8 + rng.below(5) as i32),
            };
            let old = match continent {
                Continent::Europe => 90,
                Continent::Asia => 80,
                Continent::Africa | Continent::SouthAmerica => 50,
                Continent::NorthAmerica => 30,
                Continent::Oceania => 5,
            };
            let founded = if chance(&mut rng, old) {
                1699 - rng.below(2000) as i32
            } else {
                1700 + rng.below(300) as i32
            };
            let warm = 10.0 + (60.0 - latitude.abs()) / 4.0;
            let celsius = ((warm + rng.below(80) as f64 / 10.0 - 4.0) * 10.0).round() / 10.0;
            let elevation = if chance(&mut rng, 15) {
                709 + rng.below(3000) as i32
            } else {
                rng.below(709) as i32
            };
            let airport = chance(&mut rng, 75).then_some(Airport {
                iata: "XXX",
                name: SOURCE,
            });
            let population = if chance(&mut rng, 35) {
                1_000_000 + rng.below(20_000_000) as u64
            } else {
                20_000 + rng.below(980_000) as u64
            };
            let area = if chance(&mut rng, 40) {
                310.5 + rng.below(3000) as f64
            } else {
                10.0 + rng.below(300) as f64
            };
            let coast = chance(&mut rng, 40);
            let capital = chance(&mut rng, 25);
            City {
                id: leak(format!("synthetic_{i}")),
                name_en: leak(format!("Synthetic City {i}")),
                name_fr: leak(format!("Ville synthétique {i}")),
                country,
                continent,
                founded: Sourced {
                    value: founded,
                    source: SOURCE,
                },
                latitude,
                longitude: 0.0,
                location_source: SOURCE,
                elevation_m: Sourced {
                    value: elevation,
                    source: SOURCE,
                },
                temperature_c: Sourced {
                    value: celsius,
                    source: SOURCE,
                },
                station: SOURCE,
                time_zone: "Etc/Synthetic",
                utc_offset_minutes: offset,
                airport,
                airport_source: SOURCE,
                population: Sourced {
                    value: population,
                    source: SOURCE,
                },
                population_year: 2020,
                area_km2: Sourced {
                    value: area,
                    source: SOURCE,
                },
                drives_left: Sourced {
                    value: left,
                    source: SOURCE,
                },
                coast: Sourced {
                    value: coast,
                    source: SOURCE,
                },
                capital: Sourced {
                    value: capital,
                    source: SOURCE,
                },
            }
        })
        .collect();
    Box::leak(cities.into_boxed_slice())
}
