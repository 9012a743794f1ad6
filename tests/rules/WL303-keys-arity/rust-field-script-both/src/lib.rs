use redis::aio::MultiplexedConnection;
use redis::{RedisResult, Script};

const PRELUDE: &str = r#"
local function bump(key, by)
    return redis.call("INCRBY", key, by)
end
"#;

const TAKE_LUA: &str = r#"
-- KEYS[1]: the count
-- KEYS[2]: the window
local n = bump(KEYS[1], ARGV[1])
redis.call("PEXPIRE", KEYS[2], ARGV[2])
return n
"#;

fn with_prelude(body: &str) -> Script {
    Script::new(&format!("{PRELUDE}\n{body}"))
}

pub struct Limiter {
    take: Script,
}

impl Limiter {
    pub fn new() -> Self {
        Self { take: with_prelude(TAKE_LUA) }
    }

    pub async fn take(&self, con: &mut MultiplexedConnection, id: &str) -> RedisResult<i64> {
        self.take
            .key(format!("count:{{{id}}}"))
            .key(format!("ttl:{{{id}}}"))
            .arg(1)
            .arg(1000)
            .invoke_async(con)
            .await
    }
}

pub async fn take_one(limiter: &Limiter, con: &mut MultiplexedConnection) -> RedisResult<i64> {
    limiter.take(con, "user-1").await
}
