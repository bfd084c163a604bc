//! A power cut, simulated (issue 43; docs/reliability.md, "Power loss"). A small real
//! tournament runs under strace, which logs every call that changes a file (with every byte
//! written: `-xx -s 1000000`). The test replays that log into a model file system that keeps,
//! besides what each file holds now, what a power cut cannot take from it, and at sampled
//! crash points writes out each state the cut may leave, runs the same command on it, and
//! checks that the resume ends with the rows of the uninterrupted run, keeps every row it
//! found (byte for byte), and refuses only a row written after the last checkpoint whose
//! record did not survive, with the documented fix, which then resumes to the same rows.
//!
//! The model is POSIX's weak promise, not a file system's stronger one (ext4's data=ordered
//! keeps more):
//! - a file's bytes are durable up to its last `fsync`/`fdatasync`; bytes written after it
//!   may survive in part (a prefix of the appends) or not at all;
//! - a name (a file created, a rename, a `mkdir`, an unlink) is durable once its directory
//!   is synced; before that each such change may have reached the disk or not, on its own;
//! - a name that survived without its file's bytes holds what was synced of them, or
//!   nothing (a file created and never synced is empty).
//!
//! The sealed run makes its own deal key (`.deal-key`), the other is given one
//! (`--deal-key FILE`). The `--out` directory itself is taken to survive (its parent is the user's, never synced
//! by the referee; without it there is no tournament to resume).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::common;
use crate::durability::{first_legal_bot, rows_of};
use common::{have_bwrap, stderr, Scratch};

/// A file or a directory of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    File(u64),
    Dir,
}

/// The model: names and bytes as they are now, and as a power cut would leave them at worst.
/// Paths are relative to the tournament directory; "" is the directory itself.
#[derive(Clone, Default)]
struct Disk {
    names: BTreeMap<String, Node>,
    data: HashMap<u64, Vec<u8>>,
    durable_names: BTreeMap<String, Node>,
    durable_data: HashMap<u64, Vec<u8>>,
    next: u64,
}

/// What a directory holds after a cut: each path with its bytes (`None` for a directory).
type State = BTreeMap<String, Option<Vec<u8>>>;

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

impl Disk {
    fn file(&self, path: &str) -> Option<u64> {
        match self.names.get(path) {
            Some(Node::File(ino)) => Some(*ino),
            _ => None,
        }
    }

    fn create(&mut self, path: &str, truncate: bool) {
        let ino = match self.file(path) {
            Some(ino) => ino,
            None => {
                self.next += 1;
                self.names.insert(path.to_owned(), Node::File(self.next));
                self.next
            }
        };
        let data = self.data.entry(ino).or_default();
        if truncate {
            data.clear();
        }
    }

    fn write(&mut self, path: &str, at: u64, bytes: &[u8]) {
        let ino = self
            .file(path)
            .unwrap_or_else(|| panic!("a write to {path}, never opened"));
        let data = self.data.entry(ino).or_default();
        let (at, end) = (at as usize, at as usize + bytes.len());
        if data.len() < end {
            data.resize(end, 0);
        }
        data[at..end].copy_from_slice(bytes);
    }

    fn sync(&mut self, path: &str) {
        match self.names.get(path).copied() {
            Some(Node::File(ino)) => {
                let now = self.data.get(&ino).cloned().unwrap_or_default();
                self.durable_data.insert(ino, now);
            }
            Some(Node::Dir) | None if path.is_empty() || self.names.contains_key(path) => {
                self.durable_names.retain(|p, _| parent(p) != path);
                for (p, n) in &self.names {
                    if parent(p) == path {
                        self.durable_names.insert(p.clone(), *n);
                    }
                }
            }
            _ => panic!("a sync of {path}, which the model does not hold"),
        }
    }

    /// The directory `names` describe, each file holding what `data` gives; a path whose
    /// directory is not there is not there either.
    fn state(&self, names: &BTreeMap<String, Node>, data: impl Fn(u64) -> Vec<u8>) -> State {
        let mut out = State::new();
        for (p, n) in names {
            let dir = parent(p);
            if !dir.is_empty() && out.get(dir) != Some(&None) {
                continue;
            }
            out.insert(
                p.clone(),
                match n {
                    Node::File(ino) => Some(data(*ino)),
                    Node::Dir => None,
                },
            );
        }
        out
    }

