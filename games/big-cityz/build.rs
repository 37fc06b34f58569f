//! Turns `data/cities.json` into Rust statics (`$OUT_DIR/cities.rs`), so the rules
//! crate reads its cities at compile time and carries no JSON decoder. A row that
//! does not have the expected shape fails the build, naming the city.

use serde::Deserialize;
use std::fmt::Write;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    id: String,
    name: Names,
    country: String,
    continent: String,
    founded: Year,
    location: Location,
    elevation: Elevation,
    temperature: Temperature,
    time_zone: String,
    utc_offset_minutes: i32,
    airport: Option<Airport>,
    airport_source: String,
    population: Population,
    area: Area,
    drives_left: Flag,
    coast: Flag,
    capital: Flag,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Names {
    en: String,
    fr: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Year {
    year: i32,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Location {
    latitude: f64,
    longitude: f64,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Elevation {
    metres: i32,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Temperature {
    celsius: f64,
    station: String,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Airport {
    iata: String,
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Population {
    count: u64,
    year: u16,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Area {
    km2: f64,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Flag {
    value: bool,
    source: String,
}

fn main() {
    println!("cargo::rerun-if-changed=data/cities.json");
    let text = std::fs::read_to_string("data/cities.json").expect("data/cities.json");
    let rows: Vec<Row> =
        serde_json::from_str(&text).expect("data/cities.json has the shape of build.rs");
    let mut out = String::from(
        "/// Every city of the game, in the order of `data/cities.json`.\npub static CITIES: &[City] = &[\n",
    );
    for r in &rows {
        let airport = match &r.airport {
            Some(a) => format!("Some(Airport {{ iata: {:?}, name: {:?} }})", a.iata, a.name),
            None => "None".to_owned(),
        };
        writeln!(
            out,
            "    City {{ id: {:?}, name_en: {:?}, name_fr: {:?}, country: {:?}, continent: Continent::from_code({:?}), \
             founded: Sourced {{ value: {}, source: {:?} }}, \
             latitude: {:?}, longitude: {:?}, location_source: {:?}, \
             elevation_m: Sourced {{ value: {}, source: {:?} }}, \
             temperature_c: Sourced {{ value: {:?}, source: {:?} }}, station: {:?}, \
             time_zone: {:?}, utc_offset_minutes: {}, \
             airport: {airport}, airport_source: {:?}, \
             population: Sourced {{ value: {}, source: {:?} }}, population_year: {}, \
             area_km2: Sourced {{ value: {:?}, source: {:?} }}, \
             drives_left: Sourced {{ value: {}, source: {:?} }}, \
             coast: Sourced {{ value: {}, source: {:?} }}, \
             capital: Sourced {{ value: {}, source: {:?} }} }},",
            r.id, r.name.en, r.name.fr, r.country, r.continent,
            r.founded.year, r.founded.source,
            r.location.latitude, r.location.longitude, r.location.source,
            r.elevation.metres, r.elevation.source,
            r.temperature.celsius, r.temperature.source, r.temperature.station,
            r.time_zone, r.utc_offset_minutes,
            r.airport_source,
            r.population.count, r.population.source, r.population.year,
            r.area.km2, r.area.source,
            r.drives_left.value, r.drives_left.source,
            r.coast.value, r.coast.source,
            r.capital.value, r.capital.source,
        )
        .expect("writing to a string");
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("cities.rs");
    std::fs::write(dest, out).expect("writing cities.rs");
}
