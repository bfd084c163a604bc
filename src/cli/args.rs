//! Arguments shared by the commands that start bots, and small parsers for command-line values.

use tarneeb_referee::bot::sandbox::{
    parse_size, Limits, SandboxChoice, SandboxOptions, SandboxUser, View,
};
use tarneeb_referee::protocol::TimeLimits;
use tarneeb_referee::referee::{EventDelivery, FaultPolicy};
use tarneeb_referee::rules::Seat;

/// The sandbox and limit flags shared by every command that starts bots (see docs/sandbox.md
/// and protocol.md section 1.1).
#[derive(clap::Args, Clone, Debug)]
pub struct SandboxArgs {
    /// Run each bot in a sandbox: auto (bwrap when installed, else a warning and none), bwrap
    /// (required: exit 2 when missing) or none (while developing a bot).
    #[arg(long, value_enum, default_value = "auto")]
    pub sandbox: SandboxChoice,
    /// What a sandboxed bot sees read-only: wide (the whole filesystem but records, logs,
    /// tournament directories, /run and /tmp) or strict (the system, the files its command
    /// names, its interpreter's prefix and --sandbox-ro paths).
    #[arg(long, value_enum, default_value = "wide")]
    pub sandbox_view: View,
    /// Who a sandboxed bot runs as: auto (a uid of its own from 60000 when the referee runs
    /// as root, else the referee's user), referee (the referee's user even as root: bots then
    /// read what root may read; trusted bots only) or UID (as auto, uids from UID).
    #[arg(long, default_value = "auto", value_name = "auto|referee|UID")]
    pub sandbox_user: SandboxUser,
    /// Also show this path read-only to sandboxed bots (repeatable), at the same place.
    #[arg(long = "sandbox-ro", value_name = "PATH")]
    pub sandbox_ro: Vec<std::path::PathBuf>,
    /// Also pass this environment variable to bots, when the referee has it (repeatable).
    #[arg(long = "sandbox-env", value_name = "NAME")]
    pub sandbox_env: Vec<String>,
    /// Memory of a bot and every process it starts (a cgroup; per process without one).
    #[arg(long, default_value = "2G", value_parser = parse_size, value_name = "SIZE")]
    pub memory_limit: u64,
    /// Processes and threads a bot may have at once (a cgroup; no limit without one).
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub process_limit: u64,
    /// Largest file a bot may write.
    #[arg(long, default_value = "256M", value_parser = parse_size, value_name = "SIZE")]
    pub file_size_limit: u64,
    /// Open files per bot process.
    #[arg(long, default_value_t = 1024, value_name = "N")]
    pub open_files_limit: u64,
    /// Size of a sandboxed bot's working directory, and separately of its /tmp.
    #[arg(long, default_value = "256M", value_parser = parse_size, value_name = "SIZE")]
    pub disk_limit: u64,
    /// CPU time per bot process for the whole game, e.g. 5m (default: no limit).
    #[arg(long, value_parser = parse_duration_ms, value_name = "DURATION")]
    pub cpu_limit: Option<u64>,
}

impl SandboxArgs {
    /// What these flags ask of the sandbox.
    pub fn options(&self) -> SandboxOptions {
        SandboxOptions {
            choice: self.sandbox,
            view: self.sandbox_view,
            ro: self.sandbox_ro.clone(),
            env: self.sandbox_env.clone(),
            user: self.sandbox_user,
            limits: Limits {
                memory_limit: self.memory_limit,
                process_limit: self.process_limit,
                file_size_limit: self.file_size_limit,
                open_files_limit: self.open_files_limit,
                disk_limit: self.disk_limit,
                cpu_limit: self.cpu_limit,
            },
        }
    }
}

