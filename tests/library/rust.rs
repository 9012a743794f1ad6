// One call per row of the Rust library table (`src/extract/rust/stdlib.rs`):
// a client call whose argument goes through the row, with what the
// extractor reads in a trailing comment (as `tests/client_methods/`).
// Read by the unit tests of `src/extract/clients/tests.rs`; not compiled.

use redis::cmd;

fn functions(con: &mut C) {
    cmd("GET").arg(String::from("emq:a")).query(con)?; // GET emq:a
    cmd("GET").arg(str::to_string("emq:b")).query(con)?; // GET emq:b
    cmd("GET").arg(String::from_str("emq:c")).query(con)?; // GET emq:c
    cmd("GET").arg(Ok("emq:d")).query(con)?; // GET emq:d
    cmd("GET").arg(Some("emq:e")).query(con)?; // GET emq:e
    cmd("GET").arg(Cow::from("emq:f")).query(con)?; // GET emq:f
    cmd("GET").arg(Box::new("emq:g")).query(con)?; // GET emq:g
    cmd("GET").arg(Arc::from("emq:h")).query(con)?; // GET emq:h
    cmd("GET").arg(Arc::new("emq:i")).query(con)?; // GET emq:i
    cmd("GET").arg(Rc::new("emq:j")).query(con)?; // GET emq:j
    cmd("GET").arg(Rc::from("emq:k")).query(con)?; // GET emq:k
    cmd("GET").arg(Mutex::new("emq:l")).query(con)?; // GET emq:l
    cmd("GET").arg(RwLock::new("emq:m")).query(con)?; // GET emq:m
    cmd("GET").arg(LazyLock::new("emq:n")).query(con)?; // GET emq:n
    cmd("GET").arg(LazyCell::new("emq:o")).query(con)?; // GET emq:o
    cmd("GET").arg(Lazy::new("emq:p")).query(con)?; // GET emq:p
    cmd("GET").arg(OnceCell::from("emq:q")).query(con)?; // GET emq:q
    cmd("GET").arg(OnceLock::from("emq:r")).query(con)?; // GET emq:r
    cmd("GET").arg(String::from_utf8("emq:u")).query(con)?; // GET emq:u
    cmd("GET").arg(String::from_utf8_lossy("emq:v")).query(con)?; // GET emq:v
    cmd("GET").arg(std::str::from_utf8("emq:w")).query(con)?; // GET emq:w
    cmd("GET").arg(std::string::String::from("emq:s")).query(con)?; // GET emq:s
    cmd("HSET").arg("emq:t").arg("payload").arg(rmp_serde::to_vec(&("q", 1))).query(con)?; // HSET emq:t payload <list encoded as msgpack>
    cmd("HSET").arg("emq:t").arg("payload").arg(rmp_serde::to_vec_named(&("q", 1))).query(con)?; // HSET emq:t payload <list encoded as msgpack>
    cmd("HSET").arg("emq:t").arg("payload").arg(rmp_serde::encode::to_vec(&("q", 1))).query(con)?; // HSET emq:t payload <list encoded as msgpack>
    cmd("HSET").arg("emq:t").arg("payload").arg(rmp_serde::encode::to_vec_named(&("q", 1))).query(con)?; // HSET emq:t payload <list encoded as msgpack>
    cmd("HSET").arg("emq:t").arg("payload").arg(serde_json::to_string(&("q", 1))).query(con)?; // HSET emq:t payload <list encoded as json>
    cmd("HSET").arg("emq:t").arg("payload").arg(serde_json::to_vec(&("q", 1))).query(con)?; // HSET emq:t payload <list encoded as json>
}

fn methods(con: &mut C) {
    cmd("GET").arg("emq:a".as_str()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".as_ref()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".to_string()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".to_owned()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".into()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".clone()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".as_bytes()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".borrow()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".deref()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".as_deref()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".to_vec()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".into_owned()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".cloned()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".copied()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".into_bytes()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".as_slice()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".ok_or(Error)).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".ok_or_else(|| Error)).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".expect("a key")).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".unwrap()).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".map_err(Error::from)).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".context("a key")).query(con)?; // GET emq:a
    cmd("GET").arg("emq:a".with_context(|| "a key")).query(con)?; // GET emq:a
    cmd("GET").arg(CELL.get_or_init(|| "emq:a")).query(con)?; // GET emq:a
    cmd("GET").arg(CELL.get_or_insert_with(|| "emq:a")).query(con)?; // GET emq:a
    cmd("GET").arg(CELL.call_once_force(|| "emq:a")).query(con)?; // GET emq:a
}
