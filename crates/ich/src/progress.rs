//! Progress bars (indicatif) behind the libraries' one `Progress` trait.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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

    fn with(&self, f: impl FnOnce(&mut Option<ProgressBar>)) {
        // a panic elsewhere while the lock was held leaves the bar as it was: keep going
        let mut g = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut g);
    }
}

impl milbase::Progress for Bars {
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
