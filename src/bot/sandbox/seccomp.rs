//! The system calls a sandboxed bot may not make, as seccomp filters bwrap installs
//! (`--add-seccomp-fd`) before it starts the bot.
//!
//! Namespaces separate files, processes and the network, but some kernel objects are shared
//! by every process of a user whatever its namespaces: two bots of one entrant could pass
//! cards through them. Denied (each an error, so a program that tries gets a clear failure):
//! - the kernel keyring (`add_key`, `request_key`, `keyctl`): keys linked into the user's
//!   keyring are visible to every process of that user and outlive the sandbox; Flatpak
//!   denies them for the same reason;
//! - calls a card bot has no use for that reach the kernel's shared state or other
//!   processes: `perf_event_open`, `bpf`, `userfaultfd`, `ptrace`, `process_vm_readv`,
//!   `process_vm_writev`, `kexec_load`, `kexec_file_load`, `open_by_handle_at`,
//!   `name_to_handle_at`, `syslog`, `acct`, `quotactl`, `io_uring_setup`, `io_uring_enter`,
//!   `io_uring_register` (io_uring's operations do not pass through seccomp), `add_key`.
//!
//! Quieter channels between processes that share files (issue 38), denied the same way:
//! - change notification: `inotify_init`, `inotify_init1`, `inotify_add_watch`,
//!   `fanotify_init`, `fanotify_mark` and `fcntl(F_NOTIFY)`. Every bot sees the same read-only
//!   files (its interpreter, its modules), and a watch on one tells a partner's open or read
//!   of it: whole hands passed this way in every view;
//! - the page cache as storage: `mincore`, `fadvise64`, `readahead`, `cachestat`, `preadv2`
//!   and `pwritev2` with `RWF_NOWAIT`, `madvise` with `MADV_COLD` or `MADV_PAGEOUT`. A bot
//!   evicts or loads pages of a shared file and a partner, or its twin in the other game of a
//!   duplicate pair, reads which are cached; with no way to evict a page nor to ask whether
//!   it is cached, only the time a read takes is left (see docs/sandbox.md);
//! - `sysinfo`: the machine's load averages, free memory and number of processes, the same
//!   counters `/proc/loadavg` and `/proc/meminfo` showed (see `counters`); glibc asks it for
//!   the memory size (`sysconf(_SC_PHYS_PAGES)`) and takes the failure in its stride, and the
//!   JVM, Node, Python, Go, C and Rust sample bots start and play without it;
//! - socket families a bot has no use for (all but `AF_UNIX`, `AF_INET`, `AF_INET6` and
//!   `AF_NETLINK`, which runtimes open for themselves): `AF_VSOCK` reaches the hypervisor
//!   whatever the network namespace. These fail with `EAFNOSUPPORT`, as on a kernel without
//!   the family, which runtimes expect;
//! - the x32 system calls on x86-64 (numbers with bit 30 set): they share the architecture
//!   tag with x86-64, so a filter on numbers alone would let `inotify_init1 | 0x40000000`
//!   through on a kernel built with x32. They fail with `ENOSYS`.
//!
//! File locks are a channel too: two bots that both see a read-only file (a Python module,
//! a shared library) share its locks, and lock/unlock encodes bits. They are made private
//! rather than denied: `flock` and the `fcntl` lock commands succeed without locking, so a
//! runtime that locks its own files (SQLite, the JVM's shared archive) works as it would
//! alone, and no other process can see a lock.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// Denied calls (EPERM).
const DENIED: &[libc::c_long] = &[
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_keyctl,
    libc::SYS_perf_event_open,
    libc::SYS_bpf,
    libc::SYS_userfaultfd,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_syslog,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_inotify_init,
    libc::SYS_inotify_init1,
    libc::SYS_inotify_add_watch,
    libc::SYS_fanotify_init,
    libc::SYS_fanotify_mark,
    libc::SYS_mincore,
    libc::SYS_fadvise64,
    libc::SYS_readahead,
    SYS_CACHESTAT,
    libc::SYS_sysinfo,
];

/// `cachestat` (Linux 6.5), the same number on every architecture; not yet in libc.
const SYS_CACHESTAT: libc::c_long = 451;

/// `preadv2`/`pwritev2` flag: fail with `EAGAIN` rather than wait for the disk, which tells
/// whether a page is cached.
const RWF_NOWAIT: u64 = 0x08;

/// `madvise` advice that pushes a file's pages out of memory.
const MADV_COLD: u64 = 20;
const MADV_PAGEOUT: u64 = 21;

/// Socket families a bot may open: local sockets, the (empty) network namespace's IP, and
/// netlink, which C libraries open to list interfaces.
const FAMILIES: &[libc::c_int] = &[
    libc::AF_UNIX,
    libc::AF_INET,
    libc::AF_INET6,
    libc::AF_NETLINK,
];

