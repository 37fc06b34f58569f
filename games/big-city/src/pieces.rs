//! Facts about pieces and cards: footprints, supply, special cards, names.

use crate::geometry::Shape;
use crate::wire::Piece;

/// Every piece, in supply order.
pub const ALL_PIECES: [Piece; 16] = [
    Piece::ResidenceSingle,
    Piece::ResidenceDouble,
    Piece::ResidenceTriple,
    Piece::BusinessSingle,
    Piece::BusinessDouble,
    Piece::BusinessTriple,
    Piece::CityHall,
    Piece::Church,
    Piece::Cinema,
    Piece::PostOffice,
    Piece::Bank,
    Piece::ShoppingCenter,
    Piece::LincolnPark,
    Piece::CentralPark,
    Piece::StanfordCorporation,
    Piece::RockwellIndustries,
];

/// The special cards (C1): Lincoln Park, Central Park, Stanford Corporation, Rockwell Industries.
pub const SPECIAL_CARDS: [u8; 4] = [29, 49, 69, 89];

/// Streetcars in the box (S1).
pub const STREETCARS: u8 = 17;

/// Number of cards in the game (C1).
pub const TOTAL_CARDS: usize = 72;

impl Piece {
    /// Position in [`ALL_PIECES`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The footprint (G7).
    pub fn shape(self) -> Shape {
        match self {
            Piece::ResidenceSingle
            | Piece::BusinessSingle
            | Piece::CityHall
            | Piece::Church
            | Piece::Cinema
            | Piece::PostOffice
            | Piece::Bank => Shape::Single,
            Piece::ResidenceDouble
            | Piece::BusinessDouble
            | Piece::ShoppingCenter
            | Piece::LincolnPark => Shape::Domino,
            Piece::ResidenceTriple | Piece::BusinessTriple | Piece::CentralPark => Shape::Line3,
            Piece::StanfordCorporation => Shape::Ell,
            Piece::RockwellIndustries => Shape::Square,
        }
    }

    /// Pieces in the box (A1).
    pub fn supply(self) -> u8 {
        match self {
            Piece::ResidenceSingle | Piece::BusinessSingle => 8,
            Piece::ResidenceDouble | Piece::BusinessDouble => 6,
            Piece::ResidenceTriple | Piece::BusinessTriple => 3,
            Piece::CityHall => 1,
            Piece::Church | Piece::PostOffice | Piece::ShoppingCenter => 2,
            Piece::Cinema => 4,
            Piece::Bank => 3,
            Piece::LincolnPark
            | Piece::CentralPark
            | Piece::StanfordCorporation
            | Piece::RockwellIndustries => 1,
        }
    }

    /// The special card that places this park or factory.
    pub fn special_card(self) -> Option<u8> {
        match self {
            Piece::LincolnPark => Some(29),
            Piece::CentralPark => Some(49),
            Piece::StanfordCorporation => Some(69),
            Piece::RockwellIndustries => Some(89),
            _ => None,
        }
    }

    pub fn is_park(self) -> bool {
        matches!(self, Piece::LincolnPark | Piece::CentralPark)
    }

    pub fn is_factory(self) -> bool {
        matches!(self, Piece::StanfordCorporation | Piece::RockwellIndustries)
    }

    pub fn is_residence(self) -> bool {
        matches!(
            self,
            Piece::ResidenceSingle | Piece::ResidenceDouble | Piece::ResidenceTriple
        )
    }

    pub fn is_business(self) -> bool {
        matches!(
            self,
            Piece::BusinessSingle | Piece::BusinessDouble | Piece::BusinessTriple
        )
    }

    /// City hall, church, cinema, post office, bank, shopping center (P5).
    pub fn is_special_building(self) -> bool {
        matches!(
            self,
            Piece::CityHall
                | Piece::Church
                | Piece::Cinema
                | Piece::PostOffice
                | Piece::Bank
                | Piece::ShoppingCenter
        )
    }
}

/// The stack (neighborhood on the back) of a card.
pub fn stack_of(card: u8) -> u8 {
    card / 10
}

/// Whether a number is a card of the game.
pub fn is_card(card: u8) -> bool {
    let n = card / 10;
    let i = card % 10;
    (1..=8).contains(&n) && (1..=9).contains(&i)
}

/// Whether a card is one of the four special cards.
pub fn is_special_card(card: u8) -> bool {
    SPECIAL_CARDS.contains(&card)
}

/// The cards of stack `n` (C1).
pub fn stack_cards(n: u8) -> Vec<u8> {
    (1..=9).map(|i| n * 10 + i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_has_72_cards_in_eight_stacks() {
        let all: Vec<u8> = (1..=8).flat_map(stack_cards).collect();
        assert_eq!(all.len(), TOTAL_CARDS);
        assert!(all.iter().all(|&c| is_card(c)));
        assert_eq!(all.iter().filter(|&&c| is_special_card(c)).count(), 4);
        assert!(!is_card(10) && !is_card(90) && !is_card(0));
        for (i, p) in ALL_PIECES.iter().enumerate() {
            assert_eq!(p.index(), i);
        }
        let total: u32 = ALL_PIECES.iter().map(|p| u32::from(p.supply())).sum();
        // 52 buildings (8+6+3)*2 + 1+2+4+2+3+2 = 48, plus 4 parks/factories.
        assert_eq!(total, 52);
    }
}
