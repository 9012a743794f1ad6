//! A script call in one method (`client::METHODS`' `Sends::Eval` rows):
//! fred's `client.evalsha(hash, keys, args)` (or `script.evalsha(&client,
//! keys, args)`), and rustis's `client.eval(CallBuilder::script(s)
//! .keys(k).args(a))`, whose one argument builds the call
//! ([`CALL_BUILDER`]).

use tree_sitter::Node;

use super::client::CALL_BUILDER;
use super::paths::path_segments;
use super::{args_of, callee, peel_ref, Cx};
use crate::extract::fields::RUST as F;
use crate::extract::sends::{self, Seq};
use crate::extract::source::Source;
use crate::facts::{Span, Value};

/// How long a builder's chain is read (`CallBuilder::script(s)`, then
/// `.keys(..)` and `.args(..)`).
const MAX_LINKS: usize = 8;

impl Cx<'_, '_, '_> {
    /// fred: `(script or SHA, keys, args)`, the script the receiver where
    /// the first argument is the client.
    pub(super) fn fred_eval(&mut self, receiver: Node<'_>, args: &[Node<'_>], span: Span) {
        let [first, keys, argv] = args else {
            return;
        };
        let text = self.text(*first).to_ascii_lowercase();
        let script = if ["client", "conn", "pool", "pipe"]
            .iter()
            .any(|w| text.contains(w))
        {
            self.value(receiver, 0)
        } else {
            self.value(*first, 0)
        };
        let keys = self.eval_list(*keys, true);
        let argv = self.eval_list(*argv, false);
        let call = sends::script_call(script, keys, argv, span, self.cur_func);
        self.facts.script_calls.push(call);
    }

    /// rustis: the one argument builds the call, `CallBuilder::script(s)`
    /// (or `sha1(h)`) then `.keys(k)` and `.args(a)`. A builder the
    /// argument does not show (a variable holding one) runs a script the
    /// call does not say, its keys and args open.
    pub(super) fn built_eval(&mut self, builder: Node<'_>, span: Span) {
        let (mut keys, mut argv, mut script) = (None, None, None);
        let mut cur = peel_ref(builder);
        for _ in 0..MAX_LINKS {
            let Some(f) = callee(cur).filter(|_| cur.kind() == "call_expression") else {
                break;
            };
            let args = args_of(cur);
            if f.kind() != "field_expression" {
                let path = path_segments(&self.text(f));
                if let ([.., ty, ctor], [s]) = (path.as_slice(), args.as_slice()) {
                    let (builder_type, ctors) = CALL_BUILDER;
                    if ty == builder_type && ctors.contains(&ctor.as_str()) {
                        script = Some(*s);
                    }
                }
                break;
            }
            let (Some(recv), Some(method)) =
                (f.child_by_field_id(F.value), f.child_by_field_id(F.field))
            else {
                break;
            };
            match (self.text(method).as_str(), args.as_slice()) {
                ("keys", [k]) if keys.is_none() => keys = Some(*k),
                ("args", [a]) if argv.is_none() => argv = Some(*a),
                _ => break,
            }
            cur = recv;
        }
        let open = || Seq {
            open: true,
            ..Seq::empty()
        };
        let (script, keys, argv) = match script {
            Some(s) => (
                self.value(s, 0),
                keys.map_or_else(Seq::empty, |k| self.eval_list(k, true)),
                argv.map_or_else(Seq::empty, |a| self.eval_list(a, false)),
            ),
            None => (self.value(builder, 0), open(), open()),
        };
        let call = sends::script_call(script, keys, argv, span, self.cur_func);
        self.facts.script_calls.push(call);
    }

    /// The keys (or the args) a script call passes as one value: a list's
    /// items, one string (or, for args, one integer), `()` for none; else
    /// open (the keys with the collection they come from).
    fn eval_list(&mut self, n: Node<'_>, keys: bool) -> Seq {
        let listed = |items| Seq {
            items,
            ..Seq::empty()
        };
        if !keys && n.kind() == "unit_expression" {
            return Seq::empty();
        }
        match self.value(n, 0) {
            Value::List { items, tail, .. } if tail.is_empty() => listed(items),
            v @ Value::Str(_) => listed(vec![v]),
            v @ Value::Int { .. } if !keys => listed(vec![v]),
            _ if keys => Seq {
                open: true,
                from: Some(self.collection_value(n)),
                ..Seq::empty()
            },
            _ => Seq {
                open: true,
                ..Seq::empty()
            },
        }
    }
}
