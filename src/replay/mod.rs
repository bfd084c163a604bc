//! Showing a verified game (see [`crate::record::verify`]) to people: the transcript
//! `tarneeb replay` prints and the self-contained HTML page that steps through it.

pub mod deck;
pub mod html;
pub mod story;
pub mod text;
pub mod transcript;
