pub fn resume(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {
    redis::Script::new(include_str!("../lua/resume-4.lua"))
        .key(format!("q:{{{q}}}:meta"))
        .key(format!("q:{{{q}}}:wait"))
        .arg(id)
        .invoke(con)
}
