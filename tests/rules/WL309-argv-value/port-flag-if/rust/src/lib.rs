const OBLITERATE: &str = r#"
local active = redis.call("LLEN", KEYS[1])
if active > 0 and ARGV[2] == "" then
  return -2
end
redis.call("DEL", KEYS[1])
return tonumber(ARGV[1]) - 1
"#;

pub fn obliterate(con: &mut redis::Connection, count: usize, force: bool) -> redis::RedisResult<i64> {
    let count_str = count.to_string();
    let force_str = if force { "1" } else { "0" };
    redis::Script::new(OBLITERATE)
        .key("q:active")
        .arg(count_str)
        .arg(force_str)
        .invoke(con)
}