    fn durable_bytes(&self, ino: u64) -> Vec<u8> {
        self.durable_data.get(&ino).cloned().unwrap_or_default()
    }

    /// The states a power cut now may leave, by name: at worst only what is durable; every
    /// name as it is now over durable bytes (the names reached the disk, the data did not);
    /// everything as it is now (as kill -9 leaves it); the durable rows and a part of those
    /// written since (half the first, or any number of whole ones), over either of the first
    /// two; and each name that differs from its durable one, alone as it is now.
    fn cuts(&self) -> Vec<(String, State)> {
        let worst = self.state(&self.durable_names, |i| self.durable_bytes(i));
        let named = self.state(&self.names, |i| self.durable_bytes(i));
        let now = self.state(&self.names, |i| {
            self.data.get(&i).cloned().unwrap_or_default()
        });
        let mut cuts = vec![
            ("worst".to_owned(), worst.clone()),
            ("names without data".to_owned(), named.clone()),
            ("as kill -9 leaves it".to_owned(), now),
        ];
        if let Some(ino) = self.file("results.jsonl") {
            let (durable, all) = (self.durable_bytes(ino), self.data[&ino].clone());
            let pending = &all[durable.len().min(all.len())..];
            let mut ends: Vec<usize> = vec![];
            let first = pending.iter().position(|&b| b == b'\n');
            if let Some(f) = first {
                ends.push(f / 2);
            }
            ends.extend(
                pending
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            );
            for (base_name, base) in [("worst", &worst), ("names without data", &named)] {
                if !base.contains_key("results.jsonl") {
                    continue;
                }
                for &end in &ends {
                    let mut s = base.clone();
                    let mut bytes = durable.clone();
                    bytes.extend_from_slice(&pending[..end]);
                    s.insert("results.jsonl".to_owned(), Some(bytes));
                    cuts.push((
                        format!("{base_name}, results.jsonl synced + {end} bytes"),
                        s,
                    ));
                }
            }
        }
        let all: HashSet<&String> = self.names.keys().chain(self.durable_names.keys()).collect();
        for p in all {
            let (now, then) = (self.names.get(p), self.durable_names.get(p));
            if now == then {
                continue;
            }
            let mut names = self.durable_names.clone();
            match now {
                Some(n) => names.insert(p.clone(), *n),
                None => names.remove(p),
            };
            cuts.push((
                format!("worst, but {p} as it is now"),
                self.state(&names, |i| self.durable_bytes(i)),
            ));
        }
        cuts
    }
}

/// strace's `-xx` text: every byte as `\xHH`.
fn unhex(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 4);
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 4 <= b.len() {
            out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).expect("strace -xx hex"));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// One argument of a logged call.
#[derive(Debug)]
enum Arg {
    Str(Vec<u8>),
    /// A descriptor and the file it names (strace -y).
    Fd(i64, String),
    Other(String),
}

/// A call that succeeded: its name, its arguments and its return value (and the file of a
/// returned descriptor).
#[derive(Debug)]
struct Call {
    name: String,
    args: Vec<Arg>,
    ret: i64,
    ret_path: Option<String>,
}

