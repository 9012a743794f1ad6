//! The second look at a page's keys: the fields of record hashes (WA201,
//! WA202) and whether a holder holds each held key (WA302); then the
//! members of holder keys, each checked for its key (WA301).

use std::collections::{BTreeSet, HashMap};

use super::conn::Connection;

use super::group::Kind;
use super::keys::{render, Known};
use super::scan::{int_reply, lost, ScanResult, Scanner};
use super::wire::{bytes, cursor_page, items, Batch, Read, Reply};

/// The second pipeline: its commands and what their replies answer.
#[derive(Default)]
pub(super) struct Second {
    pub batch: Batch,
    pub checks: Vec<Check>,
    /// One `ZMSCORE`/`SMISMEMBER` per holder key, sent after the checks'
    /// commands.
    pub asks: Vec<Ask>,
    ask_of: HashMap<Vec<u8>, usize>,
}

/// The ids asked of one holder key, each with its [`Check::Held`].
pub(super) struct Ask {
    holder: Vec<u8>,
    read: Read,
    ids: Vec<(usize, Vec<u8>)>,
}

impl Second {
    /// Asks `holder` (with `read`) whether it holds `id`, for check `check`.
    pub fn ask(&mut self, holder: Vec<u8>, read: Read, check: usize, id: &[u8]) {
        let i = *self.ask_of.entry(holder.clone()).or_insert_with(|| {
            self.asks.push(Ask {
                holder,
                read,
                ids: Vec::new(),
            });
            self.asks.len() - 1
        });
        self.asks[i].ids.push((check, id.to_vec()));
    }

    /// The batch with the asks at its end.
    pub fn into_batch(mut self) -> (Batch, Vec<Check>, Vec<Ask>) {
        for a in &self.asks {
            let mut args: Vec<&[u8]> = vec![&a.holder];
            args.extend(a.ids.iter().map(|(_, id)| id.as_slice()));
            self.batch.push(a.read, &args);
        }
        (self.batch, self.checks, self.asks)
    }
}

/// What the second pipeline asks about one key.
pub(super) enum Check {
    /// `HKEYS` (one reply), or `HSCAN` then one `HEXISTS` per record
    /// field.
    Fields {
        key: Vec<u8>,
        record: usize,
        sampled: bool,
    },
    /// `HEXISTS` for each of these record fields (by index) that a sample
    /// of the hash's fields did not show.
    Missing {
        key: Vec<u8>,
        record: usize,
        asked: Vec<usize>,
    },
    /// Asked of its holders through [`Second::ask`]; with `state`, an
    /// `HGET` of the record's state field first.
    Held {
        key: Vec<u8>,
        ty: usize,
        state: bool,
    },
}

/// Whether one element of a membership reply says the member is there
/// (`ZMSCORE`'s score, `SMISMEMBER`'s 1).
fn present(v: &super::wire::Value) -> bool {
    use super::wire::Value;
    !matches!(v, Value::Nil | Value::Int(0) | Value::Bool(false))
}

