//! Test keyspaces for the embedded EchoMQ contract, as the commands that
//! build them (argument lists). Data only: the caller sends them on a
//! connection of its own, to a server it started (`tests/audit.rs`,
//! `benches/audit.rs`); the audit never writes.

/// One command: its name and arguments.
pub type Command = Vec<Vec<u8>>;

fn cmd(words: &[&[u8]]) -> Command {
    words.iter().map(|w| w.to_vec()).collect()
}

fn job(queue: &str, id: u32, fields: &[(&str, &str)]) -> Command {
    let key = format!("emq:{{{queue}}}:job:{id}");
    let mut c = cmd(&[b"HSET", key.as_bytes()]);
    for (f, v) in fields {
        c.push(f.as_bytes().to_vec());
        c.push(v.as_bytes().to_vec());
    }
    c
}

const GOOD: &[(&str, &str)] = &[
    ("state", "pending"),
    ("attempts", "0"),
    ("payload", "{\"to\":\"a@b.c\"}"),
];

/// A small keyspace with one of each divergence (`tests/audit.rs` lists
/// the exact findings):
/// - good rows `emq:{orders}:job:1..=10`, all in `emq:{orders}:pending`;
/// - a moved prefix: rows `emk:{orders}:job:101..=104` and their own
///   `emk:{orders}:pending`;
/// - a renamed field: rows 201-203 write `data` for `payload` (queued);
/// - orphans: member 999 has no row; rows 300 and 301 (with a TTL) are
///   in no queue; row 302 is finished (`state` `done`), in no queue as it
///   should be;
/// - wrong types: `emq:{orders}:job:400` is a string, `emq:{mail}:pending`
///   a list;
/// - a big hash: row 500 has 3000 `x:<n>` fields and no `attempts`;
/// - a key without hash tag (`emq:orders:job:600`), a type the contract
///   lacks (`emq:{orders}:jobs:700`), and two foreign keys.
pub fn divergent() -> Vec<Command> {
    let mut out = Vec::new();
    let mut pending: Vec<u32> = (1..=10).collect();
    for id in 1..=10 {
        out.push(job("orders", id, GOOD));
    }
    for id in 101..=104 {
        out.push(cmd(&[
            b"HSET",
            format!("emk:{{orders}}:job:{id}").as_bytes(),
            b"state",
            b"pending",
            b"attempts",
            b"0",
            b"payload",
            b"{}",
        ]));
        out.push(cmd(&[
            b"ZADD",
            b"emk:{orders}:pending",
            b"0",
            id.to_string().as_bytes(),
        ]));
    }
    let renamed = [("state", "pending"), ("attempts", "0"), ("data", "{}")];
    for id in 201..=203 {
        out.push(job("orders", id, &renamed));
        pending.push(id);
    }
    pending.push(999);
    out.push(job("orders", 300, GOOD));
    out.push(job("orders", 301, GOOD));
    out.push(cmd(&[b"EXPIRE", b"emq:{orders}:job:301", b"3600"]));
    out.push(job(
        "orders",
        302,
        &[("state", "done"), ("attempts", "1"), ("payload", "{}")],
    ));
    out.push(cmd(&[b"SET", b"emq:{orders}:job:400", b"oops"]));
    out.push(cmd(&[b"RPUSH", b"emq:{mail}:pending", b"7"]));
    let mut big = job("orders", 500, &[("state", "pending"), ("payload", "{}")]);
    for n in 0..3000 {
        big.push(format!("x:{n}").into_bytes());
        big.push(b"1".to_vec());
    }
    out.push(big);
    pending.push(500);
    out.push(cmd(&[b"HSET", b"emq:orders:job:600", b"state", b"pending"]));
    out.push(cmd(&[
        b"HSET",
        b"emq:{orders}:jobs:700",
        b"state",
        b"pending",
    ]));
    out.push(cmd(&[b"SET", b"session:abc", b"x"]));
    out.push(cmd(&[b"RPUSH", b"bull:q:wait", b"1"]));
    let mut z = cmd(&[b"ZADD", b"emq:{orders}:pending"]);
    for id in pending {
        z.push(b"0".to_vec());
        z.push(id.to_string().into_bytes());
    }
    out.push(z);
    out
}

/// A large healthy keyspace: `queues` queues of `rows` job rows each, all
/// in their queue's pending set, but one row in a hundred writes `data`
/// for `payload`. `queues * (rows + 1)` keys.
pub fn bulk(queues: u32, rows: u32) -> impl Iterator<Item = Command> {
    (0..queues).flat_map(move |q| {
        let queue = format!("q{q}");
        let rows_iter = (0..rows).map({
            let queue = queue.clone();
            move |id| {
                if id % 100 == 99 {
                    job(
                        &queue,
                        id,
                        &[("state", "pending"), ("attempts", "0"), ("data", "{}")],
                    )
                } else {
                    job(&queue, id, GOOD)
                }
            }
        });
        let pending = format!("emq:{{{queue}}}:pending");
        let members = (0..rows).collect::<Vec<_>>();
        let zadds: Vec<Command> = members
            .chunks(1000)
            .map(|chunk| {
                let mut z = cmd(&[b"ZADD", pending.as_bytes()]);
                for id in chunk {
                    z.push(b"0".to_vec());
                    z.push(id.to_string().into_bytes());
                }
                z
            })
            .collect();
        rows_iter.chain(zadds)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_divergent_keyspace_has_29_keys() {
        let mut keys: Vec<Vec<u8>> = divergent()
            .into_iter()
            .filter(|c| c[0] != b"EXPIRE")
            .map(|c| c[1].clone())
            .collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 29);
    }

    #[test]
    fn the_bulk_keyspace_counts() {
        let cmds: Vec<Command> = bulk(2, 1500).collect();
        // 3000 rows, and two ZADDs per queue.
        assert_eq!(cmds.len(), 3004);
        assert_eq!(cmds[99][6], b"data");
    }
}