/// Splits `text` at the commas outside quotes, brackets, braces and `<...>`.
fn split_args(text: &str) -> Vec<&str> {
    let (mut out, mut depth, mut quoted, mut start) = (vec![], 0i32, false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' | '<' if !quoted => depth += 1,
            ']' | '}' | '>' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

fn path_of(arg: &str) -> Option<String> {
    let (_, rest) = arg.split_once('<')?;
    Some(String::from_utf8_lossy(&unhex(rest.strip_suffix('>')?)).into_owned())
}

/// Every quoted string of `text`, joined (a `writev`'s buffers).
fn strings_in(text: &str) -> Vec<u8> {
    let mut out = vec![];
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 1 {
            out.extend(unhex(part));
        }
    }
    out
}

/// The calls of an `strace -f -y -xx` log that succeeded, in the order they returned (a call
/// another thread interrupted is joined with its `resumed` line).
fn parse_log(log: &str) -> Vec<Call> {
    let mut pending: HashMap<&str, String> = HashMap::new();
    let mut calls = vec![];
    for line in log.lines() {
        let Some((pid, rest)) = line.split_once(' ') else {
            continue;
        };
        let rest = rest.trim_start();
        let full = if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            pending.insert(pid, head.to_owned());
            continue;
        } else if let Some(tail) = rest.strip_prefix("<... ") {
            let Some((_, tail)) = tail.split_once("resumed>") else {
                continue;
            };
            match pending.remove(pid) {
                Some(head) => head + tail,
                None => continue,
            }
        } else {
            rest.to_owned()
        };
        let (Some(open), Some(eq)) = (full.find('('), full.rfind(" = ")) else {
            continue;
        };
        let ret_text = &full[eq + 3..];
        let number = ret_text.split(['<', ' ']).next().unwrap_or("");
        let Ok(ret) = number.parse::<i64>() else {
            continue;
        };
        if ret < 0 {
            continue;
        }
        let inner = full[open + 1..eq].trim_end();
        let inner = inner.strip_suffix(')').unwrap_or(inner);
        let args = split_args(inner)
            .into_iter()
            .map(|a| {
                if let Some(s) = a.strip_prefix('"') {
                    Arg::Str(unhex(s.trim_end_matches('"')))
                } else if a.ends_with('>') && a.contains('<') {
                    let n = a.split('<').next().unwrap_or("").parse().unwrap_or(-100);
                    Arg::Fd(n, path_of(a).unwrap())
                } else {
                    Arg::Other(a.to_owned())
                }
            })
            .collect();
        calls.push(Call {
            name: full[..open].to_owned(),
            args,
            ret,
            ret_path: path_of(ret_text),
        });
    }
    calls
}

/// A crash point: how many calls had returned, and what the model then held.
struct Point {
    after: String,
    disk: Disk,
}

/// Replays `calls` (only what they did under `root`) into the model, keeping it after every
/// call that syncs, renames, links, creates or removes a name, or appends a row.
fn replay(calls: &[Call], root: &Path) -> Vec<Point> {
    let root = root.display().to_string();
    let rel = |p: &str| -> Option<String> {
        if p == root {
            return Some(String::new());
        }
        p.strip_prefix(&root)?.strip_prefix('/').map(str::to_owned)
    };
    let resolve = |dir: Option<&Arg>, s: &[u8]| -> String {
        let s = String::from_utf8_lossy(s).into_owned();
        match dir {
            Some(Arg::Fd(_, d)) if !s.starts_with('/') => format!("{d}/{s}"),
            _ => s,
        }
    };
    let mut disk = Disk::default();
    let mut pos: HashMap<i64, (u64, bool)> = HashMap::new();
    let mut points = vec![];
    for (n, c) in calls.iter().enumerate() {
        // The descriptor a call works on, when it names a file of the directory.
        let (fd, fd_path) = match c.args.first() {
            Some(Arg::Fd(n, p)) => (*n, rel(p)),
            _ => (-1, None),
        };
        let mut point = false;
        match c.name.as_str() {
            "openat" | "open" | "creat" => {
                let Some(p) = c.ret_path.as_deref().and_then(rel) else {
                    continue;
                };
                let flags = c
                    .args
                    .iter()
                    .find_map(|a| match a {
                        Arg::Other(t) if t.starts_with("O_") => Some(t.as_str()),
                        _ => None,
                    })
                    .unwrap_or("O_CREAT|O_TRUNC");
                let creates = c.name == "creat" || flags.contains("O_CREAT");
                if creates {
                    point = disk.file(&p).is_none();
                    disk.create(&p, c.name == "creat" || flags.contains("O_TRUNC"));
                } else if c.name != "creat" && flags.contains("O_TRUNC") {
                    disk.create(&p, true);
                }
                pos.insert(c.ret, (0, flags.contains("O_APPEND")));
            }
            "write" | "writev" | "pwrite64" => {
                let Some(p) = fd_path else { continue };
                let bytes = match (&c.name[..], &c.args[1]) {
                    ("writev", Arg::Other(t)) => strings_in(t),
                    (_, Arg::Str(b)) => b.clone(),
                    other => panic!("{other:?}"),
                };
                let bytes = &bytes[..c.ret as usize];
                let at = if c.name == "pwrite64" {
                    match &c.args[3] {
                        Arg::Other(t) => t.parse().unwrap(),
                        other => panic!("{other:?}"),
                    }
                } else {
                    let (at, append) = pos.get(&fd).copied().unwrap_or((0, false));
                    let at = if append {
                        disk.data[&disk.file(&p).unwrap()].len() as u64
                    } else {
                        at
                    };
                    pos.insert(fd, (at + bytes.len() as u64, append));
                    at
                };
                disk.write(&p, at, bytes);
                point = p == "results.jsonl";
            }
            "read" if fd_path.is_some() => pos.entry(fd).or_default().0 += c.ret as u64,
            "lseek" if fd_path.is_some() => pos.entry(fd).or_default().0 = c.ret as u64,
            "ftruncate" => {
                let Some(p) = fd_path else { continue };
                let len = match &c.args[1] {
                    Arg::Other(t) => t.parse::<usize>().unwrap(),
                    other => panic!("{other:?}"),
                };
                let ino = disk.file(&p).unwrap();
                disk.data.entry(ino).or_default().resize(len, 0);
            }
            "fsync" | "fdatasync" => {
                let Some(p) = fd_path else { continue };
                disk.sync(&p);
                point = true;
            }
            "mkdir" | "mkdirat" => {
                let (dir, s) = match (&c.name[..], &c.args[..]) {
                    ("mkdir", [Arg::Str(s), ..]) => (None, s),
                    ("mkdirat", [d, Arg::Str(s), ..]) => (Some(d), s),
                    _ => continue,
                };
                if let Some(p) = rel(&resolve(dir, s)) {
                    disk.names.insert(p, Node::Dir);
                    point = true;
                }
            }
            "rename" | "renameat" | "renameat2" | "link" | "linkat" => {
                let (from, to) = match &c.args[..] {
                    [Arg::Str(a), Arg::Str(b)] => (resolve(None, a), resolve(None, b)),
                    [da, Arg::Str(a), db, Arg::Str(b), ..] => {
                        (resolve(Some(da), a), resolve(Some(db), b))
                    }
                    _ => continue,
                };
                match (rel(&from), rel(&to)) {
                    (Some(f), Some(t)) => {
                        let node = if c.name.starts_with("link") {
                            disk.names.get(&f).copied()
                        } else {
                            disk.names.remove(&f)
                        };
                        let node = node.expect("a rename or link of a known name");
                        assert_ne!(node, Node::Dir, "a directory renamed: not modelled");
                        disk.names.insert(t, node);
                        point = true;
                    }
                    (None, None) => {}
                    other => panic!("a rename or link into or out of the directory: {other:?}"),
                }
            }
            "unlink" | "unlinkat" | "rmdir" => {
                let p = match &c.args[..] {
                    [Arg::Str(s), ..] => resolve(None, s),
                    [d, Arg::Str(s), ..] => resolve(Some(d), s),
                    _ => continue,
                };
                if let Some(p) = rel(&p) {
                    disk.names.remove(&p);
                    point = true;
                }
            }
            _ => {}
        }
        if point {
            points.push(Point {
                after: format!("call {n} ({})", c.name),
                disk: disk.clone(),
            });
        }
    }
    points.push(Point {
        after: "the run's end".into(),
        disk,
    });
    points
}

