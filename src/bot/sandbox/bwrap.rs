//! Composing the `bwrap` command line for one bot: namespaces, what it sees, where it writes.
//!
//! Mount order matters (bwrap applies its options in order, later mounts cover earlier ones):
//! 1. the read-only view: `/` (wide) or the system directories and the command's own files
//!    outside the working directory (strict), and `--sandbox-ro` paths;
//! 2. fresh `/tmp` (size-capped), `/proc`, `/dev`, and in wide mode empty `/run`;
//! 3. masks outside the working directory (empty tmpfs on a directory, `/dev/null` on a file);
//! 4. the working directory: a size-capped tmpfs at the referee's working directory, then
//!    read-only binds of its entries (wide: all but the masked ones; strict: those the
//!    command names);
//! 5. masks inside those entries.
//!
//! Why a tmpfs at the referee's own working directory: relative paths in a bot command
//! (`python3 bots/mine.py`, `java -cp . Bot`) keep their meaning, the bot starts every game in
//! an empty writable directory of capped size, and nothing it writes outlives the game.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::user::{listable_by_others, Staging};
use super::{clean, counters, find_on_path, Sandbox, View};

/// System directories a strict sandbox shows (read-only; symlinks such as `/bin -> usr/bin`
/// are recreated as symlinks).
const SYSTEM: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix/store",
];

/// Every namespace (user explicitly: `--disable-userns` needs it), no further user namespaces
/// inside (so no way to remount what is masked), killed with its parent.
///
/// Not `--new-session`: the bot is cut off from the referee's terminal (no TIOCSTI into it)
/// by dropping the controlling terminal before bwrap starts instead (see
/// `confine::detach_terminal`). A new session per bot made every bot a scheduling autogroup of
/// its own (Linux `sched_autogroup`, on by default), so each switch between the referee and a
/// bot became a switch between groups where other load on the CPU got in first: the same
/// kept-up games took 2.5 to 3 times the wall time under load at the same CPU time
/// (docs/performance.md).
pub(super) const NAMESPACES: &[&str] = &[
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
];

/// Where the referee's working directory is shown read-only in wide mode, under the private
/// /tmp: the working directory itself holds a symlink per entry into it.
const SHADOW: &str = "/tmp/.tarneeb-cwd";

/// A composed `bwrap` invocation: run `program` with `args`.
#[derive(Debug)]
pub struct BwrapCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// When the bot runs as a user of its own: the view its child prepares as root first, so
    /// that every path bwrap binds is reachable by that user (see `user`).
    pub staging: Option<Staging>,
}

struct Args(Vec<OsString>);

impl Args {
    fn push(&mut self, words: &[&str]) {
        self.0.extend(words.iter().map(OsString::from));
    }
    fn op(&mut self, op: &str, a: &Path, b: &Path) {
        self.0.push(op.into());
        self.0.push(a.into());
        self.0.push(b.into());
    }
    fn tmpfs(&mut self, at: &Path, size: Option<u64>) {
        if let Some(size) = size {
            self.push(&["--size", &size.to_string()]);
        }
        self.0.push("--tmpfs".into());
        self.0.push(at.into());
    }
}

/// What one bot's view is composed from, worked out once before any option is written.
struct Plan<'a> {
    sb: &'a Sandbox,
    /// The referee's working directory, cleaned.
    cwd: PathBuf,
    /// What the command names (see [`named_paths`]): directories to show, and the exact files.
    named: Vec<PathBuf>,
    files: Vec<PathBuf>,
    /// The named and `--sandbox-ro` paths outside the working directory, sorted, each once.
    extra: Vec<PathBuf>,
    /// When the bot runs as a user of its own (see `user`).
    staging: Option<Staging>,
}

