//! A smoke run finishes one known row, then reads it back.

const FINISH: &str = include_str!("../../scripts/finish.lua");

pub fn finish_first(con: &mut redis::Connection, q: &str) -> redis::RedisResult<()> {
    redis::Script::new(FINISH)
        .key(format!("st:{{{q}}}:row:1"))
        .arg(0)
        .invoke(con)
}

pub fn finished_at(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("st:{{{q}}}:row:{id}")).arg("finished_at").query(con)
}
