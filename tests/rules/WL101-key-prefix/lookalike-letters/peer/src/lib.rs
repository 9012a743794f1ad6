pub fn state(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("emq\u{200b}:{{{q}}}:job:{id}")).arg("state").query(con)
}

pub fn payload(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("emq:{{{q}}}:job:{id}")).arg("payload").query(con)
}
