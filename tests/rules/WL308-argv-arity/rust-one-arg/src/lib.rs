const ENQUEUE: &str = r#"
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
"#;

pub fn enqueue(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {
    redis::Script::new(ENQUEUE)
        .key(format!("emq:{{{q}}}:job:{id}"))
        .key(format!("emq:{{{q}}}:pending"))
        .arg(id)
        .invoke(con)
}
