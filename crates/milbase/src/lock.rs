//! The one lock on an output folder, made to hold on a cluster's shared storage.
//!
//! Every command that writes a folder takes the same lock, `DIR/.ich.lock` (a `preprocess` and a
//! `predict` into one folder exclude each other too). The file names its holder: the command,
//! host, boot id, PID namespace, PID and the process's start time, and a random token. While the lock is held a heartbeat thread rewrites the file every
//! [`LockTiming::beat`] with a counter that goes up. Another process judges the lock so:
//!
//! - **the holder ran on this machine, in this PID namespace** (same host, boot and namespace):
//!   it is alive exactly when its PID is running here with the recorded start time. A PID that a
//!   newer process has again (a retried pod, a reused PID) does not keep a dead writer's lock.
//! - **anywhere else** (another node, another container's namespace, another boot): `/proc` says
//!   nothing about it, so the heartbeat does. The lock is watched for up to [`LockTiming::lease`]:
//!   a counter that moves is a live writer (refused at once); a counter that stands still for the
//!   whole lease is a dead one, and its lock is taken over. A pod retry so recovers within one
//!   lease; two live writers on two nodes exclude each other.
//!
//! A take-over renames the dead lock aside (one renamer wins) before making a new one with
//! `O_EXCL`, so two processes cannot both take a dead writer's place. A heartbeat that finds
//! another token in the file marks the lock lost ([`DirLock::check`]). A link planted at the
//! lock's name is no lock: it is removed, never followed.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The environment variable that sets the lease, in seconds (default 15): how long a lock held
/// from another host or namespace must show no heartbeat before it is taken over.
pub const LEASE_ENV: &str = "ICH_LOCK_LEASE_SECS";

/// The lock file's size: fixed, so that a heartbeat rewrites it in place and a reader never sees
/// it shorter.
const SIZE: usize = 512;

/// The lock's file name in the folder it guards.
pub const LOCK_FILE: &str = ".ich.lock";

/// How often a holder beats and how long a silent foreign lock is waited for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LockTiming {
    /// Time between heartbeats (default 2 s).
    pub beat: Duration,
    /// A lock from another host or namespace whose heartbeat stands still this long is a dead
    /// writer's (default 15 s; several beats, so that a busy holder is not taken for dead).
    pub lease: Duration,
}

impl Default for LockTiming {
    fn default() -> Self {
        LockTiming {
            beat: Duration::from_secs(2),
            lease: Duration::from_secs(15),
        }
    }
}

impl LockTiming {
    /// The default, or the lease of [`LEASE_ENV`] (beats five times per lease).
    pub fn from_env() -> LockTiming {
        match std::env::var(LEASE_ENV)
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
        {
            Some(s) if (0.05..=86_400.0).contains(&s) => {
                let lease = Duration::from_secs_f64(s);
                LockTiming {
                    beat: lease / 5,
                    lease,
                }
            }
            _ => LockTiming::default(),
        }
    }
}

/// Who holds a lock, as its file says.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Holder {
    command: String,
    host: String,
    boot: String,
    pidns: String,
    pid: u32,
    start: String,
    token: String,
    beat: u64,
}