impl<'a> Plan<'a> {
    /// As a user of its own, bwrap reaches only what any user may; what the bot needs behind a
    /// closed directory is bound into a cover of it first (the staging), and a mask where that
    /// user cannot go is not needed (nor possible).
    fn new(sb: &'a Sandbox, command: &[String], cwd: &Path) -> Self {
        let cwd = clean(cwd);
        let (named, files) = named_paths(command, &cwd);
        let staging = sb.first_uid.map(|_| {
            let mut needed: Vec<PathBuf> =
                named.iter().chain(&files).chain(&sb.ro).cloned().collect();
            needed.push(cwd.clone());
            Staging::new(&needed)
        });
        let mut extra: Vec<PathBuf> = named
            .iter()
            .chain(sb.ro.iter())
            .filter(|p| !p.starts_with(&cwd))
            .cloned()
            .collect();
        extra.sort();
        extra.dedup();
        Plan {
            sb,
            cwd,
            named,
            files,
            extra,
            staging,
        }
    }

    /// A path the bot's own user cannot reach anyway: masking it would fail, and is not needed.
    fn hidden(&self, p: &Path) -> bool {
        self.staging.as_ref().is_some_and(|s| !s.reachable(p))
    }
}

/// `proc_data`: the descriptors bwrap reads `counters::FIXED`'s contents from, in its order.
pub(super) fn compose(
    bwrap: &Path,
    sb: &Sandbox,
    command: &[String],
    cwd: &Path,
    proc_data: &[i32],
) -> BwrapCommand {
    let plan = Plan::new(sb, command, cwd);
    let mut a = Args(Vec::new());
    a.push(NAMESPACES);
    a.push(&["--hostname", "tarneeb-bot"]);
    // 1. The read-only view.
    let outside = read_only_view(&mut a, &plan);
    // 2. Private /tmp, /proc, /dev; wide mode hides /run (sockets of system services).
    private_mounts(&mut a, sb, proc_data);
    let private_bound = bind_under_private(&mut a, &plan);
    // 3. Masks outside the working directory.
    mask_outside(&mut a, &plan, &outside, &private_bound);
    // 4. and 5. The working directory, and masks inside it.
    if plan.cwd != Path::new("/") {
        show_working_directory(&mut a, &plan);
    }
    if sb.view == View::Strict {
        // The strict view's root is bwrap's own tmpfs, writable and of no size limit: read-only
        // once everything is mounted on it (the mounts on it keep their own flags).
        a.push(&["--remount-ro", "/"]);
    }
    a.0.push("--chdir".into());
    a.0.push(plan.cwd.as_os_str().into());
    a.0.push("--".into());
    a.0.extend(command.iter().map(OsString::from));
    BwrapCommand {
        program: bwrap.to_path_buf(),
        args: a.0,
        staging: plan.staging,
    }
}

/// Step 1: the wide view shows the whole host read-only (what a bot may read is then limited by
/// the masks); the strict view only the system directories and what the command names, so a
/// bot sees nothing the operator did not put in its way. Returns what was bound, so that masks
/// outside the working directory go only where the view shows something to cover.
fn read_only_view(a: &mut Args, plan: &Plan) -> Vec<PathBuf> {
    let mut outside: Vec<PathBuf> = Vec::new();
    match plan.sb.view {
        View::Wide => {
            a.op("--ro-bind", Path::new("/"), Path::new("/"));
            outside.push(PathBuf::from("/"));
        }
        View::Strict => {
            for dir in SYSTEM {
                let p = Path::new(dir);
                match std::fs::symlink_metadata(p) {
                    Ok(m) if m.file_type().is_symlink() => {
                        if let Ok(target) = std::fs::read_link(p) {
                            a.op("--symlink", &target, p);
                        }
                    }
                    Ok(_) => {
                        a.op("--ro-bind", p, p);
                        outside.push(p.to_path_buf());
                    }
                    Err(_) => {}
                }
            }
            for p in &plan.extra {
                if !outside.iter().any(|o| p.starts_with(o)) && !is_masked(plan.sb, p) {
                    a.op("--ro-bind", p, p);
                    outside.push(p.clone());
                }
            }
        }
    }
    outside
}

