//! What arrives: the Storage SCP's sink (admission, the spool's space) and each instance
//! checked, compared and moved into its study (`accept_file`).

use super::*;

impl StoreSink for Shared {
    fn receiving_dir(&self) -> PathBuf {
        self.opts.spool.join(RECEIVING)
    }

    fn admit(&self, _calling_ae: &str) -> std::result::Result<(), Refusal> {
        let used = self.spool_bytes.load(Ordering::SeqCst);
        if used >= self.opts.max_spool_bytes {
            return Err(self.spool_full(used));
        }
        Ok(())
    }

    fn reserve(&self, bytes: u64) -> std::result::Result<(), Refusal> {
        self.take_space(bytes)
    }

    fn release(&self, bytes: u64) {
        self.give_space(bytes);
    }

    fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal> {
        if is_result_object(r.sop_class) {
            // an SR or a Secondary Capture: what this node sends (routed back to it by the
            // PACS) or another system's results, never a CT image to predict: acknowledged,
            // so that the PACS shows no failure, and not kept, so that no new round starts
            let _ = milbase::atomic::remove_file(r.file);
            tracing::info!(
                sop_class = %r.sop_class,
                from = %r.calling_ae,
                "a structured report or secondary capture (results, not a CT image): \
                 acknowledged and set aside"
            );
            return Ok(());
        }
        self.accept_file(
            r.file,
            Source::Stored(r.sop_instance, r.association),
            r.calling_ae,
        )
    }

    fn association_ended(&self, association: u64) {
        // the study it was sending settles from now
        let now = Instant::now();
        let mut studies = lock(&self.studies);
        if let Some(uid) = lock(&self.sending).remove(&association) {
            if let Some(s) = studies.get_mut(&uid) {
                if s.senders.remove(&association) {
                    s.last_rx = now;
                }
            }
        }
    }
}

impl Shared {
    pub(super) fn spool_full(&self, used: u64) -> Refusal {
        Refusal::new(
            OUT_OF_RESOURCES,
            format!(
                "spool full ({} of {} MiB)",
                used >> 20,
                self.opts.max_spool_bytes >> 20
            ),
        )
    }

