//! Hover in `wirelint server` on what a newcomer points at: a key
//! builder's definition (Elixir and Rust) and a call of it, and a field
//! literal a speaker reads: the key's template, and who writes and reads
//! the key's record or the field, with the places.

mod common;

use serde_json::{json, Value};

use common::lsp::{uri, Client};

const TASK_ROW: &str = "**key** `tq:{<*>}:task:<*>`\n\n\
- `(shared scripts)`: unused\n- `tq_admin`: agrees\n- `tq_dash`: agrees\n- `tq_ex`: agrees\n- `tq_rs`: agrees\n\n\
written by: `(shared scripts)` (scripts/claim.lua:7, scripts/claim.lua:8), `tq_admin` (tq_admin/src/main.rs:14), `tq_ex` (tq_ex/lib/tq.ex:10, tq_ex/lib/tq.ex:24), `tq_rs` (tq_rs/src/lib.rs:24)\n\n\
read by: `tq_admin` (tq_admin/src/main.rs:10), `tq_dash` (tq_dash/lib/dash.ex:5), `tq_ex` (tq_ex/lib/tq.ex:16, tq_ex/lib/tq.ex:19), `tq_rs` (tq_rs/src/lib.rs:38)";

#[test]
fn a_hover_on_a_key_builder_or_a_field_says_who_writes_and_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &root);
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let tq = root.join("tq_ex/lib/tq.ex");
    let rs = root.join("tq_rs/src/lib.rs");
    let value = |r: Value| r["result"]["contents"]["value"].clone();

    // The definition of a builder, in Elixir and in Rust.
    assert_eq!(
        value(c.hover(&tq, 3, "task_key")),
        format!("`task_key/2` builds the key `tq:{{<queue>}}:task:<id>`\n\n{TASK_ROW}")
    );
    assert_eq!(
        value(c.hover(&rs, 6, "task_key")),
        format!("`task_key/2` builds the key `tq:{{<queue>}}:task:<id>`\n\n{TASK_ROW}")
    );
    // A call of it: the key's row.
    assert_eq!(value(c.hover(&tq, 9, "task_key")), TASK_ROW);
    // A function that sends keys builds none: no hover on its name.
    assert_eq!(c.hover(&tq, 7, "push")["result"], Value::Null);

    // A field literal the Rust peer only reads: its writer is the script.
    assert_eq!(
        value(c.hover(&rs, 37, "\"pb\"")),
        "**field** `tq:{<*>}:task:<*> pb`\n\n\
         - `(shared scripts)`: agrees\n- `tq_admin`: unused\n- `tq_dash`: agrees\n- `tq_ex`: agrees\n- `tq_rs`: agrees\n\n\
         written by: `(shared scripts)` (scripts/claim.lua:7)\n\n\
         read by: `tq_dash` (tq_dash/lib/dash.ex:5), `tq_ex` (tq_ex/lib/tq.ex:16), `tq_rs` (tq_rs/src/lib.rs:38)"
    );

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}
