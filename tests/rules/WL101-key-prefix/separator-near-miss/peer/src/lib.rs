const PREFIX: &str = "emq::";

pub fn state(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("{PREFIX}{{{q}}}:job:{id}")).arg("state").query(con)
}

pub fn attempts(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("emq.{{{q}}}:job:{id}")).arg("attempts").query(con)
}

pub fn payload(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<String> {
    redis::cmd("HGET").arg(format!("emq:{{{q}}}:job:{id}")).arg("payload").query(con)
}
