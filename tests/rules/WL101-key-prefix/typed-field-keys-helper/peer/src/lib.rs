//! Takes the next job id off a queue's pending list.

const TAKE: &str = include_str!("../../scripts/take.lua");

pub fn take(con: &mut redis::Connection, q: &str) -> redis::RedisResult<Option<String>> {
    redis::Script::new(TAKE)
        .key(format!("emq:{{{q}}}:pending"))
        .invoke(con)
}
