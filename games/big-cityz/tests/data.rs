//! Checks the 200 city cards as the game sees them ([`CITIES`], compiled from
//! `data/cities.json`) against rulings D1 and D2 of `shared/rules/big-cityz.md`:
//! every field filled and in range, no answer inside a borderline margin, every
//! statement a real guess, and the facts that other tables fix (time zones,
//! continents, driving sides, capitals) in agreement with those tables.

use big_cityz::cities::{CITIES, City, Continent, Statement};
use chrono::{NaiveDate, TimeZone};
use chrono_tz::{OffsetComponents, Tz};
use std::collections::{HashMap, HashSet};

/// One row of `data/countries.json`.
struct Country {
    continent: Continent,
    drives_left: bool,
    capital: Option<String>,
}

fn countries() -> HashMap<String, Country> {
    let text = include_str!("../data/countries.json");
    let value: serde_json::Value = serde_json::from_str(text).expect("countries.json is JSON");
    let map = value.as_object().expect("countries.json is an object");
    map.iter()
        .map(|(code, row)| {
            let continent = row["continent"].as_str().expect("continent");
            let country = Country {
                continent: Continent::from_code(continent),
                drives_left: row["drives_left"].as_bool().expect("drives_left"),
                capital: row["capital"].as_str().map(str::to_owned),
            };
            (code.clone(), country)
        })
        .collect()
}

fn every_source(city: &City) -> [&'static str; 11] {
    [
        city.founded.source,
        city.location_source,
        city.elevation_m.source,
        city.temperature_c.source,
        city.airport_source,
        city.population.source,
        city.area_km2.source,
        city.drives_left.source,
        city.coast.source,
        city.capital.source,
        city.station,
    ]
}

#[test]
fn ruling_d2_exactly_200_cities_with_unique_ids_and_names() {
    assert_eq!(CITIES.len(), 200);
    let ids: HashSet<_> = CITIES.iter().map(|c| c.id).collect();
    assert_eq!(ids.len(), CITIES.len(), "duplicate id");
    let names: HashSet<_> = CITIES.iter().map(|c| c.name_en).collect();
    assert_eq!(names.len(), CITIES.len(), "duplicate English name");
    for c in CITIES {
        assert!(
            c.id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{}: id is lower-case ASCII with _",
            c.id
        );
    }
}

#[test]
fn ruling_d2_no_empty_text() {
    for c in CITIES {
        for text in [c.name_en, c.name_fr, c.country, c.time_zone] {
            assert!(
                !text.trim().is_empty(),
                "{}: empty name, country or zone",
                c.id
            );
        }
        for source in every_source(c) {
            assert!(
                !source.trim().is_empty(),
                "{}: empty source or station",
                c.id
            );
        }
        if let Some(airport) = c.airport {
            assert!(!airport.name.trim().is_empty(), "{}: airport name", c.id);
        }
    }
}

#[test]
fn ruling_d2_values_in_range() {
    for c in CITIES {
        assert!((-90.0..=90.0).contains(&c.latitude), "{}: latitude", c.id);
        assert!(
            (-180.0..=180.0).contains(&c.longitude),
            "{}: longitude",
            c.id
        );
        assert!(
            (-50..=5000).contains(&c.elevation_m.value),
            "{}: elevation",
            c.id
        );
        assert!(
            (-20.0..=35.0).contains(&c.temperature_c.value),
            "{}: temperature",
            c.id
        );
        assert!(c.population.value > 0, "{}: population", c.id);
        assert!(
            (1990..=2026).contains(&c.population_year),
            "{}: population year",
            c.id
        );
        assert!(c.area_km2.value > 0.0, "{}: area", c.id);
        assert!(c.founded.value <= 2026, "{}: founded", c.id);
        assert!(
            (-14 * 60..=14 * 60).contains(&c.utc_offset_minutes),
            "{}: UTC offset",
            c.id
        );
        if let Some(airport) = c.airport {
            assert!(
                airport.iata.len() == 3 && airport.iata.bytes().all(|b| b.is_ascii_uppercase()),
                "{}: IATA code {:?}",
                c.id,
                airport.iata
            );
        }
        assert!(
            c.country.len() == 2 && c.country.bytes().all(|b| b.is_ascii_uppercase()),
            "{}: country code",
            c.id
        );
    }
}

