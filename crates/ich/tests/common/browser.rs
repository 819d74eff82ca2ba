//! The report's pages in a real browser: headless Chromium, driven by
//! `scripts/ci/browser-check.py` over the DevTools protocol, opens the index and a scan page of an
//! `ich predict` report. What a reader sees must agree with the CSV files: each scan's and each
//! slice's call (its words, its colour, its frame), the legend that says what the calls and the
//! interval mean, every image decoded, and a click on a tile showing that slice enlarged in the
//! brain and subdural windows.
//!
//! Needs `chromium` (scripts/setup-system.sh --pacs installs it): skipped with a message where
//! it is missing, a failure under CI.

use super::csv_rows;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("chromium is missing and CI is set: bash scripts/setup-system.sh --pacs");
        }
        eprintln!("SKIPPED: no chromium (apt-get install chromium)");
    }
    found
}

/// What the browser saw on `page` (scripts/ci/browser-check.py's JSON).
fn seen(page: &Path, browser: &Path, shot: &Path) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/ci/browser-check.py");
    let o = Command::new("python3")
        .arg(&script)
        .arg(page)
        .arg("--chromium")
        .arg(browser)
        .arg("--screenshot")
        .arg(shot)
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "{}: {}",
        page.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn f(v: &str) -> f64 {
    v.parse().unwrap()
}

/// The call the rule gives (docs/REPORT.md): unsure when the 90 % interval reaches across the
/// threshold, the sd is at least 0.1 or the scan is out of distribution; else likely bleed at or
/// above the threshold, unlikely below.
fn call(p: f64, lo: f64, hi: f64, sd: f64, ood: bool, t: f64) -> &'static str {
    if (lo < t && t <= hi) || sd >= 0.1 || ood {
        "unsure"
    } else if p >= t {
        "likely bleed"
    } else {
        "unlikely"
    }
}

