//! The Elixir Redis clients wirelint reads, as rows of the shared client
//! table (`crate::extract::clients`): Redix, eredis (and eredis_cluster)
//! and Exredis. A row's name is the function as called, module first
//! (`Redix.command`); each takes the connection first and the command (or
//! a list of commands) second, which `commands.rs` reads as a command list.
//!
//! # Adding a function
//!
//! One row: `named("Redix.command")` for a function that sends the
//! command its list names, `batch(..)` for one that sends a list of them;
//! then a line calling it in `tests/client_methods/elixir.ex` with what it
//! yields in a trailing comment.

use crate::extract::clients::{Case, Method, Sends, Table};

/// The Elixir clients' table.
pub(crate) const CLIENTS: Table = Table {
    language: "Elixir",
    clients: "Redix, eredis (and eredis_cluster), Exredis",
    methods: &[METHODS],
    receiver_words: &[],
    case: Case::Exact,
    needles: None,
    cases: "tests/client_methods/elixir.ex",
    twins: &[],
    lua_macros: &[],
};

/// A function that sends the command its list names.
const fn named(clients: &'static str, name: &'static str) -> Method {
    Method::new(clients, name, Sends::Named)
}

/// A function that sends each command of a list of them.
const fn batch(clients: &'static str, name: &'static str) -> Method {
    Method::new(clients, name, Sends::Batch)
}

const REDIX: &str = "Redix";
const EREDIS: &str = "eredis";
const CLUSTER: &str = "eredis_cluster";
const EXREDIS: &str = "Exredis";

/// Every Elixir client function wirelint reads.
pub(super) const METHODS: &[Method] = &[
    named(REDIX, "Redix.command"),
    named(REDIX, "Redix.command!"),
    named(REDIX, "Redix.noreply_command"),
    named(REDIX, "Redix.noreply_command!"),
    batch(REDIX, "Redix.pipeline"),
    batch(REDIX, "Redix.pipeline!"),
    batch(REDIX, "Redix.transaction_pipeline"),
    batch(REDIX, "Redix.transaction_pipeline!"),
    batch(REDIX, "Redix.noreply_pipeline"),
    batch(REDIX, "Redix.noreply_pipeline!"),
    named(EREDIS, ":eredis.q"),
    named(EREDIS, ":eredis.q_noreply"),
    batch(EREDIS, ":eredis.qp"),
    batch(EREDIS, ":eredis.qp_noreply"),
    named(CLUSTER, ":eredis_cluster.q"),
    batch(CLUSTER, ":eredis_cluster.qp"),
    named(EXREDIS, "Exredis.query"),
    batch(EXREDIS, "Exredis.query_pipe"),
];

/// The argument of a Redis client call that holds the command: `Some(1)`
/// for `Redix.command(conn, cmd)`.
pub(super) fn client_command_arg(path: &[String]) -> Option<usize> {
    let [module, function] = path else {
        return None;
    };
    CLIENTS
        .lookup(&format!("{module}.{function}"), 2)
        .map(|_| 1)
}
