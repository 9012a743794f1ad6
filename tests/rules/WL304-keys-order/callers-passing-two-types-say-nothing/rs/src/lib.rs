const TOUCH: &str = include_str!("../../scripts/touch.lua");

pub fn touch(con: &mut redis::Connection, q: &str, at: &str) -> redis::RedisResult<()> {
    redis::Script::new(TOUCH).key(format!("tq:{{{q}}}:pending")).arg(at).invoke(con)
}
