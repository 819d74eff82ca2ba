//! `ich serve`: a DICOM node of the PACS ([`detect::node::serve`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::cli::range;
use detect::node::serve::{Node, PollOptions, ServeOptions};
use pacs::scp::{Allow, ScpOptions};

/// Run as a DICOM node: receive CT studies by C-STORE into a spool, predict each study once it
/// has settled, and send its Structured Report and Secondary Captures to the PACS. The spool is
/// the queue: after a restart (even `kill -9`) every study is predicted and sent. No TLS: put a
/// TLS proxy in front where the network needs it. Stops on SIGINT or SIGTERM.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model bundle: a folder (a site's, from `ich adapt`), or the name of one built into ich
    /// (`ich models`).
    #[arg(long)]
    model: PathBuf,
    /// The spool: received instances, reports, results and each study's state.
    #[arg(long)]
    spool: PathBuf,
    /// Our AE title (the called AE title must match it).
    #[arg(long, default_value = "ICH", value_parser = crate::cli::pipeline::send::ae_title)]
    ae: String,
    /// DICOM port [1..=65535].
    #[arg(long, default_value_t = 11112, value_parser = |s: &str| range::int_in(s, 1, 65535))]
    port: usize,
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    host: String,
    /// Who may store here: `AE@host` (AE or host may be `*`), comma-separated or repeated;
    /// without it anyone may.
    #[arg(long, value_delimiter = ',', value_parser = |s: &str| Allow::parse(s).map_err(|e| e.to_string()))]
    allow: Vec<Allow>,
    /// Predict a study once it has had no new instance for this many seconds and no open
    /// association is still sending it [1..=86400].
    #[arg(long, default_value_t = 10, value_parser = |s: &str| range::int_in(s, 1, 86_400))]
    settle: usize,
    /// Studies predicted at once (each worker holds a copy of the model) [1..=64].
    #[arg(long, default_value_t = 1, value_parser = |s: &str| range::int_in(s, 1, 64))]
    workers: usize,
    /// Studies waiting for prediction at most; instances of further studies are refused
    /// (C-STORE status A700H) [1..=100000].
    #[arg(long, default_value_t = 200, value_parser = |s: &str| range::int_in(s, 1, 100_000))]
    max_queue: usize,
    /// The spool's size at most, MiB: every byte on disk counts (instances, files being
    /// received or retrieved, results); an instance that would go beyond is refused (A700H)
    /// [1..=67108864].
    #[arg(long, default_value_t = 51_200, value_parser = |s: &str| range::int_in(s, 1, 1 << 26))]
    max_spool_mib: usize,
    /// Remove studies sent or skipped this many days ago from the spool [0..=3650].
    #[arg(long, default_value_t = 7, value_parser = |s: &str| range::int_in(s, 0, 3650))]
    keep_days: usize,
    /// Try a failed send again after this many seconds [1..=86400].
    #[arg(long, default_value_t = 60, value_parser = |s: &str| range::int_in(s, 1, 86_400))]
    resend_after: usize,
    /// Serve the status as JSON over HTTP here, e.g. 127.0.0.1:8080 (queue, last studies, errors).
    #[arg(long)]
    status: Option<String>,
    /// Also fetch CT studies from this DICOMweb root (QIDO-RS, then WADO-RS), for a PACS that
    /// cannot push; credentials as for `ich predict --dicomweb`.
    #[arg(long, requires = "poll", value_parser = crate::cli::pipeline::send::service)]
    dicomweb: Option<pacs::web::Service>,
    /// Seconds between two DICOMweb polls [1..=86400].
    #[arg(long, requires = "dicomweb", value_parser = |s: &str| range::int_in(s, 1, 86_400))]
    poll: Option<usize>,
    /// The first poll looks at studies of this date or later (YYYYMMDD; default yesterday;
    /// `any`: every CT study, also those without a StudyDate); later polls at yesterday's and
    /// today's.
    #[arg(long, requires = "poll", value_parser = poll_since)]
    poll_since: Option<String>,
    /// No HTML pages in the spool (CSV, JSON and DICOM only).
    #[arg(long)]
    no_html: bool,
    #[command(flatten)]
    predict: crate::cli::pipeline::predict::PredictFlags,
    #[command(flatten)]
    pacs: crate::cli::pipeline::send::ResultArgs,
}

fn poll_since(s: &str) -> Result<String, String> {
    match s {
        "any" => Ok(String::new()),
        d if d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()) => Ok(d.to_string()),
        _ => Err(format!("{s:?} is not a date YYYYMMDD (or any)")),
    }
}

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let opts = ServeOptions {
        model: detect::bundle::builtin::resolve(&a.model)?,
        spool: a.spool.clone(),
        listen: format!("{}:{}", a.host, a.port),
        scp: ScpOptions {
            ae_title: a.ae.clone(),
            allow: a.allow.clone(),
            max_instance_bytes: (a.predict.limits.limits().max_file_bytes).min(1 << 30),
            ..ScpOptions::default()
        },
        send: a.pacs.send.clone(),
        send_options: a.pacs.send_args.options(),
        settle: Duration::from_secs(a.settle as u64),
        workers: a.workers,
        max_queue: a.max_queue,
        max_spool_bytes: (a.max_spool_mib as u64) << 20,
        keep: Duration::from_secs(a.keep_days as u64 * 86_400),
        resend_after: Duration::from_secs(a.resend_after as u64),
        status: a.status.clone(),
        predict: a.predict.options(),
        dicom: a.pacs.dicom_options(),
        html: !a.no_html,
        poll: a
            .dicomweb
            .clone()
            .zip(a.poll)
            .map(|(service, secs)| PollOptions {
                service,
                every: Duration::from_secs(secs as u64),
                since: a.poll_since.clone(),
                // at most half the spool: a poll always fits an empty one
                max_study_bytes: (4u64 << 30).min(((a.max_spool_mib as u64) << 20) / 2),
                timeout: a.pacs.send_args.options().timeout,
            }),
    };
    // SAFETY: the handler only stores into an atomic; installed before any worker thread exists
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
    let node = Node::start(opts)?;
    outln!(
        "ich serve: {} at {} (status: {}); spool {}",
        a.ae,
        node.dicom_addr(),
        node.status_addr
            .map_or_else(|| "off".to_string(), |s| format!("http://{s}/")),
        a.spool.display()
    );
    while !STOP.load(Ordering::SeqCst) && node.lost().is_none() {
        std::thread::sleep(Duration::from_millis(200));
    }
    if let Some(why) = node.lost() {
        node.stop();
        anyhow::bail!("{why}");
    }
    tracing::info!("stopping: the work under way finishes first");
    node.stop();
    Ok(ExitCode::SUCCESS)
}
