//! `ich serve` as a node of a real PACS: Orthanc on loopback routes head CT studies to it by its
//! Lua rule (the one README gives); ich predicts each study once it settles and sends the SR and
//! the Secondary Captures back. Orthanc's REST API and dcmtk's `dsrdump` then read what arrived.
//! A non-CT series is skipped and reported; an AE not on `--allow` is rejected.
//!
//! Skipped with a printed reason where Orthanc or dcmtk is not installed, except under CI.

mod common;

use common::orthanc::{
    check_with_dsrdump, free_port, need, orthanc_with_dicomweb, study_uid_of, Orthanc, PASSWORD,
    USER,
};
use common::s;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use dicom_core::{DataElement, PrimitiveValue, VR};
use dicom_dictionary_std::{tags, uids};

/// The routing rule of README ("Run ich as a node of your PACS"): every CT instance Orthanc
/// stores is forwarded to the modality `ich`; ich's own results (SR, OT) are not.
const LUA: &str = r#"
function OnStoredInstance(instanceId, tags, metadata, origin)
  if tags['Modality'] == 'CT' then
    SendToModality(instanceId, 'ich')
  end
end
"#;

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Serve {
    /// `ich serve` with the test's model and spool on loopback, 200 draws per scan, `extra` flags
    /// on top; stderr into `log`.
    fn spawn(
        bundle: &Path,
        spool: &Path,
        port: u16,
        status: &str,
        log: &Path,
        extra: &[&str],
    ) -> Serve {
        let child = Command::new(env!("CARGO_BIN_EXE_ich"))
            .args([
                "serve",
                "--model",
                s(bundle),
                "--spool",
                s(spool),
                "--host",
                "127.0.0.1",
            ])
            .args([
                "--port",
                &port.to_string(),
                "--status",
                status,
                "--samples",
                "200",
            ])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        Serve(child)
    }
}

fn http_get(addr: &str) -> Result<serde_json::Value, String> {
    let r = ureq::get(&format!("http://{addr}/status"))
        .call()
        .map_err(|e| e.to_string())?;
    serde_json::from_reader(r.into_reader()).map_err(|e| e.to_string())
}

/// Copies of two CT files of `scan` as an MR series of the same study (new series and instance
/// UIDs, Modality MR, MR Image Storage).
fn mr_series(scan: &Path, out: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(out).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(scan)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let series = "2.25.1234567890123456789";
    files
        .iter()
        .take(2)
        .enumerate()
        .map(|(i, f)| {
            let mut o = dicom_object::open_file(f).unwrap();
            let sop = format!("2.25.98765432109876543{i}");
            o.put(DataElement::new(
                tags::MODALITY,
                VR::CS,
                PrimitiveValue::from("MR"),
            ));
            o.put(DataElement::new(
                tags::SOP_CLASS_UID,
                VR::UI,
                PrimitiveValue::from(uids::MR_IMAGE_STORAGE),
            ));
            o.put(DataElement::new(
                tags::SOP_INSTANCE_UID,
                VR::UI,
                PrimitiveValue::from(sop.as_str()),
            ));
            o.put(DataElement::new(
                tags::SERIES_INSTANCE_UID,
                VR::UI,
                PrimitiveValue::from(series),
            ));
            o.update_meta(|m| {
                m.media_storage_sop_class_uid = uids::MR_IMAGE_STORAGE.to_string();
                m.media_storage_sop_instance_uid = sop.clone();
            });
            let p = out.join(format!("mr-{i}.dcm"));
            o.write_to_file(&p).unwrap();
            p
        })
        .collect()
}

