//! `ich serve` under faults: `kill -9` at five points of a study's way (mid-receive, after
//! receive, mid-predict, after predict before send, mid-send), a destination that is down for a
//! while, hostile instances among good ones. The modality is this test (C-STORE through
//! `pacs::store`, or raw bytes through dicom-ul for the hostile ones); the destination is a
//! Storage SCP in this process that records every SOP Instance UID it is given.
//!
//! "Nothing lost, nothing twice" is checked on what the destination holds: every study's SR and
//! Secondary Captures (the objects `ich predict` writes for it, same UIDs) arrive, and no study
//! arrives with two different sets of results.

mod common;

use common::orthanc::free_port;
use common::s;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pacs::scp::{Received, Refusal, Scp, ScpOptions, StoreSink};

/// The destination PACS: every stored instance's SOP Instance UID, in order of arrival.
struct Dest {
    dir: PathBuf,
    got: Mutex<Vec<String>>,
    /// Each store takes this long (a slow PACS).
    delay: Duration,
}

impl StoreSink for Dest {
    fn receiving_dir(&self) -> PathBuf {
        self.dir.clone()
    }
    fn store(&self, r: &Received<'_>) -> Result<(), Refusal> {
        std::thread::sleep(self.delay);
        let _ = std::fs::remove_file(r.file);
        self.got.lock().unwrap().push(r.sop_instance.to_string());
        Ok(())
    }
}

fn dest(dir: &Path, port: u16, delay: Duration) -> (Scp, Arc<Dest>) {
    let d = Arc::new(Dest {
        dir: dir.join("dest-rx"),
        got: Mutex::new(Vec::new()),
        delay,
    });
    let opts = ScpOptions {
        ae_title: "PACS".into(),
        ..ScpOptions::default()
    };
    let scp = Scp::start(&format!("127.0.0.1:{port}"), opts, d.clone()).unwrap();
    (scp, d)
}

struct Serve {
    child: Child,
    status: String,
    log: PathBuf,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What every test needs: a small bundle and synthetic studies.
struct World {
    _tmp: tempfile::TempDir,
    t: PathBuf,
    bundle: PathBuf,
    raw: PathBuf,
    spool: PathBuf,
    port: u16,
    dest_port: u16,
}

impl World {
    fn new(scans: &str) -> World {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().to_path_buf();
        let (raw, bundle) = common::cohort_and_bundle(&t, scans, "43");
        World {
            _tmp: tmp,
            bundle,
            raw,
            spool: t.join("spool"),
            port: free_port(),
            dest_port: free_port(),
            t,
        }
    }

    fn serve(&self, settle: &str, samples: &str) -> Serve {
        self.serve_with(settle, samples, &[])
    }

    fn serve_with(&self, settle: &str, samples: &str, extra: &[&str]) -> Serve {
        self.serve_limited(settle, samples, extra, None)
    }

    /// The node, each file it writes limited to `fsize` bytes when given (a disk that fills up:
    /// a write past the limit fails with "File too large").
    fn serve_limited(
        &self,
        settle: &str,
        samples: &str,
        extra: &[&str],
        fsize: Option<u64>,
    ) -> Serve {
        self.serve_sending(settle, samples, extra, fsize, true)
    }

