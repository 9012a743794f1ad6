//! BullMQ: its Lua (`src/commands/<name>-<keys>.lua`, each `--- @include`
//! expanded once, as its script loader does) run with the KEYS and the
//! msgpack-packed ARGV its `RedisQueueBackend` passes.

use super::*;

/// A value as BullMQ's client packs it (msgpackr, `undefined` as nil).
pub(crate) enum Mp {
    Nil,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Mp>),
    Map(Vec<(&'static str, Mp)>),
}

pub(crate) fn st(s: &str) -> Mp {
    Mp::Str(s.into())
}

fn pack_into(v: &Mp, out: &mut Vec<u8>) {
    fn head(out: &mut Vec<u8>, fix: u8, n: usize) {
        assert!(n < 16, "a short array or map");
        out.push(fix | n as u8);
    }
    match v {
        Mp::Nil => out.push(0xc0),
        Mp::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Mp::Int(i) if (0..128).contains(i) => out.push(*i as u8),
        Mp::Int(i) if (-32..0).contains(i) => out.push(*i as i8 as u8),
        Mp::Int(i) => {
            out.push(0xd3);
            out.extend(i.to_be_bytes());
        }
        Mp::Str(s) if s.len() < 32 => {
            out.push(0xa0 | s.len() as u8);
            out.extend(s.as_bytes());
        }
        Mp::Str(s) => {
            out.push(0xda);
            out.extend((s.len() as u16).to_be_bytes());
            out.extend(s.as_bytes());
        }
        Mp::Arr(a) => {
            head(out, 0x90, a.len());
            a.iter().for_each(|x| pack_into(x, out));
        }
        Mp::Map(m) => {
            head(out, 0x80, m.len());
            for (k, x) in m {
                pack_into(&st(k), out);
                pack_into(x, out);
            }
        }
    }
}

pub(crate) fn pack(v: Mp) -> Vec<u8> {
    let mut out = Vec::new();
    pack_into(&v, &mut out);
    out
}

/// The line's include, as BullMQ's script loader's `IncludeRegex` reads
/// it: `--- @include "path"` (or `--`, single quotes, a `;` after).
fn include_of(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("---")
        .or_else(|| line.strip_prefix("--"))?;
    let rest = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix("@include")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let (path, tail) = rest[1..].split_once(quote)?;
    tail.trim_end_matches([';', ' ', '\t', '\r'])
        .is_empty()
        .then_some(path)
}

/// `file` with each include replaced by the included file (its path
/// relative to the including file, `.lua` added), itself expanded, and
/// each file given once: the first time it is included.
fn expand(file: &Path, seen: &mut BTreeSet<PathBuf>, out: &mut String) {
    for line in read(file).lines() {
        let Some(reference) = include_of(line) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let name = match reference.ends_with(".lua") {
            true => reference.to_string(),
            false => format!("{reference}.lua"),
        };
        let path = file.parent().unwrap().join(name);
        let path = path
            .canonicalize()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if seen.insert(path.clone()) {
            expand(&path, seen, out);
        }
    }
}

/// BullMQ's script `name` (`src/commands/<name>-<keys>.lua`) as its
/// loader sends it, and its number of keys.
fn bullmq_script(name: &str) -> (String, usize) {
    let dir = corpus().join("taskforcesh+bullmq/src/commands");
    let (file, n) = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .find_map(|p| {
            let stem = p.file_stem()?.to_str()?;
            let (script, n) = stem.rsplit_once('-')?;
            (script == name && p.extension()? == "lua").then(|| (p.clone(), n.parse().ok()))
        })
        .unwrap_or_else(|| panic!("{name}: no such script in {}", dir.display()));
    let mut lua = String::new();
    expand(&file, &mut BTreeSet::new(), &mut lua);
    (lua, n.expect("a key count in the file's name"))
}

pub(crate) const BULL: &str = "bull:mail:";

/// One queue, `mail`, under the default prefix, driven as BullMQ's
/// `RedisQueueBackend` drives it.
pub(crate) struct Bull<'a> {
    s: &'a Server,
    /// The Worker's `metrics.maxDataPoints`, 0 when it keeps none.
    metrics: i64,
    /// How far the clock has moved past now, in milliseconds.
    later: std::cell::Cell<i64>,
}