impl Holder {
    fn this_process(command: &str, token: String) -> Holder {
        let id = Machine::here();
        let pid = std::process::id();
        Holder {
            command: command.to_string(),
            host: id.host,
            boot: id.boot,
            pidns: id.pidns,
            pid,
            start: start_time(pid).unwrap_or_default(),
            token,
            beat: 0,
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let clean = |s: &str| -> String {
            s.chars()
                .filter(|c| !c.is_control())
                .take(100)
                .collect::<String>()
        };
        let mut b = format!(
            "ich-lock 1\ncommand={}\nhost={}\nboot={}\npidns={}\npid={}\nstart={}\ntoken={}\nbeat={}\n",
            clean(&self.command),
            clean(&self.host),
            clean(&self.boot),
            clean(&self.pidns),
            self.pid,
            clean(&self.start),
            self.token,
            self.beat
        )
        .into_bytes();
        b.resize(SIZE.max(b.len()), b' ');
        b
    }

    /// The holder a lock file names; None while it is being written or when it is not a lock.
    /// A bare PID (the lock of an older ich) is a holder of this machine with no start time.
    fn parse(bytes: &[u8]) -> Option<Holder> {
        let text = std::str::from_utf8(bytes).ok()?;
        let text = text.trim_end_matches([' ', '\n']);
        if let Ok(pid) = text.trim().parse::<u32>() {
            let id = Machine::here();
            return Some(Holder {
                command: String::new(),
                host: id.host,
                boot: id.boot,
                pidns: id.pidns,
                pid,
                start: String::new(),
                token: String::new(),
                beat: 0,
            });
        }
        let mut lines = text.lines();
        if lines.next()? != "ich-lock 1" {
            return None;
        }
        let mut h = Holder {
            command: String::new(),
            host: String::new(),
            boot: String::new(),
            pidns: String::new(),
            pid: 0,
            start: String::new(),
            token: String::new(),
            beat: 0,
        };
        let mut seen = 0;
        for line in lines {
            let (k, v) = line.split_once('=')?;
            let v = v.to_string();
            match k {
                "command" => h.command = v,
                "host" => h.host = v,
                "boot" => h.boot = v,
                "pidns" => h.pidns = v,
                "pid" => h.pid = v.parse().ok()?,
                "start" => h.start = v,
                "token" => h.token = v,
                "beat" => h.beat = v.parse().ok()?,
                _ => continue,
            }
            seen += 1;
        }
        (seen == 8 && !h.token.is_empty()).then_some(h)
    }

    fn describe(&self) -> String {
        if self.token.is_empty() {
            return format!("pid {}, in the lock format of an older ich", self.pid);
        }
        let what = if self.command.is_empty() {
            String::new()
        } else {
            format!("ich {}, ", self.command)
        };
        if self.host.is_empty() {
            format!("{what}pid {}", self.pid)
        } else {
            format!("{what}pid {} on host {}", self.pid, self.host)
        }
    }
}

/// What tells this machine and PID namespace from others (Linux; empty elsewhere, where every
/// lock is judged by its heartbeat).
struct Machine {
    host: String,
    boot: String,
    pidns: String,
}

impl Machine {
    fn here() -> Machine {
        let read = |p: &str| {
            fs::read_to_string(p)
                .map(|s| s.trim().to_string())
                .unwrap_or_default()
        };
        let mut host = read("/proc/sys/kernel/hostname");
        if host.is_empty() {
            host = std::env::var("HOSTNAME").unwrap_or_default();
        }
        Machine {
            host,
            boot: read("/proc/sys/kernel/random/boot_id"),
            pidns: fs::read_link("/proc/self/ns/pid")
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }

    /// Whether `h` ran here: same host, boot and PID namespace (so its PID means what ours do).
    fn is_home_of(&self, h: &Holder) -> bool {
        !self.boot.is_empty()
            && !self.pidns.is_empty()
            && h.host == self.host
            && h.boot == self.boot
            && h.pidns == self.pidns
    }
}

/// The start time of process `pid` here (`/proc/PID/stat`, field 22, in clock ticks since boot),
/// or None when it is not running.
fn start_time(pid: u32) -> Option<String> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // the command name is in parentheses and may hold spaces: the fields after its last ')'
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19).map(str::to_string)
}

/// Whether process `pid` here is an `ich` (its command name, `/proc/PID/comm`).
fn is_ich(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "ich")
}

