//! The PACS flags of `ich predict` and the `ich send` command.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use detect::pipeline::predict::PacsJob;
use detect::report::dicomout::send_folders;
use detect::report::dicomout::{DicomOptions, Pull};
use pacs::uid::UidRoot;
use pacs::web::Service;
use pacs::{Destination, SendOptions};

use crate::cli::range;

/// A destination: `AE_TITLE@host:port` (C-STORE) or `http://host:port/dicom-web` (STOW-RS).
fn destination(s: &str) -> Result<Destination, String> {
    Destination::parse(s).map_err(|e| e.to_string())
}

pub fn ae_title(s: &str) -> Result<String, String> {
    pacs::store::check_ae_title(s)
        .map(|()| s.to_string())
        .map_err(|e| e.to_string())
}

fn uid_root(s: &str) -> Result<UidRoot, String> {
    if s == "2.25" {
        Ok(UidRoot::Uuid)
    } else {
        UidRoot::org(s).map_err(|e| e.to_string())
    }
}

pub fn service(s: &str) -> Result<Service, String> {
    Service::parse(s).map_err(|e| e.to_string())
}

fn study_uid(s: &str) -> Result<String, String> {
    if pacs::uid::is_valid(s) {
        Ok(s.to_string())
    } else {
        Err(format!("{s:?} is not a UID"))
    }
}

/// How to send (shared by `ich predict --send` and `ich send`).
#[derive(clap::Args, Debug)]
pub struct SendArgs {
    /// Our AE title in C-STORE associations.
    #[arg(hide_short_help = true, long, default_value = "ICH", value_parser = ae_title)]
    calling_ae: String,
    /// Further tries after a failed send, only of what was not stored [0..=10]; waits 1 s, 2 s,
    /// 4 s, … between them.
    #[arg(hide_short_help = true, long, default_value_t = 3, value_parser = |s: &str| range::int_in(s, 0, 10))]
    send_retries: usize,
    /// Network timeout, seconds [1..=3600]: connecting, and the window over which a DICOMweb
    /// exchange must move at least 64 KiB/s (a slower server is dropped).
    #[arg(hide_short_help = true, long, default_value_t = 30, value_parser = |s: &str| range::int_in(s, 1, 3600))]
    send_timeout: usize,
}

impl SendArgs {
    pub fn options(&self) -> SendOptions {
        SendOptions {
            calling_ae: self.calling_ae.clone(),
            retries: self.send_retries as u32,
            backoff: Duration::from_secs(1),
            timeout: Duration::from_secs(self.send_timeout as u64),
        }
    }
}

/// The DICOM results and where they go (`ich predict` and `ich serve`).
#[derive(clap::Args, Debug)]
pub struct ResultArgs {
    /// Root of the new UIDs: `2.25` (UUID-derived, the default) or your organisation's root
    /// (at most 43 characters).
    #[arg(hide_short_help = true, long, default_value = "2.25", value_parser = uid_root)]
    uid_root: UidRoot,
    /// Secondary Captures per scan at most [0..=10000]: the flagged slices with the highest
    /// probabilities (positive ones first); the SR lists every slice whatever this says.
    #[arg(hide_short_help = true, long, default_value_t = 20, value_parser = |s: &str| range::int_in(s, 0, 10_000))]
    max_captures: usize,
    /// Send the DICOM results to `AE_TITLE@host:port` (C-STORE) or `http://host:port/dicom-web`
    /// (STOW-RS; credentials as for `--dicomweb`). Repeatable. What cannot be sent stays in
    /// OUT/dicom (`ich send` sends it later).
    #[arg(long = "send", value_parser = destination)]
    pub send: Vec<Destination>,
    #[command(flatten)]
    pub send_args: SendArgs,
}

impl ResultArgs {
    pub fn dicom_options(&self) -> DicomOptions {
        DicomOptions {
            uid_root: self.uid_root.clone(),
            max_captures: self.max_captures,
            supersede: Vec::new(),
        }
    }
}

