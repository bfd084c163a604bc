//! The fault policy: what a fault costs. It lives with the protocol's fault kinds and actions
//! because it decides the `action` of every `fault` message, and a record's header names it, so
//! the record's verifier reads it without reaching up into the referee.

use std::fmt;
use std::str::FromStr;

/// What to do when a bot faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultPolicy {
    /// The faulting seat's partnership loses the game at once.
    Forfeit,
    /// The referee plays a random legal move for the seat; a partnership's `max_faults + 1`-th
    /// fault forfeits the game.
    Substitute { max_faults: u32 },
}

impl fmt::Display for FaultPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultPolicy::Forfeit => f.write_str("forfeit"),
            FaultPolicy::Substitute { max_faults } => write!(f, "substitute:{max_faults}"),
        }
    }
}

/// `forfeit`, `substitute` or `substitute:N` (the form [`Display`](fmt::Display) writes).
impl FromStr for FaultPolicy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.split_once(':') {
            None if text == "forfeit" => Ok(FaultPolicy::Forfeit),
            None if text == "substitute" => Ok(FaultPolicy::Substitute { max_faults: 3 }),
            Some(("substitute", n)) => n
                .parse::<u32>()
                .map(|max_faults| FaultPolicy::Substitute { max_faults })
                .map_err(|_| {
                    format!("'{text}': N in substitute:N is a count of faults, like substitute:3")
                }),
            _ => Err(format!(
                "'{text}' is not a fault policy: use forfeit, substitute or substitute:N"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_policies_read_back_what_they_write() {
        assert_eq!("forfeit".parse(), Ok(FaultPolicy::Forfeit));
        assert_eq!(
            "substitute".parse(),
            Ok(FaultPolicy::Substitute { max_faults: 3 })
        );
        let five = FaultPolicy::Substitute { max_faults: 5 };
        assert_eq!("substitute:5".parse(), Ok(five));
        assert_eq!(five.to_string().parse(), Ok(five));
        assert!("substitute:x".parse::<FaultPolicy>().is_err());
        assert!("ignore".parse::<FaultPolicy>().is_err());
    }
}
