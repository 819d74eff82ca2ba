//! Entry points that take any bytes and must never panic, abort or allocate without bound: the
//! bodies of the `cargo fuzz` targets (`fuzz/`) and of the test that replays every input the
//! fuzzers ever found (`tests/fuzz_regressions.rs`). Each puts the bytes where the product
//! reads them from — a file in `scratch`, or a peer on a loopback connection (`association`: a
//! sender to `ich serve`; `dicomweb`: a DICOMweb server) — then runs the product's own reader on
//! them, and, when the reader accepts, what the product does next with what it read.

use std::fs;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use pacs::scp::{Received, Refusal, ScpOptions, StoreSink, CANNOT_UNDERSTAND};

/// Cuts `data` at `0xFF 0xFE` pairs into `n` parts (several files from one input).
pub fn parts(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(n);
    let mut rest = data;
    while out.len() + 1 < n {
        match rest.windows(2).position(|w| w == [0xFF, 0xFE]) {
            Some(i) => {
                out.push(&rest[..i]);
                rest = &rest[i + 2..];
            }
            None => break,
        }
    }
    out.push(rest);
    while out.len() < n {
        out.push(&[]);
    }
    out
}

/// The DICOM reader and decoders: `data` as one file, its header read (grouping) and its pixels
/// decoded to Hounsfield units.
pub fn dicom(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let p = scratch.join("slice.dcm");
    fs::write(&p, data)?;
    let _ = preprocess::read::read_header(&p);
    let _ = preprocess::read::read_hu(&p, true);
    Ok(())
}

/// The dataset reader: `dataset.json`, a scan's JSON (`scans/a.json`) and its pixels
/// (`scans/a.npz`) from the three parts of `data`; every scan the manifest lists is read.
pub fn dataset(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let root = scratch.join("ds");
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("scans"))?;
    let p = parts(data, 3);
    fs::write(root.join("dataset.json"), p[0])?;
    fs::write(root.join("scans/a.json"), p[1])?;
    fs::write(root.join("scans/a.npz"), p[2])?;
    if let Ok(ds) = preprocess::Dataset::open(&root) {
        for e in ds.manifest.scans.iter().take(4) {
            let _ = ds.scan_meta(e);
            let _ = ds.scan_pixels(e);
        }
    }
    Ok(())
}

/// The features reader (features CSV, ich-features, MIL benchmark tables) and the splits reader;
/// an accepted table is standardised, as `fit-gp` does first. The labels reader (scan and slice
/// labels files, RSNA's subtype table) reads the same text.
pub fn features(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let p = scratch.join("features.csv");
    fs::write(&p, data)?;
    if let Ok(d) = detect::features::read(&p) {
        let _ = gphead::Standardizer::fit(&d);
    }
    let _ = detect::features::read_splits(&p);
    let mut labels = preprocess::labels::Labels::default();
    if labels.load(&p).is_ok() {
        let _ = labels.scan("1.2", "1.2.3", &[labels.slice("1.2.3.4").map(|l| l.label)]);
    }
    Ok(())
}

/// The model bundle: `manifest.json`, `config.json` and `gp.json` from the three parts of `data`.
pub fn bundle(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let dir = scratch.join("bundle");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    let p = parts(data, 3);
    fs::write(dir.join("manifest.json"), p[0])?;
    fs::write(dir.join("config.json"), p[1])?;
    fs::write(dir.join("gp.json"), p[2])?;
    let _ = detect::bundle::Bundle::open(&dir);
    Ok(())
}

/// The GP model loader; a model it accepts (D ≤ 64, M ≤ 256) predicts three instances.
pub fn gp_model(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let p = scratch.join("gp.json");
    fs::write(&p, data)?;
    let Ok(m) = gphead::GpModel::load(&p) else {
        return Ok(());
    };
    if m.d == 0 || m.d > 64 || m.m() > 256 {
        return Ok(());
    }
    let n = 3;
    let x: Vec<f64> = (0..n * m.d).map(|i| (i % 7) as f64 - 3.0).collect();
    let names: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    if let Ok(d) =
        gphead::MilData::from_instances(m.d, x, vec!["b".into(); n], vec![1; n], None, names)
    {
        let _ = m.predict(&d, 8, 0);
    }
    Ok(())
}

/// The DICOM upper layer's PDU reader (dicom-ul), strict and lenient, on `data` as a stream of
/// PDUs: what `ich serve` reads from a sender and `ich send` from a PACS.
pub fn pdu(_scratch: &Path, data: &[u8]) -> io::Result<()> {
    for strict in [true, false] {
        let mut rest = data;
        // a PDU is at least its 6-byte header, so the input holds a bounded number of them
        while let Ok(Some(_)) = dicom_ul::read_pdu(&mut rest, 64 * 1024, strict) {}
    }
    Ok(())
}

/// Reads each instance it is given with the header reader `ich serve` uses, then removes it.
struct ReadEach {
    dir: PathBuf,
}

