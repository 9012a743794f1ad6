use redis::Commands;

pub fn take(con: &mut redis::Connection, name: &str, owner: &str) -> redis::RedisResult<i32> {
    redis::cmd("FCALL").arg("take_lock").arg(1).arg(format!("lock:{name}")).arg(owner).query(con)
}

pub fn holder(con: &mut redis::Connection, name: &str) -> redis::RedisResult<String> {
    con.hget(format!("lock:{name}"), "owner")
}