/// Reads a lock file without following a link; Ok(None) when it is gone.
fn read_lock(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => {}
        Ok(m) if m.file_type().is_symlink() => {
            // a planted link is no lock: removed (the link, not its target)
            fs::remove_file(path)?;
            return Ok(None);
        }
        Ok(_) => {
            return Err(io::Error::other(format!(
                "{}: a lock's name holds something that is not a file",
                path.display()
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    }
    let mut v = Vec::new();
    match fs::File::open(path) {
        Ok(f) => {
            f.take(4 * SIZE as u64).read_to_end(&mut v)?;
            Ok(Some(v))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

enum Verdict {
    /// Held by a live writer (described).
    Live(String),
    /// A dead writer's lock: these bytes, to be taken over.
    Stale(Vec<u8>),
    /// The lock went away while it was judged.
    Gone,
}

fn judge(path: &Path, timing: LockTiming) -> io::Result<Verdict> {
    let Some(first) = read_lock(path)? else {
        return Ok(Verdict::Gone);
    };
    let here = Machine::here();
    if let Some(h) = Holder::parse(&first) {
        if here.is_home_of(&h) {
            let alive = match start_time(h.pid) {
                None => false,
                // an older ich's lock (a bare PID) has no start time: it is alive only while an
                // `ich` runs under that PID, not any process that has the number now
                Some(_) if h.start.is_empty() => is_ich(h.pid),
                Some(s) => s == h.start,
            };
            return Ok(if alive {
                Verdict::Live(h.describe())
            } else {
                Verdict::Stale(first)
            });
        }
    }
    // a holder elsewhere (or a file being written this instant): watched for a lease
    let t0 = Instant::now();
    let step = (timing.beat / 2).max(Duration::from_millis(10));
    while t0.elapsed() < timing.lease {
        std::thread::sleep(step.min(timing.lease.saturating_sub(t0.elapsed())));
        let Some(now) = read_lock(path)? else {
            return Ok(Verdict::Gone);
        };
        if now != first {
            return Ok(match Holder::parse(&now) {
                Some(h) => Verdict::Live(format!("{}, heartbeat seen", h.describe())),
                // it changed into something unreadable: looked at again by the caller
                None => Verdict::Gone,
            });
        }
    }
    Ok(Verdict::Stale(first))
}

/// Moves a dead writer's lock aside and removes it; a lock that changed meanwhile (another
/// process took over first and made its own) is put back.
fn take_over(path: &Path, judged: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let aside = dir.join(format!("{name}.stale{:016x}", rand::random::<u64>()));
    match fs::rename(path, &aside) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    }
    let moved = read_lock(&aside)?.unwrap_or_default();
    if moved != judged {
        // not the lock judged dead: back under its name if that is still free
        let _ = fs::hard_link(&aside, path);
    }
    let _ = fs::remove_file(&aside);
    Ok(())
}

struct Beat {
    stop: Mutex<bool>,
    wake: Condvar,
    lost: AtomicBool,
}

/// A folder held by one writer ([module documentation](self)); released when dropped.
pub struct DirLock {
    path: PathBuf,
    token: String,
    beat: Arc<Beat>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for DirLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirLock").field("path", &self.path).finish()
    }
}

impl DirLock {
    /// Takes `dir`'s lock for a run of `command` ([`LockTiming::from_env`]), or says which live
    /// process holds it.
    pub fn take(dir: &Path, command: &str) -> io::Result<DirLock> {
        Self::take_with(dir, command, LockTiming::from_env())
    }

    /// [`DirLock::take`] with the given timing.
    pub fn take_with(dir: &Path, command: &str, timing: LockTiming) -> io::Result<DirLock> {
        Self::take_at(dir.join(LOCK_FILE), dir, command, timing)
    }

    /// The lock of one output file in a folder its writer does not own (a features file beside
    /// other files): `.NAME.ich.lock` beside `target`, held while the file and its notes are
    /// written, taken and judged as a folder's lock is.
    ///
    /// A folder that another process is writing as a whole (its `.ich.lock` held by a live
    /// writer) is refused: that writer's sweep and this one's could otherwise meet.
    pub fn take_for_file(target: &Path, command: &str) -> io::Result<DirLock> {
        Self::take_for_file_with(target, command, LockTiming::from_env())
    }

    /// [`DirLock::take_for_file`] with the given timing.
    pub fn take_for_file_with(
        target: &Path,
        command: &str,
        timing: LockTiming,
    ) -> io::Result<DirLock> {
        let (dir, name) = split_target(target)?;
        let folder = dir.join(LOCK_FILE);
        if !holds(&folder) {
            if let Verdict::Live(who) = judge(&folder, timing)? {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "{} is being written as a whole by another ich process ({who}); wait for \
                         it or write {name} into another folder",
                        dir.display()
                    ),
                ));
            }
        }
        let lock = dir.join(format!(".{name}.ich.lock"));
        Self::take_at(lock, target, command, timing)
    }

    /// Takes the lock file `path`, guarding `what` (named in a refusal).
    fn take_at(
        path: PathBuf,
        what: &Path,
        command: &str,
        timing: LockTiming,
    ) -> io::Result<DirLock> {
        let dir = what;
        for _ in 0..8 {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    let token = format!(
                        "{:016x}{:016x}",
                        rand::random::<u64>(),
                        rand::random::<u64>()
                    );
                    let me = Holder::this_process(command, token.clone());
                    let res = f.write_all(&me.to_bytes()).and_then(|()| f.sync_all());
                    if let Err(e) = res {
                        let _ = fs::remove_file(&path);
                        return Err(e);
                    }
                    let beat = Arc::new(Beat {
                        stop: Mutex::new(false),
                        wake: Condvar::new(),
                        lost: AtomicBool::new(false),
                    });
                    let thread = {
                        let (beat, path) = (beat.clone(), path.clone());
                        std::thread::Builder::new()
                            .name("ich-lock-heartbeat".into())
                            .spawn(move || heartbeat(&path, me, timing.beat, &beat))?
                    };
                    register(&path, what, &token, &beat);
                    return Ok(DirLock {
                        path,
                        token,
                        beat,
                        thread: Some(thread),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => match judge(&path, timing)? {
                    Verdict::Live(who) => {
                        return Err(io::Error::new(
                            io::ErrorKind::WouldBlock,
                            format!(
                                "{} is being written by another ich process ({who}); wait for \
                                 it or give another folder",
                                dir.display()
                            ),
                        ))
                    }
                    Verdict::Stale(bytes) => take_over(&path, &bytes)?,
                    Verdict::Gone => {}
                },
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other(format!(
            "{}: could not take the lock {}",
            dir.display(),
            path.display()
        )))
    }

    /// Err when the lock was lost: its file was taken over or removed while this process held it
    /// (a holder that stopped beating for a whole lease, e.g. a suspended process). The file is
    /// read now, not only as the heartbeat last saw it: a holder resumed after a pause learns it
    /// before its next step, not a beat later.
    pub fn check(&self) -> io::Result<()> {
        still_held(&self.path, &self.token, &self.beat)
    }
}

/// Whether the lock file `path` still names the holder of `token` (the token's line is never
/// rewritten by a heartbeat, so a read torn by one still shows it); a lock found lost is marked
/// so for good.
fn still_held(path: &Path, token: &str, beat: &Beat) -> io::Result<()> {
    let lost = || {
        // the new holder's file may be being written this instant: looked at a few times
        let who = (0..20)
            .find_map(|k| {
                if k > 0 {
                    std::thread::sleep(Duration::from_millis(5));
                }
                read_lock(path)
                    .ok()
                    .flatten()
                    .and_then(|b| Holder::parse(&b))
            })
            .map(|h| format!(" (now {})", h.describe()))
            .unwrap_or_default();
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{}: this run's lock was taken over by another process while this one held it{who} \
                 (was this process paused or suspended past the lock's lease?); it stops without \
                 writing more: look at what the other process did, then run again",
                path.display()
            ),
        )
    };
    if beat.lost.load(Ordering::SeqCst) {
        return Err(lost());
    }
    let line = format!("\ntoken={token}\n");
    let ours = read_lock(path)
        .ok()
        .flatten()
        .is_some_and(|b| b.windows(line.len()).any(|w| w == line.as_bytes()));
    if !ours {
        beat.lost.store(true, Ordering::SeqCst);
        return Err(lost());
    }
    Ok(())
}

