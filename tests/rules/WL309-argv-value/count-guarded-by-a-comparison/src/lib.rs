const ADD_LOG: &str = r#"
local n = redis.call("RPUSH", KEYS[1], ARGV[1])
if ARGV[2] ~= '' then
  local keep = tonumber(ARGV[2])
  redis.call("LTRIM", KEYS[1], -keep, -1)
end
return n
"#;

pub fn add_log(con: &mut redis::Connection, line: &str) -> redis::RedisResult<i64> {
    redis::Script::new(ADD_LOG).key("logs:1").arg(line).arg("").invoke(con)
}
