const STASH: &str = include_str!("../../scripts/stash.lua");

fn row_prefix(q: &str) -> String {
    format!("st:{{{q}}}:item:")
}

pub fn stash(con: &mut redis::Connection, q: &str, id: &str, kind: &str) -> redis::RedisResult<()> {
    let packed = rmp_serde::to_vec(&(row_prefix(q), id, kind)).unwrap();
    redis::Script::new(STASH)
        .key(format!("st:{{{q}}}:queue"))
        .arg(packed)
        .invoke(con)
}

pub fn field(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("{}{}", row_prefix(q), id)).arg("kind").query(con)
}
