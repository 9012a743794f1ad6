const SAVE: &str = r#"
local function put(key, ...)
  return redis.call('HSET', key, ...)
end
put(KEYS[1], 'state', 'new', 'data', ARGV[1])
"#;

pub fn save(con: &mut redis::Connection, q: &str, id: &str, p: &str) -> redis::RedisResult<()> {
    redis::Script::new(SAVE).key(format!("tq:{{{q}}}:task:{id}")).arg(p).invoke(con)
}
