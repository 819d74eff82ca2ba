//! Orthanc (Debian's `orthanc` with its DICOMweb plugin) on loopback for the PACS tests, and the
//! tools they need: found, or the test is skipped (never under CI).

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use dicom_dictionary_std::tags;

use super::csv_rows;

fn f(v: &str) -> f64 {
    v.parse().unwrap()
}

pub const USER: &str = "ich";
pub const PASSWORD: &str = "s3cret-pw";
/// `Basic base64("ich:s3cret-pw")`, by `echo -n ich:s3cret-pw | base64`.
pub const BASIC: &str = "Basic aWNoOnMzY3JldC1wdw==";

pub const DICOMWEB_PLUGIN: &str = "/usr/share/orthanc/plugins/libOrthancDicomWeb.so";

pub fn which(cmd: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
            .map(|d| d.join(cmd))
            .find(|p| p.is_file())
    })
}

/// A tool the test needs: found, or the test is skipped (never under CI).
pub fn need(cmd: &str) -> Option<PathBuf> {
    let found = which(cmd);
    if found.is_none() {
        let why = format!("{cmd} is not installed (bash scripts/setup-system.sh installs it)");
        assert!(std::env::var_os("CI").is_none(), "CI: {why}");
        eprintln!("skipped: {why}");
    }
    found
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub struct Orthanc {
    child: Child,
    pub http: u16,
    pub dicom: u16,
}

impl Drop for Orthanc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Orthanc {
    /// Starts Orthanc in `dir` with the test configuration and `extra` keys on top of it.
    pub fn start(bin: &Path, dir: &Path, extra: serde_json::Value) -> Orthanc {
        let (http, dicom) = (free_port(), free_port());
        let db = dir.join("db");
        let config = serde_json::json!({
            "Name": "ich-test",
            "StorageDirectory": db,
            "IndexDirectory": db,
            "HttpPort": http,
            "DicomPort": dicom,
            "DicomAet": "ORTHANC",
            "DicomCheckCalledAet": true,
            "RemoteAccessAllowed": false,
            // as a hospital's Orthanc: HTTP only with a password
            "AuthenticationEnabled": true,
            "RegisteredUsers": {USER: PASSWORD},
            "Plugins": [DICOMWEB_PLUGIN],
            "DicomWeb": {"Enable": true, "Root": "/dicom-web/"}
        });
        let mut config = config;
        if let (Some(c), Some(e)) = (config.as_object_mut(), extra.as_object()) {
            c.extend(e.clone());
        }
        let cfg = dir.join("orthanc.json");
        std::fs::write(&cfg, serde_json::to_vec_pretty(&config).unwrap()).unwrap();
        let log = std::fs::File::create(dir.join("orthanc.log")).unwrap();
        let child = Command::new(bin)
            .arg(&cfg)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start Orthanc");
        let o = Orthanc { child, http, dicom };
        let t = Instant::now();
        while o.get("/system").is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "Orthanc did not start: {}",
                std::fs::read_to_string(dir.join("orthanc.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        o
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http)
    }

    pub fn get(&self, path: &str) -> Result<serde_json::Value, String> {
        let r = ureq::get(&self.url(path))
            .set("Authorization", BASIC)
            .call()
            .map_err(|e| e.to_string())?;
        serde_json::from_reader(r.into_reader()).map_err(|e| e.to_string())
    }

    pub fn bytes(&self, path: &str) -> Vec<u8> {
        let mut v = Vec::new();
        std::io::Read::read_to_end(
            &mut ureq::get(&self.url(path))
                .set("Authorization", BASIC)
                .call()
                .unwrap()
                .into_reader(),
            &mut v,
        )
        .unwrap();
        v
    }

    pub fn upload(&self, file: &Path) {
        ureq::post(&self.url("/instances"))
            .set("Authorization", BASIC)
            .send_bytes(&std::fs::read(file).unwrap())
            .unwrap();
    }

    /// The series of a study (by StudyInstanceUID), with their main tags and instances.
    pub fn series_of(&self, study_uid: &str) -> Vec<serde_json::Value> {
        let found: serde_json::Value = serde_json::from_reader(
            ureq::post(&self.url("/tools/lookup"))
                .set("Authorization", BASIC)
                .send_string(study_uid)
                .unwrap()
                .into_reader(),
        )
        .unwrap();
        let id = found
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["Type"] == "Study")
            .unwrap_or_else(|| panic!("study {study_uid} is not in Orthanc: {found}"))["ID"]
            .as_str()
            .unwrap()
            .to_string();
        self.get(&format!("/studies/{id}/series"))
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    }
}

/// The StudyInstanceUID of the first `.dcm` file in `dir`.
pub fn study_uid_of(dir: &Path) -> String {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "dcm"))
        .unwrap();
    let o = dicom_object::open_file(&file).unwrap();
    o.element(tags::STUDY_INSTANCE_UID)
        .unwrap()
        .to_str()
        .unwrap()
        .trim_end_matches('\0')
        .to_string()
}

