//! The sandbox each bot process runs in: a bubblewrap (`bwrap`) command line composed by the
//! referee, plus limits (cgroups where the machine lets us make one, rlimits otherwise).
//!
//! Why bubblewrap and not a namespace sandbox of our own: it is the small, audited setuid-free
//! tool Flatpak relies on; composing its command line keeps every mount and namespace decision
//! readable in one place ([`bwrap`]) and lets a user reproduce a bot's view by hand.
//!
//! What a sandboxed bot gets (protocol.md section 1 is the contract):
//! - new user, PID, IPC, UTS, cgroup and network namespaces (no network), no controlling
//!   terminal (given up before bwrap starts, see `confine`), `--die-with-parent`: every process it starts ends with the sandbox's PID 1, and that ends
//!   with the referee, even after `kill -9` of the referee;
//! - a fresh `/proc` (only its own processes), a minimal `/dev`, a private size-capped `/tmp`,
//!   and as working directory a fresh size-capped tmpfs at the referee's working directory,
//!   with what the command names bound read-only into it;
//! - read-only: the system, and either the whole filesystem with sensitive places masked
//!   ([`View::Wide`]) or only the system, the command's own files and `--sandbox-ro` paths
//!   ([`View::Strict`]);
//! - never: game records, logs, tournament directories, deal files ([`Sandbox::mask`]).

mod bwrap;
mod confine;
pub(crate) use confine::check_program;
mod counters;
pub mod guardian;
mod limits;
mod seccomp;
mod user;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use bwrap::BwrapCommand;
pub use confine::{command, log_tail, Confinement};
pub use limits::{parse_size, Cgroup, LimitHit, LimitKind, Limits};
pub use user::{SandboxUser, FIRST_UID, UID_COUNT};

/// `--sandbox`: which sandbox the bots run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SandboxChoice {
    /// bwrap when it is installed and works, otherwise a loud warning and no sandbox.
    #[default]
    Auto,
    /// bwrap, or exit 2 saying how to install it.
    Bwrap,
    /// No sandbox: bots run as the referee's user in its working directory (for developing
    /// a bot; results are marked as unsandboxed).
    None,
}

/// `--sandbox-view`: how much of the filesystem a bot sees (read-only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum View {
    /// The whole filesystem read-only, with records, logs, tournament directories, deal files,
    /// /run and /tmp masked.
    #[default]
    Wide,
    /// Only the system (/usr, /etc, /opt and the /bin, /lib links), the files and directories
    /// the bot's command names, its interpreter's install prefix and `--sandbox-ro` paths.
    Strict,
}

impl View {
    pub fn name(self) -> &'static str {
        match self {
            View::Wide => "wide",
            View::Strict => "strict",
        }
    }
}

/// What the command line asked for (`src/cli/args.rs` holds the flags).
#[derive(Clone, Debug)]
pub struct SandboxOptions {
    pub choice: SandboxChoice,
    pub view: View,
    /// `--sandbox-ro` paths.
    pub ro: Vec<PathBuf>,
    /// `--sandbox-env` names.
    pub env: Vec<String>,
    pub limits: Limits,
    /// `--sandbox-user`.
    pub user: SandboxUser,
}

/// Why the sandbox cannot be used as asked. Usage errors: exit 2.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("--sandbox bwrap: bubblewrap is not installed (no 'bwrap' on PATH); install it (Debian/Ubuntu: 'sudo apt-get install bubblewrap', Fedora: 'sudo dnf install bubblewrap') or run with --sandbox none while developing")]
    Missing,
    #[error("--sandbox bwrap: bwrap is installed at {path} but cannot make a sandbox here: {message}; unprivileged user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1, and on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap), or run with --sandbox none")]
    Broken { path: PathBuf, message: String },
    #[error("--sandbox-ro {}: {source}; give a file or directory that exists", path.display())]
    ReadOnlyPath {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot find the working directory: {0}")]
    Cwd(std::io::Error),
    #[error("{0}")]
    User(String),
}