    /// As [`World::serve_limited`]; with `quick_sends` false the node sends with the default
    /// retries and timeout (what a hospital runs), else with none and 5 s.
    fn serve_sending(
        &self,
        settle: &str,
        samples: &str,
        extra: &[&str],
        fsize: Option<u64>,
        quick_sends: bool,
    ) -> Serve {
        let status = format!("127.0.0.1:{}", free_port());
        let log = self.t.join(format!("serve-{}.log", free_port()));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ich"));
        if let Some(limit) = fsize {
            common::limit_file_size(&mut cmd, limit);
        }
        let child = cmd
            .args([
                "serve",
                "--model",
                s(&self.bundle),
                "--spool",
                s(&self.spool),
                "--host",
                "127.0.0.1",
                "--port",
                &self.port.to_string(),
                "--send",
                &format!("PACS@127.0.0.1:{}", self.dest_port),
                "--resend-after",
                "1",
                "--settle",
                settle,
                "--samples",
                samples,
                "--status",
                &status,
            ])
            .args(if quick_sends {
                &["--send-retries", "0", "--send-timeout", "5"][..]
            } else {
                &[]
            })
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut sv = Serve { child, status, log };
        let t0 = Instant::now();
        while status_of(&sv.status).is_none() {
            assert!(
                t0.elapsed() < Duration::from_secs(60) && sv.child.try_wait().unwrap().is_none(),
                "ich serve did not start: {}",
                std::fs::read_to_string(&sv.log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        sv
    }

    fn files(&self, scan: usize) -> Vec<PathBuf> {
        let mut f: Vec<PathBuf> = std::fs::read_dir(self.raw.join(format!("scan-{scan:04}")))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        f.sort();
        f
    }

    fn study(&self, scan: usize) -> String {
        common::orthanc::study_uid_of(&self.raw.join(format!("scan-{scan:04}")))
    }

    fn state(&self, study: &str) -> Option<serde_json::Value> {
        let p = self.spool.join("studies").join(study).join("state.json");
        serde_json::from_slice(&std::fs::read(p).ok()?).ok()
    }

    fn phase(&self, study: &str) -> String {
        self.state(study)
            .map(|s| s["phase"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    }

    /// Sends `files` to the node in one association; every one must be acknowledged.
    fn store(&self, files: &[PathBuf]) {
        let node = pacs::store::Node::parse(&format!("ICH@127.0.0.1:{}", self.port)).unwrap();
        let r = pacs::store::c_store("MODALITY", &node, files, Duration::from_secs(10)).unwrap();
        assert!(r.iter().all(|x| x.is_ok()), "{r:?}");
    }

    /// The SOP Instance UIDs of a study's results as the spool lists them.
    fn results(&self, study: &str) -> BTreeSet<String> {
        let st = self.state(study).unwrap();
        st["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let p = self
                    .spool
                    .join("studies")
                    .join(study)
                    .join(f.as_str().unwrap());
                let o = dicom_object::open_file(&p).unwrap();
                o.meta()
                    .media_storage_sop_instance_uid()
                    .trim_end_matches('\0')
                    .to_string()
            })
            .collect()
    }
}

fn status_of(addr: &str) -> Option<serde_json::Value> {
    let r = ureq::get(&format!("http://{addr}/status")).call().ok()?;
    serde_json::from_reader(r.into_reader()).ok()
}

/// A copy of `src` with 4096 × 4096 pixels (32 MiB) and its own SOP Instance UID.
fn large_slice(src: &Path, out: &Path) {
    use dicom_core::{DataElement, PrimitiveValue, VR};
    use dicom_dictionary_std::tags;
    let mut o = dicom_object::open_file(src).unwrap();
    let sop = "2.25.4242424242";
    o.put(DataElement::new(
        tags::ROWS,
        VR::US,
        PrimitiveValue::from(4096u16),
    ));
    o.put(DataElement::new(
        tags::COLUMNS,
        VR::US,
        PrimitiveValue::from(4096u16),
    ));
    o.put(DataElement::new(
        tags::SOP_INSTANCE_UID,
        VR::UI,
        PrimitiveValue::from(sop),
    ));
    o.put(DataElement::new(
        tags::PIXEL_DATA,
        VR::OW,
        PrimitiveValue::from(vec![0u8; 4096 * 4096 * 2]),
    ));
    o.update_meta(|m| m.media_storage_sop_instance_uid = sop.to_string());
    o.write_to_file(out).unwrap();
}

fn kill9(sv: &mut Serve) {
    sv.child.kill().unwrap(); // SIGKILL
    sv.child.wait().unwrap();
}

/// Waits until `ok` holds (at most `secs`), else fails with the log.
fn wait_for(secs: u64, sv: &Serve, what: &str, mut ok: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ok() {
        assert!(
            t0.elapsed() < Duration::from_secs(secs),
            "{what}: not within {secs} s\n{}",
            std::fs::read_to_string(&sv.log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every study's results arrived (each object at least once) and nothing else did; returns
/// the number of objects the studies have.
fn all_arrived(w: &World, got: &[String], studies: &[String]) -> usize {
    let mut want = BTreeSet::new();
    for s in studies {
        want.extend(w.results(s));
    }
    let distinct: BTreeSet<String> = got.iter().cloned().collect();
    assert_eq!(
        distinct, want,
        "the destination holds other objects than the results"
    );
    want.len()
}

impl Dest {
    fn got(&self) -> Vec<String> {
        self.got.lock().unwrap().clone()
    }
}

#[test]
fn kill_9_at_five_points_loses_no_study_and_sends_none_twice() {
    let w = World::new("5");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let uids: Vec<String> = (0..5).map(|i| w.study(i)).collect();

    // 1. mid-receive: three of six instances acknowledged, then killed while a 32 MiB
    //    instance of the same study is on the wire (its partial file seen in receiving/). A long
    //    settle: on a slow machine the big instance's file appears seconds after the first three
    //    were stored, and a short settle predicted and sent the three alone meanwhile
    let mut sv = w.serve("600", "200");
    let f0 = w.files(0);
    w.store(&f0[..3]);
    let big = w.t.join("big.dcm");
    large_slice(&f0[0], &big);
    let port = w.port;
    let sender = std::thread::spawn(move || {
        let node = pacs::store::Node::parse(&format!("ICH@127.0.0.1:{port}")).unwrap();
        pacs::store::c_store("MODALITY", &node, &[big], Duration::from_secs(10))
    });
    let rx = w.spool.join("receiving");
    let partial = || {
        std::fs::read_dir(&rx)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with(".rx-"))
            })
            .unwrap_or(false)
    };
    wait_for(60, &sv, "an instance half-received", partial);
    kill9(&mut sv);
    // the sender was never told it is stored
    let answer = sender.join().unwrap();
    assert!(
        answer.as_ref().map_or(true, |r| r[0].is_err()),
        "{answer:?}"
    );
    assert!(partial(), "the half-received file is there after the kill");
    // 2. after receive, before the settle time (a long one); meanwhile the modality sends the
    //    rest of study 0 again after its failure (all six: three twice). Both happen while the
    //    node waits with a long settle, so that no prediction can start before the re-send is
    //    in, however long this machine takes to start the node (before, with a 2 s settle, a
    //    slow restart let study 0 be predicted from three instances, then again in round 2)
    let mut sv = w.serve("600", "200");
    assert!(!partial(), "a half-received file was kept");
    w.store(&w.files(1));
    w.store(&f0);
    assert_eq!(w.phase(&uids[1]), "receiving");
    assert_eq!(w.phase(&uids[0]), "receiving");
    kill9(&mut sv);
    let mut sv = w.serve("2", "200");
    wait_for(60, &sv, "studies 0 and 1 sent", || {
        w.phase(&uids[0]) == "sent" && w.phase(&uids[1]) == "sent"
    });
    // 3. mid-predict: many draws make the prediction take seconds
    kill9(&mut sv);
    let mut sv = w.serve("1", "400000");
    w.store(&w.files(2));
    wait_for(60, &sv, "study 2 predicting", || {
        w.phase(&uids[2]) == "predicting"
    });
    kill9(&mut sv);
    // 4. after predict, before send: the destination refuses connections meanwhile
    drop(_dest);
    let mut sv = w.serve("1", "200");
    wait_for(120, &sv, "study 2 predicted", || {
        w.state(&uids[2]).is_some_and(|s| {
            s["phase"] == "predicted" && !s["sends"].as_array().unwrap().is_empty()
        })
    });
    w.store(&w.files(3));
    wait_for(60, &sv, "study 3 predicted", || {
        w.phase(&uids[3]) == "predicted"
    });
    kill9(&mut sv);
    // 5. mid-send: a slow destination (0.3 s per object)
    let (_dest, d2) = dest(&w.t, w.dest_port, Duration::from_millis(300));
    let mut sv = w.serve("1", "200");
    wait_for(60, &sv, "a first object of the resumed sends", || {
        !d2.got.lock().unwrap().is_empty()
    });
    kill9(&mut sv);
    let sv = w.serve("1", "200");
    w.store(&w.files(4));
    wait_for(120, &sv, "every study sent", || {
        uids.iter().all(|u| w.phase(u) == "sent")
    });

    // every study predicted once per round and its results at the destination
    let mut all = d.got();
    all.extend(d2.got());
    all_arrived(&w, &all, &uids);
    for u in &uids {
        let st = w.state(u).unwrap();
        assert_eq!(st["round"], 1, "{st}");
        assert_eq!(st["instances"], 6, "{st}");
        assert_eq!(st["scans"].as_array().unwrap().len(), 1, "{st}");
    }
    // objects delivered more than once: only those a kill interrupted (same UIDs, replaced)
    let mut count: BTreeMap<&String, usize> = BTreeMap::new();
    for g in &all {
        *count.entry(g).or_default() += 1;
    }
    let twice: Vec<_> = count.iter().filter(|(_, n)| **n > 1).collect();
    let s3: BTreeSet<String> = w
        .results(&uids[2])
        .union(&w.results(&uids[3]))
        .cloned()
        .collect();
    assert!(
        twice.iter().all(|(u, n)| **n == 2 && s3.contains(**u)),
        "only the objects of the send killed half-way may arrive twice: {twice:?}"
    );
}

#[test]
fn a_destination_down_for_a_while_gets_the_results_when_it_returns() {
    let w = World::new("4");
    let sv = w.serve("1", "200");
    let uid = w.study(0);
    w.store(&w.files(0));
    wait_for(60, &sv, "a failed send", || {
        w.state(&uid).is_some_and(|s| {
            s["phase"] == "predicted" && !s["sends"].as_array().unwrap().is_empty()
        })
    });
    let st = status_of(&sv.status).unwrap();
    assert!(!st["errors"].as_array().unwrap().is_empty(), "{st}");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    wait_for(30, &sv, "sent after the destination returned", || {
        w.phase(&uid) == "sent"
    });
    let got = d.got();
    assert_eq!(
        got.len(),
        all_arrived(&w, &got, &[uid]),
        "objects sent twice"
    );
}

/// Sends `bytes` as one instance's data set in an association of its own, as a hostile sender
/// would: no parsing on our side. The answer's status, or None when the association broke.
fn raw_store(port: u16, sop_class: &str, sop_instance: &str, data: &[u8]) -> Option<u16> {
    use dicom_core::{DataElement, PrimitiveValue, VR};
    use dicom_dictionary_std::{tags, uids};
    use dicom_object::InMemDicomObject;
    use dicom_ul::pdu::{PDataValue, PDataValueType};
    use dicom_ul::{ClientAssociationOptions, Pdu};
    let mut scu = ClientAssociationOptions::new()
        .calling_ae_title("HOSTILE")
        .called_ae_title("ICH")
        .with_presentation_context(sop_class, vec![uids::EXPLICIT_VR_LITTLE_ENDIAN])
        .establish_with(&format!("127.0.0.1:{port}"))
        .ok()?;
    let pc = scu.presentation_contexts().first()?.id;
    let cmd = InMemDicomObject::command_from_element_iter([
        DataElement::new(
            tags::AFFECTED_SOP_CLASS_UID,
            VR::UI,
            PrimitiveValue::from(sop_class),
        ),
        DataElement::new(tags::COMMAND_FIELD, VR::US, PrimitiveValue::from(1u16)),
        DataElement::new(tags::MESSAGE_ID, VR::US, PrimitiveValue::from(1u16)),
        DataElement::new(tags::PRIORITY, VR::US, PrimitiveValue::from(0u16)),
        DataElement::new(
            tags::COMMAND_DATA_SET_TYPE,
            VR::US,
            PrimitiveValue::from(0u16),
        ),
        DataElement::new(
            tags::AFFECTED_SOP_INSTANCE_UID,
            VR::UI,
            PrimitiveValue::from(sop_instance),
        ),
    ]);
    let implicit = dicom_transfer_syntax_registry::TransferSyntaxRegistry
        .get(uids::IMPLICIT_VR_LITTLE_ENDIAN)
        .unwrap();
    let mut cmd_bytes = Vec::new();
    cmd.write_dataset_with_ts(&mut cmd_bytes, implicit).unwrap();
    scu.send(&Pdu::PData {
        data: vec![PDataValue {
            presentation_context_id: pc,
            value_type: PDataValueType::Command,
            is_last: true,
            data: cmd_bytes,
        }],
    })
    .ok()?;
    {
        let mut wr = scu.send_pdata(pc);
        std::io::Write::write_all(&mut wr, data).ok()?;
        wr.finish().ok()?;
    }
    let status = match scu.receive().ok()? {
        Pdu::PData { data } => {
            let rsp = InMemDicomObject::read_dataset_with_ts(&data[0].data[..], implicit).ok()?;
            rsp.element(tags::STATUS).ok()?.to_int::<u16>().ok()
        }
        _ => None,
    };
    let _ = scu.release();
    status
}

use dicom_encoding::TransferSyntaxIndex;

#[test]
fn hostile_instances_among_good_ones_are_refused_with_their_reason_and_the_rest_is_predicted() {
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let sv = w.serve("2", "200");
    let uid = w.study(0);
    let good = w.files(0);
    w.store(&good[..3]);
    // the fuzz regressions (each once a crash or a hang of the reader), their data sets sent raw
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/dicom");
    let (mut sent, mut stored, mut refused) = (0, 0, 0);
    for (i, e) in std::fs::read_dir(&dir).unwrap().flatten().enumerate() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "dcm") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        // past the preamble and the file meta group (its length from (0002,0000)) where the
        // file has them, else the whole file as the data set
        let data = if bytes.len() > 144 && &bytes[128..132] == b"DICM" {
            let group = u32::from_le_bytes(bytes[140..144].try_into().unwrap()) as usize;
            bytes[(144 + group).min(bytes.len())..].to_vec()
        } else {
            bytes.clone()
        };
        // the file's own SOP Instance UID where its meta says it
        let sop = dicom_object::OpenFileOptions::new()
            .read_until(dicom_dictionary_std::tags::SOP_CLASS_UID)
            .open_file(&p)
            .map(|o| {
                o.meta()
                    .media_storage_sop_instance_uid()
                    .trim_end_matches('\0')
                    .to_string()
            })
            .unwrap_or_else(|_| format!("2.25.{}", 1000 + i));
        let status = raw_store(
            w.port,
            dicom_dictionary_std::uids::CT_IMAGE_STORAGE,
            &sop,
            &data,
        );
        match status {
            Some(0) => stored += 1,
            _ => refused += 1,
        }
        sent += 1;
    }
    assert!(sent >= 4, "the regressions are there");
    w.store(&good[3..]);
    wait_for(60, &sv, "the good study sent", || w.phase(&uid) == "sent");
    let st = w.state(&uid).unwrap();
    assert_eq!(st["instances"], 6, "{st}");
    // each refusal logged with its reason; what was stored (readable headers) ends predicted,
    // skipped or failed with its reason, never stuck
    let log = std::fs::read_to_string(&sv.log).unwrap();
    assert_eq!(log.matches("refused (").count(), refused, "{log}");
    assert!(
        refused >= 2,
        "the nesting and the overlong element are refused: {log}"
    );
    wait_for(60, &sv, "every study in a final phase", || {
        let st = status_of(&sv.status).unwrap();
        st["studies"].as_array().unwrap().iter().all(|x| {
            x["phase"] == "sent"
                || ((x["phase"] == "skipped" || x["phase"] == "failed") && x["error"].is_string())
        })
    });
    eprintln!("{sent} hostile instances: {refused} refused at C-STORE, {stored} stored and then predicted or skipped");
    // the destination holds the results of the studies sent (the good one, and any a readable
    // hostile instance made), each object once
    let st = status_of(&sv.status).unwrap();
    let sent_studies: Vec<String> = st["studies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["phase"] == "sent")
        .map(|x| x["study"].as_str().unwrap().to_string())
        .collect();
    assert!(sent_studies.contains(&uid), "{st}");
    let got = d.got();
    assert_eq!(
        got.len(),
        all_arrived(&w, &got, &sent_studies),
        "objects sent twice"
    );
    // the node still answers
    assert!(status_of(&sv.status).is_some());
}

#[test]
fn a_full_queue_or_spool_is_refused_with_a700_and_done_studies_leave_after_keep_days() {
    let w = World::new("4");
    let (_dest, _d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let node = pacs::store::Node::parse(&format!("ICH@127.0.0.1:{}", w.port)).unwrap();
    let refused = |files: &[PathBuf]| {
        let r = pacs::store::c_store("MODALITY", &node, files, Duration::from_secs(10)).unwrap();
        r.iter()
            .all(|x| x.as_ref().is_err_and(|e| e.contains("A700")))
    };
    // a queue of one study (settling for long): a second study is refused, the first goes on
    let mut sv = w.serve_with("600", "200", &["--max-queue", "1"]);
    // a second node on the same spool is refused, naming the spool and the running one
    let second = Command::new(env!("CARGO_BIN_EXE_ich"))
        .args(["serve", "--model", s(&w.bundle), "--spool", s(&w.spool)])
        .args(["--host", "127.0.0.1", "--port", &free_port().to_string()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{said}");
    assert!(
        said.contains("another ich process") && said.contains(&sv.child.id().to_string()),
        "{said}"
    );
    w.store(&w.files(0));
    assert!(refused(&w.files(1)), "a second study got into a full queue");
    w.store(&w.files(0)[..2]);
    let log = std::fs::read_to_string(&sv.log).unwrap();
    assert!(log.contains("queue full (1 studies waiting)"), "{log}");
    kill9(&mut sv);

    // a spool already over its limit: refused before the data set is read
    let planted = w.spool.join("studies/1.2.3/in/1.2.3.4/1.2.3.4.5.dcm");
    std::fs::create_dir_all(planted.parent().unwrap()).unwrap();
    std::fs::write(&planted, vec![0u8; 3 << 20]).unwrap();
    let mut sv = w.serve_with("600", "200", &["--max-spool-mib", "2"]);
    assert!(refused(&w.files(2)), "a full spool took an instance");
    let log = std::fs::read_to_string(&sv.log).unwrap();
    assert!(log.contains("spool full (3 of 2 MiB)"), "{log}");
    kill9(&mut sv);
    std::fs::remove_dir_all(w.spool.join("studies/1.2.3")).unwrap();

    // keep-days 0: a study sent leaves the spool (within the 5 s of a cleanup round)
    let sv = w.serve_with("1", "200", &["--keep-days", "0"]);
    let uid = w.study(0);
    wait_for(60, &sv, "study 0 sent", || w.phase(&uid) == "sent");
    let dir = w.spool.join("studies").join(&uid);
    wait_for(30, &sv, "study 0 removed", || !dir.exists());
    let st = status_of(&sv.status).unwrap();
    assert_eq!(st["spool_bytes"], 0, "{st}");
}

#[test]
fn two_workers_send_each_study_once() {
    // a study predicted by one worker and sent by it: another worker must not send it too
    let w = World::new("6");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::from_millis(20));
    let sv = w.serve_with("1", "200", &["--workers", "2"]);
    let uids: Vec<String> = (0..6).map(|i| w.study(i)).collect();
    for i in 0..6 {
        w.store(&w.files(i));
    }
    wait_for(120, &sv, "every study sent", || {
        uids.iter().all(|u| w.phase(u) == "sent")
    });
    let got = d.got();
    assert_eq!(
        got.len(),
        all_arrived(&w, &got, &uids),
        "objects sent more than once"
    );
}

/// The spool's copy of a study's instance.
fn spooled(w: &World, study: &str, file: &Path) -> PathBuf {
    let o = dicom_object::open_file(file).unwrap();
    let t = |tag| common::element_text(&o, tag);
    use dicom_dictionary_std::tags;
    w.spool
        .join("studies")
        .join(study)
        .join("in")
        .join(t(tags::SERIES_INSTANCE_UID))
        .join(format!("{}.dcm", t(tags::SOP_INSTANCE_UID)))
}

#[test]
fn an_acknowledged_instance_is_never_replaced_and_odd_commands_are_refused_saying_why() {
    use dicom_core::{DataElement, PrimitiveValue, VR};
    use dicom_dictionary_std::tags;
    let w = World::new("4");
    let sv = w.serve("600", "200");
    let (uid, f) = (w.study(0), w.files(0));
    w.store(&f);
    let kept = std::fs::read(spooled(&w, &uid, &f[0])).unwrap();
    // the same instances again (a modality's retry): duplicates, acknowledged, nothing changes
    w.store(&f[..2]);
    // other pixels under the first slice's SOP Instance UID: refused, the stored one kept
    let changed = w.t.join("changed.dcm");
    let mut o = dicom_object::open_file(&f[0]).unwrap();
    let px = o
        .element(tags::PIXEL_DATA)
        .unwrap()
        .to_bytes()
        .unwrap()
        .to_vec();
    let other: Vec<u8> = px.iter().map(|b| b.wrapping_add(1)).collect();
    o.put(DataElement::new(
        tags::PIXEL_DATA,
        VR::OW,
        PrimitiveValue::from(other),
    ));
    o.write_to_file(&changed).unwrap();
    let node = pacs::store::Node::parse(&format!("ICH@127.0.0.1:{}", w.port)).unwrap();
    let r = pacs::store::c_store("MODALITY", &node, &[changed], Duration::from_secs(10)).unwrap();
    assert!(r[0].as_ref().is_err_and(|e| e.contains("0111")), "{r:?}");
    assert_eq!(std::fs::read(spooled(&w, &uid, &f[0])).unwrap(), kept);
    let st = status_of(&sv.status).unwrap();
    let this = st["studies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["study"] == uid.as_str())
        .unwrap();
    assert_eq!(this["instances"], 6, "{this}");
    // a data set without its own SOPInstanceUID (its file meta names one): refused
    let bare = w.t.join("bare.dcm");
    let g = w.files(1);
    let mut o = dicom_object::open_file(&g[0]).unwrap();
    assert!(o.remove_element(tags::SOP_INSTANCE_UID));
    o.write_to_file(&bare).unwrap();
    let r = pacs::store::c_store("MODALITY", &node, &[bare], Duration::from_secs(10)).unwrap();
    assert!(r[0].as_ref().is_err_and(|e| e.contains("C000")), "{r:?}");
    assert!(!spooled(&w, &w.study(1), &g[0]).exists());
    // a command whose SOP Instance UID is a path: refused, named as what it is
    let bytes = std::fs::read(&g[1]).unwrap();
    let group = u32::from_le_bytes(bytes[140..144].try_into().unwrap()) as usize;
    let status = raw_store(
        w.port,
        dicom_dictionary_std::uids::CT_IMAGE_STORAGE,
        "../../x",
        &bytes[144 + group..],
    );
    assert_eq!(status, Some(0xC000));
    let log = std::fs::read_to_string(&sv.log).unwrap();
    for said in [
        "with other content",
        "the data set has no SOPInstanceUID",
        "Affected SOP Instance UID is not a UID",
    ] {
        assert!(log.contains(said), "no {said:?} in\n{log}");
    }
    let spool_files = walk_files(&w.spool);
    assert!(
        spool_files
            .iter()
            .all(|p| !p.to_string_lossy().contains("..")),
        "{spool_files:?}"
    );
}

/// Every file under `dir`.
/// Every file under `dir` with its bytes.
fn contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walk_files(dir)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect()
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk_files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn a_study_failed_for_a_passing_reason_is_predicted_again_after_a_backoff_and_a_restart() {
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let uid = w.study(0);
    // every file the node writes is limited to twice the largest instance: the instances are
    // received, the results (pages with their pictures, captures) cannot all be written, as on
    // a full disk
    let limit = 2 * w
        .files(0)
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .max()
        .unwrap();
    let out = w.spool.join("studies").join(&uid).join("out");
    let mut sv = w.serve_limited("1", "200", &[], Some(limit));
    w.store(&w.files(0));
    wait_for(60, &sv, "a second attempt after the backoff", || {
        w.state(&uid)
            .is_some_and(|s| s["attempts"].as_u64().unwrap_or(0) >= 2)
    });
    let st = w.state(&uid).unwrap();
    assert_eq!(st["phase"], "receiving", "{st}");
    assert!(
        st["error"].as_str().unwrap().contains("tried again in"),
        "{st}"
    );
    assert!(
        st["error"].as_str().unwrap().contains("File too large"),
        "{st}"
    );
    kill9(&mut sv);
    // the disk has room again; a restart picks the study up
    let sv = w.serve("1", "200");
    wait_for(60, &sv, "sent after the restart", || {
        w.phase(&uid) == "sent"
    });
    // the limit did keep results out: some are larger
    assert!(
        walk_files(&out)
            .iter()
            .any(|p| std::fs::metadata(p).unwrap().len() > limit),
        "no result is larger than {limit} bytes: the test limits nothing"
    );
    let st = w.state(&uid).unwrap();
    assert_eq!(
        (st["round"].as_u64(), st["attempts"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(st["error"].is_null(), "{st}");
    let got = d.got();
    assert_eq!(
        got.len(),
        all_arrived(&w, &got, &[uid]),
        "objects sent twice"
    );

    // a monitor is answered while 60 idle connections are open to the status endpoint, sooner
    // than one idle connection's 5 s wait (before, one connection at a time, each waited for 5 s:
    // 300 s in all)
    let idle: Vec<std::net::TcpStream> = (0..60)
        .map(|_| std::net::TcpStream::connect(&sv.status).unwrap())
        .collect();
    for _ in 0..3 {
        let t = Instant::now();
        assert!(status_of(&sv.status).is_some());
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }
    drop(idle);
}

#[test]
fn a_series_of_two_patients_fails_its_study_with_the_reason_and_sends_nothing() {
    use dicom_core::{DataElement, PrimitiveValue, VR};
    use dicom_dictionary_std::tags;
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let sv = w.serve("1", "200");
    let (uid, f) = (w.study(0), w.files(0));
    let other = w.t.join("other-patient.dcm");
    let mut o = dicom_object::open_file(&f[5]).unwrap();
    o.put(DataElement::new(
        tags::PATIENT_ID,
        VR::LO,
        PrimitiveValue::from("SOMEONE-ELSE"),
    ));
    o.write_to_file(&other).unwrap();
    let mut files = f[..5].to_vec();
    files.push(other);
    w.store(&files);
    wait_for(60, &sv, "the study failed", || w.phase(&uid) == "failed");
    let st = w.state(&uid).unwrap();
    assert!(
        st["error"]
            .as_str()
            .unwrap()
            .contains("different PatientIDs"),
        "{st}"
    );
    assert!(
        !st["error"].as_str().unwrap().contains("SOMEONE-ELSE"),
        "{st}"
    );
    // nothing of it reached the PACS, and the node goes on with the next study
    let g = w.files(1);
    w.store(&g);
    wait_for(60, &sv, "the next study sent", || {
        w.phase(&w.study(1)) == "sent"
    });
    let got = d.got();
    assert_eq!(got.len(), all_arrived(&w, &got, &[w.study(1)]));
}

/// The planted-links row of the hostile matrix for the node's own files. Someone who can write
/// to the spool plants, before the node starts: a link to a folder outside where a study's
/// folder goes, a link where `receiving/` goes, a link to another patient's file at the name an
/// instance of a study will be stored under, and a link to a folder outside where a study's
/// results go. The node removes each (saying so), never follows one, predicts and sends every
/// study from what it was sent, and nothing outside the spool changes.
#[test]
fn links_planted_in_the_spool_are_removed_not_followed() {
    use std::os::unix::fs::symlink;
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let uids: Vec<String> = (0..3).map(|i| w.study(i)).collect();
    let outside = w.t.join("outside");
    for sub in ["s0", "rx", "out2"] {
        std::fs::create_dir_all(outside.join(sub)).unwrap();
    }
    // another patient's instance, outside the spool
    let victim = outside.join("victim.dcm");
    std::fs::copy(&w.files(3)[0], &victim).unwrap();
    let studies = w.spool.join("studies");
    std::fs::create_dir_all(&studies).unwrap();
    symlink(outside.join("s0"), studies.join(&uids[0])).unwrap();
    symlink(outside.join("rx"), w.spool.join("receiving")).unwrap();
    let first = spooled(&w, &uids[1], &w.files(1)[0]);
    std::fs::create_dir_all(first.parent().unwrap()).unwrap();
    symlink(&victim, &first).unwrap();
    std::fs::create_dir_all(studies.join(&uids[2])).unwrap();
    symlink(outside.join("out2"), studies.join(&uids[2]).join("out")).unwrap();
    let before = contents(&outside);

    let sv = w.serve("1", "200");
    for i in 0..3 {
        w.store(&w.files(i));
    }
    wait_for(120, &sv, "every study sent", || {
        uids.iter().all(|u| w.phase(u) == "sent")
    });
    let got = d.got();
    assert_eq!(got.len(), all_arrived(&w, &got, &uids));
    // the spool holds real folders and the instances it was sent
    for p in [
        studies.join(&uids[0]),
        w.spool.join("receiving"),
        studies.join(&uids[2]).join("out"),
    ] {
        assert!(
            std::fs::symlink_metadata(&p).unwrap().is_dir(),
            "{}",
            p.display()
        );
    }
    // the instance sent, not the file the planted link pointed to (another patient's)
    assert!(std::fs::symlink_metadata(&first).unwrap().is_file());
    let patient = |p: &Path| {
        let o = dicom_object::open_file(p).unwrap();
        common::element_text(&o, dicom_dictionary_std::tags::PATIENT_ID)
    };
    assert_eq!(patient(&first), patient(&w.files(1)[0]));
    assert_ne!(patient(&first), patient(&victim));
    for (i, uid) in uids.iter().enumerate() {
        let st = w.state(uid).unwrap();
        assert_eq!(
            st["instances"].as_u64(),
            Some(w.files(i).len() as u64),
            "{st}"
        );
    }
    // nothing outside changed, nothing was made there
    let after = contents(&outside);
    assert!(before == after, "files outside the spool changed");
    let log = std::fs::read_to_string(&sv.log).unwrap();
    assert!(
        log.matches("planted").count() >= 4,
        "each planted link reported:\n{log}"
    );
}

/// The swap-during-the-run row of the hostile matrix for the node: while a study is arriving,
/// the node is paused (SIGSTOP), the study's folder is moved out of the spool and a link to a
/// folder outside put in its place, and the node resumed. The rest of the study and another one
/// arrive: nothing is written, moved or removed through the link (every step of the node's
/// writer is taken through folders held open from the spool's own handle), the link is reported
/// and replaced by a real folder, and the other study is predicted and sent.
#[test]
fn a_study_folder_swapped_for_a_link_while_it_arrives_is_never_written_through() {
    use std::os::unix::fs::symlink;
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let (u0, u1) = (w.study(0), w.study(1));
    let outside = w.t.join("outside");
    std::fs::create_dir_all(outside.join("s0")).unwrap();
    std::fs::write(outside.join("s0/keep.txt"), b"another patient's").unwrap();
    let before = contents(&outside);
    let sv = w.serve("3", "50");
    let files = w.files(0);
    let (first, rest) = files.split_at(files.len() / 2);
    w.store(first);
    let folder = w.spool.join("studies").join(&u0);
    let pid = sv.child.id() as i32;
    // SAFETY: signals to the child this test started
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    std::fs::rename(&folder, w.t.join("aside")).unwrap();
    symlink(outside.join("s0"), &folder).unwrap();
    unsafe { libc::kill(pid, libc::SIGCONT) };
    w.store(rest);
    w.store(&w.files(1));
    wait_for(120, &sv, "the other study sent", || w.phase(&u1) == "sent");
    let (got, want) = (d.got(), w.results(&u1));
    assert!(!want.is_empty() && want.iter().all(|x| got.contains(x)));
    // the link was replaced by a real folder, and nothing outside changed
    assert!(std::fs::symlink_metadata(&folder).unwrap().is_dir());
    let after = contents(&outside);
    assert!(before == after, "files outside the spool changed");
    let log = std::fs::read_to_string(&sv.log).unwrap();
    assert!(log.contains("planted"), "the link reported:\n{log}");
}

/// A `state.json` edited while the node is down to name files outside the study as its results
/// (another patient's instance by an absolute path, and by a `../` path) sends neither: the
/// study is predicted again from its own instances and only its own results reach the PACS.
#[test]
fn a_state_naming_files_outside_its_study_sends_none_of_them() {
    let w = World::new("4");
    let mut sv = w.serve("1", "200");
    let (uid, other) = (w.study(0), w.study(1));
    w.store(&w.files(0));
    w.store(&w.files(1));
    // no destination yet: both studies wait, predicted, for the PACS to return
    wait_for(60, &sv, "both studies predicted", || {
        [&uid, &other].iter().all(|u| {
            w.state(u).is_some_and(|s| {
                s["phase"] == "predicted" && !s["sends"].as_array().unwrap().is_empty()
            })
        })
    });
    kill9(&mut sv);
    let theirs = spooled(&w, &other, &w.files(1)[0]);
    let sop_of = |p: &Path| {
        dicom_object::open_file(p)
            .unwrap()
            .meta()
            .media_storage_sop_instance_uid()
            .trim_end_matches('\0')
            .to_string()
    };
    let their_sop = sop_of(&theirs);
    let state_path = w.spool.join("studies").join(&uid).join("state.json");
    let mut st: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&state_path).unwrap()).unwrap();
    let rel = theirs
        .strip_prefix(w.spool.join("studies"))
        .unwrap()
        .to_path_buf();
    st["files"] = serde_json::json!([
        theirs.display().to_string(),
        format!("../{}", rel.display()),
    ]);
    std::fs::write(&state_path, serde_json::to_vec_pretty(&st).unwrap()).unwrap();
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let sv = w.serve("1", "200");
    wait_for(90, &sv, "the edited study predicted again and sent", || {
        w.phase(&uid) == "sent" && w.phase(&other) == "sent"
    });
    let got = d.got();
    assert!(
        !got.contains(&their_sop),
        "another patient's instance was sent"
    );
    let ours = w.results(&uid);
    assert!(
        ours.iter().all(|s| got.contains(s)),
        "the study's own results are sent"
    );
    let log = std::fs::read_to_string(&sv.log).unwrap_or_default();
    assert!(
        log.contains("not a regular file inside the study's folder"),
        "{log}"
    );
}

/// Two nodes on one spool: the holder is paused (SIGSTOP) past its lease, the other takes the
/// lock (here: its lock file put in place, as a take-over leaves it), and the first is resumed.
/// It must acknowledge nothing more, say why, and exit non-zero. Before the check it went on
/// acknowledging, predicting and sending into the shared spool.
#[cfg(target_os = "linux")]
#[test]
fn a_node_whose_lock_was_taken_over_while_it_was_paused_stops_and_acknowledges_nothing() {
    let w = World::new("4");
    let mut sv = w.serve("1", "50");
    let pid = sv.child.id() as i32;
    // SAFETY: signals to the child this test started
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    std::fs::write(w.spool.join(".ich.lock"), common::foreign_lock()).unwrap();
    unsafe { libc::kill(pid, libc::SIGCONT) };
    let uid = w.study(0);
    let node = pacs::store::Node::parse(&format!("ICH@127.0.0.1:{}", w.port)).unwrap();
    let acked = pacs::store::c_store("MODALITY", &node, &w.files(0), Duration::from_secs(10))
        .map(|r| r.iter().filter(|x| x.is_ok()).count())
        .unwrap_or(0);
    assert_eq!(
        acked, 0,
        "instances acknowledged by a node that lost its spool"
    );
    let t0 = Instant::now();
    let code = loop {
        if let Some(c) = sv.child.try_wait().unwrap() {
            break c;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the node did not stop: {}",
            std::fs::read_to_string(&sv.log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!code.success());
    let log = std::fs::read_to_string(&sv.log).unwrap();
    assert!(log.contains("taken over"), "{log}");
    // nothing of the study moved into the spool, and the other node's lock is left as it is
    assert!(walk_files(&w.spool.join("studies").join(&uid)).is_empty());
    assert_eq!(
        std::fs::read(w.spool.join(".ich.lock")).unwrap(),
        common::foreign_lock()
    );
}

/// SIGTERM while a send waits on a PACS that accepts the connection and never answers: the node
/// stops within 10 s (Docker's grace period), and the study stays "predicted" for the next start
/// to send. Before, it waited out every retry (124–130 s with the default retries).
#[cfg(target_os = "linux")]
#[test]
fn sigterm_stops_the_node_within_10_s_while_a_send_waits_on_a_silent_pacs() {
    let w = World::new("4");
    // a PACS that accepts and never says a word
    let silent = std::net::TcpListener::bind(("127.0.0.1", w.dest_port)).unwrap();
    let held = Arc::new(Mutex::new(Vec::new()));
    {
        let held = held.clone();
        std::thread::spawn(move || {
            for c in silent.incoming().flatten() {
                held.lock().unwrap().push(c);
            }
        });
    }
    let mut sv = w.serve_sending("1", "50", &[], None, false);
    let uid = w.study(0);
    w.store(&w.files(0));
    wait_for(120, &sv, "a send under way", || {
        w.phase(&uid) == "predicted" && !held.lock().unwrap().is_empty()
    });
    let t0 = Instant::now();
    // SAFETY: a signal to the child this test started
    unsafe { libc::kill(sv.child.id() as i32, libc::SIGTERM) };
    let code = loop {
        if let Some(c) = sv.child.try_wait().unwrap() {
            break c;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "not stopped within 10 s of SIGTERM: {}",
            std::fs::read_to_string(&sv.log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        code.success(),
        "{}",
        std::fs::read_to_string(&sv.log).unwrap()
    );
    // left for the next start to send
    assert_eq!(w.phase(&uid), "predicted");
}

/// The PACS routes the node's own results back to it (a routing rule on "all of this study"):
/// every SR and capture is acknowledged with success (no failure status for the PACS to show),
/// the study does not start a second round, and nothing is sent again.
#[test]
fn the_nodes_own_results_routed_back_are_acknowledged_and_set_aside() {
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let sv = w.serve("1", "50");
    let uid = w.study(0);
    w.store(&w.files(0));
    wait_for(120, &sv, "the study sent", || w.phase(&uid) == "sent");
    let sent_before = d.got().len();
    let results: Vec<PathBuf> = w.state(&uid).unwrap()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| w.spool.join("studies").join(&uid).join(f.as_str().unwrap()))
        .collect();
    assert!(results.len() >= 2, "{results:?}");
    // copies, as the PACS would send them (the node's own files stay where they are)
    let back = w.t.join("routed-back");
    std::fs::create_dir_all(&back).unwrap();
    let copies: Vec<PathBuf> = results
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let c = back.join(format!("{i}.dcm"));
            std::fs::copy(f, &c).unwrap();
            c
        })
        .collect();
    for _ in 0..2 {
        w.store(&copies);
    }
    std::thread::sleep(Duration::from_secs(3));
    let st = w.state(&uid).unwrap();
    assert_eq!(st["phase"], "sent", "{st}");
    assert_eq!(st["round"].as_u64().unwrap_or(1), 1, "{st}");
    assert_eq!(d.got().len(), sent_before, "results sent again");
    assert!(walk_files(&w.spool.join("studies").join(&uid).join("in"))
        .iter()
        .all(|f| !f.to_string_lossy().contains("routed-back")));
}

/// The SOP Instance UID of a study's SR as the spool lists it, and the SR's path.
fn sr_of(w: &World, study: &str) -> (String, PathBuf) {
    let st = w.state(study).unwrap();
    let rel = st["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .find(|f| f.ends_with("sr.dcm"))
        .unwrap();
    let p = w.spool.join("studies").join(study).join(rel);
    let o = dicom_object::open_file(&p).unwrap();
    let uid = o
        .meta()
        .media_storage_sop_instance_uid()
        .trim_end_matches('\0')
        .to_string();
    (uid, p)
}

/// Half a series arrives, settles, is predicted and sent; the rest arrives later. The second
/// round's SR names the first in its Predecessor Documents Sequence, so the PACS knows which is
/// current, and the round's report.json says which report it supersedes. Before, the PACS held
/// two complete SRs for one series and nothing said which was current.
#[test]
fn late_instances_make_a_report_that_supersedes_the_first() {
    use dicom_dictionary_std::tags;
    let w = World::new("4");
    let (_dest, d) = dest(&w.t, w.dest_port, Duration::ZERO);
    let sv = w.serve("1", "50");
    let uid = w.study(0);
    let files = w.files(0);
    let half = files.len() / 2;
    w.store(&files[..half]);
    wait_for(120, &sv, "the first half sent", || w.phase(&uid) == "sent");
    let (first, _) = sr_of(&w, &uid);
    w.store(&files[half..]);
    wait_for(120, &sv, "the second round sent", || {
        w.state(&uid)
            .is_some_and(|s| s["round"] == 2 && s["phase"] == "sent")
    });
    let (second, path) = sr_of(&w, &uid);
    assert_ne!(first, second);
    assert!(d.got().contains(&first) && d.got().contains(&second));
    let o = dicom_object::open_file(&path).unwrap();
    let pred = o.element(tags::PREDECESSOR_DOCUMENTS_SEQUENCE).unwrap();
    let named: Vec<String> = pred.items().unwrap()[0]
        .element(tags::REFERENCED_SERIES_SEQUENCE)
        .unwrap()
        .items()
        .unwrap()[0]
        .element(tags::REFERENCED_SOP_SEQUENCE)
        .unwrap()
        .items()
        .unwrap()
        .iter()
        .map(|i| {
            i.element(tags::REFERENCED_SOP_INSTANCE_UID)
                .unwrap()
                .to_str()
                .unwrap()
                .trim_end_matches('\0')
                .to_string()
        })
        .collect();
    assert_eq!(named, vec![first.clone()]);
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(w.spool.join("studies").join(&uid).join("out/report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        report["scans"][0]["dicom"]["supersedes"],
        serde_json::json!([first])
    );
}
