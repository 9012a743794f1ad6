pub fn move_job(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {
    redis::Script::new(include_str!("../lua/move-7.lua"))
        .key(format!("q:{{{q}}}:wait"))
        .key(format!("q:{{{q}}}:active"))
        .key(format!("q:{{{q}}}:paused"))
        .key(format!("q:{{{q}}}:events"))
        .key(format!("q:{{{q}}}:delayed"))
        .key(format!("q:{{{q}}}:marker"))
        .arg(id)
        .invoke(con)
}

pub fn paused(con: &mut redis::Connection, q: &str) -> redis::RedisResult<Option<String>> {
    redis::cmd("HGET").arg(format!("q:{{{q}}}:meta")).arg("paused").query(con)
}