/// Step 2: the bot's own /tmp, /proc and /dev, so it shares no scratch space, process list or
/// device with the host or another bot; the tmpfs ones size-capped, so that writing to them
/// cannot fill the machine's memory.
fn private_mounts(a: &mut Args, sb: &Sandbox, proc_data: &[i32]) {
    a.tmpfs(Path::new("/tmp"), Some(sb.limits.disk_bytes()));
    a.push(&["--proc", "/proc", "--dev", "/dev"]);
    hide_counters(a, sb.view, proc_data);
    // bwrap's /dev is a tmpfs of no size limit, its /dev/shm a directory on it: a capped
    // private /dev/shm (POSIX shared memory works), and /dev read-only.
    a.tmpfs(Path::new("/dev/shm"), Some(sb.limits.disk_bytes()));
    a.push(&["--remount-ro", "/dev"]);
    if sb.view == View::Wide && Path::new("/run").is_dir() {
        a.tmpfs(Path::new("/run"), Some(1 << 20));
    }
}

/// What the command names under the fresh /tmp and /run (a bot built into /tmp), in the wide
/// view, where the fresh ones cover the host's. Not /tmp or /run themselves (a program right in
/// /tmp names its directory, /tmp): that would show the host's whole /tmp, read-only, over the
/// fresh one, where the working directory's shadow is made; the files named there are bound
/// one by one by [`mask_outside`]. Returns what was bound, where masks may be needed.
fn bind_under_private<'p>(a: &mut Args, plan: &'p Plan) -> Vec<&'p Path> {
    let mut private_bound: Vec<&Path> = Vec::new();
    if plan.sb.view == View::Wide {
        for p in &plan.extra {
            let top = p == Path::new("/tmp") || p == Path::new("/run");
            if (p.starts_with("/tmp") || p.starts_with("/run")) && !top && !is_masked(plan.sb, p) {
                a.op("--ro-bind", p, p);
                private_bound.push(p);
            }
        }
    }
    private_bound
}

/// Step 3: masks outside the working directory, only where the view shows them: under the
/// fresh /tmp and /run only inside what was bound there (a named directory holding the
/// tournament's), elsewhere inside what `outside` bound: what the view does not show needs no
/// cover. Then the exact files the command names stay visible inside a masked directory (a bot
/// program next to the records), unless they are masked themselves.
fn mask_outside(a: &mut Args, plan: &Plan, outside: &[PathBuf], private_bound: &[&Path]) {
    let sb = plan.sb;
    for m in &sb.masked {
        if m.starts_with(&plan.cwd) || plan.hidden(m) {
            continue;
        }
        if m.starts_with("/tmp") || m.starts_with("/run") {
            if private_bound.iter().any(|b| m.starts_with(b)) {
                mask(a, m);
            }
            continue;
        }
        if outside.iter().any(|o| m.starts_with(o)) {
            mask(a, m);
        }
    }
    for f in plan.files.iter().filter(|f| !f.starts_with(&plan.cwd)) {
        let hidden = is_masked(sb, f)
            || f.starts_with("/tmp")
            || f.starts_with("/run")
            || !outside.iter().any(|o| f.starts_with(o));
        if hidden && !sb.masked.contains(f) {
            a.op("--ro-bind", f, f);
        }
    }
}

