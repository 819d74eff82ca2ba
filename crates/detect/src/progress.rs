//! Progress on standard error behind the libraries' one `Progress` trait: a bar (indicatif) when
//! standard error is a terminal, else "k of N, ETA" lines in the log at a steady pace, so that a
//! stage running for an hour under a scheduler or a service is not silent.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use attcnn::training::{EpochLog, Event};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use milbase::Progress;

/// How often a stage logs its progress when standard error is not a terminal: every
/// `ICH_PROGRESS_SECS` seconds (1 to 3,600), 10 by default.
pub fn log_interval() -> Duration {
    let secs = std::env::var("ICH_PROGRESS_SECS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| (1..=3600).contains(s))
        .unwrap_or(10);
    Duration::from_secs(secs)
}

/// Where logged progress lines go.
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// Progress drawn on standard error, one stage at a time; nothing when not `enabled`.
pub struct Bars {
    enabled: bool,
    /// Standard error is not a terminal: log lines every this often instead of a bar.
    log_every: Option<Duration>,
    sink: Sink,
    bar: Mutex<Option<ProgressBar>>,
    logged: Mutex<Option<LoggedStage>>,
}

/// A stage being logged: its counts, and the thread that writes its lines.
struct LoggedStage {
    state: Arc<StageState>,
    ticker: JoinHandle<()>,
}

struct StageState {
    name: String,
    len: u64,
    pos: AtomicU64,
    started: Instant,
    /// Set when the stage is over; the ticker waits on it.
    over: Mutex<bool>,
    wake: Condvar,
    /// Whether a line was logged (then the stage's end is logged too).
    said: std::sync::atomic::AtomicBool,
    sink: Sink,
}

impl StageState {
    fn line(&self) -> String {
        let pos = self.pos.load(Ordering::Relaxed).min(self.len);
        let elapsed = self.started.elapsed();
        let eta = if pos > 0 && pos < self.len {
            let left = elapsed.as_secs_f64() / pos as f64 * (self.len - pos) as f64;
            format!(", ETA {}", duration(Duration::from_secs_f64(left)))
        } else {
            String::new()
        };
        format!(
            "{}: {pos} of {}, {} elapsed{eta}",
            self.name,
            self.len,
            duration(elapsed)
        )
    }
}

/// `1h02m`, `3m05s`, `12s`: a duration as a log line says it.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

impl Bars {
    pub fn new(enabled: bool) -> Self {
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        Self::with_log(enabled, (!terminal).then(log_interval))
    }

    /// Progress that logs a line every `every` (`Some`) or draws bars (`None`).
    pub fn with_log(enabled: bool, every: Option<Duration>) -> Self {
        Self::with_sink(enabled, every, Arc::new(|l: &str| tracing::info!("{l}")))
    }

    /// As [`Bars::with_log`], the lines handed to `sink` instead of the log.
    pub fn with_sink(enabled: bool, every: Option<Duration>, sink: Sink) -> Self {
        Self {
            enabled,
            log_every: every,
            sink,
            bar: Mutex::new(None),
            logged: Mutex::new(None),
        }
    }

    /// What CNN training reports: a bar per epoch and each finished epoch ([`epoch_line`]).
    pub fn training(&self) -> impl Fn(Event<'_>) + '_ {
        move |e| match e {
            Event::Epoch { epoch, bags } => {
                self.stage(&format!("epoch {}", epoch + 1), bags as u64)
            }
            Event::Bag => self.inc(1),
            Event::EpochDone(l) => {
                self.done();
                epoch_line(l);
            }
        }
    }

    fn with(&self, f: impl FnOnce(&mut Option<ProgressBar>)) {
        // a panic elsewhere while the lock was held leaves the bar as it was: keep going
        let mut g = milbase::sync::lock(&self.bar);
        f(&mut g);
    }

    fn end_logged(&self) {
        let stage = milbase::sync::lock(&self.logged).take();
        if let Some(s) = stage {
            *milbase::sync::lock(&s.state.over) = true;
            s.state.wake.notify_all();
            let _ = s.ticker.join();
            if s.state.said.load(Ordering::Relaxed) {
                (s.state.sink)(&s.state.line());
            }
        }
    }

    fn start_logged(&self, name: &str, len: u64, every: Duration) {
        let state = Arc::new(StageState {
            name: name.to_string(),
            len,
            pos: AtomicU64::new(0),
            started: Instant::now(),
            over: Mutex::new(false),
            wake: Condvar::new(),
            said: Default::default(),
            sink: Arc::clone(&self.sink),
        });
        let st = Arc::clone(&state);
        let ticker = std::thread::spawn(move || {
            let mut over = milbase::sync::lock(&st.over);
            let mut next = Instant::now() + every;
            loop {
                let now = Instant::now();
                if *over {
                    return;
                }
                if now >= next {
                    (st.sink)(&st.line());
                    st.said.store(true, Ordering::Relaxed);
                    next += every;
                    continue;
                }
                over = match st.wake.wait_timeout(over, next - now) {
                    Ok((g, _)) => g,
                    Err(p) => p.into_inner().0,
                };
            }
        });
        *milbase::sync::lock(&self.logged) = Some(LoggedStage { state, ticker });
    }
}

impl Progress for Bars {
    fn stage(&self, name: &str, len: u64) {
        if let Some(every) = self.log_every {
            self.end_logged();
            if self.enabled {
                self.start_logged(name, len, every);
            }
            return;
        }
        let bar = if self.enabled {
            ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) =
            ProgressStyle::with_template("{msg:>22} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(name.to_string());
        self.with(|b| *b = Some(bar));
    }
    fn inc(&self, n: u64) {
        if self.log_every.is_some() {
            if let Some(s) = milbase::sync::lock(&self.logged).as_ref() {
                s.state.pos.fetch_add(n, Ordering::Relaxed);
            }
            return;
        }
        self.with(|b| {
            if let Some(b) = b.as_ref() {
                b.inc(n)
            }
        });
    }
    fn done(&self) {
        if self.log_every.is_some() {
            self.end_logged();
            return;
        }
        self.with(|b| {
            if let Some(b) = b.take() {
                b.finish_and_clear()
            }
        });
    }
}

impl Drop for Bars {
    fn drop(&mut self) {
        self.end_logged();
    }
}

/// `x` to 4 significant digits (a figure in a log line, still a number in a JSON log).
pub fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// One epoch of CNN training.
pub fn epoch(l: &EpochLog) -> String {
    let of = if l.epochs > 0 {
        format!(" of {}", l.epochs)
    } else {
        String::new()
    };
    format!(
        "epoch {:>3}{of}: train loss {:.4}, valid loss {:.4}, valid AUC {}, {:.1} s",
        l.epoch + 1,
        l.train_loss,
        l.valid_loss,
        l.valid_auc
            .map_or_else(|| "–".into(), |x| format!("{x:.4}")),
        l.seconds
    )
}

/// One line per epoch (training, `ich demo`), on one channel: a human line on stdout when stderr
/// is a terminal (someone is watching), else one `tracing` event in the log (plain or JSON), its
/// figures to 4 significant digits; never both, so a log written to a file has each epoch once.
pub fn epoch_line(l: &EpochLog) {
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        println!("{}", epoch(l));
    } else {
        tracing::info!(
            epoch = l.epoch,
            of = l.epochs,
            train_loss = round4(l.train_loss),
            valid_loss = round4(l.valid_loss),
            valid_auc = l.valid_auc.map(round4),
            seconds = round4(l.seconds),
            "epoch"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_rounded_to_four_significant_digits() {
        assert_eq!(round4(0.177_179_583_952_512_52), 0.1772);
        assert_eq!(round4(27.253_412_511), 27.25);
        assert_eq!(round4(1234.567), 1235.0);
        assert_eq!(round4(-0.000_123_456), -0.000_123_5);
        assert_eq!(round4(0.0), 0.0);
        assert!(round4(f64::NAN).is_nan());
    }

    #[test]
    fn durations_read_as_a_log_says_them() {
        assert_eq!(duration(Duration::from_secs(12)), "12s");
        assert_eq!(duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(duration(Duration::from_secs(3720)), "1h02m");
    }

    /// A stage's line: k of N, the time so far and the time left at the pace so far.
    #[test]
    fn a_stage_line_says_k_of_n_and_the_time_left() {
        let s = StageState {
            name: "GP fits".into(),
            len: 6,
            pos: AtomicU64::new(2),
            started: Instant::now() - Duration::from_secs(40),
            over: Mutex::new(false),
            wake: Condvar::new(),
            said: Default::default(),
            sink: Arc::new(|_: &str| {}),
        };
        // 40 s for 2 steps: 4 steps left take 80 s
        assert_eq!(s.line(), "GP fits: 2 of 6, 40s elapsed, ETA 1m20s");
        s.pos.store(6, Ordering::Relaxed);
        assert_eq!(s.line(), "GP fits: 6 of 6, 40s elapsed");
    }

    /// Not on a terminal, a stage logs its line at a steady pace while it runs and a last one
    /// when it ends; a stage too short for a line logs nothing; quiet logs nothing.
    #[test]
    fn a_stage_logs_lines_while_it_runs_and_when_it_ends() {
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let l2 = Arc::clone(&lines);
        let sink: Sink = Arc::new(move |l: &str| l2.lock().unwrap().push(l.to_string()));
        let bars = Bars::with_sink(true, Some(Duration::from_millis(20)), sink.clone());
        bars.stage("slices", 4);
        bars.inc(1);
        let t0 = Instant::now();
        while lines.lock().unwrap().is_empty() && t0.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        bars.inc(3);
        bars.done();
        let got = lines.lock().unwrap().clone();
        assert!(got.len() >= 2, "{got:?}");
        assert!(got[0].starts_with("slices: 1 of 4, "), "{got:?}");
        assert!(got[0].contains("ETA"), "{got:?}");
        assert!(
            got.last().unwrap().starts_with("slices: 4 of 4, "),
            "{got:?}"
        );
        // a stage over before its first line: nothing
        let n = got.len();
        let bars = Bars::with_sink(true, Some(Duration::from_secs(3600)), sink.clone());
        bars.stage("short", 2);
        bars.inc(2);
        bars.done();
        // quiet: nothing either
        let quiet = Bars::with_sink(false, Some(Duration::from_millis(1)), sink);
        quiet.stage("quiet", 2);
        std::thread::sleep(Duration::from_millis(30));
        quiet.done();
        assert_eq!(lines.lock().unwrap().len(), n);
    }
}
