//! Playing a tournament: [`spec`] checks what the flags ask for, [`runner`] plays the games on
//! worker threads (`game`: what a game is dealt from and what its row measures), [`pool`] keeps
//! bots up between games, [`remote_seats`] seats remote entrants' connections, [`progress`]
//! shows how far it got.

mod game;
pub mod pool;
pub mod progress;
pub mod remote_seats;
pub mod runner;
pub mod spec;