/// Steps 4 and 5: a size-capped tmpfs at the working directory, so relative paths in the
/// command keep their meaning while nothing the bot writes outlives the game; the entries
/// shown read-only on it; then the masks inside them, and the named files those would hide.
fn show_working_directory(a: &mut Args, plan: &Plan) {
    let (sb, cwd) = (plan.sb, &plan.cwd);
    a.tmpfs(cwd, Some(sb.limits.disk_bytes()));
    let (entries, whole_cwd) = working_directory_entries(plan);
    let mut bound: Vec<PathBuf> = Vec::new();
    if whole_cwd && cwd != Path::new("/tmp") {
        // One bind of the whole directory out of the way and a symlink per entry: a
        // symlink costs no mount (a bind per entry cost about 0.5 ms each per bot).
        let shadow = Path::new(SHADOW);
        a.op("--ro-bind", cwd, shadow);
        for e in &entries {
            if !is_masked(sb, e) {
                if let Some(name) = e.file_name() {
                    a.op("--symlink", &shadow.join(name), e);
                }
            }
        }
        for m in sb.masked.iter().filter(|m| !plan.hidden(m)) {
            if let Ok(rel) = m.strip_prefix(cwd) {
                mask_at(a, m, &shadow.join(rel));
            }
        }
    } else {
        for e in entries {
            if is_masked(sb, &e) || bound.iter().any(|b| e.starts_with(b)) {
                continue;
            }
            a.op("--ro-bind", &e, &e);
            bound.push(e);
        }
    }
    for m in sb.masked.iter().filter(|m| !plan.hidden(m)) {
        if m.starts_with(cwd) && bound.iter().any(|b| m.starts_with(b) && m != b) {
            mask(a, m);
        }
    }
    for f in plan.files.iter().filter(|f| f.starts_with(cwd)) {
        if is_masked(sb, f) && !sb.masked.contains(f) {
            a.op("--ro-bind", f, f);
        }
    }
}

/// The working directory's entries to show, sorted, and whether that is all of them: the wide
/// view shows the whole directory (as it shows the whole host), the strict view only what the
/// command or `--sandbox-ro` names (all of it if they name the directory or one above it). A
/// user of its own sees the entries of a directory closed to others only if named.
fn working_directory_entries(plan: &Plan) -> (Vec<PathBuf>, bool) {
    let (sb, cwd) = (plan.sb, &plan.cwd);
    let mut entries: Vec<PathBuf> = Vec::new();
    let cwd_open = plan.staging.is_none() || listable_by_others(cwd);
    let whole_cwd = cwd_open
        && (sb.view == View::Wide
            || plan
                .named
                .iter()
                .chain(sb.ro.iter())
                .any(|p| cwd.starts_with(p)));
    if whole_cwd {
        if let Ok(rd) = std::fs::read_dir(cwd) {
            entries.extend(rd.flatten().map(|e| cwd.join(e.file_name())));
        }
    } else {
        for p in plan.named.iter().chain(sb.ro.iter()) {
            if p.starts_with(cwd) && p != cwd {
                entries.push(p.clone());
            }
        }
    }
    entries.sort();
    entries.dedup();
    (entries, whole_cwd)
}

/// Machine-wide counters out of sight (see `counters`): after `--proc` and `--dev`, before
/// `/dev` is made read-only.
fn hide_counters(a: &mut Args, view: View, proc_data: &[i32]) {
    for (path, fd) in counters::FIXED.iter().zip(proc_data) {
        if Path::new(path).exists() {
            a.push(&["--ro-bind-data", &fd.to_string(), path]);
        }
    }
    for path in counters::HIDDEN.iter().map(Path::new) {
        if path.exists() {
            a.op("--ro-bind", Path::new("/dev/null"), path);
        }
    }
    for dir in counters::HIDDEN_DIRS.iter().map(Path::new) {
        if dir.is_dir() {
            a.tmpfs(dir, Some(4096));
        }
    }
    a.tmpfs(Path::new("/dev/pts"), Some(4096));
    // The wide view would show the host's /sys: the same counters for disks, memory and CPUs,
    // and the cgroup tree (a partner's pids.current). An empty read-only one instead, as the
    // strict view has none.
    if view == View::Wide && Path::new("/sys").is_dir() {
        a.tmpfs(Path::new("/sys"), Some(4096));
        a.push(&["--remount-ro", "/sys"]);
    }
}

/// True when `p` is a masked path or lies inside one.
fn is_masked(sb: &Sandbox, p: &Path) -> bool {
    sb.masked.iter().any(|m| p.starts_with(m))
}

/// Covers an existing directory with an empty tmpfs, a file with `/dev/null`.
fn mask(a: &mut Args, m: &Path) {
    mask_at(a, m, m);
}

/// Covers host path `m`, seen in the sandbox at `at`.
fn mask_at(a: &mut Args, m: &Path, at: &Path) {
    match std::fs::metadata(m) {
        Ok(md) if md.is_dir() => a.tmpfs(at, Some(4096)),
        Ok(_) => a.op("--ro-bind", Path::new("/dev/null"), at),
        Err(_) => {}
    }
}