/// The sandbox all bots of a run share: how they are wrapped and what they may not see.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// `None`: no sandbox (limits still apply where they can).
    bwrap: Option<PathBuf>,
    view: View,
    ro: Vec<PathBuf>,
    masked: Vec<PathBuf>,
    env: Vec<String>,
    limits: Limits,
    /// The first uid of the bots' range when each bot runs as a user of its own (a referee
    /// running as root, see `user`).
    first_uid: Option<u32>,
}

/// Environment variables a bot gets from the referee (when set there), besides `TMPDIR=/tmp`
/// and `--sandbox-env` names: what interpreters and version managers need to find themselves.
pub const PASSED_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "PYENV_ROOT",
    "PYENV_VERSION",
    "VIRTUAL_ENV",
    "JAVA_HOME",
    "NODE_PATH",
];

impl Sandbox {
    /// No sandbox and no limits: what unit tests of the bot layer use.
    pub fn none() -> Sandbox {
        Sandbox {
            bwrap: None,
            view: View::Wide,
            ro: Vec::new(),
            masked: Vec::new(),
            env: Vec::new(),
            limits: Limits::unlimited(),
            first_uid: None,
        }
    }

    /// Resolves `--sandbox` and friends. `auto` without a working bwrap prints a warning (once)
    /// and runs without a sandbox.
    pub fn new(args: &SandboxOptions) -> Result<Sandbox, SandboxError> {
        let bwrap = match args.choice {
            SandboxChoice::None => None,
            SandboxChoice::Bwrap => Some(working_bwrap()?),
            SandboxChoice::Auto => match working_bwrap() {
                Ok(p) => Some(p),
                Err(e) => {
                    eprintln!("tarneeb: WARNING: bots run WITHOUT a sandbox: they can read every seat's cards from the records, disturb each other and the results. {e}");
                    None
                }
            },
        };
        let mut ro = Vec::new();
        for p in &args.ro {
            let abs = std::path::absolute(p).map_err(|source| SandboxError::ReadOnlyPath {
                path: p.clone(),
                source,
            })?;
            std::fs::symlink_metadata(&abs).map_err(|source| SandboxError::ReadOnlyPath {
                path: p.clone(),
                source,
            })?;
            ro.push(abs);
        }
        let first_uid = args
            .user
            .resolve(bwrap.is_some())
            .map_err(SandboxError::User)?;
        if let (Some(b), Some(first)) = (&bwrap, first_uid) {
            bwrap_as_user(b, first)?;
        }
        Ok(Sandbox {
            bwrap,
            view: args.view,
            ro,
            masked: Vec::new(),
            env: args.env.clone(),
            limits: args.limits.clone(),
            first_uid,
        })
    }

    /// Hides `path` (a file or directory, need not exist yet) from every bot.
    pub fn mask(&mut self, path: &Path) {
        let abs = resolved(path);
        if !self.masked.contains(&abs) {
            self.masked.push(abs);
        }
    }

    /// Hides a game record, the stderr logs beside it and, unless it holds the working
    /// directory, the directory they are in.
    ///
    /// A mask needs something to cover when the bot starts: a file the referee writes later
    /// (the record and logs of a record in the working directory itself, a trace) is created
    /// empty here, or a bot would see it appear through the working directory's read-only view.
    pub fn mask_record(&mut self, record: &Path) {
        self.mask_new_file(record);
        for i in 0..4 {
            self.mask_new_file(&super::stderr_log_path(record, i));
        }
        let dir = match record.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let dir = clean(&std::path::absolute(&dir).unwrap_or(dir));
        let cwd = std::env::current_dir()
            .map(|c| clean(&c))
            .unwrap_or_default();
        if !cwd.starts_with(&dir) {
            self.mask(&dir);
        }
    }

