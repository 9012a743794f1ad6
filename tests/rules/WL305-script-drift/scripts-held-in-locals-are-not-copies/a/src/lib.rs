pub fn touch(con: &mut redis::Connection, key: &str) -> redis::RedisResult<i64> {
    let script = redis::Script::new(r"return redis.call('INCR', KEYS[1])");
    script.key(key).invoke(con)
}