/// The existing files and directories a bot command names (absolute, cleaned), and for its
/// program the install prefix: what a strict sandbox must show for the command to run.
///
/// - the program, looked up on PATH like the shell would, and the target of its symlinks:
///   for `PREFIX/bin/x` or `PREFIX/shims/x` (pyenv, a venv, nvm, a JDK) the whole `PREFIX`,
///   otherwise its directory;
/// - a `#!` interpreter given by absolute path (a venv's scripts), the same way;
/// - every argument (and each part of `a=b` and `a:b:c`) that exists: a directory as is, a
///   file with its directory (a script imports its neighbours), except a file directly in the
///   working directory, which is bound alone.
fn named_paths(command: &[String], cwd: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut out = Vec::new();
    let mut files = Vec::new();
    let Some((program, args)) = command.split_first() else {
        return (out, files);
    };
    let prog = if program.contains('/') {
        Some(clean(&cwd.join(program)))
    } else {
        find_on_path(program)
    };
    if let Some(p) = prog {
        add_program(&mut out, &p, cwd);
        files.push(p.clone());
        if let Ok(real) = std::fs::canonicalize(&p) {
            files.push(real);
        }
        if let Some(interp) = shebang(&p) {
            add_program(&mut out, &interp, cwd);
        }
    }
    for arg in args {
        let mut parts: Vec<&str> = vec![arg.as_str()];
        if let Some((_, right)) = arg.split_once('=') {
            parts.push(right);
        }
        let more: Vec<&str> = parts.iter().flat_map(|p| p.split(':')).collect();
        parts.extend(more);
        for part in parts {
            if part.is_empty() {
                continue;
            }
            let p = clean(&cwd.join(part));
            match std::fs::metadata(&p) {
                Ok(m) if m.is_dir() => out.push(p),
                Ok(_) => {
                    files.push(p.clone());
                    match p.parent() {
                        Some(dir) if dir != cwd && dir != Path::new("/") => {
                            out.push(dir.to_path_buf())
                        }
                        _ => out.push(p),
                    }
                }
                Err(_) => {}
            }
        }
    }
    out.sort();
    out.dedup();
    files.sort();
    files.dedup();
    (out, files)
}

fn add_program(out: &mut Vec<PathBuf>, p: &Path, cwd: &Path) {
    let mut paths = vec![p.to_path_buf()];
    if let Ok(real) = std::fs::canonicalize(p) {
        if real != p {
            paths.push(real);
        }
    }
    for p in paths {
        if p.starts_with(cwd) {
            // In the working directory: bound with its directory (or alone) like an argument.
            match p.parent() {
                Some(dir) if dir != cwd => out.push(dir.to_path_buf()),
                _ => out.push(p),
            }
            continue;
        }
        let Some(dir) = p.parent() else { continue };
        let prefix = match dir.file_name().and_then(|n| n.to_str()) {
            Some("bin" | "sbin" | "shims") => dir.parent().unwrap_or(dir),
            _ => dir,
        };
        if prefix != Path::new("/") && !prefix.as_os_str().is_empty() {
            out.push(prefix.to_path_buf());
        }
    }
}

