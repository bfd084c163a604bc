//! Double-dummy analysis: with all four hands known, how many tricks each side takes with best
//! play from any point of a hand, and so what each card played gave away. Used by
//! `tarneeb replay --analyze` and by the `pimc` reference bot. Outside the pure rules core: it
//! calls DDS, C++ code behind FFI.

pub mod dds_map;
pub mod game;
pub mod position;
pub mod report;
pub mod solver;

pub use game::{analyse_game, AnalysisError, GameAnalysis, HandAnalysis};
pub use position::{Position, PositionError};
pub use solver::{card_values_many, solve_many, CardValues, DdSolver, Want};

#[cfg(test)]
mod tests;