/// The time, fault and output limits a bot plays under: shared by `play` and `tournament`.
#[derive(clap::Args, Clone, Debug)]
pub struct BotLimits {
    /// Time for a bot to answer the handshake.
    #[arg(long, default_value = "10s", value_parser = parse_limit_ms, allow_hyphen_values = true)]
    pub handshake_timeout: u64,
    /// Hard limit for each reply; going over it is a timeout fault. (400's ten-second rule is
    /// a rules option counted in strikes, separate from this.) Default: 30s; with a human seat
    /// (`play --bot human`), no limit.
    #[arg(long, value_parser = parse_limit_ms, allow_hyphen_values = true)]
    pub move_timeout: Option<u64>,
    /// A chess-clock time bank per seat for the whole game (default: none).
    #[arg(long, value_parser = parse_duration_ms, allow_hyphen_values = true)]
    pub time_bank: Option<u64>,
    /// Added to a seat's bank after each of its replies.
    #[arg(long, default_value = "0s", value_parser = parse_duration_ms, allow_hyphen_values = true)]
    pub increment: u64,
    /// What a fault costs: forfeit (the partnership loses) or substitute[:N] (the referee plays
    /// a random legal move; a partnership's N+1-th fault forfeits; N defaults to 3).
    #[arg(long, default_value = "forfeit", value_parser = str::parse::<FaultPolicy>)]
    pub on_fault: FaultPolicy,
    /// Longest line accepted from a bot, in bytes.
    #[arg(long, default_value_t = 1 << 20)]
    pub max_line: usize,
    /// Largest stderr log kept per bot, in bytes (the rest is drained and dropped).
    #[arg(long, default_value_t = 1 << 20)]
    pub stderr_cap: u64,
    /// When bots hear of moves, tricks and hand ends: batched (a seat's events go with its next
    /// request, or at the game's end: one bot woken per move) or immediate (every event to every
    /// seat as it happens, for bots that think on others' time; slower).
    #[arg(long, default_value = "batched", value_parser = str::parse::<EventDelivery>)]
    pub events: EventDelivery,
    /// Freeze each sandboxed bot (its cgroup) while other seats are to move, so none thinks or
    /// spins on another's time (costs two cgroup writes a move; docs/performance.md).
    #[arg(long)]
    pub freeze_off_turn: bool,
}

/// `--move-timeout` when none is given.
pub const DEFAULT_MOVE_MS: u64 = 30_000;

impl BotLimits {
    pub fn time(&self) -> TimeLimits {
        TimeLimits {
            handshake_ms: self.handshake_timeout,
            move_ms: self.move_timeout.unwrap_or(DEFAULT_MOVE_MS),
            bank_ms: self.time_bank,
            increment_ms: self.increment,
        }
    }

    /// These limits as a tournament's settings hold them.
    pub fn seat_limits(&self) -> tarneeb_referee::tournament::run::spec::SeatLimits {
        tarneeb_referee::tournament::run::spec::SeatLimits {
            time: self.time(),
            on_fault: self.on_fault,
            events: self.events,
            freeze_off_turn: self.freeze_off_turn,
            max_line: self.max_line,
            stderr_cap: self.stderr_cap,
        }
    }
}

/// A time limit a bot must answer within: a duration of at least 1 ms (`0s` made every bot
/// forfeit at its first request, issue 41).
pub fn parse_limit_ms(text: &str) -> Result<u64, String> {
    match parse_duration_ms(text)? {
        0 => Err(format!(
            "'{text}' leaves a bot no time to answer: give at least 1ms (the default is 30s for moves, 10s for the handshake)"
        )),
        n => Ok(n),
    }
}

/// `250ms`, `10s`, `2m`: a whole number with its unit. A bare number is refused: `5` read as
/// milliseconds made `--move-timeout 5` a 5 ms limit that every bot lost on.
pub fn parse_duration_ms(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let unit = [("ms", 1), ("s", 1000), ("m", 60_000)]
        .into_iter()
        .find_map(|(suffix, mult)| t.strip_suffix(suffix).map(|n| (n.trim(), mult)));
    match unit {
        Some((num, mult)) if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) => num
            .parse::<u64>()
            .ok()
            .and_then(|n| n.checked_mul(mult))
            .ok_or_else(|| {
                format!("'{text}' is too long a duration: at most {} hours", u64::MAX / 3_600_000)
            }),
        Some((num, _)) if num.starts_with('-') => Err(format!(
            "'{text}' is negative: a duration is a whole number of 0 or more and a unit, like 500ms, 10s or 5m"
        )),
        Some(_) => Err(format!(
            "'{text}' is not a duration: write a whole number and a unit, like 500ms, 10s or 5m"
        )),
        None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => Err(format!(
            "'{text}' has no unit: write {t}ms, {t}s or {t}m (a bare number is not taken as milliseconds)"
        )),
        None => Err(format!(
            "'{text}' is not a duration: write a whole number and a unit, like 500ms, 10s or 5m"
        )),
    }
}

pub fn parse_seat(text: &str) -> Result<Seat, String> {
    text.parse::<u8>()
        .ok()
        .and_then(Seat::new)
        .ok_or_else(|| format!("'{text}' is not a seat: seats are 0, 1, 2 and 3"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("250ms"), Ok(250));
        assert_eq!(parse_duration_ms("10s"), Ok(10_000));
        assert_eq!(parse_duration_ms("2m"), Ok(120_000));
        assert_eq!(parse_duration_ms("0s"), Ok(0));
        let bare = parse_duration_ms("42").unwrap_err();
        assert!(bare.contains("42ms, 42s or 42m"), "{bare}");
        assert!(parse_duration_ms("soon").unwrap_err().contains("'soon'"));
        assert!(parse_duration_ms("1.5s").is_err());
    }
}
