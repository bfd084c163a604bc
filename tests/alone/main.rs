//! Tests that load the machine on purpose or judge time: a bot spinning hundreds of processes,
//! pimc's hard limit under spinning threads, the CPU a bot gets off turn. Each takes
//! [`one_at_a_time`] first, so they never run beside each other; cargo runs one test binary at a
//! time, so no test of the other tiers runs beside them either.

use std::sync::{Mutex, MutexGuard};

#[path = "../common/mod.rs"]
mod common;

mod cpu_fairness;
mod freeze_off_turn;
mod pimc_time;

/// Held for the whole of a test of this tier: the others wait for it.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    // A test that failed while holding it poisons it; the next one runs all the same.
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