    /// Counts `bytes` more on disk if they fit under `--max-spool-mib` (every byte: instances,
    /// files being received or retrieved, results), else refuses and counts nothing.
    pub(super) fn take_space(&self, bytes: u64) -> std::result::Result<(), Refusal> {
        let max = self.opts.max_spool_bytes;
        self.spool_bytes
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                used.checked_add(bytes).filter(|n| *n <= max)
            })
            .map(|_| ())
            .map_err(|used| self.spool_full(used))
    }

    pub(super) fn give_space(&self, bytes: u64) {
        let _ = self
            .spool_bytes
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                Some(used.saturating_sub(bytes))
            });
    }

    /// Takes a received file into its study (moved, synced): the C-STORE sink's work, and what
    /// the DICOMweb poll does with each instance it retrieves. `sop` is the command's SOP
    /// Instance UID (C-STORE), which the data set's own must equal; without it (polled) only
    /// CT instances are taken.
    ///
    /// An instance already in the spool is never replaced: the same bytes again are a
    /// duplicate (acknowledged, nothing changes); other bytes under the same SOP Instance UID
    /// are refused (0111H, "duplicate SOP instance", with an Error Comment) and logged, since
    /// the results already made or sent describe the first.
    pub(super) fn accept_file(
        &self,
        file: &Path,
        source: Source<'_>,
        from: &str,
    ) -> std::result::Result<(), Refusal> {
        let (sop, association) = match source {
            Source::Stored(sop, a) => (Some(sop), Some(a)),
            Source::Polled(_) => (None, None),
        };
        let Some(h) = self.checked_header(file, source)? else {
            return Ok(());
        };
        let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        let dir = self.study_dir(&h.study_uid);
        let dest = dir
            .join("in")
            .join(&h.series_uid)
            .join(format!("{}.dcm", h.sop_uid));
        // one instance compared and moved in at a time (a second copy arriving on another
        // association meanwhile finds the first in place), without the studies' lock: the
        // scheduler, the workers and the status endpoint never wait for this disk's syncs
        let stripe = h
            .sop_uid
            .bytes()
            .fold(0usize, |a, b| a.wrapping_mul(31) ^ b as usize);
        let _one = lock(&self.moving[stripe % self.moving.len()]);
        // a link or anything else planted at the instance's name is not an instance: removed,
        // never read or followed (symlink_metadata does not follow it)
        let stored = match std::fs::symlink_metadata(&dest) {
            Ok(m) if m.is_file() => true,
            Ok(_) => {
                self.error(format!(
                    "{}: a link or other non-file was planted at an instance's name in the \
                     spool: removed, not followed",
                    dest.display()
                ));
                if let Err(e) = milbase::atomic::remove_file(&dest) {
                    return Err(Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}")));
                }
                false
            }
            Err(_) => false,
        };
        if stored {
            let same = same_file(&dest, file);
            let _ = milbase::atomic::remove_file(file);
            if sop.is_none() || same {
                // polled again, or the same instance sent again: already here
                tracing::debug!(study = %h.study_uid, from, "duplicate instance");
                return Ok(());
            }
            self.error(format!(
                "study {}: instance {} sent again by {from} with other content: refused, the \
                 stored one is kept",
                h.study_uid, h.sop_uid
            ));
            return Err(Refusal::new(
                DUPLICATE_SOP_INSTANCE,
                "SOP instance already stored with other content",
            ));
        }
        self.admit_to_queue(&h.study_uid)?;
        if sop.is_none() {
            // polled: the file was retrieved under its study's reservation; it counts from now
            self.take_space(size)?;
        }
        // acknowledged only by the node that holds the spool
        if let Err(why) = self.holds_spool() {
            if sop.is_none() {
                self.give_space(size);
            }
            return Err(Refusal::new(OUT_OF_RESOURCES, why));
        }
        let move_in = || -> std::io::Result<()> {
            let parent = dest.parent().unwrap_or(&dir);
            self.spool_dir(parent)?;
            // through held folders: a study folder swapped for a link is refused, not moved into
            milbase::atomic::move_file(file, &dest)?;
            std::fs::File::open(parent)?.sync_all()
        };
        if let Err(e) = move_in() {
            if sop.is_none() {
                self.give_space(size);
            }
            return Err(Refusal::new(OUT_OF_RESOURCES, format!("cannot write: {e}")));
        }
        if sop.is_some() {
            // the sender's reservation is given back after this: the file counts from now
            self.spool_bytes.fetch_add(size, Ordering::SeqCst);
        }
        self.note_instance(&h.study_uid, association, from);
        Ok(())
    }
    /// The header of a received file, checked: readable, its UIDs valid, its SOP Instance UID
    /// the command's (C-STORE), its study the one asked for (polled). None: a polled instance
    /// that is not CT (the study's other series, our own results among them), removed.
    fn checked_header(
        &self,
        file: &Path,
        source: Source<'_>,
    ) -> std::result::Result<Option<preprocess::read::SliceHeader>, Refusal> {
        let sop = match source {
            Source::Stored(sop, _) => Some(sop),
            Source::Polled(_) => None,
        };
        let limits = self.opts.predict.limits;
        let h = preprocess::read::read_header_within(file, &limits).map_err(|e| {
            Refusal::new(
                CANNOT_UNDERSTAND,
                format!("not a readable image: {}", e.problem),
            )
        })?;
        if sop.is_some() && !h.sop_in_dataset {
            return Err(Refusal::new(
                CANNOT_UNDERSTAND,
                "the data set has no SOPInstanceUID (0008,0018)",
            ));
        }
        for (what, uid) in [
            ("StudyInstanceUID", &h.study_uid),
            ("SeriesInstanceUID", &h.series_uid),
            ("SOPInstanceUID", &h.sop_uid),
        ] {
            if !pacs::uid::is_valid(uid) {
                return Err(Refusal::new(
                    CANNOT_UNDERSTAND,
                    format!("{what} {uid:?} is not a UID"),
                ));
            }
        }
        if let Source::Polled(study) = source {
            if h.study_uid != study {
                let _ = milbase::atomic::remove_file(file);
                return Err(Refusal::new(
                    CANNOT_UNDERSTAND,
                    format!(
                        "an instance of study {} in the answer for study {study}: not taken",
                        h.study_uid
                    ),
                ));
            }
        }
        if sop.is_none() && !h.is_ct() {
            // polled: the study's other series (our own results among them) are not taken
            let _ = milbase::atomic::remove_file(file);
            return Ok(None);
        }
        if sop.is_some_and(|s| s != h.sop_uid) {
            return Err(Refusal::new(
                CANNOT_UNDERSTAND,
                "SOPInstanceUID differs from the command's",
            ));
        }
        Ok(Some(h))
    }

    /// Whether the queue takes an instance of `study_uid`: a study already receiving or being
    /// predicted always; a new one while fewer than `max_queue` wait. The study settles again
    /// from now: no prediction starts while the file moves in.
    fn admit_to_queue(&self, study_uid: &str) -> std::result::Result<(), Refusal> {
        let mut studies = lock(&self.studies);
        let waiting = studies
            .values()
            .filter(|s| matches!(s.state.phase, Phase::Receiving | Phase::Predicting))
            .count();
        let active = studies
            .get(study_uid)
            .is_some_and(|s| matches!(s.state.phase, Phase::Receiving | Phase::Predicting));
        if !active && waiting >= self.opts.max_queue {
            return Err(Refusal::new(
                OUT_OF_RESOURCES,
                format!("queue full ({} studies waiting)", self.opts.max_queue),
            ));
        }
        // the study settles again from now: no prediction starts while the file moves in
        if let Some(s) = studies.get_mut(study_uid) {
            s.last_rx = Instant::now();
        }
        Ok(())
    }

    /// An instance of `study_uid` moved in from `from` (on `association`, when stored): the
    /// study's state counts it, and a study already predicted is received (and predicted) again.
    fn note_instance(&self, study_uid: &str, association: Option<u64>, from: &str) {
        let mut studies = lock(&self.studies);
        // it does not settle while the association that brings it is open and still sending it;
        // an association that moves on to another study (a router forwarding one after the
        // other) is done with the one before
        if let Some(a) = association {
            let before = lock(&self.sending).insert(a, study_uid.to_string());
            if let Some(p) = before
                .filter(|p| *p != study_uid)
                .and_then(|p| studies.get_mut(&p))
            {
                p.senders.remove(&a);
            }
        }
        let known = studies.contains_key(study_uid);
        let now = rfc3339(SystemTime::now());
        let study = studies
            .entry(study_uid.to_string())
            .or_insert_with(|| Study::new(StudyState::new(study_uid)));
        study.last_rx = Instant::now();
        study.state.last_received = now.clone();
        study.senders.extend(association);
        let mut changed = !known;
        study.state.instances += 1;
        // a new instance after the prediction: the study is predicted (and sent) again
        if !matches!(study.state.phase, Phase::Receiving | Phase::Predicting) {
            study.state.phase = Phase::Receiving;
            study.state.round += 1;
            study.state.first_received = now;
            study.state.error = None;
            study.state.attempts = 0;
            changed = true;
        }
        if changed {
            tracing::info!(
                study = %study_uid,
                round = study.state.round,
                from,
                "receiving"
            );
            // saved under the lock: a later state is never overwritten by an earlier one
            let st = study.state.clone();
            self.save(&st);
        }
    }
}

