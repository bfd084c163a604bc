//! The bot as an unprivileged user of its own when the referee runs as root (`--sandbox-user`).
//!
//! Why: bwrap's user namespace maps the bot to the user that started bwrap. For a referee
//! running as root that is root outside the sandbox: in the wide view a bot read every file only
//! root may read (another run's `.deal-key`, `/root`, `/etc/shadow`). Like IOI's `isolate`, which
//! gives each box a uid of its own (60000 and up), each running bot gets a uid and gid of its
//! own from a range no account uses, and bwrap is started as that user: the bot then reads only
//! what every user may read.
//!
//! What it takes, in the child before bwrap starts (still root, see [`Staging`]): a user cannot
//! go through a directory closed to others (`/root` is 0700), so a bot whose interpreter lives
//! there (pyenv's `/root/.pyenv`) could not start. The child makes a private mount namespace,
//! covers each such directory with an empty read-only tmpfs and binds back into it only the paths
//! the bot needs (its program, interpreter prefix, the files its command names, `--sandbox-ro`
//! paths, the working directory); everything else there stays out of sight. Then it joins the
//! bot's cgroup (done by the caller, as root), sets the bot's gid and uid and drops every
//! supplementary group, and execs bwrap, which builds the sandbox with an unprivileged user
//! namespace on top of that view (the covers are locked under it: a bot cannot unmount them).

use std::ffi::CString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `--sandbox-user`: who a sandboxed bot runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SandboxUser {
    /// A uid of its own from [`FIRST_UID`] when the referee runs as root; otherwise the
    /// referee's user (which cannot give a process another uid).
    #[default]
    Auto,
    /// The referee's user, even as root (trusted bots only: in the wide view they read what root
    /// may read).
    Referee,
    /// As `Auto`, with uids from this one.
    From(u32),
}

/// The first uid (and gid) of the bots' range by default, as isolate's first box.
pub const FIRST_UID: u32 = 60000;
/// How many bots may run at once with uids of their own (a tournament's kept-up bots count).
pub const UID_COUNT: u32 = 1000;

impl std::str::FromStr for SandboxUser {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(SandboxUser::Auto),
            "referee" => Ok(SandboxUser::Referee),
            n => match n.parse::<u32>() {
                Ok(first) if first > 0 && first.checked_add(UID_COUNT).is_some() => {
                    Ok(SandboxUser::From(first))
                }
                _ => Err(format!(
                    "'{s}' is not a sandbox user: give auto, referee or the first uid of a free range of {UID_COUNT} (e.g. {FIRST_UID})"
                )),
            },
        }
    }
}

impl std::fmt::Display for SandboxUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SandboxUser::Auto => f.write_str("auto"),
            SandboxUser::Referee => f.write_str("referee"),
            SandboxUser::From(first) => write!(f, "{first}"),
        }
    }
}

impl SandboxUser {
    /// The first uid of the range the bots get, or `None` when they run as the referee's user.
    /// `Err`: a message saying what is wrong and how to fix it.
    pub(super) fn resolve(self, sandboxed: bool) -> Result<Option<u32>, String> {
        // SAFETY: geteuid has no arguments and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let first = match self {
            SandboxUser::Referee => return Ok(None),
            SandboxUser::Auto if !root || !sandboxed => return Ok(None),
            SandboxUser::Auto => FIRST_UID,
            SandboxUser::From(_) if !sandboxed => {
                return Err("--sandbox-user gives bots a uid of their own inside the sandbox: it needs --sandbox bwrap (or auto with bwrap installed)".into())
            }
            SandboxUser::From(_) if !root => {
                return Err("--sandbox-user UID needs a referee running as root (only root can start a process as another user); leave it out (auto)".into())
            }
            SandboxUser::From(first) => first,
        };
        if let Some((name, uid)) = account_in_range(first) {
            return Err(format!(
                "--sandbox-user: uid {uid} belongs to the account '{name}' (/etc/passwd), but bots get the uids {first} to {} as users of their own; give the first uid of a free range with --sandbox-user UID",
                first + UID_COUNT - 1
            ));
        }
        Ok(Some(first))
    }
}