/// Ruling D2: no city lies within these margins of a threshold, so no answer
/// hangs on a rounding or on the choice of a source.
#[test]
fn ruling_d2_no_value_inside_a_borderline_margin() {
    for c in CITIES {
        let population = c.population.value as f64;
        assert!(
            !(900_000.0..=1_100_000.0).contains(&population),
            "{}: population within 10 % of 1,000,000",
            c.id
        );
        assert!(
            (c.elevation_m.value - 708).abs() > 50,
            "{}: elevation within 50 m of 708 m",
            c.id
        );
        assert!(
            (c.temperature_c.value - 11.0).abs() > 0.5,
            "{}: temperature within 0.5 °C of 11.0 °C",
            c.id
        );
        assert!(
            !(279.0..=341.0).contains(&c.area_km2.value),
            "{}: area within 10 % of 310 km²",
            c.id
        );
        assert!(
            (c.founded.value - 1700).abs() > 25,
            "{}: founded within 25 years of 1700",
            c.id
        );
        assert!(
            c.latitude.abs() > 0.5,
            "{}: within 0.5° of the equator",
            c.id
        );
    }
}

/// Every statement is a real guess: true for 15 % to 85 % of the cities.
#[test]
fn ruling_d2_every_statement_is_a_real_guess() {
    let n = CITIES.len();
    for s in Statement::ALL {
        let yes = CITIES.iter().filter(|c| s.holds(c)).count();
        let share = yes as f64 / n as f64;
        println!("{s:?}: {yes} of {n} ({:.0} %)", share * 100.0);
        assert!(
            (0.15..=0.85).contains(&share),
            "{s:?} is true for {yes} of {n} cities"
        );
    }
}

/// Statement 5 uses the standard-time offset of the IANA time-zone database:
/// the zone's base offset (without daylight saving) on a fixed date.
#[test]
fn ruling_d2_utc_offsets_agree_with_the_time_zone_database() {
    let date = NaiveDate::from_ymd_opt(2026, 1, 15)
        .and_then(|d| d.and_hms_opt(12, 0, 0))
        .expect("a valid date");
    for c in CITIES {
        let zone: Tz = c
            .time_zone
            .parse()
            .unwrap_or_else(|_| panic!("{}: unknown time zone {}", c.id, c.time_zone));
        let offset = zone.offset_from_utc_datetime(&date);
        let base = offset.base_utc_offset().num_minutes();
        assert_eq!(
            i64::from(c.utc_offset_minutes),
            base,
            "{}: {} has a standard offset of {base} minutes",
            c.id,
            c.time_zone
        );
    }
}

#[test]
fn ruling_d2_continent_and_driving_side_agree_with_the_country() {
    let countries = countries();
    for c in CITIES {
        let country = countries
            .get(c.country)
            .unwrap_or_else(|| panic!("{}: {} missing from countries.json", c.id, c.country));
        assert_eq!(c.continent, country.continent, "{}: continent", c.id);
        assert_eq!(
            c.drives_left.value, country.drives_left,
            "{}: driving side",
            c.id
        );
    }
}

#[test]
fn ruling_d2_at_most_one_capital_per_country_as_in_the_country_table() {
    let countries = countries();
    let mut capitals: HashMap<&str, &str> = HashMap::new();
    for c in CITIES.iter().filter(|c| c.capital.value) {
        if let Some(other) = capitals.insert(c.country, c.id) {
            panic!("{} and {} are both capitals of {}", other, c.id, c.country);
        }
    }
    for c in CITIES {
        let listed = countries[c.country].capital.as_deref() == Some(c.id);
        assert_eq!(
            c.capital.value, listed,
            "{}: capital flag disagrees with countries.json",
            c.id
        );
    }
    for (code, country) in &countries {
        if let Some(id) = &country.capital {
            let city = CITIES
                .iter()
                .find(|c| c.id == id)
                .unwrap_or_else(|| panic!("{code}: capital {id} is not a city"));
            assert_eq!(city.country, code, "{id}: capital of another country");
        }
    }
}

/// Statement 2 follows the latitude, and the latitude is not near the equator.
#[test]
fn ruling_d2_south_of_the_equator_follows_the_latitude() {
    for c in CITIES {
        assert_eq!(
            Statement::SouthOfEquator.holds(c),
            c.latitude < -0.5,
            "{}",
            c.id
        );
    }
}
