//! Progress reporting: preprocessing, training and prediction call these; the binary draws bars.

/// A long job reports its stages and how far each has got. Every method does nothing by default.
pub trait Progress: Sync {
    /// A new stage of `len` steps begins.
    fn stage(&self, _name: &str, _len: u64) {}
    /// `n` more steps of the current stage are done.
    fn inc(&self, _n: u64) {}
    /// The current stage is over.
    fn done(&self) {}
}

/// No progress output.
pub struct Quiet;
impl Progress for Quiet {}
