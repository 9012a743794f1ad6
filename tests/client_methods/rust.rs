// One call per row of the Rust client method table
// (`src/extract/rust/client.rs`), each with what the extractor reads from
// it in a trailing comment: a command as `NAME arg ..` (`<x>` for a value
// that is not a literal, `..` for an open tail), a script call as
// `script <name> keys(..) args(..)`, `-` for nothing, several joined by
// ` ; `. Read by the unit tests of `src/extract/rust/tests/client.rs`; not
// compiled.

use redis::{cmd, pipe, Cmd, Commands, Script};

static SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("enqueue.lua")));

async fn chains(con: &mut C, k: &str, d: &str, keys: &[String]) {
    cmd("HGET").arg(k).arg("state").query(con)?; // HGET <k> state
    redis::cmd("DEL").arg(keys).query_async(con).await?; // DEL ..
    pipe().atomic().cmd("HSET").arg(k).arg("f").arg(1).ignore().cmd("LPUSH").arg(k).arg("id").query(con)?; // HSET <k> f <1> ; LPUSH <k> id
    Cmd::hget(k, "state").execute(con); // HGET <k> state
    SCRIPT.key(k).arg("a").invoke(con)?; // script <SCRIPT> keys(<k>) args(a)
    SCRIPT.key(keys).invoke_async(con).await?; // script <SCRIPT> keys(..) args()
    SCRIPT.arg("a").arg(k).invoke(con)?; // script <SCRIPT> keys() args(a <k>)
    let mut inv = SCRIPT.prepare_invoke(); inv.key(k); inv.invoke(con)?; // script <SCRIPT> keys(<k>) args()
    let unrun = SCRIPT.prepare_invoke(); // -
    pipe().invoke_script(&SCRIPT.key(k).arg("a")).query(con)?; // script <SCRIPT> keys(<k>) args(a)
    client.eval::<(), _, _, _>(LUA, vec![k], vec![1]).await?; // script <LUA> keys(<k>) args(<1>)
    client.custom::<i64, _>(CustomCommand::new_static("EVAL", None, false), vec![LUA.into(), 1.into(), k.into()]).await?; // EVAL <LUA> <1> <k>
    client.custom_raw(CustomCommand::new("HGET", ClusterHash::FirstKey, false), vec![k, "state"]).await?; // HGET <k> state
    client.evalsha::<(), _, _, _>(SHA, vec![k], ()).await?; // script <SHA> keys(<k>) args()
    script.evalsha_with_reload(&client, vec![k], vec!["x"]).await?; // script <script> keys(<k>) args(x)
    script.eval_with_reload(&client, keys, ()).await?; // script <script> keys(..) args()
    client.eval::<String>(CallBuilder::script(LUA).keys([k]).args(["a", d])).await?; // script <LUA> keys(<k>) args(a <d>)
    client.evalsha::<()>(CallBuilder::sha1(SHA).keys("q:job")).await?; // script <SHA> keys(q:job) args()
    client.evalsha_readonly::<()>(rustis::commands::CallBuilder::sha1(SHA).args(1)).await?; // script <SHA> keys() args(<1>)
    client.eval_readonly::<()>(builder).await?; // script <builder> keys(..) args(..)
    engine.eval::<i64>("40 + 2")?; // -
}

async fn typed(con: &mut C, client: &Client, k: &str, d: &str, ids: &[String], map: HashMap<String, String>) {
    client.hset::<(), _, _>(k, [("f", "v"), ("g", d)]).await?; // HSET <k> f v g <d>
    con.hset(k, "f", "v")?; // HSET <k> f v
    con.hset_nx(k, "lock", 1)?; // HSETNX <k> lock <1>
    client.hsetnx::<(), _, _, _>(k, "lock", 1).await?; // HSETNX <k> lock <1>
    con.hset_multiple(k, &[("f", "v"), ("g", "w")])?; // HSET <k> f v g w
    client.hmset::<(), _, _>(k, HashMap::from([("f", "v")])).await?; // HMSET <k> f v
    con.hget(k, "f")?; // HGET <k> f
    con.hmget(k, &["f", "g"])?; // HMGET <k> f g
    con.hincr(k, "n", 1)?; // HINCRBY <k> n <1>
    client.hincrby::<i64, _, _>(k, "n", 1).await?; // HINCRBY <k> n <1>
    con.hdel(k, &["f", "g"])?; // HDEL <k> f g
    con.hgetall(k)?; // HGETALL <k>
    con.hexists(k, "f")?; // HEXISTS <k> f
    con.hkeys(k)?; // HKEYS <k>
    con.hvals(k)?; // HVALS <k>
    con.hlen(k)?; // HLEN <k>
    con.zadd(k, "id", 5)?; // ZADD <k> id <5>
    con.zrem(k, ids)?; // ZREM <k> ..
    con.zscore(k, "id")?; // ZSCORE <k> id
    con.zcard(k)?; // ZCARD <k>
    con.zrangebyscore(k, 0, 10)?; // ZRANGEBYSCORE <k> <0> <10>
    con.lpush(k, "id")?; // LPUSH <k> id
    con.rpush(k, &["a", "b"])?; // RPUSH <k> a b
    con.lrem(k, 1, "id")?; // LREM <k> <1> id
    con.llen(k)?; // LLEN <k>
    con.lrange(k, 0, -1)?; // LRANGE <k> <0> <-1>
    con.rpoplpush(k, d)?; // RPOPLPUSH <k> <d>
    con.brpoplpush(k, d, 5)?; // BRPOPLPUSH <k> <d> <5>
    con.lmove(k, d, Direction::Left, Direction::Right)?; // LMOVE <k> <d> <Left> <Right>
    con.sadd(k, "m")?; // SADD <k> m
    con.srem(k, &["m", "n"])?; // SREM <k> m n
    con.smembers(k)?; // SMEMBERS <k>
    con.sismember(k, "m")?; // SISMEMBER <k> m
    con.del(k)?; // DEL <k>
    con.get(k)?; // GET <k>
    con.set(k, 1)?; // SET <k> <1>
    con.exists(k)?; // EXISTS <k>
    con.expire(k, 60)?; // EXPIRE <k> <60>
    con.incr(k, 1)?; // INCRBY <k> <1>
    client.publish::<(), _, _>(k, "hello").await?; // PUBLISH <k> hello
    map.get("f"); // -
    cache.set(k, 1); // -
}