/// The tournament of these tests: three deal sets, duplicate (six one-hand games) of the
/// first-legal bot, one at a time, with `extra` flags, in `dir`. Without `--deal-key` in
/// `extra`, the tournament makes its own (`.deal-key`), and a power cut may take it too.
fn tournament(dir: &Path, extra: &[&str]) -> std::process::Command {
    let bot = first_legal_bot();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tarneeb"));
    cmd.args(["tournament", "--games", "3", "--seed", "23", "--jobs", "1"])
        .args(["--handshake-timeout", "120s"])
        .arg("--rules")
        .arg(rules())
        .arg("--out")
        .arg(dir)
        .args(["--bot", &format!("x={bot}"), "--bot", &format!("y={bot}")])
        .args(extra)
        .current_dir(common::root());
    cmd
}

fn rules() -> &'static Path {
    static RULES: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    RULES.get_or_init(|| {
        common::temp_file(
            "power-cut-rules.json",
            r#"{"preset":"classic","max-hands":1}"#,
        )
    })
}

/// The calls that change files, with every byte written.
const TRACED: &str = "trace=openat,open,creat,read,lseek,write,pwrite64,writev,ftruncate,\
    rename,renameat,renameat2,link,linkat,unlink,unlinkat,rmdir,mkdir,mkdirat,fsync,fdatasync";

/// Every path under `dir` (not `dir` itself).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

/// Whole lines of `bytes`.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .filter(|l| l.ends_with(b"\n"))
        .collect()
}

