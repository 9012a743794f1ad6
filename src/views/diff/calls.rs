//! A call's KEYS (`diff`): a call that passes another number of keys than
//! at the base, where its script takes neither, is a change (WD305), as
//! `check` reports it (WL303). Calls are paired by speaker, script and
//! file, in the order they are written there; a file whose calls of a
//! script are more or fewer than at the base pairs none.

use std::collections::BTreeMap;

use super::Change;
use crate::contract::Contract;
use crate::facts::Span;
use crate::link::calls::NumKeys;
use crate::link::normalize_name;
use crate::link::records::key_shape;
use crate::pipeline::Analysis;

/// One invocation of a script, as `diff` compares it.
struct CallAt {
    site: Span,
    /// The number of keys it passes.
    count: u32,
    /// Each key's shape, when the code shows every key and each one
    /// resolves to one shape.
    keys: Option<Vec<String>>,
    /// The script's name and the number of keys it takes, where known.
    script: String,
    takes: Option<u32>,
}

/// (speaker, normalized script name, file) → its calls in span order.
type Calls = BTreeMap<(String, String, String), Vec<CallAt>>;

fn observe(a: &Analysis, contract: Option<&Contract>) -> Calls {
    let m = &a.model;
    let mut out = Calls::new();
    for c in m.script_calls.iter().filter(|c| !c.echo) {
        let Some(site) = c.site.or((!c.in_wrapper).then_some(c.span)) else {
            continue;
        };
        let count = match c.numkeys {
            NumKeys::Literal(n, _) | NumKeys::Counted(n, _) => Some(n),
            NumKeys::FromKeys if c.keys_complete => u32::try_from(c.keys.len()).ok(),
            _ => None,
        };
        let Some(count) = count else {
            continue;
        };
        let keys = c.keys_complete.then(|| {
            c.keys
                .iter()
                .map(|k| match k.alts.as_ref() {
                    [t] => Some(key_shape(t)),
                    _ => None,
                })
                .collect::<Option<Vec<String>>>()
        });
        let s = &m.scripts[c.script];
        let script = s.display_name(contract);
        // The code's own count, as the script's side of `diff` reads it
        // (a contract that still says otherwise is `check`'s to report).
        let takes = s
            .declared_count(None)
            .map(|d| d.count)
            .or_else(|| s.body_max());
        let file = a.sources.get(site.file).rel.clone();
        let at = (
            m.speakers[c.speaker].name.clone(),
            normalize_name(&script),
            file,
        );
        out.entry(at).or_default().push(CallAt {
            site,
            count,
            keys: keys.flatten(),
            script,
            takes,
        });
    }
    for v in out.values_mut() {
        v.sort_by_key(|c| c.site);
        v.dedup_by_key(|c| c.site);
    }
    out
}

/// The calls whose key count changed to one their script does not take.
pub(super) fn changed(
    base: &Analysis,
    head: &Analysis,
    contract: Option<&Contract>,
) -> Vec<Change> {
    let b = observe(base, contract);
    let h = observe(head, contract);
    let mut out = Vec::new();
    for (at, hv) in &h {
        let Some(bv) = b.get(at).filter(|bv| bv.len() == hv.len()) else {
            continue;
        };
        for (bc, hc) in bv.iter().zip(hv) {
            if bc.count == hc.count || hc.takes == Some(hc.count) {
                continue;
            }
            out.push(Change {
                code: "WD305",
                speaker: at.0.clone(),
                message: message(bc, hc),
                before: Some(format!("{} KEYS", bc.count)),
                after: Some(format!("{} KEYS", hc.count)),
                base: Some(bc.site),
                head: Some(hc.site),
                file: None,
                callers: Vec::new(),
                still: ("", String::new()),
            });
        }
    }
    out
}

/// "a call of `move` no longer passes `q:{<*>}:meta` (KEYS[4]): 6 keys,
/// where `move` takes 7".
fn message(bc: &CallAt, hc: &CallAt) -> String {
    let name = &hc.script;
    let takes = match hc.takes {
        Some(t) => format!(", where `{name}` takes {t}"),
        None => String::new(),
    };
    let n = hc.count;
    let keys = format!("{n} key{}", if n == 1 { "" } else { "s" });
    if let (Some(bk), Some(hk)) = (&bc.keys, &hc.keys) {
        if bk.len() == hk.len() + 1 {
            let i = bk.iter().zip(hk).take_while(|(x, y)| x == y).count();
            if bk[i + 1..] == hk[i..] {
                return format!(
                    "a call of `{name}` no longer passes `{}` (KEYS[{}]): {keys}{takes}",
                    bk[i],
                    i + 1
                );
            }
        }
        if bk.len() + 1 == hk.len() {
            let i = bk.iter().zip(hk).take_while(|(x, y)| x == y).count();
            if bk[i..] == hk[i + 1..] {
                return format!(
                    "a call of `{name}` now also passes `{}` (KEYS[{}]): {keys}{takes}",
                    hk[i],
                    i + 1
                );
            }
        }
    }
    format!("a call of `{name}` passes {keys}, not {}{takes}", bc.count)
}
