//! First balance estimate of the handbook for the tutorial objective ("1,000 Maya
//! in 14 turns", ruling H): a careful player and a random player, solo, with the
//! real event deck, on a simplified city (no geometry: one road block for every
//! two tiles, a bonus counts at most two neighbours). Run with `--nocapture` to
//! see the figures; the README quotes them. A balance report with the game's real
//! bots will replace this.

use building_cities::Handbook;
use building_cities::handbook::cards::{Card, Effect, Route};
use building_cities::handbook::model::{Building, Category, Requirement, Scope, Target};
use std::collections::BTreeMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Player {
    Careful,
    Random,
}

struct City<'h> {
    h: &'h Handbook,
    districts: Vec<BTreeMap<String, u32>>,
    bank: i64,
    loan_taken: Option<u32>,
    bankrupt: bool,
    goods: Vec<String>,
    value_percent: Vec<u32>,
    moves_percent: Vec<u32>,
}

impl<'h> City<'h> {
    fn count_in(&self, d: usize, target: &Target) -> u32 {
        self.districts[d]
            .iter()
            .filter(|(id, _)| self.h.building(id).is_some_and(|b| b.is(target)))
            .map(|(_, n)| n)
            .sum()
    }
    fn count(&self, target: &Target) -> u32 {
        (0..self.districts.len())
            .map(|d| self.count_in(d, target))
            .sum()
    }
    fn tiles(&self) -> u32 {
        self.districts
            .iter()
            .flat_map(|d| d.iter())
            .filter(|(id, _)| self.h.building(id).is_some_and(|b| b.size.is_some()))
            .map(|(_, n)| n)
            .sum()
    }
    fn district_value(&self, d: usize) -> i64 {
        let mut v = 0i64;
        for (id, &n) in &self.districts[d] {
            let Some(b) = self.h.building(id) else {
                continue;
            };
            let mut each = i64::from(b.value);
            for bonus in &b.bonuses {
                match &bonus.target {
                    None => each += i64::from(bonus.value),
                    Some(t) => {
                        let near = i64::from(self.count_in(d, t).min(2));
                        each += near * i64::from(bonus.value)
                            + near * i64::from(bonus.percent) * 10 / 100;
                    }
                }
            }
            v += each * i64::from(n);
        }
        v
    }
    fn total_value(&self) -> i64 {
        (0..self.districts.len())
            .map(|d| self.district_value(d))
            .sum()
    }
    fn blocks(&self, d: usize) -> u32 {
        self.districts[d]
            .iter()
            .filter_map(|(id, n)| self.h.building(id).map(|b| b.area() * n))
            .sum()
    }
    /// Whether `b` may be placed now in district `d`, road blocks apart.
    fn legal(&self, b: &Building, d: usize) -> bool {
        if !b.buildable || b.category == Category::Road || b.category == Category::Grid {
            return false;
        }
        let me = Target::Building(b.id.clone());
        if b.limit(Scope::District)
            .is_some_and(|m| self.count_in(d, &me) >= m)
            || b.limit(Scope::City).is_some_and(|m| self.count(&me) >= m)
        {
            return false;
        }
        for g in &self.h.group_limits {
            let n = if g.scope == Scope::District {
                self.count_in(d, &g.target)
            } else {
                self.count(&g.target)
            };
            if b.is(&g.target) && n >= g.max {
                return false;
            }
        }
        let usable = 64 - self.h.economy.protected_blocks_max;
        if self.blocks(d) + b.area() + 1 > usable {
            return false;
        }
        let ok = b.requirements.iter().all(|r| match r {
            Requirement::Count {
                target,
                min,
                scope: Scope::District,
            } => self.count_in(d, target) >= *min,
            Requirement::Count {
                target,
                min,
                scope: Scope::City,
            } => self.count(target) >= *min,
            Requirement::Districts { min } => self.districts.len() as u32 >= *min,
            Requirement::OwnsDistrict { district } => self.districts.len() as u32 >= *district,
            Requirement::SeaAreas { .. } | Requirement::GridLevel { .. } => false,
        });
        // B5: after 5 housing units, 2 red tiles and the elementary school first.
        let housing: u32 = self
            .districts
            .iter()
            .flat_map(|d| d.iter())
            .filter_map(|(id, n)| self.h.building(id).map(|b| b.housing * n))
            .sum();
        let services = self.count(&Target::Category(Category::Service));
        let school = self.count(&Target::Building("elementary_school".into()));
        let priority = housing >= 5 && (services < 2 || school < 1);
        ok && (!priority || b.category == Category::Service || b.id == "elementary_school")
    }
    /// Moves and Maya of `b` with the road block it may need (one per two tiles).
    fn price(&self, b: &Building, d: usize) -> (u32, u32) {
        let tiles: u32 = self.districts[d]
            .iter()
            .filter(|(id, _)| id.as_str() != "road")
            .filter(|(id, _)| self.h.building(id).is_some_and(|b| b.size.is_some()))
            .map(|(_, n)| n)
            .sum();
        let roads = self.districts[d].get("road").copied().unwrap_or(0);
        let road = u32::from(b.size.is_some() && roads < (tiles + 1).div_ceil(2));
        (b.moves + road, b.cost + 10 * road)
    }
    fn place(&mut self, id: &str, d: usize) {
        let b = self.h.building(id).expect("building");
        let (_, cost) = self.price(b, d);
        if cost > b.cost {
            *self.districts[d].entry("road".into()).or_insert(0) += 1;
        }
        self.bank -= i64::from(cost);
        *self.districts[d].entry(id.into()).or_insert(0) += 1;
        if b.category == Category::Industry && self.goods.is_empty() {
            self.goods = vec!["agricultural_products".into(), "steel".into()];
        }
    }
}

