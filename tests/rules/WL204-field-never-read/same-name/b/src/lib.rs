pub fn save(con: &mut redis::Connection, q: &str, id: &str, p: &str) -> redis::RedisResult<()> {
    redis::cmd("HSET").arg(format!("tq:{{{q}}}:task:{id}")).arg("state").arg("new").arg("payload").arg(p).query(con)
}
