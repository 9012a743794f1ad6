pub struct Lua { pub sha: String, pub num_keys: usize }
impl Lua {
    pub fn run(&self, c: &mut redis::Connection, keys: &[String], args: &[String]) {
        let mut cmd = redis::cmd("EVALSHA");
        cmd.arg(&self.sha).arg(self.num_keys);
        for k in keys { cmd.arg(k); }
        for a in args { cmd.arg(a); }
        let _: () = cmd.query(c).unwrap();
    }
}
pub struct Reg { all: std::collections::HashMap<String, Lua> }
impl Reg {
    pub fn get(&self, n: &str) -> Option<&Lua> { self.all.get(n) }
    fn bodies() -> Vec<(&'static str, usize, &'static str)> {
        vec![("pair", 2, include_str!("../lua/pair-2.lua"))]
    }
}
pub fn set_pair(r: &Reg, c: &mut redis::Connection, q: &str) {
    let script = r.get("pair").expect("registered");
    let keys = vec![format!("p:{{{q}}}:a")];
    script.run(c, &keys, &["v".to_string()]);
}
