const TOUCH: &str = r#"redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return 0
"#;

pub fn touch(con: &mut redis::Connection, id: &str, t: u64) -> redis::RedisResult<i64> {
    redis::Script::new(TOUCH).key(format!("tq:task:{id}")).arg(t).invoke(con)
}