fn apply(city: &mut City, card: &Card, turn: u32) {
    let c = card.condition;
    if (city.districts.len() as u32) < c.min_districts || turn < c.min_turn {
        return;
    }
    let owned = city.districts.len() as i64;
    match &card.effect {
        Effect::GainMaya { amount } => city.bank += i64::from(*amount),
        Effect::LoseMaya { amount } => city.bank -= i64::from(*amount),
        Effect::LoseBankPercent { percent } => {
            city.bank -= city.bank.max(0) * i64::from(*percent) / 100
        }
        Effect::PerBuilding { target, amount } => {
            city.bank += i64::from(city.count(target)) * i64::from(*amount)
        }
        Effect::PerDistrictWithout { target, amount } => {
            let without = (0..city.districts.len())
                .filter(|&d| city.count_in(d, target) == 0)
                .count() as i64;
            city.bank -= without * i64::from(*amount);
        }
        Effect::Coverage {
            target, farther, ..
        } if city.count(target) == 0 => city.bank -= i64::from(*farther),
        Effect::UnlessBuilt { target, amount } if city.count(target) == 0 => {
            city.bank -= i64::from(*amount)
        }
        Effect::GoodMarket { good, amount } if city.goods.contains(good) => {
            city.bank += i64::from(*amount)
        }
        Effect::GridFailure { amount, .. } => city.bank -= owned * i64::from(*amount),
        Effect::ValuePercent { percent, .. } => city.value_percent.push(*percent),
        Effect::MovesPercent { percent, .. } => city.moves_percent.push(*percent),
        Effect::SkipBuildingPhase { .. } => city.moves_percent.push(0),
        Effect::Trade { faces } => {
            let face = faces[(turn as usize * 7 + city.tiles() as usize) % faces.len()];
            let units = match face.route {
                Route::Industries => city.count(&Target::Category(Category::Industry)),
                Route::Trucks => city.count(&Target::Building("truck".into())),
                _ => 0,
            };
            city.bank += i64::from(units * face.per_unit);
        }
        _ => {}
    }
}

/// Plays the tutorial once.
/// How one game ended.
struct Outcome {
    /// The turn the bank first held 1,000, if any.
    won: Option<u32>,
    bank: i64,
    loan: bool,
    bankrupt: bool,
}