/// A lock this process holds, as [`confirm`] checks it: what it guards (a folder and everything
/// under it, or one file), and the folder's identity when it was taken.
#[derive(Clone)]
struct Held {
    lock: PathBuf,
    token: String,
    beat: Arc<Beat>,
    /// The guarded folder or file, made absolute (not resolved: a link the user gave stays).
    scope: PathBuf,
    /// The folder's (device, inode) when the lock was taken; None for a file's lock.
    folder: Option<(u64, u64)>,
}

fn held() -> std::sync::MutexGuard<'static, Vec<Held>> {
    static HELD: Mutex<Vec<Held>> = Mutex::new(Vec::new());
    crate::sync::lock(&HELD)
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(unix)]
fn folder_identity(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(p)
        .ok()
        .filter(|m| m.is_dir())
        .map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn folder_identity(p: &Path) -> Option<(u64, u64)> {
    fs::metadata(p).ok().filter(|m| m.is_dir()).map(|_| (0, 0))
}

fn register(lock: &Path, what: &Path, token: &str, beat: &Arc<Beat>) {
    let folder = folder_identity(what);
    held().push(Held {
        lock: lock.to_path_buf(),
        token: token.to_string(),
        beat: beat.clone(),
        scope: absolute(what),
        folder,
    });
}

/// Whether this process holds the lock file `lock` (a folder writer's own file lock inside it,
/// or its own folder's lock seen by a per-file writer).
pub(crate) fn holds(lock: &Path) -> bool {
    let lock = absolute(lock);
    held().iter().any(|h| absolute(&h.lock) == lock)
}

/// Checks, before a file is created, renamed into place or a folder made at `target`, that every
/// lock this process holds over `target` is still its own ([`DirLock::check`], read from the
/// file now) and that the folder each guards is still the one it locked: the folder itself has
/// the identity it had, and no component between it and `target` has become a symbolic link (a
/// subfolder swapped for a link during the run would send the rest of it elsewhere). A target
/// no held lock covers passes. The one writer ([`crate::atomic`]) calls this before each step;
/// a writer that gets the error stops and names it.
pub fn confirm(target: &Path) -> io::Result<()> {
    let target = absolute(target);
    let covering: Vec<Held> = held()
        .iter()
        .filter(|h| match h.folder {
            Some(_) => target.starts_with(&h.scope),
            None => target == h.scope,
        })
        .cloned()
        .collect();
    for Held {
        lock,
        token,
        beat,
        scope,
        folder,
    } in covering
    {
        let Some(id) = folder else {
            still_held(&lock, &token, &beat)?;
            continue;
        };
        if folder_identity(&scope) != Some(id) {
            return Err(replaced(&scope));
        }
        // the folder is the one locked: its lock file speaks for it
        still_held(&lock, &token, &beat)?;
        let Ok(rel) = target.strip_prefix(&scope) else {
            continue;
        };
        let mut p = scope.clone();
        let parts: Vec<_> = rel.components().collect();
        // every folder on the way (not the target's own name, which the writer replaces)
        for c in parts.iter().take(parts.len().saturating_sub(1)) {
            p.push(c);
            match fs::symlink_metadata(&p) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(swapped(&p, &scope)),
                // not made yet: the writer's own step fails or makes it
                Err(_) => break,
            }
        }
    }
    Ok(())
}

