//! Progress bars on standard error (indicatif) behind the libraries' one `Progress` trait.

use std::sync::Mutex;

use attcnn::training::{EpochLog, Event};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use milbase::Progress;

/// Bars drawn on standard error, one stage at a time; hidden when not `enabled`.
pub struct Bars {
    enabled: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            bar: Mutex::new(None),
        }
    }

    /// What CNN training reports: a bar per epoch and each finished epoch ([`epoch_line`]).
    pub fn training(&self) -> impl Fn(Event<'_>) + '_ {
        move |e| match e {
            Event::Epoch { epoch, bags } => self.stage(&format!("epoch {epoch}"), bags as u64),
            Event::Bag => self.inc(1),
            Event::EpochDone(l) => {
                self.done();
                epoch_line(l);
            }
        }
    }

    fn with(&self, f: impl FnOnce(&mut Option<ProgressBar>)) {
        // a panic elsewhere while the lock was held leaves the bar as it was: keep going
        let mut g = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut g);
    }
}

impl Progress for Bars {
    fn stage(&self, name: &str, len: u64) {
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
        self.with(|b| {
            if let Some(b) = b.as_ref() {
                b.inc(n)
            }
        });
    }
    fn done(&self) {
        self.with(|b| {
            if let Some(b) = b.take() {
                b.finish_and_clear()
            }
        });
    }
}

/// One line per epoch (training, `ich demo`), on one channel: a human line on stdout when stderr
/// is a terminal (someone is watching), else one `tracing` event in the log (plain or JSON);
/// never both, so a log written to a file has each epoch once.
pub fn epoch_line(l: &EpochLog) {
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        println!("{}", crate::summary::epoch(l));
    } else {
        tracing::info!(
            epoch = l.epoch,
            train_loss = l.train_loss,
            valid_loss = l.valid_loss,
            valid_auc = l.valid_auc,
            seconds = l.seconds,
            "epoch"
        );
    }
}