/// dcmtk's reading of the same SR: parses without error; the probability of each measurement
/// group (the NUM without a Derivation) equals slices.csv to DS precision.
pub fn check_with_dsrdump(dsrdump: &Path, sr_file: &Path, report: &Path) {
    let o = Command::new(dsrdump).arg(sr_file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "dsrdump failed:\n{out}\n{err}");
    // dcmtk's log lines start with "E: " (error) and "W: " (warning)
    let errors: Vec<&str> = err
        .lines()
        .chain(out.lines())
        .filter(|l| l.starts_with("E: "))
        .collect();
    assert!(errors.is_empty(), "dsrdump errors: {errors:#?}");
    assert!(out.starts_with("Comprehensive 3D SR Document"), "{out}");
    // per group: the first "Probability of intracranial hemorrhage" NUM is the probability
    let mut probs = Vec::new();
    let mut want_next = false;
    for line in out.lines() {
        if line.contains("\"Tracking Identifier\")=") {
            want_next = true;
        } else if want_next
            && line.contains("NUM:(,,\"Probability of intracranial hemorrhage\")=\"")
        {
            let v = line.split("=\"").nth(1).unwrap().split('"').next().unwrap();
            probs.push(f(v));
            want_next = false;
        }
    }
    let slices = csv_rows(&report.join("slices.csv"));
    let scans = csv_rows(&report.join("scans.csv"));
    assert_eq!(probs.len(), slices.len() + 1, "{out}");
    assert!((probs[0] - f(&scans[0]["probability"])).abs() < 1e-12);
    for (p, row) in probs[1..].iter().zip(&slices) {
        assert!((p - f(&row["probability"])).abs() < 1e-12, "{p} vs {row:?}");
    }
}

/// dcmtk's reading of an SR with subtype findings: in each measurement group (the scan's, then
/// each slice's), every subtype's probability, sd and 90 % interval equal the CSV row's to DS
/// precision, and its call (Present / Absent / Indeterminate) is the row's flags.
pub fn check_subtypes_with_dsrdump(
    dsrdump: &Path,
    sr_file: &Path,
    names: &[&str],
    scan_row: &HashMap<String, String>,
    slice_rows: &[&HashMap<String, String>],
) {
    let o = Command::new(dsrdump).arg(sr_file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "dsrdump failed:\n{out}");
    // per group, per subtype: the NUM values in order (probability, sd, 5th, 95th) and the call
    type Group = HashMap<String, (Vec<f64>, String)>;
    let mut groups: Vec<Group> = Vec::new();
    let value = |line: &str| -> String { line.split(")=").nth(1).unwrap_or("").to_string() };
    for line in out.lines() {
        if line.contains("\"Tracking Identifier\")=") {
            groups.push(Group::new());
            continue;
        }
        let Some(g) = groups.last_mut() else {
            continue;
        };
        for name in names {
            let codes = pacs::sr::subtype_codes(name).unwrap();
            let e = g.entry(name.to_string()).or_default();
            let nums = [codes.probability.2, codes.p05.2, codes.p95.2];
            // the probability and its sd share the first name; the percentiles follow
            if nums
                .iter()
                .any(|m| line.contains(&format!("NUM:(,,\"{m}\")=\"")))
            {
                let v = value(line);
                e.0.push(
                    v.trim_start_matches('"')
                        .split('"')
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap(),
                );
            } else if line.contains(&format!("CODE:(,,\"{}\")=", codes.finding.2)) {
                e.1 = value(line);
            }
        }
    }
    assert_eq!(groups.len(), slice_rows.len() + 1, "{out}");
    let f = |v: &str| -> f64 { v.parse().unwrap() };
    for (g, row) in groups
        .iter()
        .zip(std::iter::once(scan_row).chain(slice_rows.iter().copied()))
    {
        for name in names {
            let (nums, call) = &g[*name];
            let want: Vec<f64> = ["probability", "sd", "lo", "hi"]
                .iter()
                .map(|c| f(&row[&format!("{name}_{c}")]))
                .collect();
            assert_eq!(nums.len(), 4, "{name}: {nums:?}\n{out}");
            for (a, b) in nums.iter().zip(&want) {
                assert!((a - b).abs() < 1e-12, "{name}: {nums:?} vs {want:?}");
            }
            let expect = match (
                row[&format!("{name}_positive")].as_str(),
                row[&format!("{name}_uncertain")].as_str(),
            ) {
                (_, "1") => "Indeterminate",
                ("1", _) => "Present",
                _ => "Absent",
            };
            assert!(
                call.contains(&format!("\"{expect}\"")),
                "{name}: {call} vs {expect}"
            );
        }
    }
}

/// Orthanc with its DICOMweb plugin: the binary, or None (the test is skipped; never under CI).
pub fn orthanc_with_dicomweb() -> Option<PathBuf> {
    let bin = need("Orthanc")?;
    if !Path::new(DICOMWEB_PLUGIN).is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: orthanc-dicomweb is not installed"
        );
        eprintln!("skipped: orthanc-dicomweb is not installed");
        return None;
    }
    Some(bin)
}
