//! Stopping bots for good, many at once, and waiting on many at once: the two operations that
//! take several bots together, so one bot's grace period or wait does not add to another's.

use std::thread;
use std::time::{Duration, Instant};

use super::{os, Bot, Peer, Process, AFTER_KILL};

/// Ends these bots and everything they started, all at once, and reaps them all. Returns
/// within about `grace` + 1 s whatever the bots do.
///
/// Order: each bot's stdin is closed (a bot reading its input sees EOF, as after `game_end`)
/// and whatever was still queued for it is dropped; the bots get half of `grace` to exit on
/// their own (to flush logs, save what they learned); then SIGTERM goes to each whole group and
/// the bots still running get the other half; then SIGKILL to each group catches a bot that
/// ignored SIGTERM and any helper still alive. Then the bots and, thanks to
/// [`become_subreaper`], their orphaned helpers are reaped, and the stderr pump is given the
/// rest of the second to see their stderr pipes close (a helper that left the group with
/// `setsid` can keep a pipe open; the pump then goes on draining it until it closes). Stdout
/// stays open until a `Bot` is dropped, so what a bot wrote before it ended, and the `Eof`, can
/// still be read.
pub fn stop_all(bots: &mut [&mut Bot], grace: Duration) {
    let mut stopping: Vec<&mut Bot> = bots
        .iter_mut()
        .filter_map(|b| b.begin_stop().then_some(&mut **b))
        .collect();
    // A frozen process takes no signal until thawed, not even SIGKILL.
    for b in stopping.iter_mut() {
        b.thaw();
    }
    if stopping.is_empty() {
        return;
    }
    // A remote connection was hung up by `begin_stop`: there is nothing of it to wait for.
    let mut procs: Vec<&mut Process> = stopping
        .iter_mut()
        .filter_map(|b| match &mut b.peer {
            Peer::Process(p) => Some(&mut **p),
            Peer::Remote(_) => None,
        })
        .collect();
    if procs.is_empty() {
        return;
    }
    let half = grace / 2;
    os::wait_children_until(
        procs.iter_mut().map(|p| &mut p.child),
        Instant::now() + half,
    );
    for p in procs.iter() {
        // Also when the bot itself has exited: helpers it left in its group end with it.
        os::signal_group(p.pgid, libc::SIGTERM);
    }
    os::wait_children_until(
        procs.iter_mut().map(|p| &mut p.child),
        Instant::now() + half,
    );
    for p in procs.iter() {
        os::signal_group(p.pgid, libc::SIGKILL);
    }
    let deadline = Instant::now() + AFTER_KILL;
    os::wait_children_until(procs.iter_mut().map(|p| &mut p.child), deadline);
    for p in procs.iter() {
        os::reap_group(p.pgid, deadline);
    }
    drop(procs);
    for b in stopping.iter_mut() {
        b.finish_stop(deadline);
    }
}

/// Waits until at least one of `bots` may have an event (or `d` passes): one `poll` over all of
/// them, so the referee can wait for several bots at once (the handshake) without a busy loop.
/// Follow it with [`Bot::try_recv`] on each.
pub fn wait_any<'a>(bots: impl IntoIterator<Item = &'a Bot>, d: Duration) {
    let mut fds = Vec::new();
    for bot in bots {
        if !bot.events.is_empty() {
            return;
        }
        let (bot_fds, n) = bot.poll_fds();
        fds.extend_from_slice(&bot_fds[..n]);
    }
    if fds.is_empty() {
        thread::sleep(d);
    } else {
        let _ = os::poll(&mut fds, Some(d));
    }
}
