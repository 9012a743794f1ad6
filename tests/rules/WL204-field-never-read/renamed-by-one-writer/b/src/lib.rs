pub fn save(con: &mut redis::Connection, q: &str, id: &str, p: &str) -> redis::RedisResult<()> {
    redis::cmd("HSET").arg(format!("tq:{{{q}}}:task:{id}")).arg("state").arg("new").arg("data").arg(p).query(con)
}
