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
];

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
    let mut bytes = Vec::with_capacity(bpf.len() * 8);
    for i in bpf {
        bytes.extend_from_slice(&i.code.to_ne_bytes());
        bytes.push(i.jt);
        bytes.push(i.jf);
        bytes.extend_from_slice(&i.k.to_ne_bytes());
    }
    bytes
}

/// The two compiled filters: the denied calls, and the private locks.
fn programs() -> &'static [Vec<u8>; 2] {
    static PROGRAMS: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let denied: BTreeMap<i64, Vec<SeccompRule>> =
            DENIED.iter().map(|&nr| (nr, Vec::new())).collect();
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
                SeccompRule::new(vec![SeccompCondition::new(
                    1,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::Eq,
                    cmd as u64,
                )
                .expect("a valid condition")])
                .expect("a valid rule")
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
        [program(deny), program(private)]
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
    fn both_filters_compile_to_whole_instructions() {
        for p in programs() {
            assert!(!p.is_empty());
            assert_eq!(p.len() % 8, 0);
        }
        assert_eq!(filter_fds().unwrap().len(), 2);
    }
}