/// The x32 ABI's bit in a system call number on x86-64.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// `fcntl` commands that take, test or drop a lock (POSIX and open-file-description locks).
const LOCK_COMMANDS: &[libc::c_int] = &[
    libc::F_GETLK,
    libc::F_SETLK,
    libc::F_SETLKW,
    libc::F_OFD_GETLK,
    libc::F_OFD_SETLK,
    libc::F_OFD_SETLKW,
];

fn arch() -> TargetArch {
    if cfg!(target_arch = "aarch64") {
        TargetArch::aarch64
    } else if cfg!(target_arch = "riscv64") {
        TargetArch::riscv64
    } else {
        TargetArch::x86_64
    }
}

fn program(filter: SeccompFilter) -> Vec<u8> {
    let bpf: BpfProgram = filter.try_into().expect("the filter compiles");
    bytes_of(&bpf)
}

fn bytes_of(bpf: &[seccompiler::sock_filter]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(bpf.len() * 8);
    for i in bpf {
        bytes.extend_from_slice(&i.code.to_ne_bytes());
        bytes.push(i.jt);
        bytes.push(i.jf);
        bytes.extend_from_slice(&i.k.to_ne_bytes());
    }
    bytes
}

/// One rule: argument `arg` (32 or 64 bits) compared with `value`.
fn when(arg: u8, len: SeccompCmpArgLen, op: SeccompCmpOp, value: u64) -> SeccompCondition {
    SeccompCondition::new(arg, len, op, value).expect("a valid condition")
}

fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
    SeccompRule::new(conditions).expect("a valid rule")
}

/// Calls denied only for some arguments: `fcntl(F_NOTIFY)`, `RWF_NOWAIT` reads and writes,
/// page-out advice.
fn denied_with_arguments() -> Vec<(i64, Vec<SeccompRule>)> {
    use SeccompCmpArgLen::{Dword, Qword};
    let nowait = || {
        vec![rule(vec![when(
            5,
            Qword,
            SeccompCmpOp::MaskedEq(RWF_NOWAIT),
            RWF_NOWAIT,
        )])]
    };
    vec![
        (
            libc::SYS_fcntl,
            vec![rule(vec![when(
                1,
                Dword,
                SeccompCmpOp::Eq,
                libc::F_NOTIFY as u64,
            )])],
        ),
        (libc::SYS_preadv2, nowait()),
        (libc::SYS_pwritev2, nowait()),
        (
            libc::SYS_madvise,
            [MADV_COLD, MADV_PAGEOUT]
                .iter()
                .map(|&advice| rule(vec![when(2, Dword, SeccompCmpOp::Eq, advice)]))
                .collect(),
        ),
    ]
}

/// `socket` and `socketpair` of any family but `FAMILIES`.
fn other_families() -> SeccompFilter {
    let not_allowed = || {
        vec![rule(
            FAMILIES
                .iter()
                .map(|&f| when(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, f as u64))
                .collect(),
        )]
    };
    let calls: BTreeMap<i64, Vec<SeccompRule>> = [
        (libc::SYS_socket, not_allowed()),
        (libc::SYS_socketpair, not_allowed()),
    ]
    .into_iter()
    .collect();
    SeccompFilter::new(
        calls,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EAFNOSUPPORT as u32),
        arch(),
    )
    .expect("a valid filter")
}

/// Written by hand, as seccompiler checks numbers only: on x86-64, every call with the x32
/// bit fails with `ENOSYS`; elsewhere, and for other calls, the filter allows.
fn no_x32() -> Vec<seccompiler::sock_filter> {
    use seccompiler::sock_filter;
    const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ_K: u16 = 0x05 | 0x10;
    const JGE_K: u16 = 0x05 | 0x30;
    const RET_K: u16 = 0x06;
    const AUDIT_ARCH_X86_64: u32 = 62 | 0x8000_0000 | 0x4000_0000;
    const RET_ERRNO: u32 = 0x0005_0000;
    const RET_ALLOW: u32 = 0x7fff_0000;
    let i = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    vec![
        i(LD_W_ABS, 0, 0, 4), // arch
        i(JEQ_K, 0, 3, AUDIT_ARCH_X86_64),
        i(LD_W_ABS, 0, 0, 0), // nr
        i(JGE_K, 0, 1, X32_SYSCALL_BIT),
        i(RET_K, 0, 0, RET_ERRNO | libc::ENOSYS as u32),
        i(RET_K, 0, 0, RET_ALLOW),
    ]
}

