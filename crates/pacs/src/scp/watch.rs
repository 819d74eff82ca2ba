//! The connections with their deadlines (no trickle of bytes renews one) and the tickets that
//! count associations and pending connections.

use super::*;

/// The SCP's connections with their deadlines: what the accept loop checks between accepts
/// (every 20 ms at most) and closes when a deadline has passed.
#[derive(Default)]
pub(super) struct Watch {
    pub(super) conns: Mutex<HashMap<u64, Watched>>,
    pub(super) next: AtomicU64,
    pub(super) associated: AtomicUsize,
}

pub(super) struct Watched {
    /// A handle on the connection's socket, to shut it down (the thread's reads then end).
    pub(super) stream: TcpStream,
    pub(super) peer: SocketAddr,
    pub(super) accepted: Instant,
    /// What is awaited, and until when.
    pub(super) deadline: Option<(&'static str, Duration, Instant)>,
    /// Not yet associated (and not yet closed by us).
    pub(super) pending: bool,
}

impl Watch {
    pub(super) fn register(
        self: &Arc<Self>,
        stream: &TcpStream,
        peer: SocketAddr,
        within: Duration,
    ) -> std::io::Result<Arc<Ticket>> {
        let handle = stream.try_clone()?;
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let now = Instant::now();
        lock(&self.conns).insert(
            id,
            Watched {
                stream: handle,
                peer,
                accepted: now,
                deadline: Some(("the association request", within, now + within)),
                pending: true,
            },
        );
        Ok(Arc::new(Ticket {
            id,
            peer,
            watch: self.clone(),
            associated: AtomicBool::new(false),
        }))
    }

    pub(super) fn pending(&self) -> usize {
        lock(&self.conns).values().filter(|c| c.pending).count()
    }

    /// Closes the connection that has waited longest for its association request.
    pub(super) fn evict_oldest_pending(&self) -> Option<SocketAddr> {
        let mut conns = lock(&self.conns);
        let c = conns
            .values_mut()
            .filter(|c| c.pending)
            .min_by_key(|c| c.accepted)?;
        c.pending = false;
        c.deadline = None;
        let _ = c.stream.shutdown(std::net::Shutdown::Both);
        Some(c.peer)
    }

    /// Closes every connection whose deadline has passed.
    pub(super) fn expire(&self) {
        let now = Instant::now();
        let mut conns = lock(&self.conns);
        for c in conns.values_mut() {
            if let Some((what, within, at)) = c.deadline {
                if now >= at {
                    tracing::warn!(
                        "DICOM: {} closed: {what} did not arrive whole within {} s",
                        c.peer,
                        within.as_secs_f64()
                    );
                    c.deadline = None;
                    c.pending = false;
                    let _ = c.stream.shutdown(std::net::Shutdown::Both);
                }
            }
        }
    }
}

/// One connection's entry in the [`Watch`]: sets its deadlines, holds its association place,
/// and removes it (giving the place back) when dropped.
pub(super) struct Ticket {
    pub(super) id: u64,
    pub(super) peer: SocketAddr,
    pub(super) watch: Arc<Watch>,
    pub(super) associated: AtomicBool,
}

impl Ticket {
    /// `what` must be done within `within` from now, or the connection is closed.
    pub(super) fn until(&self, what: &'static str, within: Duration) {
        if let Some(c) = lock(&self.watch.conns).get_mut(&self.id) {
            c.deadline = Some((what, within, Instant::now() + within));
        }
    }

    /// No deadline while we work (our own writes to disk are not the peer's delay).
    pub(super) fn clear(&self) {
        if let Some(c) = lock(&self.watch.conns).get_mut(&self.id) {
            c.deadline = None;
        }
    }

    /// Takes an association place if one of `max` is free.
    pub(super) fn associate(&self, max: usize) -> bool {
        let taken = self
            .watch
            .associated
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .is_ok();
        if taken {
            self.associated.store(true, Ordering::SeqCst);
            if let Some(c) = lock(&self.watch.conns).get_mut(&self.id) {
                c.pending = false;
            }
        }
        taken
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        lock(&self.watch.conns).remove(&self.id);
        if self.associated.load(Ordering::SeqCst) {
            self.watch.associated.fetch_sub(1, Ordering::SeqCst);
        }
    }
}
