//! Text helpers shared by the transcript, the HTML page and the commands: hands by suit, signed
//! numbers, what rules a game was played under.

use crate::rules::{CardSet, Rules, Suit, PRESETS};

/// `S: A K 7  H: Q 4  D: -  C: J 9 8 6 5 4 3 2`.
pub fn by_suit(cards: CardSet) -> String {
    [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs]
        .iter()
        .map(|&suit| {
            let ranks: Vec<String> = cards
                .display_order()
                .filter(|c| c.suit() == suit)
                .map(|c| c.rank().letter().to_string())
                .collect();
            let ranks = if ranks.is_empty() {
                "-".to_string()
            } else {
                ranks.join(" ")
            };
            format!("{suit}: {ranks}")
        })
        .collect::<Vec<_>>()
        .join("  ")
}

pub fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The preset the rules are, or what they change from it.
pub fn rules_text(r: &Rules) -> String {
    for name in PRESETS {
        if Rules::preset(name).as_ref() == Some(r) {
            return format!(
                "preset {name} (target {}, at most {} hands)",
                r.target, r.max_hands
            );
        }
    }
    let family = if r.contract.is_some() {
        "a contract game"
    } else {
        "an individual-bid game"
    };
    format!(
        "custom, {family} (target {}, at most {} hands); the header holds every option",
        r.target, r.max_hands
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_are_shown_by_suit() {
        let cards: CardSet =
            serde_json::from_str(r#"["AS","KS","7S","QH","4H","TC","2C"]"#).unwrap();
        assert_eq!(by_suit(cards), "S: A K 7  H: Q 4  D: -  C: T 2");
    }
}