/// What one resume found.
#[derive(Default)]
struct Tally {
    states: usize,
    refused: usize,
    rows_found: usize,
    /// States with nothing of the tournament (its own deal key lost): started anew.
    afresh: usize,
}

/// The whole run's records: each game's number of lines and its last line (the result).
type Records = HashMap<String, (usize, Vec<u8>)>;

fn records_of(dir: &Path) -> Records {
    let mut out = Records::new();
    for r in std::fs::read_dir(dir.join("games")).unwrap().flatten() {
        let text = std::fs::read(r.path()).unwrap();
        let l = lines(&text);
        let name = format!("games/{}", r.file_name().to_string_lossy());
        out.insert(name, (l.len(), l.last().unwrap_or(&&b""[..]).to_vec()));
    }
    out
}

/// Writes `state` into `d`, runs the same command on it, and checks the resume: the rows of
/// the whole run, every row it found kept as it was, a refusal only for a row after the last
/// checkpoint (past `durable` rows) and only with its fix, which is then made.
fn resume_cut(d: &Path, what: &str, state: &State, durable: usize, whole: &Whole, t: &mut Tally) {
    std::fs::create_dir_all(d).unwrap();
    for (p, bytes) in state {
        match bytes {
            None => std::fs::create_dir_all(d.join(p)).unwrap(),
            Some(b) => std::fs::write(d.join(p), b).unwrap(),
        }
    }
    let found = state
        .get("results.jsonl")
        .and_then(|b| b.as_ref())
        .map(|b| lines(b).into_iter().map(<[u8]>::to_vec).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut kept = found.clone();
    let mut fixes = 0;
    loop {
        let out = common::wait_with_limit(
            tournament(d, &whole.extra)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap(),
            std::time::Duration::from_secs(600),
        );
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{what}: {err}");
        if out.status.success() {
            break;
        }
        // The documented refusal: "DIR/results.jsonl:LINE: the row of game N does not match
        // its record ...: remove that line and run the same tournament command again".
        let fix = "remove that line and run the same tournament command again";
        let line = err
            .split("results.jsonl:")
            .skip(1)
            .find_map(|r| r.split(':').next()?.parse::<usize>().ok());
        let (true, Some(line)) = (err.contains(fix), line) else {
            panic!("{what}: refused without the fix:\n{err}");
        };
        assert!(
            line > durable,
            "{what}: row {line} refused, but the last checkpoint had {durable} rows:\n{err}"
        );
        assert!(fixes <= found.len(), "{what}: refused again:\n{err}");
        let results = std::fs::read(d.join("results.jsonl")).unwrap();
        let mut rows = lines(&results);
        rows.remove(line - 1);
        std::fs::write(d.join("results.jsonl"), rows.concat()).unwrap();
        kept.remove(line - 1);
        fixes += 1;
    }
    // Nothing of the tournament survived, not even its own deal key: a new tournament, with
    // a new key, so other deals.
    let own_key = !whole.extra.contains(&"--deal-key");
    if own_key && !state.contains_key(".deal-key") {
        assert!(
            found.is_empty() && !state.contains_key("tournament.json"),
            "{what}: rows or tournament.json without the deal key"
        );
        assert_eq!(rows_of(d).len(), whole.rows.len(), "{what}");
        t.afresh += 1;
        t.states += 1;
        std::fs::remove_dir_all(d).unwrap();
        return;
    }
    assert_eq!(rows_of(d), whole.rows, "{what}");
    let results = std::fs::read(d.join("results.jsonl")).unwrap();
    assert_eq!(
        &lines(&results)[..kept.len()],
        &kept.iter().map(Vec::as_slice).collect::<Vec<_>>()[..],
        "{what}: a row it found was not kept as it was"
    );
    let records = records_of(d);
    for row in &whole.rows {
        let name = row["record"].as_str().unwrap();
        assert_eq!(records.get(name), whole.records.get(name), "{what}: {name}");
    }
    let standings = common::tarneeb(&["standings".as_ref(), d.as_os_str()]);
    assert!(standings.status.success(), "{what}: {}", stderr(&standings));
    t.states += 1;
    t.refused += fixes;
    t.rows_found += found.len();
    std::fs::remove_dir_all(d).unwrap();
}

/// The uninterrupted run: its command's extra flags, rows and records.
struct Whole {
    extra: Vec<&'static str>,
    rows: Vec<serde_json::Value>,
    records: Records,
}

/// The tournament under strace, then every distinct state a power cut could leave at each
/// crash point, resumed. Returns the crash points, the rows of the last checkpoint at the
/// end, and the tally.
fn power_cuts(name: &str, extra: &[&'static str]) -> (usize, usize, Tally) {
    let s = Scratch::new(name);
    let (dir, log) = (s.path("whole"), s.path("calls.log"));
    let out = std::process::Command::new("strace")
        .args(["-f", "-qq", "-y", "-xx", "-s", "1000000"])
        .args(["-e", "signal=none", "-e", TRACED, "-o"])
        .arg(&log)
        .arg(tournament(&dir, extra).get_program())
        .args(tournament(&dir, extra).get_args())
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = dir.canonicalize().unwrap();
    let whole = Whole {
        extra: extra.to_vec(),
        rows: rows_of(&dir),
        records: records_of(&dir),
    };
    assert_eq!(whole.rows.len(), 6);
    let calls = parse_log(&std::fs::read_to_string(&log).unwrap());
    let points = replay(&calls, &dir);
    // The model ends where the run did: every row and record durable.
    let last = &points.last().expect("crash points").disk;
    // The model replayed the log right: at the end it holds what the directory holds.
    let mut now = last.state(&last.names, |i| last.data[&i].clone());
    now.remove("");
    let mut real = State::new();
    for e in walk(&dir) {
        let rel = e.strip_prefix(&dir).unwrap().display().to_string();
        real.insert(rel, e.is_file().then(|| std::fs::read(&e).unwrap()));
    }
    assert!(
        now == real,
        "the model: {:?}\nthe directory: {:?}",
        now.keys(),
        real.keys()
    );
    let durable_rows = |disk: &Disk| {
        disk.file("results.jsonl")
            .filter(|_| disk.durable_names.contains_key("results.jsonl"))
            .map_or(0, |i| lines(&disk.durable_bytes(i)).len())
    };
    assert_eq!(
        last.data[&last.file("results.jsonl").unwrap()],
        std::fs::read(dir.join("results.jsonl")).unwrap(),
        "the model's results.jsonl is the run's"
    );
    assert_eq!(durable_rows(last), 6, "every row durable at the end");
    // Each distinct state once, checked against the most rows a checkpoint had when it
    // could be left.
    let mut states: Vec<(String, State, usize)> = vec![];
    let mut seen: HashMap<State, usize> = HashMap::new();
    for p in &points {
        let durable = durable_rows(&p.disk);
        for (what, state) in p.disk.cuts() {
            match seen.get(&state) {
                Some(&i) => states[i].2 = states[i].2.max(durable),
                None => {
                    seen.insert(state.clone(), states.len());
                    states.push((format!("after {}: {what}", p.after), state, durable));
                }
            }
        }
    }
    let mut t = Tally::default();
    for (i, (what, state, durable)) in states.iter().enumerate() {
        resume_cut(
            &s.path(&format!("cut-{i}")),
            what,
            state,
            *durable,
            &whole,
            &mut t,
        );
    }
    (points.len(), durable_rows(last), t)
}

#[test]
fn a_sealed_run_cut_by_a_power_loss_anywhere_resumes_with_nothing_lost() {
    if !have_bwrap() || !crate::durability::have_strace() {
        return;
    }
    // Its own deal key (no --deal-key), which a power cut may take as well.
    let (points, _, t) = power_cuts("power-cut", &[]);
    eprintln!(
        "{points} crash points, {} states resumed, {} rows found in them, {} refused and fixed, {} started anew",
        t.states, t.rows_found, t.refused, t.afresh
    );
    assert!(t.states > 20 && t.refused > 0, "{points} {}", t.states);
}

#[test]
fn a_run_without_a_sandbox_cut_by_a_power_loss_anywhere_resumes_with_nothing_lost() {
    if !crate::durability::have_strace() {
        return;
    }
    let key: &'static str = Box::leak(
        common::shared_deal_key()
            .display()
            .to_string()
            .into_boxed_str(),
    );
    let (points, _, t) = power_cuts("power-cut-none", &["--sandbox", "none", "--deal-key", key]);
    eprintln!(
        "{points} crash points, {} states resumed, {} rows found in them, {} refused and fixed",
        t.states, t.rows_found, t.refused
    );
    assert!(t.states > 20 && t.refused > 0, "{points} {}", t.states);
}
