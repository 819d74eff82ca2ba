//! `milbase`: the small pieces every stage of `ich` shares, written once.
//!
//! - [`atomic`]: the one writer: every file through an exclusive, unpredictable temporary renamed
//!   into place, so a reader sees the old or the new content, never half, and no planted link is
//!   written through;
//! - [`lock`]: the one lock on an output folder, judged by `/proc` on its own machine and by a
//!   heartbeat from anywhere else (a cluster's shared storage);
//! - [`bounded`]: read a file only when it is a regular file under a size ceiling;
//! - [`auc`]: ROC AUC (Mann–Whitney, ties count one half);
//! - [`split`]: seeded stratified hold-outs and folds of bags;
//! - [`progress`]: the one progress trait that preprocessing, training and prediction report to;
//! - [`time`]: calendar time in UTC (RFC 3339, DICOM dates).
//!
//! No dependency on DICOM, tensors or linear algebra, so that `preprocess`, `attcnn` and `gphead`
//! can all use it without knowing each other.

pub mod atomic;
pub mod auc;
pub mod bounded;
mod folder;
pub mod lock;
pub mod progress;
pub mod shard;
pub mod split;
pub mod sync;
pub mod time;

pub use atomic::{stays_inside, write_atomic};
pub use auc::roc_auc;
pub use progress::{Progress, Quiet};
pub use shard::Shard;
pub use split::{grouped_stratified_folds, stratified_folds, stratified_holdout, SplitError};
