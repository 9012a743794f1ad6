//! One page of keys (`node.rs` runs `SCAN` and hands pages out): a first
//! pipeline (`HRANDFIELD` of record keys, `TYPE` of the others and of the
//! holders), a second (`HEXISTS` for record fields a sample did not show,
//! one `ZMSCORE`/`SMISMEMBER` per holder key), `TTL` of the keys in a
//! finding, then the members of every holder key (`look.rs`). Paced by
//! `--rate`. Counts go to a [`Tally`]; nothing here prints.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use super::conn::{Connection, WireError};

use super::group::{Kind, Tally};
use super::keys::{classify, Class, Known};
use super::look::{Check, Second};
use super::wire::{self, bytes, int, items, Batch, Read, Reply};
use crate::contract::{Contract, Keyspace, PatTok, Record};

/// What bounds an audit.
#[derive(Debug, Clone)]
pub struct Limits {
    /// `SCAN … MATCH`: `*` unless narrowed.
    pub pattern: String,
    /// `SCAN … COUNT`, and the page size of member scans.
    pub count: u32,
    /// A hash with more fields is read from a sample of this many
    /// (`HRANDFIELD`), its contract fields with `HEXISTS`; 0 reads every hash
    /// whole.
    pub sample: u32,
    pub max_keys: Option<u64>,
    /// At most this many keys and members per second.
    pub rate: Option<u64>,
    pub budget: Option<Duration>,
}

/// Why a scan ended without an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Done,
    MaxKeys,
    Budget,
    /// The server gave a `SCAN` cursor it had given before.
    CursorLoop,
    /// This many calls (`node::scan_calls`), and the cursor never came
    /// back to 0.
    ScanCalls(u64),
}

/// What the contract says of one key type.
#[derive(Debug, Clone, Default)]
pub(super) struct Plan {
    pub name: String,
    /// The Redis type its keys must hold.
    pub expected: Option<String>,
    pub record: Option<usize>,
    /// Key types (without placeholders) whose members name keys of this
    /// type.
    pub held_by: Vec<usize>,
    /// The key type this type's members name.
    pub holds: Option<usize>,
    /// `emq:{<queue>}:job:<id>`.
    pub template: String,
}

/// One scan's state across pages (and nodes).
pub struct Scanner<'c> {
    pub(super) ks: &'c Keyspace,
    pub(super) records: &'c [Record],
    pub(super) plans: Vec<Plan>,
    pub(super) limits: Limits,
    /// Holder checks need holder and held keys on one node: off in a
    /// cluster whose keys have no hash tag.
    pub(super) holders: bool,
    started: Instant,
    /// Keys and members read, for `--rate`.
    work: u64,
    /// Keys counted in a group this page whose TTL the group counts.
    pub(super) timed: Vec<(Kind, String, Vec<u8>)>,
    /// The server has `HRANDFIELD` (Redis 6.2+, Valkey): a record hash is
    /// read in one command; else `HLEN`, then `HKEYS` or `HSCAN`.
    pub(super) modern: bool,
    pub tally: Tally,
}

/// Whether the time budget is spent.
pub(super) fn over(limits: &Limits, started: Instant) -> bool {
    limits.budget.is_some_and(|b| started.elapsed() >= b)
}

/// A scan's error: the connection's, or a reply SCAN cannot have.
pub type ScanResult<T> = Result<T, String>;

/// A failed command: the connection's loss, or the server's refusal (an
/// ACL without a command, a cluster slot that moved).
pub(super) fn lost(e: WireError) -> String {
    if e.is_lost() {
        format!("connection lost: {e}")
    } else {
        format!("the server refused a read: {e}")
    }
}

/// The first pipeline's replies, where each key's begin, and where the
/// `TYPE` of each (holder type, queue) is.
pub(super) struct First {
    pub replies: Vec<Reply>,
    pub at: Vec<usize>,
    pub holders: HashMap<(usize, Vec<u8>), usize>,
}