    /// Hides a file the referee is going to write, creating it (empty) if it is missing.
    pub fn mask_new_file(&mut self, path: &Path) {
        if self.bwrap.is_some() && !path.exists() {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            // Owner-only from the start: it becomes a record or a log (see `RecordWriter`).
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(path);
        }
        self.mask(path);
    }

    /// The first uid of the range bots run as, when each runs as a user of its own.
    pub fn first_uid(&self) -> Option<u32> {
        self.first_uid
    }

    pub fn is_sandboxed(&self) -> bool {
        self.bwrap.is_some()
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// What the record header, `tournament.json` and the standings say: `bwrap wide`,
    /// `bwrap strict` or `none`.
    pub fn label(&self) -> String {
        match &self.bwrap {
            Some(_) => format!("bwrap {}", self.view.name()),
            None => "none".to_string(),
        }
    }

    /// The environment a bot starts with, besides the bot's own extra variables.
    pub fn environment(&self) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = PASSED_ENV
            .iter()
            .map(|s| s.to_string())
            .chain(self.env.iter().cloned())
            .filter_map(|k| std::env::var(&k).ok().map(|v| (k, v)))
            .collect();
        env.push(("TMPDIR".into(), "/tmp".into()));
        env
    }

    /// The command line that runs `command` (already split) in this sandbox with working
    /// directory `cwd` (absolute), or `None` without a sandbox.
    pub fn wrap(&self, command: &[String], cwd: &Path, proc_data: &[i32]) -> Option<BwrapCommand> {
        let bwrap = self.bwrap.as_ref()?;
        Some(bwrap::compose(bwrap, self, command, cwd, proc_data))
    }

    /// A hint for a bot that failed in this sandbox (appended to its fault's detail).
    pub fn failure_hint(&self) -> String {
        match &self.bwrap {
            None => String::new(),
            Some(_) => {
                let view = match self.view {
                    View::Strict => "it sees only the system, the files its command names and --sandbox-ro paths: add what it needs with --sandbox-ro PATH or use --sandbox-view wide",
                    View::Wide => "it sees the filesystem read-only without records, logs, tournament directories, /run and the real /tmp, and may write only in its working directory and /tmp",
                };
                format!(
                    "; the bot ran in the sandbox ({}): {view}; {}; to rule the sandbox out, try --sandbox none",
                    self.label(),
                    self.limits.describe()
                )
            }
        }
    }
}

/// The `bwrap` on PATH, once checked to make a sandbox on this machine (cached per process).
fn working_bwrap() -> Result<PathBuf, SandboxError> {
    static FOUND: OnceLock<Result<PathBuf, (bool, PathBuf, String)>> = OnceLock::new();
    let found = match FOUND.get() {
        Some(f) => f,
        None => {
            let f = match find_on_path("bwrap") {
                None => Err((false, PathBuf::new(), String::new())),
                // One sandbox with a user namespace, what kernels and security modules refuse
                // (unprivileged user namespaces off, Ubuntu's AppArmor restriction): found
                // here, not as four bots failing their handshakes. Only that, because `play`
                // pays for this probe in every game: a full bot sandbox costs about four
                // times as much.
                Some(path) => match probe(std::process::Command::new(&path), &path)? {
                    Ok(()) => Ok(path),
                    Err(message) => Err((true, path, message)),
                },
            };
            FOUND.get_or_init(|| f)
        }
    };
    match found {
        Ok(p) => Ok(p.clone()),
        Err((false, _, _)) => Err(SandboxError::Missing),
        Err((true, path, message)) => Err(SandboxError::Broken {
            path: path.clone(),
            message: message.clone(),
        }),
    }
}

