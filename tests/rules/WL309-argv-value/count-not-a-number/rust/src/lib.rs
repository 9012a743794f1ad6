const OBLITERATE: &str = r#"
local active = redis.call("LLEN", KEYS[1])
if active > 0 and ARGV[2] == "" then
  return -2
end
redis.call("DEL", KEYS[1])
return tonumber(ARGV[1]) - 1
"#;

pub fn obliterate_all(con: &mut redis::Connection) -> redis::RedisResult<i64> {
    redis::Script::new(OBLITERATE).key("q:active").arg("all").arg("force").invoke(con)
}
