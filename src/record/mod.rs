//! Game records: versioned JSON lines from which a game can be replayed without the bots and
//! without the random number generator (every deal and every move is in the record).
//! The format is described in `docs/record.md`.
//!
//! Inside, from the bottom: [`compressed`] (zstd records, read transparently), [`format`] (the lines), [`reader`] (text into numbered lines, and
//! the line error every later check reports), [`writer`], [`deals`] (the deals a record or a
//! deals file holds), [`verified`] (the model of a verified game) and [`verify`] (the replay
//! against the rules that produces it).

pub mod compressed;
pub mod deals;
pub mod format;
pub mod reader;
pub mod verified;
pub mod verify;
pub mod writer;

pub use deals::{read_deals, recorded_deals, RecordedDeals};
pub use format::{BotInfo, Header, MoveLine, RecordLine, RemoteSeat, RECORD_FORMAT};
pub use reader::{read_record, LineError, NumberedLine, ReadError};
pub use verified::VerifiedGame;
pub use verify::{replay, replay_file, replay_text};
pub(crate) use writer::create_private;
pub use writer::RecordWriter;