impl Scanner<'_> {
    /// Counts what the second pipeline answered.
    pub(super) fn second_replies(&mut self, checks: &[Check], asks: &[Ask], replies: &[Reply]) {
        let mut at = 0;
        // Per check: whether a held row waits in a holder the asks can
        // see (`Some(true)`), in none (`Some(false)`), or may wait in one
        // they cannot (`None`).
        let mut waits: Vec<Option<bool>> = vec![Some(true); checks.len()];
        for (i, c) in checks.iter().enumerate() {
            match c {
                Check::Fields {
                    key,
                    record,
                    sampled,
                } => {
                    let n = if *sampled {
                        1 + self.records[*record].fields.len()
                    } else {
                        1
                    };
                    let rs = replies.get(at..at + n).unwrap_or(&[]);
                    at += n;
                    self.fields(key, *record, *sampled, rs);
                }
                Check::Missing { key, record, asked } => {
                    let rs = replies.get(at..at + asked.len()).unwrap_or(&[]);
                    at += asked.len();
                    let fields = &self.records[*record].fields;
                    let missing = asked
                        .iter()
                        .zip(rs)
                        .filter(|(_, r)| int_reply(Some(r)) == Some(0))
                        .map(|(i, _)| fields[*i].0.clone())
                        .collect();
                    self.field_findings(key, *record, BTreeSet::new(), missing, true);
                }
                Check::Held { ty, state, .. } => {
                    if *state {
                        waits[i] = self.waits(*ty, replies.get(at));
                        at += 1;
                    }
                }
            }
        }
        // Held: some holder has the id; unknown: a holder could not say.
        let mut held = vec![false; checks.len()];
        let mut unknown = vec![false; checks.len()];
        for (a, r) in asks.iter().zip(replies.get(at..).unwrap_or(&[])) {
            match r {
                Ok(v) => {
                    for ((c, _), item) in a.ids.iter().zip(items(v)) {
                        held[*c] |= present(item);
                    }
                }
                Err(e) => {
                    self.tally.error(e.clone());
                    for (c, _) in &a.ids {
                        unknown[*c] = true;
                    }
                }
            }
        }
        for (i, c) in checks.iter().enumerate() {
            let Check::Held { key, ty, .. } = c else {
                continue;
            };
            if unknown[i] || waits[i].is_none() {
                self.tally.unchecked += 1;
            } else if waits[i] == Some(false) {
                self.tally.waiting_nowhere += 1;
            } else if !held[i] {
                let kind = Kind::KeyWithoutHolder {
                    held: self.plans[*ty].name.clone(),
                };
                let template = self.plans[*ty].template.clone();
                self.add_timed(kind, template, key);
            }
        }
    }

    /// Whether a held row of type `ty` whose state field answered `reply`
    /// waits in a holder the asks see: its state is the name of one of
    /// them (`pending`); `Some(false)` when it names no holder of its type
    /// (`done`), `None` when it names one not asked or cannot be read.
    fn waits(&mut self, ty: usize, reply: Option<&Reply>) -> Option<bool> {
        let state = match reply {
            Some(Ok(v)) => bytes(v).map(<[u8]>::to_vec),
            Some(Err(e)) => {
                self.tally.error(e.clone());
                return None;
            }
            None => return None,
        };
        let names = |hs: &[usize]| -> Vec<Vec<u8>> {
            hs.iter()
                .map(|&h| self.plans[h].name.as_bytes().to_vec())
                .collect()
        };
        let asked = names(&self.plans[ty].held_by);
        let every: Vec<usize> = (0..self.plans.len())
            .filter(|&h| self.plans[h].holds == Some(ty))
            .collect();
        let state = state?;
        if asked.contains(&state) {
            Some(true)
        } else if names(&every).contains(&state) {
            None
        } else {
            Some(false)
        }
    }

    /// One record hash's fields: the names read (all, or a sample and the
    /// record's own fields asked one by one).
    fn fields(&mut self, key: &[u8], record: usize, sampled: bool, rs: &[Reply]) {
        let Some(Ok(first)) = rs.first() else {
            if let Some(Err(e)) = rs.first() {
                self.tally.error(e.clone());
            }
            return;
        };
        let names: BTreeSet<&[u8]> = if sampled {
            match cursor_page(first) {
                Some((_, page)) => page.iter().step_by(2).filter_map(bytes).collect(),
                None => BTreeSet::new(),
            }
        } else {
            items(first).iter().filter_map(bytes).collect()
        };
        let unknown = self.unknown_fields(record, &names);
        let rec = &self.records[record];
        let missing: Vec<String> = rec
            .fields
            .iter()
            .enumerate()
            .filter(|(i, (f, _))| match sampled {
                false => !names.contains(f.as_bytes()),
                true => int_reply(rs.get(1 + i)) == Some(0),
            })
            .map(|(_, (f, _))| f.clone())
            .collect();
        self.field_findings(key, record, unknown, missing, sampled);
    }

    /// The names (as templates) of fields the record does not have.
    pub(super) fn unknown_fields(
        &self,
        record: usize,
        names: &BTreeSet<&[u8]>,
    ) -> BTreeSet<String> {
        let rec = &self.records[record];
        names
            .iter()
            .filter(|f| !std::str::from_utf8(f).is_ok_and(|f| rec.has_field(f)))
            .map(|f| super::keys::field_template(f))
            .collect()
    }

    /// Counts a hash in the WA201 group of each unknown field and the WA202
    /// group of each missing one.
    pub(super) fn field_findings(
        &mut self,
        key: &[u8],
        record: usize,
        unknown: BTreeSet<String>,
        missing: Vec<String>,
        sampled: bool,
    ) {
        let mut missing = missing;
        missing.retain(|f| self.records[record].always_written(f));
        if unknown.is_empty() && missing.is_empty() {
            return;
        }
        let name = self.records[record].name.clone();
        let template = self.plans.iter().find(|p| p.record == Some(record));
        let template = template.map(|p| p.template.clone()).unwrap_or_default();
        let groups = unknown
            .into_iter()
            .map(|field| Kind::UnknownField {
                record: name.clone(),
                field,
            })
            .chain(missing.into_iter().map(|field| Kind::MissingField {
                record: name.clone(),
                field,
            }));
        for kind in groups {
            self.add_timed(kind.clone(), template.clone(), key);
            if let Some(g) = self.tally.groups.get_mut(&(kind, template.clone())) {
                g.sampled += u64::from(sampled);
            }
        }
    }

    /// Every member of one holder key, each checked for the key it names
    /// (pipelined `EXISTS`), a page at a time.
    pub(super) fn members(
        &mut self,
        con: &mut Connection,
        key: &[u8],
        k: Known,
        ty: &str,
    ) -> ScanResult<()> {
        let Some(held) = self.plans[k.ty].holds else {
            return Ok(());
        };
        let n = self.limits.count.max(1);
        let count = n.to_string();
        let mut cursor = b"0".to_vec();
        let mut start: i64 = 0;
        loop {
            let (ids, done) = match ty {
                "list" => {
                    let (s, e) = (start.to_string(), (start + i64::from(n) - 1).to_string());
                    let v = super::wire::one(con, Read::Lrange, &[key, s.as_bytes(), e.as_bytes()])
                        .map_err(lost)?;
                    let ids: Vec<Vec<u8>> = items(&v)
                        .iter()
                        .filter_map(bytes)
                        .map(<[u8]>::to_vec)
                        .collect();
                    start += i64::from(n);
                    let done = ids.len() < n as usize;
                    (ids, done)
                }
                _ => {
                    let read = if ty == "zset" {
                        Read::Zscan
                    } else {
                        Read::Sscan
                    };
                    let args: [&[u8]; 4] = [key, &cursor, b"COUNT", count.as_bytes()];
                    let v = super::wire::one(con, read, &args).map_err(lost)?;
                    let Some((next, page)) = cursor_page(&v) else {
                        self.tally.error(format!("{ty} scan answered {v:?}"));
                        return Ok(());
                    };
                    let step = if ty == "zset" { 2 } else { 1 };
                    let ids = page
                        .iter()
                        .step_by(step)
                        .filter_map(bytes)
                        .map(<[u8]>::to_vec)
                        .collect();
                    cursor = next;
                    (ids, cursor == b"0")
                }
            };
            self.check_members(con, k, held, &ids)?;
            if done || self.over_budget() {
                return Ok(());
            }
        }
    }

    /// `EXISTS` for the key each member names.
    fn check_members(
        &mut self,
        con: &mut Connection,
        k: Known,
        held: usize,
        ids: &[Vec<u8>],
    ) -> ScanResult<()> {
        let keys: Vec<Vec<u8>> = ids
            .iter()
            .map(|id| render(self.ks, held, k.queue, id))
            .collect();
        self.tally.members += ids.len() as u64;
        self.pace(ids.len() as u64);
        if keys.is_empty() {
            return Ok(());
        }
        // One EXISTS for the page (one slot: the keys share the holder's
        // hash tag); only when some are missing, one per key to say which.
        let all: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        let v = super::wire::one(con, Read::Exists, &all).map_err(lost)?;
        if super::wire::int(&v) == Some(keys.len() as i64) {
            return Ok(());
        }
        let mut b = Batch::default();
        for key in &keys {
            b.push(Read::Exists, &[key]);
        }
        let replies = b.send(con).map_err(lost)?;
        for (key, r) in keys.iter().zip(&replies) {
            if let Err(e) = r {
                self.tally.error(e.clone());
                continue;
            }
            if int_reply(Some(r)) == Some(0) {
                let kind = Kind::MemberWithoutKey {
                    holder: self.plans[k.ty].name.clone(),
                    held: self.plans[held].name.clone(),
                };
                let template = self.plans[held].template.clone();
                self.tally.add(kind, template, key);
            }
        }
        Ok(())
    }
}
