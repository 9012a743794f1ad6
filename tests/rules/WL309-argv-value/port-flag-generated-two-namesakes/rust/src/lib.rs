// src/commands/ is filled by the build from ../scripts and is not in the tree.
const OBLITERATE: &str = include_str!("commands/obliterate-1.lua");

pub fn obliterate(con: &mut redis::Connection, count: usize, force: bool) -> redis::RedisResult<i64> {
    let force = if force { "1" } else { "0" };
    redis::Script::new(OBLITERATE)
        .key("q:active")
        .arg(count)
        .arg(force)
        .invoke(con)
}