/// The error of a locked folder that is no longer the one locked.
fn replaced(scope: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{}: the output folder was replaced (moved, removed or swapped for a link) while this \
             run wrote into it; nothing more is written: look at what is there now, then run \
             again",
            scope.display()
        ),
    )
}

/// The error of a folder on the way that is no longer a real folder.
fn swapped(p: &Path, scope: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{}: swapped for a symbolic link or a file while this run wrote into {}; nothing is \
             written through it and the run stops: remove it, then run again",
            p.display(),
            scope.display()
        ),
    )
}

/// The folder `dir` held open for the one writer's next step ([`crate::folder`]). Under a
/// folder this process holds the lock of, it is reached from that folder's own handle (whose
/// identity is the one locked) one component at a time, no link followed: a subfolder swapped
/// for a link, whenever it happens, is refused here, and once the handle is held no later swap
/// can redirect what is written through it. A folder no held lock covers is opened as given.
pub(crate) fn open_held(dir: &Path) -> io::Result<crate::folder::Folder> {
    use crate::folder::{Folder, Sub};
    let abs = absolute(dir);
    // the innermost locked folder that holds `dir`
    let scope = held()
        .iter()
        .filter_map(|h| Some((h.scope.clone(), h.folder?)))
        .filter(|(scope, _)| abs.starts_with(scope))
        .max_by_key(|(scope, _)| scope.components().count());
    let Some((scope, id)) = scope else {
        return Folder::open(dir);
    };
    let mut f = match Folder::open(&scope) {
        Ok(f) => f,
        // the locked folder moved or removed during the run
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(replaced(&scope)),
        Err(e) => return Err(e),
    };
    if f.identity()? != id {
        return Err(replaced(&scope));
    }
    let rel = abs.strip_prefix(&scope).unwrap_or(Path::new(""));
    for c in rel.components() {
        let std::path::Component::Normal(name) = c else {
            return Err(io::Error::other(format!(
                "{}: not a plain path inside the output folder {}",
                dir.display(),
                scope.display()
            )));
        };
        f = match f.sub(name)? {
            Sub::Folder(sub) => sub,
            Sub::Missing => {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("{}: no such folder", f.path_of(name).display()),
                ))
            }
            Sub::NotAFolder => return Err(swapped(&f.path_of(name), &scope)),
        };
    }
    Ok(f)
}

