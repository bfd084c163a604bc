//! What a fault costs: the policy applied, the forfeit it may bring, the move the referee
//! plays in a faulted seat's place, and how a bot's exit is described.

use std::time::Duration;

use rand::Rng;

use super::{RefereeError, Table};
use crate::protocol::{FaultAction, FaultKind, FaultPolicy, ForfeitInfo, GameEndMsg, ToBot};
use crate::record::RecordLine;
use crate::rules::{EndReason, Move, Seat, Team};

pub(super) struct Forfeit {
    pub(super) winner: Option<Team>,
    pub(super) info: ForfeitInfo,
}

impl Table<'_, '_> {
    pub(super) fn forfeit_result(&self, f: Forfeit) -> GameEndMsg {
        let mut r = crate::protocol::game_end_msg(&self.game, f.winner, EndReason::Target);
        r.reason = "forfeit".to_string();
        r.forfeit = Some(f.info);
        r
    }

    /// Records a fault, tells the table, and applies the policy. Returns the forfeit when the
    /// game is lost by it.
    pub(super) fn fault(
        &mut self,
        seat: Seat,
        kind: FaultKind,
        detail: String,
    ) -> Result<Option<Forfeit>, RefereeError> {
        // A bot that died as the referee was interrupted (Ctrl-C at a human seat's prompt
        // reaches that seat first) is part of the interrupt, not a crash.
        if matches!(kind, FaultKind::Exited | FaultKind::Handshake)
            && self.stop.load(std::sync::atomic::Ordering::Relaxed)
        {
            return self.abort("interrupted by a signal");
        }
        // A remote seat's output closing is its connection's end, not an exit we saw.
        let kind = match (kind, self.seats[seat.index()].bot.remote()) {
            (FaultKind::Exited, Some(_)) => FaultKind::Disconnected,
            _ => kind,
        };
        let team = seat.team();
        self.faults[team.index()] += 1;
        self.seats[seat.index()].faulted = true;
        let action = match self.cfg.on_fault {
            // No one came to play the seat: the game is lost, whatever the policy.
            _ if kind == FaultKind::Absent => FaultAction::Forfeit,
            FaultPolicy::Forfeit => FaultAction::Forfeit,
            FaultPolicy::Substitute { max_faults } if self.faults[team.index()] > max_faults => {
                FaultAction::Forfeit
            }
            FaultPolicy::Substitute { .. } => FaultAction::Substitute,
        };
        if matches!(
            kind,
            FaultKind::Exited
                | FaultKind::Disconnected
                | FaultKind::LineTooLong
                | FaultKind::Handshake
                | FaultKind::Absent
        ) {
            // Its output is gone or unreadable: stop it now; its moves are the referee's from here.
            self.seats[seat.index()].alive = false;
            self.seats[seat.index()].bot.stop(self.cfg.grace);
        }
        let (kind, detail) = self.explain(seat, kind, detail);
        self.write(&RecordLine::Fault {
            hand_number: self.game.hand().number,
            seat,
            kind,
            detail: detail.clone(),
            action,
        })?;
        self.broadcast(&ToBot::Fault { seat, kind, action });
        self.flush()?;
        Ok((action == FaultAction::Forfeit).then(|| Forfeit {
            winner: Some(team.other()),
            info: ForfeitInfo { seat, kind, detail },
        }))
    }

    /// A fault a limit, the bot's stderr or the sandbox may explain: the limit's own kind and
    /// detail (the bot is stopped, it is broken); for a bot that could not start, died or gave
    /// no hello, the cause, the last lines of its stderr, the fix, and the sandbox's paragraph
    /// only when the evidence points there.
    fn explain(&mut self, seat: Seat, kind: FaultKind, detail: String) -> (FaultKind, String) {
        if !matches!(
            kind,
            FaultKind::Exited | FaultKind::Handshake | FaultKind::Timeout
        ) {
            return (kind, detail);
        }
        let s = &mut self.seats[seat.index()];
        if s.bot.is_remote() {
            // No process, log or sandbox here to explain it: the relay's side has them.
            return (kind, detail);
        }
        match s.bot.limit_hit() {
            Some(hit) => {
                s.alive = false;
                s.bot.stop(self.cfg.grace);
                let note = s.bot.sandbox_note();
                (hit.kind.into(), format!("{}; {detail}{note}", hit.detail))
            }
            None if kind == FaultKind::Timeout => (kind, detail),
            // A hello that arrived and was wrong says all there is to say.
            None if kind == FaultKind::Handshake
                && !detail.starts_with("no hello reply")
                && !detail.starts_with("exited before") =>
            {
                (kind, detail)
            }
            None => (kind, s.bot.explain_end(&detail)),
        }
    }

    pub(super) fn random_move(&mut self) -> Move {
        let legal = self.game.legal_moves();
        legal.as_slice()[self.rng.gen_range(0..legal.len())]
    }

    /// The exit status of a bot whose output closed, waiting briefly for it to be reported.
    pub(super) fn exit_detail(&mut self, seat: Seat) -> String {
        self.ended(seat)
            .unwrap_or_else(|| "still running with its output closed".to_string())
    }

    /// How `seat`'s bot ended (its exit status, or its connection's end), waiting briefly for
    /// the exit to be reported; `None` while its process runs.
    fn ended(&mut self, seat: Seat) -> Option<String> {
        let bot = &mut self.seats[seat.index()].bot;
        if let Some(r) = bot.remote() {
            return Some(format!(
                "the connection of remote entrant {} closed",
                r.entrant
            ));
        }
        for _ in 0..20 {
            if let Some(status) = bot.exit_status() {
                return Some(describe_status(status));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// What a failed write to `seat`'s bot (`error`, while `doing`, e.g. "request 7") tells:
    /// `Err` with the exit status of a bot that has died (or a remote connection that closed),
    /// which is told like its output's end; `Ok` with the detail of a bot still running that
    /// closed its stdin, a fault at once rather than at its move limit (issue 43).
    pub(super) fn input_closed(
        &mut self,
        seat: Seat,
        doing: &str,
        error: &str,
    ) -> Result<String, String> {
        match self.ended(seat) {
            Some(status) => Err(status),
            None => Ok(format!(
                "closed its stdin: the referee's write of {doing} failed ({error}), so nothing \
                 more can reach it"
            )),
        }
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => status.to_string(),
    }
}
