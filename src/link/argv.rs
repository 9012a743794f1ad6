//! ARGV at call sites: what each call passes after its keys, resolved like
//! keys (constants, key builders and their clauses give the literals a
//! slot may carry), and the roles scripts give their ARGV slots.
//!
//! Call sites are found and bound through wrappers by `calls.rs`; this
//! module only reads what they pass.

use super::{Arg, Ctx, Resolver, Script};
use crate::contract::Contract;
use crate::facts::{Span, Value};

/// A `Script` invocation's args as a call site passes them: complete unless
/// the code adds some the analysis cannot count.
pub(super) fn flat_args(items: &[Value], open: bool) -> (Vec<Value>, bool) {
    (items.to_vec(), !open)
}

/// A call site's ARGV resolved slot by slot, as a value passed in `file`
/// of `speaker` (the call's span).
pub(super) fn resolve(
    resolver: &Resolver<'_>,
    args: &[Value],
    speaker: super::SpeakerId,
    file: crate::facts::FileId,
) -> Vec<Arg> {
    let cx = Ctx {
        speaker,
        module: "",
        file,
    };
    args.iter()
        .map(|v| Arg {
            value: v.clone(),
            alts: resolver.templates(v, &cx).into(),
        })
        .collect()
}

impl Arg {
    /// Every literal this value may send, with its span, when it sends only
    /// literals (a builder whose clauses all return literals, an `if` of
    /// two literals); `None` when some alternative is not literal.
    pub fn literals(&self) -> Option<Vec<(String, Span)>> {
        if let Some(one) = self.literal() {
            return Some(vec![one]);
        }
        if self.alts.is_empty() {
            return None;
        }
        // Each literal at its own bytes (a builder's clause, an `if` arm).
        self.alts
            .iter()
            .map(|t| {
                let at = t.segs.first().map(|s| s.span()).unwrap_or(t.span);
                t.as_literal().map(|s| (s, at))
            })
            .collect()
    }
}

/// Where a slot's role comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgvRoleSource {
    Contract,
    Header,
}

/// The role of `ARGV[n]`.
#[derive(Clone, Debug)]
pub struct ArgvRole {
    pub text: String,
    /// The header comment's span (a span in the code).
    pub span: Option<Span>,
    pub source: ArgvRoleSource,
}

impl Script {
    /// The role of `ARGV[n]`: the contract's `argv`, then the header comment.
    pub fn argv_role(&self, n: u32, contract: Option<&Contract>) -> Option<ArgvRole> {
        if let (Some(c), Some(i)) = (contract, self.contract) {
            if let Some((role, _)) = c.scripts[i].argv.get((n as usize).checked_sub(1)?) {
                return Some(ArgvRole {
                    text: role.clone(),
                    span: None,
                    source: ArgvRoleSource::Contract,
                });
            }
        }
        let d = self.lua.argv.header.iter().find(|d| d.index == n)?;
        Some(ArgvRole {
            text: d.role.clone(),
            span: Some(d.span),
            source: ArgvRoleSource::Header,
        })
    }

    /// How many ARGV values the script may read at most, when that is
    /// known: not variadic, its body known, nothing included that may read
    /// more. The contract's `argv` and the header comments count as reads.
    pub fn argv_upper(&self, contract: Option<&Contract>) -> Option<u32> {
        if !self.body || self.lua.argv.variadic || !self.lua.includes.is_empty() {
            return None;
        }
        let declared = match (contract, self.contract) {
            (Some(c), Some(i)) => c.scripts[i].argv.len() as u32,
            _ => 0,
        };
        Some(self.lua.argv.max_read().max(declared))
    }
}
