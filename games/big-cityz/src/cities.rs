//! The city cards: what everyone sees (name, country) and the facts nobody sees
//! until the card is judged, each with its source. The rows live in
//! `data/cities.json` (see `data/README.md`); `build.rs` turns them into
//! [`CITIES`] at compile time.

use serde::Serialize;
use ts_rs::TS;

/// A fact and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: &'static str,
}

/// The continent a city lies on: for statement 10, the UN M49 region of its
/// country or territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityzContinent")]
pub enum Continent {
    Africa,
    Asia,
    Europe,
    NorthAmerica,
    SouthAmerica,
    Oceania,
}

impl Continent {
    /// From the code in `data/cities.json`; an unknown code stops the build.
    pub const fn from_code(code: &str) -> Continent {
        match code.as_bytes() {
            b"africa" => Continent::Africa,
            b"asia" => Continent::Asia,
            b"europe" => Continent::Europe,
            b"north_america" => Continent::NorthAmerica,
            b"south_america" => Continent::SouthAmerica,
            b"oceania" => Continent::Oceania,
            _ => panic!("unknown continent in data/cities.json"),
        }
    }
}

/// The airport that mainly serves a city.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Airport {
    pub iata: &'static str,
    pub name: &'static str,
}

/// One city card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct City {
    /// Stable identifier (lower case, ASCII, `_` between words).
    pub id: &'static str,
    pub name_en: &'static str,
    pub name_fr: &'static str,
    /// ISO 3166-1 alpha-2.
    pub country: &'static str,
    pub continent: Continent,
    /// Year of the first written record of the settlement (negative: BC).
    pub founded: Sourced<i32>,
    /// The reference point (city hall or historic centre), degrees.
    pub latitude: f64,
    pub longitude: f64,
    pub location_source: &'static str,
    pub elevation_m: Sourced<i32>,
    /// Mean annual temperature, 1961-1990 normal, at `station`.
    pub temperature_c: Sourced<f64>,
    pub station: &'static str,
    /// IANA time zone.
    pub time_zone: &'static str,
    /// Standard-time offset from UTC, minutes.
    pub utc_offset_minutes: i32,
    /// `None`: no airport with a scheduled year-round international route serves it.
    pub airport: Option<Airport>,
    pub airport_source: &'static str,
    /// Inhabitants of the city proper in `population_year`.
    pub population: Sourced<u64>,
    pub population_year: u16,
    /// Area of the city proper.
    pub area_km2: Sourced<f64>,
    pub drives_left: Sourced<bool>,
    pub coast: Sourced<bool>,
    pub capital: Sourced<bool>,
}

include!(concat!(env!("OUT_DIR"), "/cities.rs"));

/// Berlin's standard-time offset (statement 5 measures from it).
const BERLIN_OFFSET_MINUTES: i32 = 60;

/// The twelve statements of the boards (ruling D1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BigCityzStatement")]
pub enum Statement {
    FoundedBefore1700,
    SouthOfEquator,
    Above708m,
    Mean11COrMore,
    FiveHoursFromBerlin,
    InternationalAirport,
    MillionInhabitants,
    LargerThan310Km2,
    DrivesOnTheLeft,
    EuropeOrAsia,
    OnTheSeaCoast,
    Capital,
}

impl Statement {
    pub const ALL: [Statement; 12] = [
        Statement::FoundedBefore1700,
        Statement::SouthOfEquator,
        Statement::Above708m,
        Statement::Mean11COrMore,
        Statement::FiveHoursFromBerlin,
        Statement::InternationalAirport,
        Statement::MillionInhabitants,
        Statement::LargerThan310Km2,
        Statement::DrivesOnTheLeft,
        Statement::EuropeOrAsia,
        Statement::OnTheSeaCoast,
        Statement::Capital,
    ];

    /// Whether the statement is true of `city`: always derived from its numbers.
    pub fn holds(self, city: &City) -> bool {
        match self {
            Statement::FoundedBefore1700 => city.founded.value < 1700,
            Statement::SouthOfEquator => city.latitude < 0.0,
            Statement::Above708m => city.elevation_m.value > 708,
            Statement::Mean11COrMore => city.temperature_c.value >= 11.0,
            Statement::FiveHoursFromBerlin => {
                (city.utc_offset_minutes - BERLIN_OFFSET_MINUTES).abs() >= 5 * 60
            }
            Statement::InternationalAirport => city.airport.is_some(),
            Statement::MillionInhabitants => city.population.value >= 1_000_000,
            Statement::LargerThan310Km2 => city.area_km2.value > 310.0,
            Statement::DrivesOnTheLeft => city.drives_left.value,
            Statement::EuropeOrAsia => {
                matches!(city.continent, Continent::Europe | Continent::Asia)
            }
            Statement::OnTheSeaCoast => city.coast.value,
            Statement::Capital => city.capital.value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_follow_from_the_numbers() {
        let vienna = CITIES.iter().find(|c| c.id == "vienna").expect("Vienna");
        let truths: Vec<bool> = Statement::ALL.iter().map(|s| s.holds(vienna)).collect();
        assert_eq!(
            truths,
            [
                true, false, false, false, false, true, true, true, false, true, false, true
            ]
        );
    }
}
