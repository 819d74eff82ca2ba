//! Evaluation protocol (MODELS.md §7): stratified splits of bags, a hyper-parameter grid chosen on
//! validation bags only, held-out and external test sets.
