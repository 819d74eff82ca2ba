//! What a new user trips on in the first hour: a folder of pictures is refused in plain words
//! with what to do, and the JPEG 2000 decoder's chatter stays out of the log.

mod common;

use common::{ich, s, text};

#[test]
fn a_folder_of_jpegs_is_refused_in_plain_words_with_what_to_do() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("jpegs");
    std::fs::create_dir_all(&dir).unwrap();
    for k in 0..3 {
        // a JPEG's start-of-image and JFIF marker, then nothing a DICOM reader wants
        std::fs::write(
            dir.join(format!("{k}.jpg")),
            b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9",
        )
        .unwrap();
    }
    let bundle = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/sa-dmil");
    let o = ich(&[
        "predict",
        "--model",
        s(&bundle),
        s(&dir),
        "--out",
        s(&t.path().join("r")),
    ]);
    let msg = text(&o);
    assert_eq!(o.status.code(), Some(1), "{msg}");
    assert!(msg.contains("3 file(s) not DICOM"), "{msg}");
    assert!(
        msg.contains("export the series from the PACS or the scanner as DICOM"),
        "{msg}"
    );
    assert!(!msg.contains("{\""), "no JSON-like text: {msg}");
}

#[test]
fn the_jpeg2000_decoder_does_not_chatter_in_the_log() {
    let Some(d) = preprocess::shared_data_or_skip("dicom") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    // the default log level (info), as a user runs it: not the tests' RUST_LOG=warn
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ich"))
        .env_remove("RUST_LOG")
        .args([
            "preprocess",
            s(&d.join("693_J2KI.dcm")),
            "--out",
            s(&t.path().join("ds")),
            "--size",
            "64",
        ])
        .output()
        .unwrap();
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert!(
        t.path().join("ds/dataset.json").is_file(),
        "the JPEG 2000 slice was decoded"
    );
    assert!(
        !log.contains("Main header has been correctly decoded"),
        "{log}"
    );
}
