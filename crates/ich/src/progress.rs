//! Progress bars (indicatif) behind the libraries' `Progress` trait.

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
}

impl preprocess::Progress for Bars {
    fn stage(&self, name: &str, len: u64) {
        let bar = if self.enabled {
            ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{msg:>22} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_message(name.to_string());
        *self.bar.lock().expect("lock") = Some(bar);
    }
    fn inc(&self, n: u64) {
        if let Some(b) = self.bar.lock().expect("lock").as_ref() {
            b.inc(n);
        }
    }
    fn done(&self) {
        if let Some(b) = self.bar.lock().expect("lock").take() {
            b.finish_and_clear();
        }
    }
}
