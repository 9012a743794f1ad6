const PAGE: &str = include_str!("../../scripts/page.lua");

pub fn archived(con: &mut redis::Connection, q: &str, a: &str, b: &str) -> redis::RedisResult<()> {
    redis::Script::new(PAGE).key(format!("tq:{{{q}}}:archived")).arg(a).arg(b).invoke(con)
}