/// The interpreter of a `#!/abs/path` script (not `#!/usr/bin/env x`: env looks on PATH).
fn shebang(p: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(p).ok()?.read(&mut head).ok()?;
    let text = std::str::from_utf8(head[..n].strip_prefix(b"#!")?).ok()?;
    let line = text.lines().next()?.trim();
    let interp = line.split_whitespace().next()?;
    let path = PathBuf::from(interp);
    (path.is_absolute() && !interp.ends_with("/env")).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bwrap arguments as one line, to look for a sequence of words in.
    fn args_text(c: &BwrapCommand) -> String {
        c.args
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_script_in_a_subdirectory_brings_its_directory_and_python_its_prefix() {
        let dir = std::env::temp_dir().join(format!("tarneeb-bwrap-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bots")).unwrap();
        std::fs::write(dir.join("bots/b.py"), "").unwrap();
        std::fs::write(dir.join("top.py"), "").unwrap();
        let cmd: Vec<String> = [
            "/usr/bin/env",
            "bots/b.py",
            "top.py",
            "--x=top.py",
            "-cp",
            "bots:nothing",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (named, files) = named_paths(&cmd, &dir);
        assert!(files.contains(&dir.join("bots/b.py")), "{files:?}");
        assert!(named.contains(&dir.join("bots")), "{named:?}");
        assert!(named.contains(&dir.join("top.py")), "{named:?}");
        assert!(named.contains(&PathBuf::from("/usr")), "{named:?}");
        assert!(!named.iter().any(|p| p.ends_with("nothing")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_masked_directory_inside_a_named_one_under_tmp_stays_masked() {
        // Wide view: /tmp is fresh, and a directory the command names there is bound into it;
        // a tournament directory inside that one must be masked again.
        let dir = std::env::temp_dir().join(format!("tarneeb-bwrap-t-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("t")).unwrap();
        let mut sb = Sandbox::none();
        sb.bwrap = Some(PathBuf::from("/usr/bin/bwrap"));
        sb.mask(&dir.join("t"));
        let command = ["true".to_string(), dir.display().to_string()];
        let cwd = Path::new("/nonexistent-tarneeb-cwd");
        let c = compose(Path::new("/usr/bin/bwrap"), &sb, &command, cwd, &[]);
        let text = args_text(&c);
        let (bind, mask) = (
            format!("--ro-bind {0} {0}", dir.display()),
            format!("--tmpfs {}/t", dir.display()),
        );
        assert!(text.contains(&bind), "{text}");
        let (b, m) = (text.find(&bind).unwrap(), text.find(&mask));
        assert!(m.is_some_and(|m| m > b), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_program_right_in_tmp_binds_itself_not_the_hosts_tmp() {
        // A bot at /tmp/x.py run from a directory under /tmp: binding its directory, /tmp,
        // over the fresh /tmp made it read-only and bwrap failed ("Can't mkdir
        // /tmp/.tarneeb-cwd"), and it showed the host's /tmp.
        let bot = std::env::temp_dir().join(format!("tarneeb-bwrap-top-{}.py", std::process::id()));
        std::fs::write(&bot, "").unwrap();
        let cwd = std::env::temp_dir().join(format!("tarneeb-bwrap-cwd-{}", std::process::id()));
        let mut sb = Sandbox::none();
        sb.bwrap = Some(PathBuf::from("/usr/bin/bwrap"));
        let command = ["python3".to_string(), bot.display().to_string()];
        let c = compose(Path::new("/usr/bin/bwrap"), &sb, &command, &cwd, &[]);
        let text = args_text(&c);
        std::fs::remove_file(&bot).unwrap();
        assert!(!text.contains("--ro-bind /tmp /tmp"), "{text}");
        assert!(
            text.contains(&format!("--ro-bind {0} {0}", bot.display())),
            "{text}"
        );
    }

    #[test]
    fn masked_paths_are_never_bound_into_the_working_directory() {
        let dir = std::env::temp_dir().join(format!("tarneeb-bwrap-m-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("games")).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let mut sb = Sandbox::none();
        sb.bwrap = Some(PathBuf::from("/usr/bin/bwrap"));
        sb.mask(&dir.join("games"));
        let c = compose(
            Path::new("/usr/bin/bwrap"),
            &sb,
            &["true".to_string()],
            &dir,
            &[],
        );
        let text = args_text(&c);
        assert!(
            text.contains(&format!("--symlink {SHADOW}/src {}/src", dir.display())),
            "{text}"
        );
        assert!(
            !text.contains(&format!("{}/games", dir.display())),
            "{text}"
        );
        assert!(text.contains(&format!("--tmpfs {SHADOW}/games")), "{text}");
        assert!(text.contains("--unshare-all") && text.contains("--die-with-parent"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
