//! Double-dummy analysis: with all four hands known, how many tricks each side takes with best
//! play from any point of a hand, and so what each card played gave away. Used by
//! `tarneeb replay --analyze` and by the `pimc` reference bot. Outside the pure rules core: it
//! calls DDS, C++ code behind FFI.

pub mod dds_map;
pub mod game;
mod parallel;
pub mod play;
pub mod position;
pub mod report;
pub mod solver;

pub use game::{
    analyse_game, analyse_game_by, analyse_game_with, game_accuracy, strain_table, Accuracy,
    AnalysisError, GameAnalysis, HandAnalysis, Method,
};
pub use position::{Position, PositionError};
pub use solver::{best_cards_many, card_values_many, solve_many, CardValues, DdSolver, Want};

#[cfg(test)]
mod tests;