/// The PACS flags of `ich predict`.
#[derive(clap::Args, Debug)]
pub struct PredictPacsArgs {
    /// Write no DICOM results (by default every scan predicted from DICOM gets a Structured
    /// Report and Secondary Captures of its flagged slices in OUT/dicom/<scan id>/).
    #[arg(long)]
    no_dicom: bool,
    #[command(flatten)]
    results: ResultArgs,
    /// Predict this study (StudyInstanceUID), retrieved by WADO-RS from `--dicomweb`.
    #[arg(hide_short_help = true, long, requires = "dicomweb", value_parser = study_uid)]
    pub study: Option<String>,
    /// DICOMweb root to retrieve `--study` from, e.g. `http://pacs:8042/dicom-web`. HTTP basic
    /// authentication from ICH_DICOMWEB_USER and ICH_DICOMWEB_PASSWORD (or user:password@ in the
    /// URL).
    #[arg(hide_short_help = true, long, requires = "study", value_parser = service)]
    dicomweb: Option<Service>,
    /// Refuse a retrieved study larger than this, MiB [1..=65536].
    #[arg(hide_short_help = true, long, default_value_t = 4096, value_parser = |s: &str| range::int_in(s, 1, 65536))]
    max_study_mib: usize,
    /// `NAME=DIR`: the DICOM series a NIfTI file was converted from (NAME as the file is known:
    /// its path under its input). Its SR and Secondary Captures are then written against the
    /// series in DIR whose slices lie where the NIfTI's do (same count, size and positions
    /// within 1 mm); without it a NIfTI scan gets none. Repeatable.
    #[arg(hide_short_help = true, long = "nifti-dicom", value_parser = nifti_dicom)]
    pub nifti_dicom: Vec<(String, PathBuf)>,
}

fn nifti_dicom(s: &str) -> Result<(String, PathBuf), String> {
    match s.rsplit_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() => {
            Ok((name.to_string(), PathBuf::from(dir)))
        }
        _ => Err(format!(
            "'{s}' is not NAME=DIR (e.g. sub-01/ct.nii.gz=/dicom/sub-01)"
        )),
    }
}

impl PredictPacsArgs {
    pub fn job(&self) -> anyhow::Result<PacsJob> {
        let r = &self.results;
        if self.no_dicom && !r.send.is_empty() {
            anyhow::bail!("--send needs the DICOM results that --no-dicom turns off");
        }
        let opts = r.send_args.options();
        Ok(PacsJob {
            dicom: (!self.no_dicom).then(|| r.dicom_options()),
            send: r.send.clone(),
            pull: match (&self.study, &self.dicomweb) {
                (Some(study), Some(svc)) => Some(Pull {
                    service: svc.clone(),
                    study_uid: study.clone(),
                    max_bytes: self.max_study_mib as u64 * 1024 * 1024,
                    timeout: opts.timeout,
                }),
                _ => None,
            },
            send_options: opts,
            volume_dicom: self.nifti_dicom.clone(),
        })
    }
}

/// Send DICOM files (e.g. `ich predict`'s OUT/dicom) to a PACS by C-STORE or STOW-RS, with
/// bounded retries.
#[derive(clap::Args, Debug)]
pub struct SendCmd {
    /// `.dcm` files or folders (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// `AE_TITLE@host:port` (C-STORE) or `http://host:port/dicom-web` (STOW-RS). Repeatable.
    #[arg(long = "to", required = true, value_parser = destination)]
    to: Vec<Destination>,
    #[command(flatten)]
    send_args: SendArgs,
}

pub fn send(a: SendCmd, bars: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    let sent = send_folders(&a.paths, &a.to, &a.send_args.options(), bars)?;
    let hint = format!(
        "ich send {} --to …",
        a.paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let v = crate::summary::sent(&sent, &hint);
    v.print();
    Ok(ExitCode::from(v.code))
}
