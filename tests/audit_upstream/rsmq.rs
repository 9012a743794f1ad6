//! RSMQ: the scripts of `index.js` beside the MULTIs of its createQueue
//! and sendMessage.

use super::*;

/// RSMQ's queue `q1` (namespace `rsmq`), driven as `index.js` drives it.
struct Rsmq<'a> {
    s: &'a Server,
    js: String,
}

fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    while n > 0 {
        digits.push(char::from_digit((n % 36) as u32, 36).unwrap());
        n /= 36;
    }
    digits.iter().rev().collect()
}

impl Rsmq<'_> {
    /// `_getQueue`'s clock: the server's `TIME`, as (milliseconds,
    /// microseconds).
    fn time(&self) -> (u64, u64) {
        let t: (u64, u64) = redis::cmd("TIME").query(&mut self.s.con()).unwrap();
        (t.0 * 1000 + t.1 / 1000, t.0 * 1_000_000 + t.1)
    }

    /// Runs index.js's `script_<name>` with `keys` (RSMQ passes its
    /// arguments as KEYS).
    fn run(&self, name: &str, keys: &[String]) -> Value {
        let lua = backquoted(&self.js, &format!("const script_{name} = "));
        eval(self.s, name, &lua, keys, &[])
    }

    /// `createQueue` with the default settings: its MULTI of HSETNXs on
    /// the queue hash, then SADD on the queues' set.
    fn create_queue(&self) {
        let (ms, _) = self.time();
        let secs = (ms / 1000).to_string();
        let mut commands = vec![bytes(&["MULTI"])];
        for (field, value) in [
            ("vt", "30"),
            ("delay", "0"),
            ("maxsize", "65536"),
            ("created", &secs),
            ("modified", &secs),
        ] {
            commands.push(bytes(&["HSETNX", "rsmq:q1:Q", field, value]));
        }
        commands.push(bytes(&["EXEC"]));
        commands.push(bytes(&["SADD", "rsmq:QUEUES", "q1"]));
        self.s.seed(commands);
    }

    /// `sendMessage`: the message's id (its time in microseconds, base
    /// 36, then 22 random characters), its score, body and the counter.
    fn send(&self, message: &str, random: &str) -> String {
        let (ms, us) = self.time();
        let id = format!("{}{random}", base36(us));
        self.s.seed([
            bytes(&["MULTI"]),
            bytes(&["ZADD", "rsmq:q1", &ms.to_string(), &id]),
            bytes(&["HSET", "rsmq:q1:Q", &id, message]),
            bytes(&["HINCRBY", "rsmq:q1:Q", "totalsent", "1"]),
            bytes(&["EXEC"]),
        ]);
        id
    }

    /// `receiveMessage` (vt `vt` seconds) or `popMessage`: the id of the
    /// message it answers.
    fn receive(&self, script: &str, vt: Option<u64>) -> String {
        let (ms, _) = self.time();
        let mut keys = vec!["rsmq:q1".to_string(), ms.to_string()];
        keys.extend(vt.map(|vt| (ms + vt * 1000).to_string()));
        match self.run(script, &keys) {
            Value::Array(reply) if reply.len() == 4 => text(&reply[0]),
            other => panic!("{script} answers [id, body, rc, fr], not {other:?}"),
        }
    }
}

/// A queue created with three messages sent: one received (hidden for
/// its visibility time, counted), then its visibility changed; one
/// popped (gone); one waiting. The contract's `<id>` fields admit any
/// field name of the queue hash, so the audit judges here each key's
/// type and the settings every queue hash has.
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_rsmqs_own_scripts_write_is_clean() {
    let Some(s) = Server::start("what_rsmqs_own_scripts_write_is_clean", &[]) else {
        return;
    };
    let js = read(&corpus().join("smrchy+rsmq/index.js"));
    let q = Rsmq { s: &s, js };
    q.create_queue();
    let ids = [
        q.send("hello", "Kq3ZpX9aLm2VbN7cRt4YwE"),
        q.send("again", "Hd8sJf2kLq9PzX4mNb6VcT"),
        q.send("later", "Wn5rTy7uIo1PaS3dFg9HjK"),
    ];
    assert_eq!(q.receive("receiveMessage", Some(30)), ids[0]);
    assert_eq!(q.receive("popMessage", None), ids[1]);
    let (ms, _) = q.time();
    let keys = [
        "rsmq:q1".to_string(),
        ids[0].clone(),
        (ms + 60_000).to_string(),
    ];
    assert_eq!(q.run("changeMessageVisibility", &keys), Value::Int(1));
    assert_eq!(all_keys(&s), ["rsmq:QUEUES", "rsmq:q1", "rsmq:q1:Q"]);
    let fields = format!(
        "created delay maxsize modified totalrecv totalsent vt {a} {a}:fr {a}:rc {c}",
        a = ids[0],
        c = ids[2]
    );
    let mut fields: Vec<&str> = fields.split(' ').collect();
    fields.sort();
    assert_eq!(hkeys(&s, "rsmq:q1:Q"), fields.join(" "));
    assert_clean(
        &s,
        "rsmq",
        "read 3 keys (3 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}
