pub mod ratings;
pub mod sprt;
pub mod standings;
