//! The machine-wide counters a bot's `/proc`, `/sys` and `/dev` would show, hidden.
//!
//! A fresh `/proc` shows only the bot's own processes, but some of its files count for the
//! whole machine: `loadavg` (the number of threads), `stat` (CPU time, context switches,
//! processes started), `meminfo`, `vmstat`, `diskstats`, `pressure/*`, `sys/fs/file-nr` (open
//! files), `sys/kernel/pty/nr` (terminals opened). Two bots of one entrant read them as a
//! channel: one opens terminals or starts threads, the other counts them (issue 38 measured
//! 12 of 12 hands right through `pty/nr`). So:
//! - `stat`, `meminfo` and `loadavg` show fixed contents in their usual format (runtimes read
//!   them: Node's `os.cpus()` counts the CPU lines of `stat`), made once per referee from what
//!   does not move (the CPUs, the memory size, the boot time);
//! - the other counters are covered with `/dev/null`, which the sandbox's mounts refuse to
//!   open (nodev), and `pressure/` and `sys/fs/` with an empty directory;
//! - `/dev/pts` is an empty directory, so `/dev/ptmx` opens no terminal (a bot has no use for
//!   one, and each it opened counted in `pty/nr`);
//! - in the wide view, `/sys` is an empty directory, as in the strict view: it holds the same
//!   counters for disks, memory and CPUs, and the cgroup tree (every bot's counters). C
//!   libraries then count CPUs from the fixed `stat`, which keeps the CPU lines.
//!
//! A mount costs about 0.2 ms of each bot start: a first version that covered 27 files one
//! by one added 7.5 ms a bot; this one adds about 2.5 ms (docs/performance.md).
//!
//! `sysinfo(2)` answers the same counters (loads, free memory, processes): it is denied in
//! `seccomp`. What stays is the time any call takes (docs/sandbox.md says what it carries).

use std::io::{self, Seek, SeekFrom, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::OnceLock;

/// Files of `/proc` shown with fixed contents, in the order of `data_fds`.
pub(super) const FIXED: [&str; 3] = ["/proc/stat", "/proc/meminfo", "/proc/loadavg"];

/// Files of `/proc` covered with `/dev/null` when the machine has them: memory (`vmstat`,
/// `zoneinfo`, `buddyinfo`: a bot's allocations move them), disks, CPU activity (`uptime`'s
/// idle time, `schedstat`, `interrupts`, `softirqs`) and terminals opened. Each is a mount per
/// bot start (about 0.2 ms): the list holds what a bot can move or read for the whole machine,
/// not every file of /proc.
pub(super) const HIDDEN: &[&str] = &[
    "/proc/vmstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/diskstats",
    "/proc/uptime",
    "/proc/schedstat",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/sys/kernel/pty/nr",
];

/// Directories of `/proc` covered with an empty one: pressure stall counters, and
/// `sys/fs` (open files, inodes, dentries, AIO contexts in use on the whole machine).
pub(super) const HIDDEN_DIRS: &[&str] = &["/proc/pressure", "/proc/sys/fs"];

/// The fixed contents of `FIXED`, made once.
fn contents() -> &'static [Vec<u8>; 3] {
    static CONTENTS: OnceLock<[Vec<u8>; 3]> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        [
            fixed_stat(&stat).into_bytes(),
            fixed_meminfo(&meminfo).into_bytes(),
            b"0.00 0.00 0.00 1/1 1\n".to_vec(),
        ]
    })
}

/// `/proc/stat` with its CPU lines and boot time, every counter 0.
fn fixed_stat(host: &str) -> String {
    let zeros = " 0 0 0 0 0 0 0 0 0 0";
    let mut out = String::new();
    let mut cpus = 0;
    for line in host.lines() {
        let Some(name) = line.split_whitespace().next() else {
            continue;
        };
        if name.starts_with("cpu") {
            let pad = if name == "cpu" { " " } else { "" };
            out.push_str(&format!("{name}{pad}{zeros}\n"));
            cpus += 1;
        }
    }
    if cpus == 0 {
        out.push_str(&format!("cpu {zeros}\ncpu0{zeros}\n"));
    }
    let btime = host
        .lines()
        .find_map(|l| l.strip_prefix("btime "))
        .unwrap_or("0");
    out.push_str(&format!(
        "intr 0\nctxt 0\nbtime {}\nprocesses 0\nprocs_running 1\nprocs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
        btime.trim()
    ));
    out
}

/// `/proc/meminfo` with the machine's memory size, all of it free.
fn fixed_meminfo(host: &str) -> String {
    let total = host
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .unwrap_or(1 << 20);
    let mut out = String::new();
    for name in ["MemTotal", "MemFree", "MemAvailable"] {
        out.push_str(&format!("{:<16}{total:>8} kB\n", format!("{name}:")));
    }
    for name in ["Buffers", "Cached", "SwapCached", "SwapTotal", "SwapFree"] {
        out.push_str(&format!("{:<16}{:>8} kB\n", format!("{name}:"), 0));
    }
    out
}

/// The contents of `FIXED` as descriptors for bwrap's `--ro-bind-data`, one fresh memfd each
/// (bwrap reads each to its end). Close-on-exec: the child clears it on exactly these.
pub(super) fn data_fds() -> io::Result<Vec<OwnedFd>> {
    contents()
        .iter()
        .map(|bytes| {
            // SAFETY: memfd_create with a static name; the descriptor is owned at once.
            let fd = unsafe { libc::memfd_create(c"tarneeb-proc".as_ptr(), libc::MFD_CLOEXEC) };
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `fd` is a new descriptor nobody else owns.
            let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
            file.write_all(bytes)?;
            file.seek(SeekFrom::Start(0))?;
            Ok(OwnedFd::from(file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_stat_keeps_the_cpus_and_the_boot_time_and_nothing_that_moves() {
        let host = "cpu  2255 34 2290 22625563 6290 127 456 0 0 0\ncpu0 1132 34 1441 11311718 3675 127 438 0 0 0\ncpu1 1123 0 849 11313845 2614 0 18 0 0 0\nintr 114930548 113199788 3 0\nctxt 1990473\nbtime 1062191376\nprocesses 2915\nprocs_running 1\nprocs_blocked 0\n";
        let s = fixed_stat(host);
        assert!(s.starts_with("cpu  0 0 0"), "{s}");
        assert_eq!(s.lines().filter(|l| l.starts_with("cpu")).count(), 3);
        assert!(s.contains("btime 1062191376\n"));
        for moving in ["2255", "114930548", "1990473", "2915"] {
            assert!(!s.contains(moving), "{moving} in {s}");
        }
    }

    #[test]
    fn the_fixed_meminfo_shows_the_size_all_free() {
        let s = fixed_meminfo("MemTotal:       16316412 kB\nMemFree:         1234567 kB\n");
        assert!(s.contains("MemTotal:       16316412 kB"), "{s}");
        assert!(s.contains("MemAvailable:   16316412 kB"), "{s}");
        assert!(!s.contains("1234567"));
        assert_eq!(data_fds().unwrap().len(), FIXED.len());
    }
}
