//! The functions a `.lua` file defines at its top level, summarized for
//! the scripts that `--- @include` it: each runs once more with its
//! parameters as `Value::Param`, and what it sends (commands, calls of
//! functions its file does not define, `rcall` among them when the
//! including script binds it) is kept with those parameters in place. The
//! link step binds them to each call's arguments, so a write through an
//! included function is the same fact as one written in the script.

use tree_sitter::Node;

use super::eval::Eval;
use super::value::{Kind, Lv};
use crate::extract::fields::LUA as F;
use crate::facts::{LuaFunction, Value};
use crate::parse::named_children;

/// Top-level functions summarized per file.
const MAX_FUNCTIONS: usize = 256;

impl<'t> Eval<'_, 't> {
    /// Summarizes the top-level functions, and names the top level's
    /// aliases of `redis.call`.
    pub(super) fn summarize(&mut self) {
        let mut names: Vec<String> = self
            .scopes
            .first()
            .into_iter()
            .flatten()
            .filter(|(_, b)| matches!(b.v.kind, Kind::Redis))
            .map(|(n, _)| n.clone())
            .collect();
        names.sort();
        self.out.redis_names = names;
        let top = std::mem::take(&mut self.top);
        let mut functions = Vec::new();
        for (name, f) in top.into_iter().take(MAX_FUNCTIONS) {
            // Each summary has a budget of its own.
            self.steps = 0;
            let saved = std::mem::take(&mut self.out);
            self.run_with_params(f);
            let found = std::mem::replace(&mut self.out, saved);
            // One that sends nothing is kept too: a call of it is seen,
            // and sends nothing.
            functions.push(LuaFunction {
                name,
                commands: found.commands,
                calls: found.calls,
            });
        }
        self.out.functions = functions;
    }

    /// Runs `f` with each named parameter bound to `Value::Param`, more
    /// arguments open when it takes `...`.
    fn run_with_params(&mut self, f: Node<'t>) {
        let mut args = Vec::new();
        let mut open = false;
        let params = f
            .child_by_field_id(F.parameters)
            .map(named_children)
            .unwrap_or_default();
        for p in params {
            match p.kind() {
                "identifier" => args.push(Lv::val(Value::Param {
                    index: args.len(),
                    name: self.s.text(p),
                    span: self.s.span(p),
                })),
                "vararg_expression" => open = true,
                _ => {}
            }
        }
        self.recording = true;
        self.optional = true;
        self.site = None;
        self.no_site = true;
        let span = self.s.span(f);
        // Defined at the top level: the chunk's scope is its upvalues.
        self.call_fn(f, 1, args, open, span);
        self.no_site = false;
        self.recording = false;
    }
}