/// Checks once per process that bwrap makes a sandbox when started as the bots' first uid: an
/// unprivileged user needs unprivileged user namespaces, which root does not.
fn bwrap_as_user(bwrap: &Path, uid: u32) -> Result<(), SandboxError> {
    use std::os::unix::process::CommandExt;
    static CHECKED: OnceLock<Result<(), String>> = OnceLock::new();
    let r = match CHECKED.get() {
        Some(r) => r,
        None => {
            let mut cmd = std::process::Command::new(bwrap);
            cmd.current_dir("/").uid(uid).gid(uid);
            let r = probe(cmd, bwrap)?;
            CHECKED.get_or_init(|| r)
        }
    };
    r.clone().map_err(|message| SandboxError::User(format!(
        "--sandbox-user: the referee runs as root, so each bot runs as a user of its own (uids from {uid}), but bwrap at {} cannot make a sandbox as uid {uid}: {message}; allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0), or run the referee as an ordinary user, or give --sandbox-user referee (bots then read every file root may read: trusted bots only)",
        bwrap.display()
    )))
}

/// Runs `true` in a user namespace under `cmd` (bwrap at `bwrap`): `Ok(Ok)` it works,
/// `Ok(Err(why))` the machine's answer, which the caller keeps for the process. The referee
/// out of descriptors is its limit of the moment, not the machine's answer: an error said as
/// such and never kept (issue 43: under `ulimit -n 8` this said to allow user namespaces).
fn probe(mut cmd: std::process::Command, bwrap: &Path) -> Result<Result<(), String>, SandboxError> {
    let out = cmd
        .args(["--unshare-user", "--ro-bind", "/", "/", "--", "true"])
        .env_clear()
        .stdin(std::process::Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => Ok(Ok(())),
        Ok(o) if ran_out_of_fds(&o.stderr) => {
            let e = std::io::Error::from_raw_os_error(libc::EMFILE);
            Err(SandboxError::User(referee_out_of_fds(bwrap, &e)))
        }
        Ok(o) => Ok(Err(String::from_utf8_lossy(&o.stderr).trim().to_string())),
        Err(e) if out_of_fds(&e) => Err(SandboxError::User(referee_out_of_fds(bwrap, &e))),
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// EMFILE or ENFILE: the referee (or the system) has no file descriptor left.
fn out_of_fds(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

/// bwrap's own message when it inherited the referee's limit and hit it.
fn ran_out_of_fds(stderr: &[u8]) -> bool {
    String::from_utf8_lossy(stderr).contains("Too many open files")
}

fn referee_out_of_fds(bwrap: &Path, e: &std::io::Error) -> String {
    format!(
        "cannot start bwrap at {} to make the bots' sandbox: the referee has run out of file descriptors ({e}); this is the referee's limit, not the bot's fault: raise it (ulimit -n), run fewer games at once (--jobs), or look for what holds the referee's connections open",
        bwrap.display()
    )
}

/// The first executable file called `name` on the referee's PATH.
pub(crate) fn find_on_path(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// `path` without `.` components and with `..` applied lexically (no symlinks resolved).
pub(crate) fn clean(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` as the kernel will find it: absolute, with every symlink of its existing part
/// resolved, and what does not exist yet (a record the referee writes later) appended. A mask
/// given as a symlink (`--out runs` where `runs` links elsewhere) must cover the real
/// directory: bwrap mounts nothing on a symlink, and the link's target is what a bot reads.
fn resolved(path: &Path) -> PathBuf {
    let abs = clean(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    let mut existing = abs.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut p = real;
            p.extend(rest.iter().rev());
            return p;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return abs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_paths_drop_dots() {
        assert_eq!(clean(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(clean(Path::new("/a/b/")), PathBuf::from("/a/b"));
    }

    #[test]
    fn the_environment_is_only_the_listed_variables() {
        let s = Sandbox::none();
        let env = s.environment();
        for (k, _) in &env {
            assert!(PASSED_ENV.contains(&k.as_str()) || k == "TMPDIR", "{k}");
        }
        assert!(env.iter().any(|(k, v)| k == "TMPDIR" && v == "/tmp"));
    }
}
