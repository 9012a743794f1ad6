const TOUCH: &str = r#"-- wirelint: allow(WL301) the key is built by the caller
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return 1
"#;

pub fn touch(con: &mut redis::Connection, id: &str, t: u64) -> redis::RedisResult<i64> {
    redis::Script::new(TOUCH).key(format!("tq:task:{id}")).arg(t).invoke(con)
}
