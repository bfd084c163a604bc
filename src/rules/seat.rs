//! Seats in playing order and the two partnerships, with arrays indexed by them.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seat, numbered in playing order: play passes 0 -> 1 -> 2 -> 3 -> 0 (docs/rules.md#seats).
/// Whether that is clockwise at a real table is a display matter only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    S0 = 0,
    S1 = 1,
    S2 = 2,
    S3 = 3,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::S0, Seat::S1, Seat::S2, Seat::S3];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Seat {
        Seat::ALL[i & 3]
    }

    pub fn new(i: u8) -> Option<Seat> {
        (i < 4).then(|| Seat::ALL[i as usize])
    }

    /// The next seat in playing order.
    pub const fn next(self) -> Seat {
        Seat::from_index(self as usize + 1)
    }

    pub const fn plus(self, n: usize) -> Seat {
        Seat::from_index(self as usize + n)
    }

    /// Partners sit opposite: 0 & 2, 1 & 3.
    pub const fn partner(self) -> Seat {
        Seat::from_index(self as usize + 2)
    }

    pub const fn team(self) -> Team {
        if (self as usize).is_multiple_of(2) {
            Team::T0
        } else {
            Team::T1
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", *self as u8)
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(*self as u8)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let i = u8::deserialize(d)?;
        Seat::new(i).ok_or_else(|| {
            serde::de::Error::custom(format!("seat {i} does not exist: seats are 0, 1, 2 and 3"))
        })
    }
}

/// A partnership: team 0 is seats 0 and 2, team 1 is seats 1 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Team {
    T0 = 0,
    T1 = 1,
}

impl Team {
    pub const ALL: [Team; 2] = [Team::T0, Team::T1];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Team {
        match self {
            Team::T0 => Team::T1,
            Team::T1 => Team::T0,
        }
    }

    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Team::T0 => [Seat::S0, Seat::S2],
            Team::T1 => [Seat::S1, Seat::S3],
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", *self as u8)
    }
}

impl Serialize for Team {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(*self as u8)
    }
}

impl<'de> Deserialize<'de> for Team {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Team, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(Team::T0),
            1 => Ok(Team::T1),
            i => Err(serde::de::Error::custom(format!(
                "team {i} does not exist: teams are 0 and 1"
            ))),
        }
    }
}

/// A value per seat, indexed by [`Seat`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(pub [T; 4]);

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, s: Seat) -> &T {
        &self.0[s.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.index()]
    }
}

/// A value per partnership, indexed by [`Team`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ByTeam<T>(pub [T; 2]);

impl<T> Index<Team> for ByTeam<T> {
    type Output = T;
    fn index(&self, t: Team) -> &T {
        &self.0[t.index()]
    }
}

impl<T> IndexMut<Team> for ByTeam<T> {
    fn index_mut(&mut self, t: Team) -> &mut T {
        &mut self.0[t.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_sit_opposite_and_play_passes_in_seat_order() {
        // docs/rules.md#seats, docs/rules.md#partnerships: play passes 0 -> 1 -> 2 -> 3 -> 0;
        // partners are 0 & 2 and 1 & 3.
        assert_eq!(Seat::S0.next(), Seat::S1);
        assert_eq!(Seat::S3.next(), Seat::S0);
        assert_eq!(Seat::S0.partner(), Seat::S2);
        assert_eq!(Seat::S1.partner(), Seat::S3);
        for s in Seat::ALL {
            assert_eq!(s.team(), s.partner().team());
            assert_ne!(s.team(), s.next().team());
        }
        assert_eq!(Team::T1.seats(), [Seat::S1, Seat::S3]);
    }
}