fn play(h: &Handbook, player: Player, seed: u64) -> Outcome {
    let mut rng = Rng(seed);
    let mut deck: Vec<&Card> = h
        .events
        .iter()
        .filter(|c| c.effect != Effect::Blank)
        .flat_map(|c| std::iter::repeat_n(c, c.copies as usize))
        .collect();
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.below(i + 1));
    }
    let mut city = City {
        h,
        districts: vec![BTreeMap::new()],
        bank: i64::from(h.economy.start_bank),
        loan_taken: None,
        bankrupt: false,
        goods: Vec::new(),
        value_percent: Vec::new(),
        moves_percent: Vec::new(),
    };
    // Turn 1 as the rulebook: a road of 3, the grids.
    for (id, n) in [("road", 3), ("power_grid", 1), ("water_grid", 1)] {
        for _ in 0..n {
            city.bank -= i64::from(h.building(id).expect("b").cost);
            *city.districts[0].entry(id.into()).or_insert(0) += 1;
        }
    }
    let limit = 14;
    for turn in 1..=limit {
        let d = city.districts.len() - 1;
        let percent = if city.moves_percent.is_empty() {
            100
        } else {
            city.moves_percent.remove(0)
        };
        let mut moves = h.economy.moves_per_turn * percent / 100 - if turn == 1 { 5 } else { 0 };
        let mut spent = 0i64;
        loop {
            let mut options: Vec<(&Building, u32, u32)> = h
                .buildings
                .iter()
                .filter(|b| city.legal(b, d))
                .map(|b| (b, city.price(b, d).0, city.price(b, d).1))
                .filter(|&(_, m, c)| m <= moves && i64::from(c) <= city.bank)
                .collect();
            if player == Player::Careful {
                // Keep 25 tiles or fewer: D2 would be forced at more than 700 Maya.
                options.retain(|(b, _, _)| city.tiles() + 2 <= 25 || b.size.is_none());
            }
            if options.is_empty() {
                break;
            }
            let pick = match player {
                Player::Random => {
                    if spent >= i64::from(h.economy.min_spend_per_turn) && rng.below(3) == 0 {
                        break;
                    }
                    options[rng.below(options.len())]
                }
                Player::Careful => {
                    let left: u32 = (turn..=limit).map(|t| h.economy.turn_track.factor(t)).sum();
                    let score = |&(b, m, c): &(&Building, u32, u32)| {
                        let before = city.district_value(d);
                        let mut trial = City {
                            h,
                            districts: city.districts.clone(),
                            bank: city.bank,
                            loan_taken: None,
                            bankrupt: false,
                            goods: Vec::new(),
                            value_percent: Vec::new(),
                            moves_percent: Vec::new(),
                        };
                        trial.place(&b.id, d);
                        let gain =
                            (trial.district_value(d) - before) * i64::from(left) - i64::from(c);
                        gain * 100 / i64::from(m)
                    };
                    let best = options
                        .iter()
                        .max_by_key(|o| score(o))
                        .copied()
                        .expect("options");
                    if score(&best) <= 0 && spent >= i64::from(h.economy.min_spend_per_turn) {
                        break;
                    }
                    best
                }
            };
            let (b, m, c) = pick;
            city.place(&b.id, d);
            moves -= m;
            spent += i64::from(c);
        }
        // End of turn (E2): event, then the district value, then the loan (E4).
        let card = deck.remove(0);
        apply(&mut city, card, turn);
        deck.push(card);
        let vp = if city.value_percent.is_empty() {
            100
        } else {
            city.value_percent.remove(0)
        };
        city.bank +=
            city.total_value() * i64::from(h.economy.turn_track.factor(turn)) * i64::from(vp) / 100;
        if city.bank < 0 {
            if city.loan_taken.is_some() {
                city.bankrupt = true;
                return Outcome {
                    won: None,
                    bank: city.bank,
                    loan: true,
                    bankrupt: true,
                };
            }
            city.loan_taken = Some(turn);
            city.bank += i64::from(h.economy.loan.amount);
        }
        if city.bank >= 1000 {
            return Outcome {
                won: Some(turn),
                bank: city.bank,
                loan: city.loan_taken.is_some(),
                bankrupt: false,
            };
        }
        // E3: forced purchase of the next district.
        let step = h.economy.district_step(city.districts.len() as u32 + 1);
        if let Some(step) = step
            .filter(|s| city.bank > i64::from(s.bank_more_than) && city.tiles() > s.tiles_more_than)
        {
            city.bank -= i64::from(step.price);
            let mut district = BTreeMap::new();
            for id in ["road", "power_grid", "water_grid"] {
                city.bank -= 10;
                district.insert(id.to_string(), 1);
            }
            city.districts.push(district);
        }
    }
    Outcome {
        won: None,
        bank: city.bank,
        loan: city.loan_taken.is_some(),
        bankrupt: false,
    }
}

fn rate(player: Player, label: &str) -> (usize, usize) {
    let h = Handbook::standard();
    let games = 150;
    let outcomes: Vec<Outcome> = (0..games)
        .map(|s| play(h, player, 1000 + s as u64))
        .collect();
    let won: Vec<u32> = outcomes.iter().filter_map(|o| o.won).collect();
    let mut banks: Vec<i64> = outcomes.iter().map(|o| o.bank).collect();
    banks.sort_unstable();
    let mean_turn = won.iter().sum::<u32>() as f64 / won.len().max(1) as f64;
    println!(
        "{label}: reached 1,000 in {}/{games} ({} of them with the loan, mean turn {mean_turn:.1}), median final bank {}, loans {}, bankrupt {}",
        won.len(),
        outcomes
            .iter()
            .filter(|o| o.won.is_some() && o.loan)
            .count(),
        banks[banks.len() / 2],
        outcomes.iter().filter(|o| o.loan).count(),
        outcomes.iter().filter(|o| o.bankrupt).count(),
    );
    (won.len(), games)
}

#[test]
fn h_tutorial_is_reachable_by_a_careful_player_and_usually_failed_by_a_random_one() {
    let (careful, games) = rate(Player::Careful, "careful");
    let (random, _) = rate(Player::Random, "random");
    assert!(careful * 100 >= games * 60, "careful {careful}/{games}");
    assert!(random * 100 <= games * 20, "random {random}/{games}");
}