/// An account of /etc/passwd whose uid or gid lies in the range starting at `first`.
fn account_in_range(first: u32) -> Option<(String, u32)> {
    let text = std::fs::read_to_string("/etc/passwd").ok()?;
    let range = first..first + UID_COUNT;
    text.lines().find_map(|l| {
        let mut f = l.split(':');
        let name = f.next()?;
        let uid = f.nth(1)?.parse::<u32>().ok()?;
        let gid = f.next()?.parse::<u32>().ok()?;
        [uid, gid]
            .into_iter()
            .find(|id| range.contains(id))
            .map(|id| (name.to_string(), id))
    })
}

/// Offsets in the range of the bots running now (in this referee process).
static IN_USE: Mutex<Vec<bool>> = Mutex::new(Vec::new());

/// Where each uid in use is locked (`flock`) by the referee process whose bot has it, so that
/// referees on one machine (shards, several runs) never give two bots the same uid. Under
/// `/run`, which no sandbox shows.
const LOCK_DIR: &str = "/run/tarneeb-bot-uids";

/// A uid held by one running bot, free again when dropped.
#[derive(Debug)]
pub struct UidLease {
    pub uid: u32,
    offset: usize,
    /// The uid's lock file, locked while the bot runs (`None` where /run is not writable:
    /// then uids are unique within this process only).
    _lock: Option<std::fs::File>,
}

impl UidLease {
    pub(super) fn take(first: u32) -> io::Result<UidLease> {
        let mut used = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
        if used.is_empty() {
            used.resize(UID_COUNT as usize, false);
        }
        let dir_ok = std::fs::create_dir_all(LOCK_DIR).is_ok();
        for offset in 0..used.len() {
            if used[offset] {
                continue;
            }
            let uid = first + offset as u32;
            let lock = if dir_ok {
                match lock_uid(uid) {
                    Ok(Some(f)) => Some(f),
                    Ok(None) => continue, // another referee's bot has it
                    Err(_) => None,
                }
            } else {
                None
            };
            used[offset] = true;
            return Ok(UidLease {
                uid,
                offset,
                _lock: lock,
            });
        }
        Err(io::Error::other(format!(
            "all {UID_COUNT} bot uids from {first} are in use (bots running or kept up at once, in this and other referees); run fewer at once (--jobs), give another range with --sandbox-user UID, or --sandbox-user referee"
        )))
    }
}

/// Locks uid `uid`'s file without waiting: `Ok(None)` when another process holds it.
fn lock_uid(uid: u32) -> io::Result<Option<std::fs::File>> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(Path::new(LOCK_DIR).join(uid.to_string()))?;
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(Some(f));
    }
    let e = io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(None)
    } else {
        Err(e)
    }
}

impl Drop for UidLease {
    fn drop(&mut self) {
        let mut used = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(u) = used.get_mut(self.offset) {
            *u = false;
        }
    }
}

/// True when a user with no rights of its own may go through directory `p` (`o+x`).
fn open_to_others(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
}

/// True when a user with no rights of its own may list directory `p` and go through it.
pub(super) fn listable_by_others(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o005 == 0o005)
}

/// The view the child prepares as root: directories covered by an empty tmpfs, and the paths
/// bound back into them.
#[derive(Debug, Default)]
pub struct Staging {
    covers: Vec<PathBuf>,
    exposed: Vec<PathBuf>,
    /// Directories made in a cover on the way to an exposed path.
    made: Vec<PathBuf>,
    /// In order: mount a tmpfs, make a directory or a file, bind a path (see [`Step`]).
    steps: Vec<Step>,
}

#[derive(Debug)]
enum Step {
    Cover(CString),
    Dir(CString),
    File(CString),
    /// Bind the path (opened before its cover hid it) at the same place.
    Bind(CString),
}

