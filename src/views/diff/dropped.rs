//! A key dropped from a script's KEYS, as one change (`diff`).

use super::{ScriptAt, SpeakerDiff};
use crate::facts::Span;

impl SpeakerDiff<'_> {
    /// One key taken out of a script's KEYS, the others moving up a slot:
    /// one change, naming the key and the callers that still pass the old
    /// count (rather than a change per slot that moved). Whether it was so.
    pub(super) fn dropped_key(&mut self, bsc: &ScriptAt, hsc: &ScriptAt) -> bool {
        let names = |r: &[Option<(String, Option<Span>)>]| -> Vec<Option<String>> {
            let mut v: Vec<_> = r.iter().map(|x| x.as_ref().map(|x| x.0.clone())).collect();
            while v.last().is_some_and(Option::is_none) {
                v.pop();
            }
            v
        };
        let (b, h) = (names(&bsc.roles), names(&hsc.roles));
        let Some(was) = bsc.count.map(|c| c.0) else {
            return false;
        };
        if b.len() != was as usize || h.len() + 1 != b.len() {
            return false;
        }
        let i = b.iter().zip(&h).take_while(|(x, y)| x == y).count();
        let (Some(gone), true) = (&b[i], b[i + 1..] == h[i..]) else {
            return false;
        };
        let now = was - 1;
        let by_name = self
            .registered
            .get(&crate::link::normalize_name(&hsc.name))
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut callers: Vec<Span> = hsc
            .callers
            .iter()
            .chain(by_name)
            .filter(|(n, _)| *n == was)
            .map(|c| c.1)
            .collect();
        callers.sort();
        callers.dedup();
        let still = match callers.len() {
            0 => String::new(),
            1 => format!("; this caller still passes {was}"),
            n => format!("; these {n} callers still pass {was}"),
        };
        let bspan = bsc.roles[i].as_ref().and_then(|r| r.1).unwrap_or(bsc.def);
        self.push(
            "WD301",
            format!(
                "script `{}`: `{gone}` removed from KEYS ({was} \u{2192} {now}){still}",
                hsc.name
            ),
            Some(format!("KEYS[{}] {gone}", i + 1)),
            Some(format!("{now} KEYS")),
            Some(bspan),
            Some(hsc.count.and_then(|c| c.1).unwrap_or(hsc.def)),
        );
        if let Some(c) = self.out.last_mut() {
            c.callers = callers;
            c.still = ("a caller", "still passes the old count".into());
        }
        true
    }
}