#[test]
fn orthanc_routes_three_head_ct_studies_to_ich_serve_and_gets_the_results_back_within_a_minute() {
    let Some(orthanc_bin) = need("Orthanc") else {
        return;
    };
    let Some(dsrdump) = need("dsrdump") else {
        return;
    };
    let Some(storescu) = need("storescu") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();

    // a small model on a synthetic cohort (the mechanics, not the accuracy)
    let (raw, bundle) = common::cohort_and_bundle(t, "4", "41");

    let ich_port = free_port();
    let lua = t.join("route.lua");
    std::fs::write(&lua, LUA).unwrap();
    let odir = t.join("orthanc");
    std::fs::create_dir_all(&odir).unwrap();
    let pacs = Orthanc::start(
        &orthanc_bin,
        &odir,
        serde_json::json!({
            "DicomModalities": {"ich": ["ICH", "127.0.0.1", ich_port]},
            "LuaScripts": [lua],
        }),
    );

    let spool = t.join("spool");
    let status = format!("127.0.0.1:{}", free_port());
    let log = t.join("serve.log");
    let mut serve = Serve::spawn(
        &bundle,
        &spool,
        ich_port,
        &status,
        &log,
        &[
            "--log-json",
            "--send",
            &format!("ORTHANC@127.0.0.1:{}", pacs.dicom),
            "--settle",
            "3",
            "--allow",
            "ORTHANC@127.0.0.1,STORESCU@127.0.0.1",
        ],
    );
    let t0 = Instant::now();
    while http_get(&status).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(60) && serve.0.try_wait().unwrap().is_none(),
            "ich serve did not start: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // an AE not on --allow: rejected at association
    let scan0 = raw.join("scan-0000");
    let some_file = std::fs::read_dir(&scan0)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let o = Command::new(&storescu)
        .args([
            "-aet",
            "INTRUDER",
            "-aec",
            "ICH",
            "127.0.0.1",
            &ich_port.to_string(),
        ])
        .arg(&some_file)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !o.status.success() || said.contains("Rejected"),
        "an AE not on --allow was let in: {said}"
    );
    assert!(
        said.contains("Rejected") || said.contains("rejected"),
        "{said}"
    );

    // three studies into Orthanc, which routes their CT to ich
    let studies: Vec<(PathBuf, String)> = (0..3)
        .map(|i| {
            let dir = raw.join(format!("scan-{i:04}"));
            let uid = study_uid_of(&dir);
            (dir, uid)
        })
        .collect();
    for (dir, _) in &studies {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files {
            pacs.upload(&f);
        }
    }
    // an MR series of the first study, straight to ich (as a modality would)
    let mr = mr_series(&scan0, &t.join("mr"));
    let o = Command::new(&storescu)
        .args([
            "-aet",
            "STORESCU",
            "-aec",
            "ICH",
            "127.0.0.1",
            &ich_port.to_string(),
        ])
        .args(&mr)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let last_instance = Instant::now();

    // every study's SR and Secondary Captures in Orthanc within 60 s of the last instance
    let mut done = vec![false; studies.len()];
    while done.iter().any(|d| !d) {
        assert!(
            last_instance.elapsed() < Duration::from_secs(60),
            "not all results within 60 s: {done:?}\nstatus: {}\nlog:\n{}",
            http_get(&status).map(|v| v.to_string()).unwrap_or_default(),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        for (k, (_, uid)) in studies.iter().enumerate() {
            if done[k] {
                continue;
            }
            let series = pacs.series_of(uid);
            let modality = |m: &str| series.iter().any(|x| x["MainDicomTags"]["Modality"] == m);
            done[k] = modality("SR") && modality("OT");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let took = last_instance.elapsed();
    eprintln!(
        "results of 3 studies in Orthanc {:.1} s after the last instance",
        took.as_secs_f64()
    );

    // each SR as Orthanc serves it, read by dcmtk, equals the reports ich wrote for the study
    let st = http_get(&status).unwrap();
    for (_, uid) in &studies {
        let series = pacs.series_of(uid);
        let sr = series
            .iter()
            .find(|x| x["MainDicomTags"]["Modality"] == "SR")
            .unwrap();
        let inst = sr["Instances"][0].as_str().unwrap();
        let file = t.join(format!("{uid}.sr.dcm"));
        std::fs::write(&file, pacs.bytes(&format!("/instances/{inst}/file"))).unwrap();
        check_with_dsrdump(
            &dsrdump,
            &file,
            &spool.join("studies").join(uid).join("out"),
        );
        let entry = st["studies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["study"] == uid.as_str())
            .unwrap_or_else(|| panic!("{uid} not in the status: {st}"));
        assert_eq!(entry["phase"], "sent", "{entry}");
        assert_eq!(entry["scans"].as_array().unwrap().len(), 1, "{entry}");
    }
    // the MR series: skipped and said why, in the status and in the log
    let first = st["studies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["study"] == studies[0].1.as_str())
        .unwrap();
    let skipped = first["skipped"].to_string();
    assert!(
        skipped.contains("not CT") || skipped.contains("MR"),
        "{first}"
    );
    let log_text = std::fs::read_to_string(&log).unwrap();
    for line in log_text.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("--log-json wrote a line that is not JSON ({e}): {line}"));
    }
    for what in ["\"receiving\"", "\"predicted\"", "\"sent\""] {
        assert_eq!(
            log_text.matches(what).count(),
            3,
            "one {what} line per study:\n{log_text}"
        );
    }
    assert!(
        log_text.contains("INTRUDER") || log_text.contains("rejected"),
        "{log_text}"
    );
    // no patient name or ID in the log or the status
    let name = "Synthetic";
    assert!(!log_text.contains(name) && !st.to_string().contains(name));

    // SIGTERM: a clean stop
    sigterm(serve.0.id());
    let t1 = Instant::now();
    loop {
        if let Some(code) = serve.0.try_wait().unwrap() {
            assert!(code.success(), "{code}");
            break;
        }
        assert!(
            t1.elapsed() < Duration::from_secs(30),
            "ich serve did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// SIGTERM to `pid` (as systemd stops a service), without relying on a `kill` binary.
fn sigterm(pid: u32) {
    let pid = libc::pid_t::try_from(pid).unwrap();
    // SAFETY: kill(2) with a child's PID and a standard signal has no memory effects
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
}

#[test]
fn a_pacs_that_cannot_push_is_polled_by_dicomweb_and_each_study_predicted_once() {
    let Some(orthanc_bin) = orthanc_with_dicomweb() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (raw, bundle) = common::cohort_and_bundle(t, "4", "47");
    let odir = t.join("orthanc");
    std::fs::create_dir_all(&odir).unwrap();
    let pacs = Orthanc::start(&orthanc_bin, &odir, serde_json::json!({}));
    let studies: Vec<String> = (0..2)
        .map(|i| {
            let dir = raw.join(format!("scan-{i:04}"));
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                pacs.upload(&e.path());
            }
            study_uid_of(&dir)
        })
        .collect();

    let spool = t.join("spool");
    let status = format!("127.0.0.1:{}", free_port());
    let log = t.join("serve.log");
    let web = format!("http://{USER}:{PASSWORD}@127.0.0.1:{}/dicom-web", pacs.http);
    let _serve = Serve::spawn(
        &bundle,
        &spool,
        free_port(),
        &status,
        &log,
        &[
            "--send",
            &format!("ORTHANC@127.0.0.1:{}", pacs.dicom),
            "--settle",
            "1",
            "--dicomweb",
            &web,
            "--poll",
            "1",
            "--poll-since",
            "any",
        ],
    );
    let t0 = Instant::now();
    let phases = || -> Vec<String> {
        let st = http_get(&status).unwrap_or_default();
        studies
            .iter()
            .map(|u| {
                st["studies"]
                    .as_array()
                    .and_then(|a| a.iter().find(|x| x["study"] == u.as_str()))
                    .map(|x| x["phase"].as_str().unwrap_or("").to_string())
                    .unwrap_or_default()
            })
            .collect()
    };
    while phases().iter().any(|p| p != "sent") {
        assert!(
            t0.elapsed() < Duration::from_secs(90),
            "{:?}\n{}",
            phases(),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    for u in &studies {
        let series = pacs.series_of(u);
        assert!(series
            .iter()
            .any(|x| x["MainDicomTags"]["Modality"] == "SR"));
    }
    // more polls see the studies again, now with ich's results in them: nothing is redone
    std::thread::sleep(Duration::from_secs(4));
    let st = http_get(&status).unwrap();
    for u in &studies {
        let x = st["studies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["study"] == u.as_str())
            .unwrap();
        assert_eq!(x["phase"], "sent", "{x}");
        assert_eq!(x["round"], 1, "{x}");
        assert_eq!(x["instances"], 6, "{x}");
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(log_text.matches(" predicted").count(), 2, "{log_text}");
    // the password never reaches the log
    assert!(!log_text.contains(PASSWORD));
}