impl Staging {
    /// The staging that makes every path of `needed` reachable by a user of no rights.
    pub(super) fn new(needed: &[PathBuf]) -> Staging {
        let mut s = Staging::default();
        let mut needed: Vec<PathBuf> = needed
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
            .filter(|p| p.is_absolute() && p.exists())
            .collect();
        needed.sort_by_key(|p| p.components().count());
        needed.dedup();
        for p in needed {
            s.make_reachable(&p);
        }
        s
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Where walking down to `p` leads: `Ok(())` when a user of no rights reaches it, or the
    /// first obstacle: `Err((dir, Some(cover)))` a path missing in `cover`'s tmpfs, `Err((dir,
    /// None))` a host directory closed to others.
    fn walk(&self, p: &Path) -> Result<(), (PathBuf, Option<PathBuf>)> {
        let mut in_cover: Option<&PathBuf> = None;
        let mut cur = PathBuf::from("/");
        for c in p.components().skip(1) {
            // `cur` is a directory to go through on the way to `p`.
            if self.exposed.contains(&cur) {
                in_cover = None;
            } else if let Some(c) = self.covers.iter().find(|c| **c == cur) {
                in_cover = Some(c);
            } else if self.made.contains(&cur) {
                // A directory made in the cover: open to all, still inside it.
            } else if let Some(cover) = in_cover {
                return Err((cur, Some(cover.clone())));
            } else if !open_to_others(&cur) {
                return Err((cur, None));
            }
            cur.push(c);
        }
        if let Some(cover) = in_cover {
            if !self.exposed.contains(&cur) {
                return Err((cur, Some(cover.clone())));
            }
        }
        Ok(())
    }

    /// True when a user of no rights reaches `p` in the staged view.
    pub(super) fn reachable(&self, p: &Path) -> bool {
        self.walk(p).is_ok()
    }

    fn make_reachable(&mut self, p: &Path) {
        let cover = match self.walk(p) {
            Ok(()) => return,
            Err((_, Some(cover))) => cover,
            Err((dir, None)) => {
                self.covers.push(dir.clone());
                self.steps.push(Step::Cover(cstring(&dir)));
                dir
            }
        };
        // Directories between the cover and `p` exist only in the tmpfs: make them.
        let mut cur = cover.clone();
        if let Ok(rel) = p.strip_prefix(&cover) {
            let parts: Vec<_> = rel.components().collect();
            for (i, c) in parts.iter().enumerate() {
                cur.push(c);
                if i + 1 < parts.len() && !self.made.contains(&cur) {
                    self.steps.push(Step::Dir(cstring(&cur)));
                    self.made.push(cur.clone());
                }
            }
        }
        self.steps.push(if p.is_dir() {
            Step::Dir(cstring(p))
        } else {
            Step::File(cstring(p))
        });
        self.steps.push(Step::Bind(cstring(p)));
        self.exposed.push(p.to_path_buf());
    }

    /// In the child, before exec, as root: a private mount namespace with the covers and binds.
    /// Only async-signal-safe calls on memory prepared before the fork.
    pub(super) fn apply_in_child(&self) -> io::Result<()> {
        if self.steps.is_empty() {
            return Ok(());
        }
        // No allocation after the fork: plain errors (the caller names the bot and the user).
        let fail = || io::Error::last_os_error();
        // SAFETY: plain system calls on NUL-terminated strings made before the fork; the
        // descriptors opened here are closed here.
        unsafe {
            if libc::unshare(libc::CLONE_NEWNS) != 0 {
                return Err(fail());
            }
            // Nothing done here may reach the referee's (the host's) mounts.
            if libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return Err(fail());
            }
            // Each bound path is opened before a cover hides it: a cover comes first in
            // `steps`, the paths under it after, so open them all now.
            let mut fds: [libc::c_int; 64] = [-1; 64];
            let mut n = 0;
            for s in &self.steps {
                if let Step::Bind(p) = s {
                    if n == fds.len() {
                        return Err(io::Error::from_raw_os_error(libc::E2BIG));
                    }
                    fds[n] = libc::open(p.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
                    if fds[n] < 0 {
                        return Err(fail());
                    }
                    n += 1;
                }
            }
            let mut next = 0;
            let mut proc_path = *b"/proc/self/fd/0000000000\0";
            for s in &self.steps {
                let rc = match s {
                    Step::Cover(p) => libc::mount(
                        c"tmpfs".as_ptr(),
                        p.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        c"mode=0755,size=65536".as_ptr().cast(),
                    ),
                    Step::Dir(p) => {
                        let rc = libc::mkdir(p.as_ptr(), 0o755);
                        if rc != 0 && fail().raw_os_error() == Some(libc::EEXIST) {
                            0
                        } else {
                            rc
                        }
                    }
                    Step::File(p) => {
                        let fd = libc::open(
                            p.as_ptr(),
                            libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                            0o644,
                        );
                        if fd >= 0 {
                            libc::close(fd);
                            0
                        } else {
                            -1
                        }
                    }
                    Step::Bind(p) => {
                        let fd = fds[next];
                        next += 1;
                        fd_path(&mut proc_path, fd);
                        let rc = libc::mount(
                            proc_path.as_ptr().cast(),
                            p.as_ptr(),
                            std::ptr::null(),
                            libc::MS_BIND | libc::MS_REC,
                            std::ptr::null(),
                        );
                        libc::close(fd);
                        rc
                    }
                };
                if rc != 0 {
                    return Err(fail());
                }
            }
            // The covers read-only: nothing a bot writes may land outside its disk limit.
            for s in &self.steps {
                if let Step::Cover(p) = s {
                    if libc::mount(
                        std::ptr::null(),
                        p.as_ptr(),
                        std::ptr::null(),
                        libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
                        std::ptr::null(),
                    ) != 0
                    {
                        return Err(fail());
                    }
                }
            }
        }
        Ok(())
    }
}

/// Writes `/proc/self/fd/N` (NUL-terminated) into `buf` without allocating.
fn fd_path(buf: &mut [u8; 25], fd: libc::c_int) {
    let start = b"/proc/self/fd/".len();
    let mut digits = [0u8; 10];
    let mut n = fd.max(0) as u32;
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in 0..len {
        buf[start + i] = digits[len - 1 - i];
    }
    buf[start + len] = 0;
}

fn cstring(p: &Path) -> CString {
    CString::new(p.as_os_str().as_encoded_bytes()).unwrap_or_default()
}

/// In the child, the last thing before exec: the bot's gid and uid, no supplementary groups.
/// Raw system calls: they change this thread only, which after the fork is the whole process.
pub(super) fn become_user(uid: u32) -> io::Result<()> {
    // SAFETY: plain system calls with integer arguments (and a null list for setgroups).
    unsafe {
        if libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) != 0
            || libc::syscall(libc::SYS_setresgid, uid, uid, uid) != 0
            || libc::syscall(libc::SYS_setresuid, uid, uid, uid) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_user_values_parse_with_a_message_naming_the_fix() {
        assert_eq!("auto".parse(), Ok(SandboxUser::Auto));
        assert_eq!("referee".parse(), Ok(SandboxUser::Referee));
        assert_eq!("70000".parse(), Ok(SandboxUser::From(70000)));
        let e = "root".parse::<SandboxUser>().unwrap_err();
        assert!(e.contains("auto, referee or the first uid"), "{e}");
        assert!("0".parse::<SandboxUser>().is_err());
    }

    #[test]
    fn a_uid_held_by_another_process_is_skipped_and_a_dropped_one_comes_back() {
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            return; // /run is root's
        }
        let first = 3_000_000;
        // Another referee's bot holds `first`: a lock taken through another open file.
        std::fs::create_dir_all(LOCK_DIR).unwrap();
        let other = lock_uid(first).unwrap().expect("free at first");
        assert!(
            lock_uid(first).unwrap().is_none(),
            "held by another open file"
        );
        let a = UidLease::take(first).unwrap();
        assert_ne!(a.uid, first);
        let b = UidLease::take(first).unwrap();
        assert!(b.uid != a.uid && b.uid != first);
        let freed = a.uid;
        drop(a);
        let c = UidLease::take(first).unwrap();
        assert_eq!(c.uid, freed);
        drop((b, c, other));
        for uid in first..first + 3 {
            let _ = std::fs::remove_file(Path::new(LOCK_DIR).join(uid.to_string()));
        }
    }

    #[test]
    fn fd_paths_are_written_without_allocating() {
        let mut b = *b"/proc/self/fd/0000000000\0";
        fd_path(&mut b, 17);
        assert!(b.starts_with(b"/proc/self/fd/17\0"));
        fd_path(&mut b, 3);
        assert!(b.starts_with(b"/proc/self/fd/3\0"));
    }

    #[test]
    fn a_path_under_a_closed_directory_is_bound_into_a_cover_of_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("tarneeb-user-{}", std::process::id()));
        let tool = dir.join("closed/home/tool");
        std::fs::create_dir_all(&tool).unwrap();
        std::fs::write(dir.join("closed/home/secret"), "x").unwrap();
        std::fs::set_permissions(dir.join("closed"), std::fs::Permissions::from_mode(0o700))
            .unwrap();
        let s = Staging::new(std::slice::from_ref(&tool));
        assert_eq!(s.covers, vec![dir.join("closed")]);
        assert_eq!(s.exposed, vec![tool.clone()]);
        assert!(s.reachable(&tool) && s.reachable(&tool.join("x")));
        assert!(!s.reachable(&dir.join("closed/home/secret")));
        assert!(s.reachable(&dir));
        assert!(Staging::new(std::slice::from_ref(&dir)).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