impl<'a> Bull<'a> {
    /// A queue on `s`, its worker keeping `metrics` data points.
    pub(crate) fn new(s: &'a Server, metrics: i64) -> Self {
        Bull {
            s,
            metrics,
            later: Default::default(),
        }
    }

    /// Runs `script` with the queue's keys of `types` (space-separated;
    /// `=` before a whole key) and `argv`.
    pub(crate) fn run(&self, script: &str, types: &str, argv: Vec<Vec<u8>>) -> Value {
        let (lua, n) = bullmq_script(script);
        let keys: Vec<String> = types
            .split(' ')
            .map(|t| match t.strip_prefix('=') {
                Some(whole) => whole.to_string(),
                None => format!("{BULL}{t}"),
            })
            .collect();
        assert_eq!(keys.len(), n, "{script} takes {n} keys");
        eval(self.s, script, &lua, &keys, &argv)
    }

    /// `addJobToTransaction`: a job with the next id, by the script its
    /// options choose, with the keys its `add*JobArgs` pass; the id the
    /// script answers.
    pub(crate) fn add(&self, script: &str, name: &str, opts: Mp) -> String {
        // parentKey, parentDependenciesKey, parent, repeatJobKey, the
        // deduplication key: null or undefined, packed as nil.
        let links = (0..5).map(|_| Mp::Nil).collect();
        text(&self.add_with(script, "", name, opts, links))
    }

    /// The same with a custom id (`""`: the next) and `links`, the
    /// arguments after the timestamp; the script's reply.
    pub(crate) fn add_with(
        &self,
        script: &str,
        id: &str,
        name: &str,
        opts: Mp,
        links: Vec<Mp>,
    ) -> Value {
        let types = match script {
            "addStandardJob" => "wait paused meta id completed delayed active events marker",
            "addDelayedJob" => "marker meta id delayed completed events",
            "addPrioritizedJob" => "marker meta id prioritized delayed completed active events pc",
            "addParentJob" => "meta id delayed waiting-children completed events",
            other => panic!("{other}: not a script that adds a job"),
        };
        let mut args = vec![st(BULL), st(id), st(name), Mp::Int(self.now())];
        args.extend(links);
        let data = br#"{"to":"someone@example.com"}"#.to_vec();
        let argv = vec![pack(Mp::Arr(args)), data, pack(opts)];
        self.run(script, types, argv)
    }

    /// `Date.now()` on the queue's clock.
    pub(crate) fn now(&self) -> i64 {
        now_ms() + self.later.get()
    }

    /// `moveToActive` for a worker named `worker-1`: the id of the job
    /// it took (a reply `[job hash, id, 0, 0]`).
    pub(crate) fn take(&self, token: &str) -> String {
        let opts = Mp::Map(vec![
            ("token", st(token)),
            ("lockDuration", Mp::Int(30000)),
            ("name", st("worker-1")),
        ]);
        let argv = vec![BULL.into(), self.now().to_string().into(), pack(opts)];
        let types = "wait active prioritized events stalled limiter delayed paused meta pc marker";
        let Value::Array(reply) = self.run("moveToActive", types, argv) else {
            panic!("moveToActive answers an array");
        };
        assert!(
            matches!(&reply[0], Value::Array(h) if !h.is_empty()),
            "{reply:?}"
        );
        text(&reply[1])
    }

    /// `moveToFinishedArgs` for a job of default options (kept,
    /// `keepJobs: {count: -1}`), not fetching the next job: answers 0.
    pub(crate) fn finish(
        &self,
        id: &str,
        token: &str,
        target: &str,
        val: (&str, &str),
        fields: Mp,
    ) {
        let opts = Mp::Map(vec![
            ("token", st(token)),
            ("name", st("worker-1")),
            ("keepJobs", Mp::Map(vec![("count", Mp::Int(-1))])),
            ("lockDuration", Mp::Int(30000)),
            ("attempts", Mp::Int(0)),
            (
                "maxMetricsSize",
                if self.metrics > 0 {
                    Mp::Int(self.metrics)
                } else {
                    st("")
                },
            ),
            ("fpof", Mp::Bool(false)),
            ("cpof", Mp::Bool(false)),
            ("idof", Mp::Bool(false)),
            ("rdof", Mp::Bool(false)),
        ]);
        let mut argv = bytes(&[id, &self.now().to_string(), val.0, val.1, target, "0", BULL]);
        argv.push(pack(opts));
        argv.push(match fields {
            Mp::Nil => Vec::new(),
            f => pack(f),
        });
        let types = format!(
            "wait active prioritized events stalled limiter delayed paused meta pc \
             {target} ={BULL}{id} metrics:{target} marker"
        );
        assert_eq!(self.run("moveToFinished", &types, argv), Value::Int(0));
    }
}

