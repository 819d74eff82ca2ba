//! A mutex taken whether or not a thread panicked while holding it.

use std::sync::{Mutex, MutexGuard};

/// The guard of `m`, also when a thread panicked while holding it: what it guards (counters, a
/// progress bar, the RNG's turn, a list of what was skipped) stays usable, and one failed task
/// does not take down the others that share it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What `m` held, also when a thread panicked while holding it (as [`lock`]).
pub fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mutex poisoned by a panicking holder is still taken, with what it held.
    #[test]
    fn a_poisoned_mutex_is_still_taken() {
        let m = std::sync::Arc::new(Mutex::new(7));
        let m2 = m.clone();
        let _ = std::thread::spawn(move || {
            let _g = m2.lock().unwrap();
            panic!("holder fails");
        })
        .join();
        assert!(m.is_poisoned());
        assert_eq!(*lock(&m), 7);
        let m = std::sync::Arc::into_inner(m).unwrap();
        assert_eq!(into_inner(m), 7);
    }
}