impl First {
    /// The Redis type of holder `h` of `queue`, as the first pipeline saw it.
    pub fn holder_type(&self, h: usize, queue: &[u8]) -> String {
        match self.holders.get(&(h, queue.to_vec())) {
            Some(i) => redis_type(&self.replies[*i]),
            None => "none".into(),
        }
    }
}

/// A `TYPE` reply as a name, as the report shows it: the server's bytes
/// escaped and bounded as a key is (`keys::display`), since a server may
/// answer anything; a reply of another shape is `?`.
pub(super) fn redis_type(r: &Reply) -> String {
    match r {
        Ok(v) => bytes(v).map_or_else(|| "?".into(), super::keys::display),
        Err(_) => "?".into(),
    }
}

/// An integer reply, or `None` for an error or another shape.
pub(super) fn int_reply(r: Option<&Reply>) -> Option<i64> {
    r.and_then(|r| r.as_ref().ok()).and_then(int)
}

fn plans(contract: &Contract, ks: &Keyspace) -> Vec<Plan> {
    let mut plans: Vec<Plan> = ks
        .types
        .iter()
        .map(|t| {
            let record = contract.records.iter().position(|r| r.type_name == t.name);
            Plan {
                name: t.name.clone(),
                expected: ks
                    .redis_type_of(&t.name)
                    .map(|r| r.redis.clone())
                    .or_else(|| record.map(|_| "hash".to_string())),
                record,
                template: ks.render(t),
                ..Plan::default()
            }
        })
        .collect();
    let index = |name: &str| ks.types.iter().position(|t| t.name == name);
    for h in &ks.holds {
        let (Some(holder), Some(held)) = (index(&h.holder), index(&h.held)) else {
            continue;
        };
        plans[holder].holds = Some(held);
        // A held key's holder must be one key per queue to be asked.
        let fixed = !ks.types[holder]
            .pattern
            .iter()
            .any(|p| matches!(p, PatTok::Var(_)));
        if fixed {
            plans[held].held_by.push(holder);
        }
    }
    plans
}

