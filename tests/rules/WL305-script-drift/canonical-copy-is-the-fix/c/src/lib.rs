const TOUCH: &str = "redis.call('HSET', KEYS[1], 'seen', ARGV[2])\nreturn \"ok\"\n";

pub fn touch(con: &mut redis::Connection, id: &str, t: u64) -> redis::RedisResult<i64> {
    redis::Script::new(TOUCH).key(format!("tq:task:{id}")).arg(t).invoke(con)
}
