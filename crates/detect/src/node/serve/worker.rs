//! The work on studies: the scheduler that starts a settled study, the workers that predict it
//! and send its results, and the clean-up of studies kept past `keep_days`.

use super::*;

pub(super) fn scheduler(shared: &Shared, tx: &Sender<Job>, stop: &AtomicBool) {
    let mut last_cleanup = Instant::now() - Duration::from_secs(3600);
    while !stop.load(Ordering::SeqCst) {
        if shared.holds_spool().is_err() {
            // nothing more is scheduled: the node holding the spool now takes the studies
            return;
        }
        let mut jobs = Vec::new();
        {
            let mut studies = lock(&shared.studies);
            let now = Instant::now();
            for (uid, s) in studies.iter_mut() {
                if s.busy {
                    continue;
                }
                match s.state.phase {
                    Phase::Receiving
                        if now.duration_since(s.last_rx) >= shared.opts.settle
                            && now >= s.next_try
                            && s.senders.is_empty() =>
                    {
                        s.busy = true;
                        jobs.push(Job::Predict(uid.clone()));
                    }
                    Phase::Predicted if now >= s.next_send => {
                        s.busy = true;
                        jobs.push(Job::Send(uid.clone()));
                    }
                    _ => {}
                }
            }
        }
        for j in jobs {
            if tx.send(j).is_err() {
                return;
            }
        }
        if last_cleanup.elapsed() >= Duration::from_secs(5) {
            last_cleanup = Instant::now();
            cleanup(shared);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Removes the studies done longer ago than `keep`.
pub(super) fn cleanup(shared: &Shared) {
    let old: Vec<String> = lock(&shared.studies)
        .iter()
        .filter(|(_, s)| {
            matches!(s.state.phase, Phase::Sent | Phase::Skipped)
                && !s.busy
                && s.done_at.elapsed() >= shared.opts.keep
        })
        .map(|(u, _)| u.clone())
        .collect();
    for uid in old {
        let dir = shared.study_dir(&uid);
        let b = study_bytes(&dir);
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => {
                lock(&shared.studies).remove(&uid);
                shared.give_space(b);
                tracing::info!(study = %uid, "removed from the spool (kept its time)");
            }
            Err(e) => shared.error(format!("{}: not removed: {e}", dir.display())),
        }
    }
}

pub(super) fn worker(shared: &Shared, rx: &Mutex<Receiver<Job>>, ready: &Sender<Result<()>>) {
    let predictor = match Predictor::open(&shared.opts.model, shared.opts.predict.clone()) {
        Ok(p) => {
            let _ = ready.send(Ok(()));
            p
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    loop {
        let job = match lock(rx).recv() {
            Ok(j) => j,
            Err(_) => return,
        };
        match job {
            Job::Predict(uid) => {
                if predict_study(shared, &predictor, &uid) {
                    send_study(shared, &uid);
                }
            }
            Job::Send(uid) => send_study(shared, &uid),
        }
    }
}

/// Predicts one study; true when it has results to send.
pub(super) fn predict_study(shared: &Shared, predictor: &Predictor, uid: &str) -> bool {
    if shared.holds_spool().is_err() {
        return false;
    }
    let (round, last_rx, sent_before) = {
        let studies = lock(&shared.studies);
        match studies.get(uid) {
            Some(s) => (s.state.round, s.last_rx, s.state.reports_sent.clone()),
            None => return false,
        }
    };
    shared.update(uid, |s| s.state.phase = Phase::Predicting);
    let dir = shared.study_dir(uid);
    let out = dir.join("out");
    if std::fs::symlink_metadata(&out).is_ok_and(|m| m.is_dir()) {
        // a run stopped half-way, or an earlier round's: nothing of it is sent
        let old = dir_bytes(&out);
        match std::fs::remove_dir_all(&out) {
            Ok(()) => shared.give_space(old),
            Err(e) => shared.error(format!("{}: {e}", out.display())),
        }
    }
    // the results' folder, a real one (a link planted there is removed, not followed: predict
    // would take a link at its output folder as the user's choice)
    if let Err(e) = shared.spool_dir(&out) {
        shared.error(format!("{}: {e}", out.display()));
    }
    let job = study_job(shared, &dir, &out, sent_before);
    let t = Instant::now();
    let result = run_with(predictor, &job, &milbase::progress::Quiet);
    // the results count in the spool too (they are written whatever the limit says: a
    // prediction is not refused half-way)
    shared
        .spool_bytes
        .fetch_add(dir_bytes(&out), Ordering::SeqCst);
    let after = last_rx.elapsed().as_secs_f64();
    let mut to_send = false;
    // a failure that can pass (the disk, not the study), or results that could not all be
    // written: predicted again after a backoff, and after a restart, which finds it receiving
    let retry = match &result {
        Err(e) if passing(e) => Some(e.to_string()),
        Ok(o) if !o.dicom_failed.is_empty() => Some(o.dicom_failed.join("; ")),
        _ => None,
    };
    shared.update(uid, |s| {
        // instances that came during the prediction: it is done again once they settle
        let newer = s.state.round != round || s.last_rx > last_rx;
        s.done_at = Instant::now();
        match &result {
            _ if retry.is_some() => {
                s.state.attempts += 1;
                let wait = retry_after(s.state.attempts);
                s.next_try = Instant::now() + wait;
                s.state.phase = Phase::Receiving;
                s.state.error = Some(format!(
                    "attempt {} failed, tried again in {} s: {}",
                    s.state.attempts,
                    wait.as_secs(),
                    retry.as_deref().unwrap_or_default()
                ));
            }
            Ok(o) => {
                predicted(&mut s.state, o, &dir, (after, shared.opts.send.is_empty()));
                s.next_send = Instant::now();
            }
            Err(e) => {
                let no_ct = matches!(e, Error::NoScan(_));
                s.state.phase = if no_ct { Phase::Skipped } else { Phase::Failed };
                s.state.error = Some(e.to_string());
            }
        }
        if newer {
            s.state.phase = Phase::Receiving;
        }
        // this worker sends it now: the study stays busy, so that no other worker sends it too
        to_send = s.state.phase == Phase::Predicted;
        s.busy = to_send;
    });
    match &result {
        Ok(o) => {
            let top = o.report.scans.first();
            tracing::info!(
                study = %uid,
                scans = o.report.scans.len(),
                probability = top.map(|s| s.probability),
                positive = o.report.scans.iter().any(|s| s.positive),
                uncertain = o.report.scans.iter().any(|s| s.uncertain),
                skipped = o.report.skipped.len(),
                seconds = t.elapsed().as_secs_f64(),
                "predicted"
            );
            for s in &o.report.skipped {
                tracing::info!(study = %uid, "skipped: {s}");
            }
        }
        Err(e) => shared.error(format!("study {uid}: not predicted: {e}")),
    }
    if let (Ok(_), Some(why)) = (&result, &retry) {
        shared.error(format!(
            "study {uid}: results not all written, predicted again: {why}"
        ));
    }
    to_send
}

/// The job that predicts a study's instances into its `out` folder, with the node's options:
/// DICOM results that supersede those an earlier round sent (`sent_before`); sending is the
/// node's own (`send_study`), not the job's.
fn study_job(
    shared: &Shared,
    dir: &Path,
    out: &Path,
    sent_before: Vec<pacs::sr::Predecessor>,
) -> PredictJob {
    PredictJob {
        model: shared.opts.model.clone(),
        inputs: vec![dir.join("in")],
        out: out.to_path_buf(),
        labels: Vec::new(),
        html: shared.opts.html,
        options: shared.opts.predict.clone(),
        pacs: PacsJob {
            // this round's reports supersede those an earlier round sent
            dicom: Some(DicomOptions {
                supersede: sent_before,
                ..shared.opts.dicom.clone()
            }),
            send: Vec::new(),
            send_options: shared.opts.send_options.clone(),
            pull: None,
            volume_dicom: Vec::new(),
        },
        shard: milbase::Shard::ALL,
        force: false,
    }
}

/// A study predicted: its state says what was found (each scan's line, what was skipped, the
/// files to send) and whether it is done (nothing to send, or no node to send to) or failed
/// (no scan predicted, and scans that failed for their content, with their reasons).
fn predicted(
    state: &mut StudyState,
    o: &crate::pipeline::predict::Outcome,
    dir: &Path,
    (after, no_destination): (f64, bool),
) {
    state.phase = Phase::Predicted;
    state.attempts = 0;
    state.predicted_after_s = Some(after);
    state.sent_after_s = None;
    state.sends.clear();
    state.error = None;
    state.scans = o
        .report
        .scans
        .iter()
        .map(|r| ScanLine {
            id: r.id.clone(),
            slices: r.n_slices,
            probability: r.probability,
            sd: r.sd,
            positive: r.positive,
            uncertain: r.uncertain,
        })
        .collect();
    state.skipped = o.report.skipped.clone();
    state.files = o
        .dicom_files
        .iter()
        .map(|f| f.strip_prefix(dir).unwrap_or(f).to_path_buf())
        .collect();
    if state.files.is_empty() || no_destination {
        state.phase = Phase::Sent;
    }
    // no scan predicted, and scans that failed for their content: the study
    // failed, with their reasons (not "sent" with nothing)
    if o.report.scans.is_empty() && !o.failed.is_empty() {
        state.phase = Phase::Failed;
        state.error = Some(o.failed.join("; "));
    }
}

/// Whether an error can pass by itself (I/O: a full disk, a folder that could not be
/// written), as opposed to one of the study's content, which the same instances give again.
pub(super) fn passing(e: &Error) -> bool {
    match e {
        Error::Io { .. } => true,
        Error::Scan { source, .. } => passing(source),
        Error::Preprocess(p) => matches!(p, preprocess::Error::Io { .. }),
        _ => false,
    }
}

/// The wait before a failed prediction is tried again: 5 s, doubling, at most 10 minutes.
pub(super) fn retry_after(attempts: u32) -> Duration {
    Duration::from_secs((5u64 << attempts.saturating_sub(1).min(7)).min(600))
}

/// Whether `rel` names a regular file inside `dir`: relative, of plain components only, and no
/// link on the way (each folder a real folder, the file a regular file).
pub fn regular_inside(dir: &Path, rel: &Path) -> bool {
    use std::path::Component;
    let parts: Vec<_> = rel.components().collect();
    if parts.is_empty() || !parts.iter().all(|c| matches!(c, Component::Normal(_))) {
        return false;
    }
    let mut at = dir.to_path_buf();
    for (k, c) in parts.iter().enumerate() {
        at.push(c.as_os_str());
        let Ok(m) = std::fs::symlink_metadata(&at) else {
            return false;
        };
        let last = k + 1 == parts.len();
        if (last && !m.is_file()) || (!last && !m.is_dir()) {
            return false;
        }
    }
    true
}

/// Sends a predicted study's results to every destination; what fails is tried again later.
pub(super) fn send_study(shared: &Shared, uid: &str) {
    let (files, last) = {
        let studies = lock(&shared.studies);
        match studies.get(uid) {
            Some(s) if s.state.phase == Phase::Predicted => (s.state.files.clone(), s.last_rx),
            Some(_) => {
                drop(studies);
                shared.update(uid, |s| s.busy = false);
                return;
            }
            None => return,
        }
    };
    let dir = shared.study_dir(uid);
    if shared.holds_spool().is_err() {
        // left as it is: the node holding the spool now sends it
        return;
    }
    // only the results predict wrote, as regular files inside the study's folder: a link
    // planted at one's name or on the way (to another patient's file, say) is never followed,
    // and a state.json edited while the node was down (an absolute path, a `..`) sends nothing
    // it names; the study is predicted again
    if let Some(f) = files.iter().find(|f| !regular_inside(&dir, f)) {
        shared.error(format!(
            "study {uid}: {} is not a regular file inside the study's folder (a link or other \
             file was planted, it was removed, or the state names a path outside): nothing sent, \
             the study is predicted again",
            f.display()
        ));
        shared.update(uid, |s| {
            s.busy = false;
            s.state.phase = Phase::Receiving;
            s.state.attempts += 1;
            s.next_try = Instant::now() + retry_after(s.state.attempts);
        });
        return;
    }
    let abs: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let reports: Vec<_> = shared
        .opts
        .send
        .iter()
        .map(|d| pacs::send::send(&abs, d, &shared.opts.send_options))
        .collect();
    let ok = reports.iter().all(|r| r.failed.is_empty());
    // the reports now in the PACS, as the next round's will name them
    let sent_now: Vec<pacs::sr::Predecessor> = if ok {
        abs.iter()
            .filter(|f| {
                f.file_name()
                    .is_some_and(|n| n == crate::report::dicomout::SR_FILE)
            })
            .filter_map(|f| pacs::sr::Predecessor::read(f, 64 << 20).ok())
            .collect()
    } else {
        Vec::new()
    };
    let now = rfc3339(SystemTime::now());
    shared.update(uid, |s| {
        s.busy = false;
        s.state.sends = reports
            .iter()
            .map(|r| SendLine {
                destination: r.destination.clone(),
                sent: r.sent,
                failed: r.failed.iter().take(20).cloned().collect(),
                attempts: r.attempts,
                at: now.clone(),
            })
            .collect();
        if ok {
            for r in &sent_now {
                s.state
                    .reports_sent
                    .retain(|o| o.source_series_uid != r.source_series_uid);
                s.state.reports_sent.push(r.clone());
            }
            s.state.phase = Phase::Sent;
            s.state.sent_after_s = Some(last.elapsed().as_secs_f64());
            s.done_at = Instant::now();
        } else {
            s.next_send = Instant::now() + shared.opts.resend_after;
        }
    });
    for r in &reports {
        if r.failed.is_empty() {
            tracing::info!(study = %uid, to = %r.destination, objects = r.sent, "sent");
        } else {
            shared.error(format!(
                "study {uid}: {} of {} object(s) not stored by {} (tried again in {} s): {}",
                r.failed.len(),
                r.failed.len() + r.sent,
                r.destination,
                shared.opts.resend_after.as_secs(),
                r.failed.first().cloned().unwrap_or_default()
            ));
        }
    }
}