/// Two standard jobs, two prioritized and a delayed one; a worker takes
/// the two standard jobs, completes one and fails the other, takes a
/// prioritized one and holds it (its lock stays), logs and reports
/// progress on it; one more standard job waits.
fn bullmq_life(q: &Bull) {
    let plain = || Mp::Map(vec![("attempts", Mp::Int(0))]);
    let prio = |p| Mp::Map(vec![("attempts", Mp::Int(0)), ("priority", Mp::Int(p))]);
    let delayed = Mp::Map(vec![("attempts", Mp::Int(0)), ("delay", Mp::Int(60_000))]);
    assert_eq!(q.add("addStandardJob", "welcome", plain()), "1");
    assert_eq!(q.add("addStandardJob", "welcome", plain()), "2");
    assert_eq!(q.add("addPrioritizedJob", "digest", prio(1)), "3");
    assert_eq!(q.add("addPrioritizedJob", "digest", prio(5)), "4");
    assert_eq!(q.add("addDelayedJob", "reminder", delayed), "5");
    let token = "0d6e2c1e-worker:0";
    assert_eq!(q.take(token), "1");
    assert_eq!(q.take(token), "2");
    let returned = ("returnvalue", r#"{"sent":true}"#);
    q.finish("1", token, "completed", returned, Mp::Nil);
    // Job.moveToFailed's fieldsToUpdate, flattened (objectToFlatArray).
    let fields = Mp::Arr(vec![
        st("failedReason"),
        st("mailbox full"),
        st("stacktrace"),
        st(r#"["Error: mailbox full\n    at send (mail.js:1:1)"]"#),
    ]);
    q.finish(
        "2",
        token,
        "failed",
        ("failedReason", "mailbox full"),
        fields,
    );
    assert_eq!(q.take(token), "3");
    let log = bytes(&["3", "sending the digest", ""]);
    assert_eq!(q.run("addLog", "=bull:mail:3 3:logs", log), Value::Int(1));
    let progress = bytes(&["3", "50"]);
    let progressed = q.run("updateProgress", "=bull:mail:3 events meta", progress);
    assert_eq!(progressed, Value::Int(0));
    assert_eq!(q.add("addStandardJob", "welcome", plain()), "6");
}

#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_bullmqs_own_scripts_write_is_clean() {
    let Some(s) = Server::start("what_bullmqs_own_scripts_write_is_clean", &[]) else {
        return;
    };
    bullmq_life(&Bull::new(&s, 0));
    let mut expected: Vec<String> = "1 2 3 3:lock 3:logs 4 5 6 active completed delayed events \
                                     failed id marker meta pc prioritized wait"
        .split(' ')
        .map(|t| format!("{BULL}{t}"))
        .collect();
    expected.sort();
    assert_eq!(all_keys(&s), expected);
    for (key, fields) in [
        ("1", "atm ats data delay finishedOn name opts pb priority processedOn returnvalue timestamp"),
        ("2", "atm ats data delay failedReason finishedOn name opts pb priority processedOn stacktrace timestamp"),
        ("3", "ats data delay name opts pb priority processedOn progress timestamp"),
        ("5", "data delay name opts priority timestamp"),
        ("meta", "opts.maxLenEvents"),
    ] {
        assert_eq!(hkeys(&s, &format!("{BULL}{key}")), fields, "{key}");
    }
    assert_clean(
        &s,
        "bullmq",
        "read 19 keys (19 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}

/// The ids of a flow's parent and child (FlowProducer's `randomUUID()`).
const PARENT: &str = "5d3f6b1e-2c4a-4e8f-9b7d-1a2c3e4f5a6b";
const CHILD: &str = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

/// A flow (FlowProducer: a parent waiting for its child, ids UUIDs), a
/// job deduplicated, and a worker keeping metrics: it completes the
/// child (so the parent waits) and, a minute later, the parent; then the
/// queue is paused, the deduplicated job waiting.
fn bullmq_flow(q: &Bull) {
    let (parent, child) = (PARENT, CHILD);
    let plain = || Mp::Map(vec![("attempts", Mp::Int(0))]);
    let none = || (0..5).map(|_| Mp::Nil).collect();
    let added = q.add_with("addParentJob", parent, "digest", plain(), none());
    assert_eq!(text(&added), parent);
    // Job.parent is {id, queueKey}; its opts keep `parent` as FlowProducer
    // gave it, {id, queue}.
    let links = vec![
        st(&format!("{BULL}{parent}")),
        st(&format!("{BULL}{parent}:dependencies")),
        Mp::Map(vec![("id", st(parent)), ("queueKey", st("bull:mail"))]),
        Mp::Nil,
        Mp::Nil,
    ];
    let opts = Mp::Map(vec![
        ("attempts", Mp::Int(0)),
        (
            "parent",
            Mp::Map(vec![("id", st(parent)), ("queue", st("bull:mail"))]),
        ),
    ]);
    assert_eq!(
        text(&q.add_with("addStandardJob", child, "part", opts, links)),
        child
    );
    // Deduplication (`deduplication: {id}`, packed as `de`): the second
    // job answers the first's id (the counter counts every job, the two
    // of custom ids too).
    let de = || {
        let id = Mp::Map(vec![("id", st("welcome-42"))]);
        Mp::Map(vec![("attempts", Mp::Int(0)), ("de", id)])
    };
    let dedup = || {
        let mut links: Vec<Mp> = (0..4).map(|_| Mp::Nil).collect();
        links.push(st(&format!("{BULL}de:welcome-42")));
        links
    };
    assert_eq!(
        text(&q.add_with("addStandardJob", "", "welcome", de(), dedup())),
        "3"
    );
    assert_eq!(
        text(&q.add_with("addStandardJob", "", "welcome", de(), dedup())),
        "3"
    );
    let token = "7e1f0a2b-worker:0";
    assert_eq!(q.take(token), child);
    q.finish(child, token, "completed", ("returnvalue", "3"), Mp::Nil);
    // The parent, its child done, waits at the head of the queue.
    assert_eq!(q.take(token), parent);
    q.later.set(60_000);
    q.finish(parent, token, "completed", ("returnvalue", "null"), Mp::Nil);
    let pause = "wait paused meta prioritized events delayed marker";
    assert_eq!(
        q.run("pause", pause, bytes(&["paused", "1"])),
        Value::Int(0)
    );
}

#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_bullmqs_flows_metrics_and_pause_write_is_clean() {
    let Some(s) = Server::start("what_bullmqs_flows_metrics_and_pause_write_is_clean", &[]) else {
        return;
    };
    bullmq_flow(&Bull::new(&s, 100));
    let (parent, child) = (PARENT, CHILD);
    let mut expected: Vec<String> = format!(
        "3 {parent} {parent}:processed {child} completed de:welcome-42 events id meta \
         metrics:completed metrics:completed:data wait"
    )
    .split(' ')
    .map(|t| format!("{BULL}{t}"))
    .collect();
    expected.sort();
    assert_eq!(all_keys(&s), expected);
    let done = "atm ats data delay finishedOn name opts";
    for (key, fields) in [
        (
            "3",
            "data deid delay name opts priority timestamp".to_string(),
        ),
        (
            parent,
            format!("{done} pb priority processedOn returnvalue timestamp"),
        ),
        (
            child,
            format!("{done} parent parentKey pb priority processedOn returnvalue timestamp"),
        ),
        (&format!("{parent}:processed"), format!("{BULL}{child}")),
        ("meta", "opts.maxLenEvents paused".into()),
        ("metrics:completed", "count prevCount prevTS".into()),
    ] {
        assert_eq!(hkeys(&s, &format!("{BULL}{key}")), fields, "{key}");
    }
    let points: i64 = redis::cmd("LLEN")
        .arg(format!("{BULL}metrics:completed:data"))
        .query(&mut s.con())
        .unwrap();
    assert_eq!(points, 1);
    assert_clean(
        &s,
        "bullmq",
        "read 12 keys (12 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}