/// Rewrites the lock every `every` with a higher count while it still holds `me`'s token.
fn heartbeat(path: &Path, mut me: Holder, every: Duration, beat: &Beat) {
    loop {
        {
            let stop = crate::sync::lock(&beat.stop);
            let (stop, _) = beat
                .wake
                .wait_timeout_while(stop, every, |s| !*s)
                .unwrap_or_else(|e| e.into_inner());
            if *stop {
                return;
            }
        }
        let still_ours = read_lock(path)
            .ok()
            .flatten()
            .and_then(|b| Holder::parse(&b))
            .is_some_and(|h| h.token == me.token);
        if !still_ours {
            beat.lost.store(true, Ordering::SeqCst);
            return;
        }
        me.beat += 1;
        let _ = rewrite(path, &me.to_bytes());
    }
}

/// Writes `bytes` over the lock file in place (same size: a reader never sees it shorter).
fn rewrite(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let f = fs::OpenOptions::new().write(true).open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        f.write_all_at(bytes, 0)
    }
    #[cfg(not(unix))]
    {
        let mut f = f;
        f.write_all(bytes)
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        held().retain(|h| h.token != self.token);
        {
            let mut stop = crate::sync::lock(&self.beat.stop);
            *stop = true;
        }
        self.beat.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        // only our own lock is removed (one taken over meanwhile is its new holder's)
        let now = read_lock(&self.path).ok().flatten();
        let holder = now.as_deref().and_then(Holder::parse);
        if holder.as_ref().is_some_and(|h| h.token == self.token) {
            let _ = fs::remove_file(&self.path);
        } else {
            // taken over after this run's last check (it was paused between that check and its
            // last step): the run must not end as if it had held its folder throughout
            let who = holder
                .map(|h| format!(" (now {})", h.describe()))
                .unwrap_or_default();
            let mut lost = crate::sync::lock(&LOST);
            lost.get_or_insert(format!(
                "{}: this run's lock was taken over by another process while this one held it{who} \
                 (was this process paused or suspended past the lock's lease?); what it wrote \
                 last may stand beside the other process's work: look at both, then run again",
                self.path.display()
            ));
        }
    }
}

/// The first lock this process found taken over when it let it go.
static LOST: Mutex<Option<String>> = Mutex::new(None);

/// Why this process must not report success: a lock it held was found taken over when it let
/// it go (after its last check, so no step of the run refused). The binary turns this into a
/// failure at exit, so a run whose folder was taken over never ends with exit 0.
pub fn lost_during_the_run() -> Option<String> {
    crate::sync::lock(&LOST).clone()
}

