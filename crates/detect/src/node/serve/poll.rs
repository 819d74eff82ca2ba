//! Polling a DICOMweb service for new studies (`--poll`): each study retrieved into the spool as
//! if it had been sent.

use super::intake::Source;
use super::*;

/// Polls the DICOMweb service every `poll.every` until `stop`.
pub(super) fn poll_loop(shared: &Shared, poll: &PollOptions, stop: &AtomicBool) {
    let path = shared.opts.spool.join("polled.json");
    let mut st: PollState = milbase::bounded::open_regular_reader(&path, 256 << 20)
        .ok()
        .and_then(|r| serde_json::from_reader(r).ok())
        .unwrap_or_default();
    let first = st.seen.is_empty() && !path.exists();
    if first {
        st.since = poll
            .since
            .clone()
            .unwrap_or_else(|| da(SystemTime::now() - Duration::from_secs(86_400)));
    }
    let mut next = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        if Instant::now() < next {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        next = Instant::now() + poll.every;
        let hits =
            match pacs::web::search_studies(&poll.service, "CT", &st.since, 1000, poll.timeout) {
                Ok(h) => h,
                Err(e) => {
                    shared.error(format!("DICOMweb poll: {e}"));
                    continue;
                }
            };
        // what polled.json remembers: the studies of the latest answer only (later polls look
        // at yesterday's and today's studies: older entries would never be consulted again, and
        // the file would grow without bound)
        let latest: std::collections::BTreeSet<String> =
            hits.iter().map(|h| h.study_uid.clone()).collect();
        st.seen.retain(|uid, _| latest.contains(uid));
        for hit in hits {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            if hit.instances.is_some() && st.seen.get(&hit.study_uid) == Some(&hit.instances) {
                continue;
            }
            if poll_study(shared, poll, &hit.study_uid) {
                st.seen.insert(hit.study_uid, hit.instances);
            }
        }
        // from now on yesterday's and today's studies
        st.since = da(SystemTime::now() - Duration::from_secs(86_400));
        let bytes = serde_json::to_vec(&st).unwrap_or_default();
        if let Err(e) = milbase::write_atomic(&path, &bytes) {
            shared.error(format!("{}: {e}", path.display()));
        }
    }
}

/// Retrieves one study into the spool; true when every instance was taken (or refused for good).
pub(super) fn poll_study(shared: &Shared, poll: &PollOptions, uid: &str) -> bool {
    let dir = shared
        .opts
        .spool
        .join(RECEIVING)
        .join(format!("poll-{}", preprocess::scan::scan_id(uid, "")));
    let _ = std::fs::remove_dir_all(&dir);
    // the retrieval's files count in the spool while they are written: room for the largest
    // study is reserved first (the study waits for a later poll when there is none)
    if let Err(r) = shared.take_space(poll.max_study_bytes) {
        shared.error(format!("study {uid}: not retrieved now: {}", r.reason));
        return false;
    }
    if let Err(e) = shared.spool_dir(&dir) {
        shared.error(format!("{}: {e}", dir.display()));
        shared.give_space(poll.max_study_bytes);
        return false;
    }
    let got =
        pacs::web::retrieve_study(&poll.service, uid, poll.max_study_bytes, poll.timeout, &dir);
    // from here each file counts as it is taken into its study
    shared.give_space(poll.max_study_bytes);
    let mut complete = true;
    match got {
        Ok(n) => {
            tracing::debug!(study = %uid, instances = n, "retrieved by WADO-RS");
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|d| d.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            files.sort();
            for f in files {
                if let Err(r) = shared.accept_file(&f, Source::Polled(uid), "DICOMweb") {
                    tracing::warn!(study = %uid, "retrieved instance refused ({:04X}H): {}", r.status, r.reason);
                    // a full spool or queue: the study is retrieved again at a later poll
                    complete &= r.status != OUT_OF_RESOURCES;
                }
            }
        }
        Err(e) => {
            shared.error(format!("study {uid}: not retrieved: {e}"));
            complete = false;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    complete
}
