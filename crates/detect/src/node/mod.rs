//! Room `node`: `ich serve`, the DICOM node a hospital routes its head CTs to ([`serve`]): the
//! association acceptor (C-ECHO, C-STORE), the spool of received studies, the worker that
//! predicts each complete study and sends its results, and the status file.
//!
//! It may use [`crate::pipeline`] (to predict), [`crate::report`] (to write and send the
//! results), [`crate::bundle`] and the shared pieces at the crate's root. It may not use
//! [`crate::site`]: a node reports with the bundle it is given; adapting one is done offline.

pub mod serve;