impl StoreSink for ReadEach {
    fn receiving_dir(&self) -> PathBuf {
        self.dir.clone()
    }

    fn store(&self, r: &Received<'_>) -> std::result::Result<(), Refusal> {
        let read = preprocess::read::read_header_within(r.file, &Default::default());
        let _ = fs::remove_file(r.file);
        read.map(|_| ())
            .map_err(|e| Refusal::new(CANNOT_UNDERSTAND, e.problem.to_string()))
    }
}

/// `ich serve`'s Storage SCP on one association whose sender sends `data` (then closes its
/// side): association negotiation, C-ECHO, C-STORE with the instance streamed to a file and read
/// back. What the SCP answers is read and dropped.
pub fn association(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let client = TcpStream::connect(listener.local_addr()?)?;
    let (server, _) = listener.accept()?;
    let input = data.to_vec();
    let sender = std::thread::spawn(move || send_and_drain(client, &input));
    let sink = ReadEach {
        dir: scratch.join("rx"),
    };
    let opts = ScpOptions {
        timeout: Duration::from_secs(5),
        // an input too short to hold the request's AE titles waits this long for the rest
        association_timeout: Duration::from_millis(100),
        ..ScpOptions::default()
    };
    // the server's end is closed when this returns: the sender's threads see it and end
    let _ = pacs::scp::serve_connection(server, &opts, &sink);
    let _ = sender.join();
    Ok(())
}

/// The DICOMweb client against a server that answers every request with `data`: a QIDO-RS
/// search (`ich serve --poll`), a WADO-RS retrieval into files (`predict --pull`) and a STOW-RS
/// store (`ich send`, `predict --send`).
pub fn dicomweb(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    listener.set_nonblocking(true)?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let answer = data.to_vec();
    let server = std::thread::spawn(move || {
        while !stopped.load(Ordering::SeqCst) {
            match listener.accept() {
                Ok((s, _)) => answer_once(s, &answer),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_micros(200))
                }
                Err(_) => break,
            }
        }
    });
    let dir = scratch.join("pulled");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    if let Ok(service) = pacs::web::Service::parse(&format!("http://127.0.0.1:{port}/dicom-web")) {
        let timeout = Duration::from_secs(2);
        let _ = pacs::web::search_studies(&service, "CT", "", 10, timeout);
        let _ = pacs::web::retrieve_study(&service, "1.2.3", 1 << 20, timeout, &dir);
        let _ = pacs::web::stow(&service, &[b"DICM".to_vec()], timeout);
    }
    stop.store(true, Ordering::SeqCst);
    let _ = server.join();
    Ok(())
}

/// The C-STORE client (`ich send`, `predict --send`) sending one small CT slice to a PACS
/// whose every answer is `data` (association answer, C-STORE responses, release).
pub fn store(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let file = scratch.join("send.dcm");
    if !file.is_file() {
        let slice = preprocess::ctwriter::CtSlice {
            rows: 4,
            cols: 4,
            stored: vec![1024; 16],
            ..Default::default()
        };
        fs::write(&file, slice.to_bytes().map_err(io::Error::other)?)?;
    }
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let node = pacs::store::Node::parse(&format!("PACS@{}", listener.local_addr()?))
        .map_err(io::Error::other)?;
    let answer = data.to_vec();
    let pacs = std::thread::spawn(move || {
        if let Ok((s, _)) = listener.accept() {
            send_and_drain(s, &answer);
        }
    });
    let _ = pacs::store::c_store("ICH", &node, &[file], Duration::from_secs(2));
    let _ = pacs.join();
    Ok(())
}

/// One side of a connection driven by the input: sends `data`, closes its sending half, and reads
/// (and drops) what the other side says until that side closes.
fn send_and_drain(s: TcpStream, data: &[u8]) {
    let Ok(mut incoming) = s.try_clone() else {
        return;
    };
    let reader = std::thread::spawn(move || {
        let _ = io::copy(&mut incoming, &mut io::sink());
    });
    let mut s = s;
    let _ = s.write_all(data);
    let _ = s.shutdown(Shutdown::Write);
    let _ = reader.join();
}

/// Reads a request's head (to its empty line, at most 64 KiB), then sends `answer` and closes.
fn answer_once(mut s: TcpStream, answer: &[u8]) {
    let _ = s.set_nonblocking(false);
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let _ = s.write_all(answer);
}

/// A fuzz target's body: a scratch folder and the input.
pub type Target = fn(&Path, &[u8]) -> io::Result<()>;

/// The targets by name, for the replay test.
pub fn by_name(name: &str) -> Option<Target> {
    Some(match name {
        "dicom" => dicom,
        "dataset" => dataset,
        "features" => features,
        "bundle" => bundle,
        "gp_model" => gp_model,
        "pdu" => pdu,
        "association" => association,
        "dicomweb" => dicomweb,
        "store" => store,
        _ => return None,
    })
}
