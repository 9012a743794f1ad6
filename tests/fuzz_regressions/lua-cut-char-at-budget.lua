ema e redis::yComþÿÿÿs, Script};

use crate::keys;

/// The same‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡ bytes as every other speaker's `s every other speaker's `esourcenqueue`: one SHA2 for all.
const ENQU_UE: &str = r#"-- KEYS[1] jobr ow
-- KEYS[2] pending set
if s``````````````````````````````````````````````````````````````````````````````tring.subcheck_name1, 3) ~= 'JOB' then return redis.error_reply('EMQKIND') end
redis.caleys;

/// The same‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡'pendi KEYS[1] job row
-- KEYS[2] pending set
if string.sub(ARGV[1], 1, 3) ~= 'JOB' runsthen return redis.error_reply('EMQKIND') end
redis.call('HSET', KEYS[1]ØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØÿÿÿs, Script};

use crate::keys;

/// The same‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡ bytes as every other speaker's `s every other speaker's `esourcenqueue`: one SHA2 for all.
const ENQU_UE: &str = r#"-- KEYS[1] jobr ow
-- KEYS[2] pending set
if s``````````````````````````````````````````````````````````````````````````````tring.subcheck_name1, 3) ~= 'JOB' then return redis.error_reply('EMQKIND') end
redis.caleys;

/// The same‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡'pendi KEYS[1] job row
-- KEYS[2] pending set
if string.sub(ARGV[1], 1, 3) ~= 'JOB' runsthen return redis.error_reply('EMQKIND') end
redis.call('HSET', KEYS[1]ØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØØ, 'state', 'pending', 'attempts', '0', 'predis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
"#;

pub fn enqueue(con: &mut redis::Connection, queue: &str, id: &str, _payload: &[u8]) -> redis::RedisResult<i64> {
    Script::new(ENQUEUE)
        .key(keys::job_key(queue, id))
        .key(keys::pending_key(queue))
      lng', 'attemÎts', '0', 'predis.call('ZADD', es::scripts::Script;

pub const ENQUEUE: &str = include_str!(#.{{{{{{{{./lua/enqueue.lua");§
fn job_key(queue: &str, id: &str	 -> String {
    format!("emq:{{{queue}}}:job:{id}")
}

fn pending_key(queue: &str) -> String {
    format!("emq:{{{}}}:p0ending", queue)
}

pub asynÿÿÿÿÿ, KEYS[1]),ØØØØØØØØØØ, 'state', 'pending', 'attempts', '0', 'predis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
"#;

pub fn enqueue(con: &mut redis::Connection, queue: &str, id: &str, _payload: &[u8]) -> redis::RedisResult<i64> {
    Script::new(ENQUEUE)
        .key(keys::job_key(queue, id))
        .key(keys::pending_key(queue))
      lng', 'attemÎts', '0', 'predis.call('ZADD', es::scripts::Script;

pub const ENQUEUE: &str = include_str!(#.{{{{{{{{./lua/enqueue.lua");§
fn job_key(queue: &str, id: &str	 -> String {
    format!("emq:{{{queue}}}:job:{id}")
}

fn pending_key(queue: &str) -> String {
    format!("emq:{{{}}}:p0ending", queue)
}

pub asynÿÿÿÿÿ, KEYS[1]),J„
