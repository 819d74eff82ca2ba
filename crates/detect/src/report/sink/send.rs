//! Sending the run's DICOM results to the PACS (`--send`): last of the sinks, so that every
//! report is on disk whatever the network does. It writes no file; each destination gets every
//! file, with bounded retries ([`crate::report::dicomout::send_all`]).

use milbase::Progress;
use pacs::{Destination, SendOptions};
use preprocess::scan::Scan;

use crate::error::Result;
use crate::report::dicomout::send_all;
use crate::report::sink::{End, Fault, Sink};
use crate::report::{Report, ScanPrediction};

/// The destinations of a run's DICOM results.
pub struct Sending<'a> {
    dests: &'a [Destination],
    opts: &'a SendOptions,
    progress: &'a dyn Progress,
}

impl<'a> Sending<'a> {
    pub fn new(
        dests: &'a [Destination],
        opts: &'a SendOptions,
        progress: &'a dyn Progress,
    ) -> Self {
        Self {
            dests,
            opts,
            progress,
        }
    }
}

impl Sink for Sending<'_> {
    /// Nothing until the end: a study's results go together.
    fn scan(
        &mut self,
        _head: &Report,
        _source: Option<&Scan>,
        _p: &mut ScanPrediction,
    ) -> std::result::Result<(), Fault> {
        Ok(())
    }

    fn finish(self: Box<Self>, end: &mut End<'_, '_>) -> Result<()> {
        end.sent = send_all(&end.dicom, self.dests, self.opts, self.progress);
        Ok(())
    }
}