/// The folder and the file name of a file path (`.` for a bare name).
pub(crate) fn split_target(path: &Path) -> io::Result<(&Path, String)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file path", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Ok((dir, name.to_string_lossy().into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> LockTiming {
        LockTiming {
            beat: Duration::from_millis(40),
            lease: Duration::from_millis(400),
        }
    }

    /// A lock file as a process elsewhere would write it.
    fn foreign(host: &str, pid: u32, beat: u64) -> Vec<u8> {
        Holder {
            command: "merge".into(),
            host: host.into(),
            boot: "another-boot".into(),
            pidns: "pid:[1]".into(),
            pid,
            start: "1".into(),
            token: "f".repeat(32),
            beat,
        }
        .to_bytes()
    }

    #[test]
    fn a_folder_has_one_writer_and_a_dead_writers_lock_is_taken_over() {
        let t = tempfile::tempdir().unwrap();
        let a = DirLock::take_with(t.path(), "preprocess", quick()).unwrap();
        let e = DirLock::take_with(t.path(), "preprocess", quick()).unwrap_err();
        assert!(e.to_string().contains("another ich process"), "{e}");
        assert_eq!(e.kind(), io::ErrorKind::WouldBlock);
        drop(a);
        assert!(!t.path().join(LOCK_FILE).exists());
        let b = DirLock::take_with(t.path(), "preprocess", quick()).unwrap();
        drop(b);
        // an older ich's lock of a process that is gone (PID beyond Linux's pid_max)
        fs::write(t.path().join(LOCK_FILE), "4194305").unwrap();
        let _c = DirLock::take_with(t.path(), "preprocess", quick()).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pid_running_again_here_does_not_keep_a_dead_writers_lock() {
        // the lock names this very PID, on this machine and namespace, but another start time:
        // the writer that took it is gone and the PID is a newer process's (a retried pod's)
        let t = tempfile::tempdir().unwrap();
        let mut h = Holder::this_process("predict", "a".repeat(32));
        h.start = "1".into();
        fs::write(t.path().join(LOCK_FILE), h.to_bytes()).unwrap();
        let t0 = Instant::now();
        let _l = DirLock::take_with(t.path(), "predict", LockTiming::default()).unwrap();
        // judged at once from /proc, without waiting for a lease
        assert!(t0.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_silent_lock_from_another_host_or_namespace_is_taken_over_after_its_lease() {
        let t = tempfile::tempdir().unwrap();
        // the writer's PID is alive here (ours), but it names another host: /proc says nothing
        fs::write(
            t.path().join(LOCK_FILE),
            foreign("node-7", std::process::id(), 3),
        )
        .unwrap();
        let t0 = Instant::now();
        let l = DirLock::take_with(t.path(), "merge", quick()).unwrap();
        assert!(t0.elapsed() >= quick().lease, "{:?}", t0.elapsed());
        l.check().unwrap();
        // the new lock names this process
        let h = Holder::parse(&fs::read(t.path().join(LOCK_FILE)).unwrap()).unwrap();
        assert_eq!(h.pid, std::process::id());
    }

    /// The lock of `ich merge`, pid 4194305 on host node-7, at `path`, its heartbeat moving
    /// every 40 ms until the flag is set.
    fn beating_elsewhere(path: &Path) -> (Arc<AtomicBool>, JoinHandle<()>) {
        fs::write(path, foreign("node-7", 4_194_305, 0)).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let beater = {
            let (stop, path) = (stop.clone(), path.to_path_buf());
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(40));
                    n += 1;
                    rewrite(&path, &foreign("node-7", 4_194_305, n)).unwrap();
                }
            })
        };
        (stop, beater)
    }

    #[test]
    fn a_live_writer_on_another_host_is_seen_by_its_heartbeat_and_excluded() {
        let t = tempfile::tempdir().unwrap();
        let (stop, beater) = beating_elsewhere(&t.path().join(LOCK_FILE));
        let e = DirLock::take_with(t.path(), "merge", quick()).unwrap_err();
        assert!(
            e.to_string()
                .contains("ich merge, pid 4194305 on host node-7"),
            "{e}"
        );
        stop.store(true, Ordering::SeqCst);
        beater.join().unwrap();
        // once it stops beating, its lease runs out and the lock is taken over
        let _l = DirLock::take_with(t.path(), "merge", quick()).unwrap();
    }

    #[test]
    fn a_holder_beats_so_that_another_host_sees_it_alive() {
        let t = tempfile::tempdir().unwrap();
        let l = DirLock::take_with(t.path(), "serve", quick()).unwrap();
        let path = t.path().join(LOCK_FILE);
        let first = Holder::parse(&fs::read(&path).unwrap()).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let later = Holder::parse(&fs::read(&path).unwrap()).unwrap();
        assert!(later.beat > first.beat, "{first:?} {later:?}");
        assert_eq!(fs::metadata(&path).unwrap().len(), SIZE as u64);
        // a lock taken over meanwhile (this holder was thought dead) is reported lost, and its
        // new holder's file is not removed when the old one lets go
        fs::write(&path, foreign("node-2", 9, 0)).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        assert!(l.check().is_err());
        drop(l);
        assert_eq!(fs::read(&path).unwrap(), foreign("node-2", 9, 0));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_at_the_locks_name_is_removed_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        fs::write(&victim, b"precious").unwrap();
        let out = t.path().join("out");
        fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&victim, out.join(LOCK_FILE)).unwrap();
        let l = DirLock::take_with(&out, "predict", quick()).unwrap();
        drop(l);
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
    }

    #[test]
    fn a_lock_file_cut_short_by_a_crash_is_taken_over_after_a_lease() {
        let t = tempfile::tempdir().unwrap();
        fs::write(t.path().join(LOCK_FILE), b"ich-lock 1\nhost=a\n").unwrap();
        let _l = DirLock::take_with(t.path(), "x", quick()).unwrap();
    }

    /// A holder paused past its lease and resumed: its lock was taken over while it slept, and
    /// its heartbeat has not beaten since. `check` reads the file now and says so at once (the
    /// heartbeat alone would say it a beat later, after the next write).
    #[test]
    fn a_lock_taken_over_is_seen_by_the_next_check_before_any_heartbeat() {
        let t = tempfile::tempdir().unwrap();
        let slow = LockTiming {
            beat: Duration::from_secs(3600),
            lease: Duration::from_secs(7200),
        };
        let l = DirLock::take_with(t.path(), "serve", slow).unwrap();
        l.check().unwrap();
        fs::write(t.path().join(LOCK_FILE), foreign("node-2", 9, 0)).unwrap();
        let e = l.check().unwrap_err();
        assert!(e.to_string().contains("taken over"), "{e}");
        assert!(e.to_string().contains("node-2"), "{e}");
        // and every write under the folder is refused from now on
        let e = confirm(&t.path().join("scans.csv")).unwrap_err();
        assert!(e.to_string().contains("taken over"), "{e}");
        // a path this lock does not cover is not its business
        let other = tempfile::tempdir().unwrap();
        confirm(&other.path().join("x")).unwrap();
    }

    /// An older ich's lock is a bare PID; one that names a live process which is not `ich`
    /// (here: this test binary) is a dead writer's, judged at once, not a live one's.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_old_format_lock_naming_a_live_process_that_is_not_ich_is_stale() {
        let t = tempfile::tempdir().unwrap();
        fs::write(t.path().join(LOCK_FILE), std::process::id().to_string()).unwrap();
        let t0 = Instant::now();
        let l = DirLock::take_with(t.path(), "predict", LockTiming::default()).unwrap();
        assert!(t0.elapsed() < Duration::from_secs(5));
        drop(l);
        assert_eq!(
            Holder::parse(std::process::id().to_string().as_bytes())
                .unwrap()
                .describe(),
            format!(
                "pid {}, in the lock format of an older ich",
                std::process::id()
            )
        );
    }

    /// A folder written as a whole by a live writer refuses a per-file writer, and a per-file
    /// writer's own folder lock does not refuse it.
    #[test]
    fn a_file_lock_is_refused_in_a_folder_another_writer_holds() {
        let t = tempfile::tempdir().unwrap();
        // a live writer elsewhere: its heartbeat moves while it is judged
        let path = t.path().join(LOCK_FILE);
        let (stop, beater) = beating_elsewhere(&path);
        let e = DirLock::take_for_file_with(&t.path().join("features.csv"), "extract", quick())
            .unwrap_err();
        assert!(e.to_string().contains("as a whole"), "{e}");
        stop.store(true, Ordering::SeqCst);
        beater.join().unwrap();
        fs::remove_file(&path).unwrap();
        let own = DirLock::take_with(t.path(), "adapt", quick()).unwrap();
        let f = DirLock::take_for_file(&t.path().join("features.csv"), "adapt").unwrap();
        drop(f);
        drop(own);
    }
}
