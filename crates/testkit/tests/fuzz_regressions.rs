//! Replays every input under `fuzz/regressions/<target>/` — each crash, abort, timeout or memory
//! blow-up the fuzzers or the mutation campaigns ever found (docs/ROBUSTNESS.md) — through the
//! same entry points the fuzz targets call ([`testkit::fuzzing`]). Any panic fails the test, also
//! one the product catches (a decoder's panic is caught and the file refused; libFuzzer counts
//! it as a crash, and so does this replay).
//! An input derived from `../shared/data` (which is never copied here) is stored as
//! `NAME.from-shared.json`: the shared file it starts from and the bytes to set.

use std::fs;
use std::path::Path;

#[test]
fn every_input_the_fuzzers_found_is_handled_without_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let scratch = tempfile::tempdir().unwrap();
    // every panic, caught or not, is recorded by the hook
    let panics = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = panics.clone();
    // (and still printed, so that a failing assertion here says why)
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        seen.lock().unwrap().push(info.to_string());
        default(info);
    }));
    let mut replayed = 0;
    let mut targets: Vec<_> = fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    targets.sort();
    for dir in targets {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let run = testkit::fuzzing::by_name(&name)
            .unwrap_or_else(|| panic!("{}: no fuzz target of that name", dir.display()));
        let mut files: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != ".gitkeep"))
            .collect();
        files.sort();
        for f in files {
            let data = if f.to_string_lossy().ends_with(".from-shared.json") {
                let Some(d) = from_shared(&f) else { continue };
                d
            } else {
                fs::read(&f).unwrap()
            };
            run(scratch.path(), &data).unwrap();
            let caught: Vec<String> = panics.lock().unwrap().drain(..).collect();
            assert!(caught.is_empty(), "{}: {caught:?}", f.display());
            replayed += 1;
        }
    }
    drop(std::panic::take_hook()); // the default hook again
    assert!(
        replayed > 0,
        "no regression inputs under {}",
        root.display()
    );
}

/// The input a `.from-shared.json` describes: `{"base": "dicom/X.dcm", "set": [[offset, byte], …]}`
/// (None without the shared data, outside CI).
fn from_shared(recipe: &Path) -> Option<Vec<u8>> {
    let r: serde_json::Value = serde_json::from_slice(&fs::read(recipe).unwrap()).unwrap();
    let base = testkit::shared_data_or_skip(r["base"].as_str().unwrap())?;
    let mut data = fs::read(base).unwrap();
    for pair in r["set"].as_array().unwrap() {
        let (at, byte) = (pair[0].as_u64().unwrap(), pair[1].as_u64().unwrap());
        data[at as usize] = u8::try_from(byte).unwrap();
    }
    Some(data)
}

#[test]
fn parts_cut_one_input_into_files() {
    use testkit::fuzzing::parts;
    assert_eq!(
        parts(b"a\xff\xfeb\xff\xfec", 3),
        vec![&b"a"[..], b"b", b"c"]
    );
    // missing parts are empty, extra separators stay in the last part
    assert_eq!(parts(b"a", 3), vec![&b"a"[..], b"", b""]);
    assert_eq!(
        parts(b"a\xff\xfeb\xff\xfe", 2),
        vec![&b"a"[..], b"b\xff\xfe"]
    );
}