/// Checks the pages of the report in `rep` (predicted from DICOM whose slices are `source`
/// pixels a side, at threshold `thr` and `--uncertain-sd` 0.1) in a browser; screenshots go to
/// `shots`. `labelled`: the number of labelled scans when fewer than 20 (the index says the
/// metrics rest on few), else `None`. Every call the CSVs hold must appear on the pages as they
/// hold it; `all_calls`: the slices must hold all three.
pub fn check_report(
    rep: &Path,
    shots: &Path,
    source: u64,
    thr: f64,
    labelled: Option<usize>,
    all_calls: bool,
) {
    let Some(browser) = chromium() else {
        return;
    };
    let scans = csv_rows(&rep.join("scans.csv"));
    let slices = csv_rows(&rep.join("slices.csv"));
    let ood: HashMap<String, bool> = scans
        .iter()
        .map(|r| (r["scan_id"].clone(), r["out_of_distribution"] == "1"))
        .collect();
    // the CSV's calls are the rule's
    let mut calls = HashMap::new();
    for r in &slices {
        let c = call(
            f(&r["probability"]),
            f(&r["lo"]),
            f(&r["hi"]),
            f(&r["sd"]),
            ood[&r["scan_id"]],
            thr,
        );
        assert_eq!(r["call"], c, "{r:?}");
        *calls.entry(c).or_insert(0usize) += 1;
    }
    if all_calls {
        assert_eq!(calls.len(), 3, "the slices' calls: {calls:?}");
    }

    // the index: each scan's call as the CSV has it, coloured by it, and the legend
    let index = seen(&rep.join("index.html"), &browser, &shots.join("index.png"));
    assert_eq!(index["scripts"], 0);
    let text = index["text"].as_str().unwrap();
    for words in [
        &format!(
            "likely bleed when the probability is at least {thr:.2} and the model is sure of it"
        ) as &str,
        "unsure when its 90 % interval reaches across the threshold",
        "unlikely otherwise",
        "The interval [lo–hi] is the range the model itself is 90 % sure the probability lies in",
    ] {
        assert!(text.contains(words), "index lacks {words:?}:\n{text}");
    }
    // metrics on few scans are marked as such
    if let Some(n) = labelled {
        let words = format!("Only {n} labelled scans");
        assert!(text.contains(&words), "index lacks {words:?}");
    }
    let rows = index["rows"].as_array().unwrap();
    let header = rows
        .iter()
        .position(|r| r.as_array().unwrap().iter().any(|c| c == "call"))
        .expect("the scans' table");
    let col = rows[header]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c == "call")
        .unwrap();
    // the first cell starts with the scan's id (its series follows on other lines); the call
    // cell with the call (a warning mark may follow)
    let shown: HashMap<&str, &str> = rows[header + 1..]
        .iter()
        .map(|r| {
            let r = r.as_array().unwrap();
            let first = r[0].as_str().unwrap().lines().next().unwrap();
            (first.trim(), r[col].as_str().unwrap())
        })
        .collect();
    assert_eq!(shown.len(), scans.len());
    for r in &scans {
        let cell = shown[r["scan_id"].as_str()];
        assert!(
            cell.starts_with(r["call"].as_str()),
            "scan {}: {cell:?} vs {}",
            r["scan_id"],
            r["call"]
        );
    }
    // every call drawn in its colour: red for a likely bleed (a subtype's: "likely"), orange
    // for unsure
    for c in index["calls"].as_array().unwrap() {
        let (words, colour) = (c["text"].as_str().unwrap(), &c["color"]);
        match c["cls"].as_str().unwrap() {
            "pos" => {
                assert!(words.starts_with("likely"), "{words}");
                assert_eq!(colour, "rgb(187, 0, 0)");
            }
            // "unsure", or a scan's warnings ("1 warning")
            "unc" => {
                assert!(words == "unsure" || words.contains("warning"), "{words}");
                assert_eq!(colour, "rgb(170, 102, 0)");
            }
            other => panic!("{other}"),
        }
    }

    // the scan page whose slices take the most calls
    let scan = scans
        .iter()
        .max_by_key(|r| {
            let mut c: Vec<&str> = slices
                .iter()
                .filter(|x| x["scan_id"] == r["scan_id"])
                .map(|x| x["call"].as_str())
                .collect();
            c.sort();
            c.dedup();
            c.len()
        })
        .unwrap();
    let id = &scan["scan_id"];
    let mine: Vec<&HashMap<String, String>> =
        slices.iter().filter(|x| &x["scan_id"] == id).collect();
    let page = seen(
        &rep.join(format!("scans/{id}.html")),
        &browser,
        &shots.join("scan.png"),
    );
    let n = mine.len();
    assert_eq!(page["scripts"], 0);
    // a tile a slice and both windows enlarged, every one decoded by the browser
    assert_eq!(page["images"], 3 * n);
    assert_eq!(page["broken"], 0);
    let text = page["text"].as_str().unwrap();
    for words in [
        "Red frame: likely bleed",
        "dashed orange outline: unsure",
        "no frame: unlikely",
        "The interval is the range the model itself is 90 % sure the probability lies in",
        "Thumbnails of the scan's own slices",
    ] {
        assert!(text.contains(words), "scan page lacks {words:?}");
    }
    let tiles = page["tiles"].as_array().unwrap();
    assert_eq!(tiles.len(), n);
    for (tile, sl) in tiles.iter().zip(&mine) {
        let (border, outline) = (&tile["border"], tile["outline"].as_str().unwrap());
        match sl["call"].as_str() {
            "likely bleed" => assert!(border == "rgb(238, 0, 0)" && outline == "none"),
            "unsure" => assert!(outline == "dashed" && tile["outline_color"] == "rgb(255, 153, 0)"),
            _ => assert!(border == "rgb(17, 17, 17)" && outline == "none"),
        }
        // the source's slice (not the network's input), shown at least 128 wide
        assert_eq!(tile["natural"], serde_json::json!([source, source]));
        assert!(tile["img_width"].as_f64().unwrap() >= 128.0);
        // the fragment is the slice's index; the number a person reads counts from 1, as the
        // SR and the captures count
        let i: u64 = sl["slice_index"].parse().unwrap();
        assert_eq!(tile["href"], format!("#z{i}"));
        let k = i + 1;
        assert!(
            tile["text"]
                .as_str()
                .unwrap()
                .starts_with(&format!("#{k} ")),
            "{}",
            tile["text"]
        );
    }
    // the enlarged slices are hidden until a tile is clicked; then the first one shows, whole
    assert_eq!(page["zooms"], n);
    assert_eq!(page["zooms_hidden_before_click"], n);
    let z = &page["zoom"];
    assert_eq!(z["id"], format!("z{}", mine[0]["slice_index"]));
    assert_eq!(z["display"], "block");
    assert_eq!(
        (z["images"].as_u64(), z["loaded"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        z["natural"],
        serde_json::json!([[source, source], [source, source]])
    );
    // a small source enlarged by a whole factor to reach 512
    let side = ((512 / source).max(1) * source) as f64;
    let shown: Vec<Vec<f64>> = serde_json::from_value(z["shown"].clone()).unwrap();
    assert_eq!(shown, vec![vec![side, side], vec![side, side]]);
    assert_eq!(
        z["captions"],
        serde_json::json!(["brain W80 L40", "subdural W200 L80"])
    );
    assert!(z["text"].as_str().unwrap().contains(&mine[0]["call"]));
}
