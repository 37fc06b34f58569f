//! Prints, for every objective of the handbook, what the fit checker counts: the
//! buildings needed (requirements included), the districts, sea areas, ground
//! blocks and moves at least. `cargo run -p building-cities --example handbook_fit`

use building_cities::Handbook;
use building_cities::handbook::fit;

fn main() {
    let h = Handbook::standard();
    println!("| objective | districts | sea areas | blocks | moves | turn limit |");
    println!("|---|---|---|---|---|---|");
    for o in h.objectives.iter().filter(|o| !o.blank) {
        match fit::check(h, o) {
            Ok(f) => {
                let districts: Vec<String> = f.districts.iter().map(|d| format!("D{d}")).collect();
                let limit = o
                    .turn_limit
                    .map_or(format!("{} (cap)", h.economy.turn_cap), |t| t.to_string());
                println!(
                    "| `{}` | {} | {} | {} | {} | {} |",
                    o.id,
                    districts.join(" "),
                    f.sea_areas,
                    f.blocks,
                    f.moves,
                    limit
                );
            }
            Err(e) => println!("| `{}` | does not fit: {e:?} |", o.id),
        }
    }
}