impl<'c> Scanner<'c> {
    /// `None` when the contract has no keyspace.
    pub fn new(
        contract: &'c Contract,
        limits: Limits,
        cluster: bool,
        started: Instant,
    ) -> Option<Scanner<'c>> {
        let ks = contract.keyspace.as_ref()?;
        Some(Scanner {
            ks,
            records: &contract.records,
            plans: plans(contract, ks),
            limits,
            holders: !cluster || ks.hash_tag,
            started,
            work: 0,
            timed: Vec::new(),
            modern: true,
            tally: Tally::default(),
        })
    }

    /// Whether holder checks run (not in a cluster without hash tags).
    pub fn checks_holders(&self) -> bool {
        self.holders
    }

    pub(super) fn over_budget(&self) -> bool {
        over(&self.limits, self.started)
    }

    /// Sleeps as long as `--rate` asks after `units` more keys or members.
    pub(super) fn pace(&mut self, units: u64) {
        self.work += units;
        if let Some(rate) = self.limits.rate.filter(|r| *r > 0) {
            let due = Duration::from_secs_f64(self.work as f64 / rate as f64);
            if let Some(wait) = due.checked_sub(self.started.elapsed()) {
                std::thread::sleep(wait);
            }
        }
    }

    /// Reads one page of keys.
    pub(super) fn page(&mut self, con: &mut Connection, keys: &[&[u8]]) -> ScanResult<()> {
        self.tally.keys += keys.len() as u64;
        self.pace(keys.len() as u64);
        let classes: Vec<Class> = keys.iter().map(|k| classify(k, self.ks)).collect();
        let first = self.first_pipeline(con, keys, &classes)?;
        let mut second = Second::default();
        let mut holders: Vec<(&[u8], Known, String)> = Vec::new();
        let mut retype: Vec<(&[u8], Known)> = Vec::new();
        for (i, (key, class)) in keys.iter().zip(&classes).enumerate() {
            let at = first.at[i];
            match class {
                Class::Foreign => self.tally.foreign += 1,
                Class::Miss(miss, template) => {
                    let ty = redis_type(&first.replies[at]);
                    if ty == "none" {
                        self.tally.vanished += 1;
                        continue;
                    }
                    let kind = Kind::Miss(miss.clone());
                    if let Some(g) = self.tally.add(kind, template.clone(), key) {
                        *g.redis_types.entry(ty).or_default() += 1;
                    }
                }
                Class::Known(k) => match self.known(key, *k, &first, at, &mut second) {
                    Look::Members(ty) => holders.push((key, *k, ty)),
                    Look::Retype => retype.push((key, *k)),
                    Look::Done => {}
                },
            }
        }
        let (batch, checks, asks) = second.into_batch();
        let replies = batch.send(con).map_err(lost)?;
        self.second_replies(&checks, &asks, &replies);
        self.retype(con, &retype)?;
        self.expiries(con)?;
        for (key, k, ty) in holders {
            if self.over_budget() {
                break;
            }
            self.members(con, key, k, &ty)?;
        }
        Ok(())
    }

    /// `TYPE` of every key of (or near) the keyspace, but `HLEN` for a
    /// record's key (a hash is never empty, so 0 says it is gone, and
    /// `WRONGTYPE` that it is something else); `TYPE` of the holders of
    /// held keys, once per holder key.
    fn first_pipeline(
        &self,
        con: &mut Connection,
        keys: &[&[u8]],
        classes: &[Class],
    ) -> ScanResult<First> {
        let mut b = Batch::default();
        let mut at = Vec::with_capacity(keys.len());
        for (key, class) in keys.iter().zip(classes) {
            at.push(b.len());
            match class {
                Class::Foreign => {}
                Class::Miss(..) => b.push(Read::Type, &[key]),
                Class::Known(k) if self.plans[k.ty].record.is_some() => {
                    self.read_record(&mut b, key);
                }
                Class::Known(_) => b.push(Read::Type, &[key]),
            }
        }
        let mut holders = HashMap::new();
        for class in classes {
            let Class::Known(k) = class else { continue };
            if !self.holders || k.id.is_none() {
                continue;
            }
            for &h in &self.plans[k.ty].held_by {
                if let std::collections::hash_map::Entry::Vacant(e) =
                    holders.entry((h, k.queue.to_vec()))
                {
                    e.insert(b.len());
                    b.push(Read::Type, &[&holder_key(self.ks, h, k.queue)]);
                }
            }
        }
        let replies = b.send(con).map_err(lost)?;
        Ok(First {
            replies,
            at,
            holders,
        })
    }

    /// Counts a key of a contract type and plans its second look.
    fn known(
        &mut self,
        key: &[u8],
        k: Known,
        first: &First,
        at: usize,
        second: &mut Second,
    ) -> Look {
        let plan = &self.plans[k.ty];
        let (ty, hlen) = match plan.record {
            Some(_) => match &first.replies[at] {
                // HRANDFIELD or HKEYS: field names (none: the key is gone).
                Ok(v) if self.modern => match items(v).len() {
                    0 => ("none".to_string(), 0),
                    n => ("hash".to_string(), n as i64),
                },
                Ok(v) => match int(v) {
                    Some(0) => ("none".to_string(), 0),
                    Some(n) => ("hash".to_string(), n),
                    None => ("?".to_string(), 0),
                },
                Err(e) if e.starts_with("WRONGTYPE") => return Look::Retype,
                Err(e) => {
                    self.tally.error(e.clone());
                    return Look::Done;
                }
            },
            None => (redis_type(&first.replies[at]), 0),
        };
        if ty == "none" {
            self.tally.vanished += 1;
            return Look::Done;
        }
        self.tally.known += 1;
        if self.wrong_type(key, k.ty, &ty) {
            return Look::Done;
        }
        match self.plans[k.ty].record.filter(|_| ty == "hash") {
            Some(record) if self.modern => {
                self.sample_read(key, record, &first.replies[at], second)
            }
            Some(record) => self.plan_fields(key, record, hlen, second),
            None => {}
        }
        if let Some(id) = k.id.filter(|_| self.holders) {
            self.plan_held(key, k, id, first, second);
        }
        let holds = self.plans[k.ty].holds.is_some();
        match holds && self.holders && matches!(ty.as_str(), "zset" | "set" | "list") {
            true => Look::Members(ty),
            false => Look::Done,
        }
    }

    /// WA104 when a key of type `t` holds another Redis type than the
    /// contract says.
    fn wrong_type(&mut self, key: &[u8], t: usize, found: &str) -> bool {
        let plan = &self.plans[t];
        let Some(expected) = plan.expected.as_ref().filter(|e| *e != found) else {
            return false;
        };
        let kind = Kind::RedisType {
            type_name: plan.name.clone(),
            expected: expected.clone(),
            found: found.to_string(),
        };
        let template = plan.template.clone();
        self.add_timed(kind, template, key);
        true
    }

    /// `TYPE` of the record keys whose `HLEN` said they are no hash.
    fn retype(&mut self, con: &mut Connection, keys: &[(&[u8], Known)]) -> ScanResult<()> {
        let mut b = Batch::default();
        for (key, _) in keys {
            b.push(Read::Type, &[key]);
        }
        let replies = b.send(con).map_err(lost)?;
        for ((key, k), r) in keys.iter().zip(&replies) {
            match redis_type(r).as_str() {
                "none" => self.tally.vanished += 1,
                ty => {
                    self.tally.known += 1;
                    self.wrong_type(key, k.ty, ty);
                }
            }
        }
        Ok(())
    }

    /// Counts `key` in a group that also counts how many of its keys
    /// expire (asked after the page, for the keys in groups only).
    pub(super) fn add_timed(&mut self, kind: Kind, template: String, key: &[u8]) {
        if self
            .tally
            .add(kind.clone(), template.clone(), key)
            .is_some()
        {
            self.timed.push((kind, template, key.to_vec()));
        }
    }

    /// `TTL` of the keys [`Scanner::add_timed`] counted this page.
    fn expiries(&mut self, con: &mut Connection) -> ScanResult<()> {
        let timed = std::mem::take(&mut self.timed);
        let mut b = Batch::default();
        for (_, _, key) in &timed {
            b.push(Read::Ttl, &[key]);
        }
        let replies = b.send(con).map_err(lost)?;
        for ((kind, template, _), r) in timed.into_iter().zip(&replies) {
            if int_reply(Some(r)).is_some_and(|t| t >= 0) {
                if let Some(g) = self.tally.groups.get_mut(&(kind, template)) {
                    g.expiring += 1;
                }
            }
        }
        Ok(())
    }

    /// The first look at a record key: `HRANDFIELD key n+1` (every field
    /// of a hash of at most n, else n+1 of them), `HKEYS` with `--sample
    /// 0`; `HLEN` on a server without `HRANDFIELD`.
    fn read_record(&self, b: &mut Batch, key: &[u8]) {
        if !self.modern {
            b.push(Read::Hlen, &[key]);
        } else if self.limits.sample == 0 {
            b.push(Read::Hkeys, &[key]);
        } else {
            let n = (u64::from(self.limits.sample) + 1).to_string();
            b.push(Read::Hrandfield, &[key, n.as_bytes()]);
        }
    }

    /// Whether the server has `HRANDFIELD` (asked of a key that does not
    /// exist).
    pub(super) fn probe(&mut self, con: &mut Connection) -> ScanResult<()> {
        let probe = format!("{}wirelint-audit-probe", self.ks.prefix);
        match wire::one(con, Read::Hrandfield, &[probe.as_bytes(), b"1"]) {
            Ok(_) => self.modern = true,
            Err(e) if e.is_lost() => return Err(lost(e)),
            Err(_) => self.modern = false,
        }
        Ok(())
    }

    /// The fields `HRANDFIELD` (or `HKEYS`) returned: counted now, but for
    /// a sample (more than `--sample` fields), whose record fields it did
    /// not show are asked with `HEXISTS` in the second pipeline.
    fn sample_read(&mut self, key: &[u8], record: usize, reply: &Reply, second: &mut Second) {
        let Ok(v) = reply else { return };
        let names: BTreeSet<&[u8]> = items(v).iter().filter_map(bytes).collect();
        let sampled = self.limits.sample > 0 && names.len() > self.limits.sample as usize;
        let unknown = self.unknown_fields(record, &names);
        let fields = &self.records[record].fields;
        let absent: Vec<usize> = (0..fields.len())
            .filter(|i| !names.contains(fields[*i].0.as_bytes()))
            .collect();
        if !sampled {
            let missing = absent.iter().map(|i| fields[*i].0.clone()).collect();
            self.field_findings(key, record, unknown, missing, false);
            return;
        }
        self.tally.sampled_hashes += 1;
        self.field_findings(key, record, unknown, Vec::new(), true);
        if absent.is_empty() {
            return;
        }
        for i in &absent {
            second
                .batch
                .push(Read::Hexists, &[key, fields[*i].0.as_bytes()]);
        }
        second.checks.push(Check::Missing {
            key: key.to_vec(),
            record,
            asked: absent,
        });
    }

    /// `HKEYS`, or on a hash larger than `--sample`, `HSCAN` and one
    /// `HEXISTS` per record field.
    fn plan_fields(&mut self, key: &[u8], record: usize, hlen: i64, second: &mut Second) {
        let sampled = self.limits.sample > 0 && hlen > i64::from(self.limits.sample);
        if sampled {
            self.tally.sampled_hashes += 1;
            let n = self.limits.sample.to_string();
            second
                .batch
                .push(Read::Hscan, &[key, b"0", b"COUNT", n.as_bytes()]);
            for (f, _) in &self.records[record].fields {
                second.batch.push(Read::Hexists, &[key, f.as_bytes()]);
            }
        } else {
            second.batch.push(Read::Hkeys, &[key]);
        }
        second.checks.push(Check::Fields {
            key: key.to_vec(),
            record,
            sampled,
        });
    }

    /// Asks each holder of a held key whether it holds the key's id:
    /// `ZMSCORE` a sorted set, `SMISMEMBER` a set (one command per holder
    /// key and page); a list is not asked.
    fn plan_held(&mut self, key: &[u8], k: Known, id: &[u8], first: &First, second: &mut Second) {
        let held_by = &self.plans[k.ty].held_by;
        if held_by.is_empty() {
            return;
        }
        let types: Vec<(usize, String)> = held_by
            .iter()
            .map(|&h| (h, first.holder_type(h, k.queue)))
            .collect();
        if types.iter().any(|(_, t)| t == "list") {
            // Cannot tell without reading the whole list: not judged.
            self.tally.unchecked += 1;
            return;
        }
        let check = second.checks.len();
        for (h, t) in types {
            let read = match t.as_str() {
                "zset" => Read::Zmscore,
                "set" => Read::Smismember,
                // No holder key (or not one that holds): not held there.
                _ => continue,
            };
            second.ask(holder_key(self.ks, h, k.queue), read, check, id);
        }
        // The row's state, when the record has one, says whether it waits
        // in a holder at all.
        let state = self.plans[k.ty]
            .record
            .and_then(|r| self.records[r].state.as_deref());
        if let Some(f) = state {
            second.batch.push(Read::Hget, &[key, f.as_bytes()]);
        }
        second.checks.push(Check::Held {
            key: key.to_vec(),
            ty: k.ty,
            state: state.is_some(),
        });
    }
}

/// What a key of a contract type needs after the second pipeline.
enum Look {
    Done,
    /// Its members checked: a holder key of this Redis type.
    Members(String),
    /// Its `TYPE` (a record key that is no hash).
    Retype,
}

/// The key of holder type `h` in `queue` (a holder asked for its members
/// has no placeholder).
pub(super) fn holder_key(ks: &Keyspace, h: usize, queue: &[u8]) -> Vec<u8> {
    super::keys::render(ks, h, queue, b"")
}
