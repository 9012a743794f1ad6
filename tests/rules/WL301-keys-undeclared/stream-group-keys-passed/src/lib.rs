use redis::Script;

pub fn claim(con: &mut redis::Connection, q: &str, worker: &str) {
    let script = Script::new(include_str!("../lua/claim.lua"));
    let _: () = script.key(format!("jobs:{q}")).key("jobs:dead").arg(worker).invoke(con).unwrap();
}
