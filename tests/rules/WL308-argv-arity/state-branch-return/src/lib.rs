const ENQUEUE: &str = r#"
local rcall = redis.call
if rcall('EXISTS', KEYS[1]) == 1 then
  return 0
end
rcall('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
rcall('ZADD', KEYS[2], 0, ARGV[1])
return 1
"#;

pub fn enqueue(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {
    redis::Script::new(ENQUEUE)
        .key(format!("emq:{{{q}}}:job:{id}"))
        .key(format!("emq:{{{q}}}:pending"))
        .arg(id)
        .invoke(con)
}