/// Whether `sop_class` is one of the results objects a node like this one writes: a structured
/// report (`1.2.840.10008.5.1.4.1.1.88.*`) or a Secondary Capture (`…1.1.7` and its multi-frame
/// kinds `…1.1.7.1`–`…1.1.7.4`).
pub(super) fn is_result_object(sop_class: &str) -> bool {
    const STORAGE: &str = "1.2.840.10008.5.1.4.1.1.";
    sop_class
        .strip_prefix(STORAGE)
        .is_some_and(|rest| rest.starts_with("88.") || rest == "7" || rest.starts_with("7."))
}

/// Where an instance comes from: a C-STORE (with the command's SOP Instance UID and its
/// association) or the DICOMweb poll's retrieval of one study (with that study's UID).
#[derive(Debug, Clone, Copy)]
pub(super) enum Source<'a> {
    /// The command's SOP Instance UID, and the association.
    Stored(&'a str, u64),
    Polled(&'a str),
}

/// Whether two files hold the same bytes (read in pieces: neither is held in memory whole).
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(fa), Ok(fb)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    match (fa.metadata(), fb.metadata()) {
        (Ok(ma), Ok(mb)) if ma.len() == mb.len() => {}
        _ => return false,
    }
    let (mut ra, mut rb) = (std::io::BufReader::new(fa), std::io::BufReader::new(fb));
    let (mut ba, mut bb) = (vec![0u8; 64 << 10], vec![0u8; 64 << 10]);
    loop {
        let n = match ra.read(&mut ba) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if n == 0 {
            return rb.read(&mut bb[..1]).is_ok_and(|m| m == 0);
        }
        if rb.read_exact(&mut bb[..n]).is_err() || ba[..n] != bb[..n] {
            return false;
        }
    }
}
