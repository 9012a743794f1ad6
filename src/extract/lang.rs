//! What the rest of wirelint may ask of a host language.

/// What a file that can yield a Redis fact of its own (a command, a script
/// call, a field read after HGETALL) necessarily holds, matched without
/// regard to case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FactNeedles {
    /// Any one of these.
    pub any: Vec<String>,
    /// Or one of these together with one of `guards`: names that are a
    /// Redis call only on a Redis-like receiver (Rust's `.get`, `.set`).
    pub guarded: Vec<String>,
    pub guards: Vec<String>,
}