/// The compiled filters: the denied calls, the private locks, the socket families, x32.
fn programs() -> &'static [Vec<u8>; 4] {
    static PROGRAMS: OnceLock<[Vec<u8>; 4]> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let denied: BTreeMap<i64, Vec<SeccompRule>> = DENIED
            .iter()
            .map(|&nr| (nr, Vec::new()))
            .chain(denied_with_arguments())
            .collect();
        let deny = SeccompFilter::new(
            denied,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM as u32),
            arch(),
        )
        .expect("a valid filter");
        let lock_rules = LOCK_COMMANDS
            .iter()
            .map(|&cmd| {
                rule(vec![when(
                    1,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::Eq,
                    cmd as u64,
                )])
            })
            .collect();
        let locks: BTreeMap<i64, Vec<SeccompRule>> =
            [(libc::SYS_flock, Vec::new()), (libc::SYS_fcntl, lock_rules)]
                .into_iter()
                .collect();
        // Errno 0: the call returns 0, as if the lock were taken.
        let private =
            SeccompFilter::new(locks, SeccompAction::Allow, SeccompAction::Errno(0), arch())
                .expect("a valid filter");
        [
            program(deny),
            program(private),
            program(other_families()),
            bytes_of(&no_x32()),
        ]
    })
}

/// The filters as descriptors for bwrap's `--add-seccomp-fd`, one fresh memfd each (bwrap
/// reads a descriptor to its end, so none can be shared between bots). Close-on-exec: the
/// child clears it on exactly these (see `confine::command`).
pub fn filter_fds() -> io::Result<Vec<OwnedFd>> {
    programs()
        .iter()
        .map(|bytes| {
            // SAFETY: memfd_create with a static name; the descriptor is owned at once.
            let fd = unsafe { libc::memfd_create(c"tarneeb-seccomp".as_ptr(), libc::MFD_CLOEXEC) };
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `fd` is a new descriptor nobody else owns.
            let owned = unsafe { OwnedFd::from_raw_fd(fd) };
            let mut file = std::fs::File::from(owned);
            file.write_all(bytes)?;
            std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0))?;
            Ok(OwnedFd::from(file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filter_compiles_to_whole_instructions() {
        for p in programs() {
            assert!(!p.is_empty());
            assert_eq!(p.len() % 8, 0);
        }
        assert_eq!(filter_fds().unwrap().len(), programs().len());
    }

    /// The kernel's `struct seccomp_data` as the filters read it.
    struct Call {
        nr: u32,
        arch: u32,
        args: [u64; 6],
    }

    fn call(nr: libc::c_long, args: &[u64]) -> Call {
        let mut a = [0u64; 6];
        a[..args.len()].copy_from_slice(args);
        Call {
            nr: nr as u32,
            arch: if cfg!(target_arch = "aarch64") {
                183 | 0xC000_0000
            } else if cfg!(target_arch = "riscv64") {
                243 | 0xC000_0000
            } else {
                62 | 0xC000_0000
            },
            args: a,
        }
    }

    /// Runs one compiled filter (classic BPF as the kernel would: the instructions seccompiler
    /// and `no_x32` emit) on a call; its return value.
    fn run(program: &[u8], c: &Call) -> u32 {
        let word = |off: u32| -> u32 {
            match off {
                0 => c.nr,
                4 => c.arch,
                o if (16..64).contains(&o) => {
                    let arg = c.args[((o - 16) / 8) as usize];
                    if (o - 16) % 8 == 0 {
                        arg as u32
                    } else {
                        (arg >> 32) as u32
                    }
                }
                o => panic!("a load at offset {o}"),
            }
        };
        let ins: Vec<(u16, u8, u8, u32)> = program
            .chunks(8)
            .map(|b| {
                (
                    u16::from_ne_bytes([b[0], b[1]]),
                    b[2],
                    b[3],
                    u32::from_ne_bytes([b[4], b[5], b[6], b[7]]),
                )
            })
            .collect();
        let (mut pc, mut acc) = (0usize, 0u32);
        loop {
            let (code, jt, jf, k) = ins[pc];
            pc += 1;
            let jump = |taken: bool| if taken { jt as usize } else { jf as usize };
            match code {
                0x20 => acc = word(k),
                0x54 => acc &= k,
                0x05 => pc += k as usize,
                0x15 => pc += jump(acc == k),
                0x25 => pc += jump(acc > k),
                0x35 => pc += jump(acc >= k),
                0x06 => return k,
                other => panic!("an instruction this test does not know: {other:#x}"),
            }
        }
    }

    /// What the kernel does with a call: the most restrictive of every filter's answers
    /// (ERRNO before ALLOW), as `Some(errno)` or `None` for allowed.
    fn verdict(c: &Call) -> Option<u32> {
        let answers: Vec<u32> = programs().iter().map(|p| run(p, c)).collect();
        assert!(
            answers
                .iter()
                .all(|&r| r == 0x7fff_0000 || r & 0xffff_0000 == 0x0005_0000),
            "only allow and errno: {answers:x?}"
        );
        answers
            .iter()
            .find(|&&r| r & 0xffff_0000 == 0x0005_0000)
            .map(|r| r & 0xffff)
    }

    const EPERM: Option<u32> = Some(libc::EPERM as u32);

    #[test]
    fn the_notify_family_is_denied() {
        // Issue 38 (1): inotify, fanotify and dnotify passed whole hands between partners.
        for nr in [
            libc::SYS_inotify_init,
            libc::SYS_inotify_init1,
            libc::SYS_inotify_add_watch,
            libc::SYS_fanotify_init,
            libc::SYS_fanotify_mark,
        ] {
            assert_eq!(verdict(&call(nr, &[])), EPERM, "call {nr}");
        }
        let fcntl = |cmd: libc::c_int| verdict(&call(libc::SYS_fcntl, &[3, cmd as u64, 0]));
        assert_eq!(fcntl(libc::F_NOTIFY), EPERM);
        assert_eq!(fcntl(libc::F_GETFL), None);
        assert_eq!(fcntl(libc::F_SETFD), None);
        // Locks stay private, not denied.
        assert_eq!(fcntl(libc::F_SETLK), Some(0));
    }

    #[test]
    fn page_cache_probing_and_steering_are_denied() {
        // Issue 38 (2, 3): cached and evicted pages of shared files as storage.
        for nr in [
            libc::SYS_mincore,
            libc::SYS_fadvise64,
            libc::SYS_readahead,
            SYS_CACHESTAT,
            libc::SYS_sysinfo,
        ] {
            assert_eq!(verdict(&call(nr, &[])), EPERM, "call {nr}");
        }
        for nr in [libc::SYS_preadv2, libc::SYS_pwritev2] {
            let with_flags = |flags: u64| verdict(&call(nr, &[3, 0, 1, 0, 0, flags]));
            assert_eq!(with_flags(RWF_NOWAIT), EPERM);
            assert_eq!(with_flags(RWF_NOWAIT | 0x10), EPERM);
            assert_eq!(with_flags(0), None);
            assert_eq!(with_flags(0x10), None, "RWF_APPEND alone");
        }
        let madvise = |advice: u64| verdict(&call(libc::SYS_madvise, &[0, 4096, advice]));
        assert_eq!(madvise(MADV_COLD), EPERM);
        assert_eq!(madvise(MADV_PAGEOUT), EPERM);
        assert_eq!(madvise(libc::MADV_DONTNEED as u64), None);
        assert_eq!(madvise(libc::MADV_WILLNEED as u64), None);
    }

    #[test]
    fn only_the_socket_families_runtimes_use_are_allowed() {
        // Issue 38 (7): AF_VSOCK reached the hypervisor.
        let eafnosupport = Some(libc::EAFNOSUPPORT as u32);
        for nr in [libc::SYS_socket, libc::SYS_socketpair] {
            let family = |f: libc::c_int| verdict(&call(nr, &[f as u64, 1, 0, 0]));
            for f in [
                libc::AF_UNIX,
                libc::AF_INET,
                libc::AF_INET6,
                libc::AF_NETLINK,
            ] {
                assert_eq!(family(f), None, "family {f}");
            }
            for f in [
                libc::AF_VSOCK,
                libc::AF_PACKET,
                libc::AF_ALG,
                libc::AF_KEY,
                libc::AF_BLUETOOTH,
                libc::AF_TIPC,
            ] {
                assert_eq!(family(f), eafnosupport, "family {f}");
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn x32_calls_are_denied() {
        // Issue 38 (7): a number with the x32 bit is another call to a filter on numbers.
        let x32 = |nr: libc::c_long| verdict(&call(nr | X32_SYSCALL_BIT as libc::c_long, &[]));
        assert_eq!(x32(libc::SYS_inotify_init1), Some(libc::ENOSYS as u32));
        assert_eq!(x32(libc::SYS_read), Some(libc::ENOSYS as u32));
        assert_eq!(verdict(&call(libc::SYS_read, &[])), None);
    }

    #[test]
    fn ordinary_calls_are_allowed() {
        for nr in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_openat,
            libc::SYS_mmap,
            libc::SYS_clone,
            libc::SYS_futex,
            libc::SYS_epoll_wait,
        ] {
            assert_eq!(verdict(&call(nr, &[])), None, "call {nr}");
        }
        // The keyring stays denied.
        assert_eq!(verdict(&call(libc::SYS_keyctl, &[])), EPERM);
    }
}
