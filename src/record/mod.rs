//! Game records: versioned JSON lines from which a game can be replayed without the bots and
//! without the random number generator (every deal and every move is in the record).
//! The format is described in `docs/record.md`.

pub mod format;
pub mod reader;
pub mod replay;
pub mod writer;

pub use format::{BotInfo, Header, MoveLine, RecordLine, RECORD_FORMAT};
pub use reader::{read_record, NumberedLine, ReadError};
pub use replay::{replay, replay_file, ReplayError, VerifiedGame};
pub use writer::RecordWriter;
