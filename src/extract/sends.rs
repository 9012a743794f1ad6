//! What a client call or a script call states, built the same way by
//! every extractor that reads one: a command a client sends (its name,
//! the arguments listed, whether more may follow and what they are), a
//! script run with its keys and its args as two sequences ([`Seq`]), a
//! call of the code base. A context that states them where it walks
//! ([`States`]) gives only its facts and the function it is in.

use tree_sitter::Node;

use crate::extract::source::Source;
use crate::facts::{CallFact, Command, FileFacts, ScriptCall, Sink, Span, Value};

/// A context that states calls as it walks.
pub(crate) trait States: Source {
    /// The facts stated so far, and the function being walked (an index
    /// into their functions).
    fn stated(&mut self) -> (&mut FileFacts, Option<usize>);

    /// The command a client sends at the call `n`, its name written at
    /// `m` ([`client_command`]).
    fn push_command(
        &mut self,
        name: String,
        m: Node<'_>,
        n: Node<'_>,
        args: Vec<Value>,
        open: bool,
        tail: Vec<Value>,
    ) {
        let (name_span, span) = (self.span(m), self.span(n));
        let (facts, func) = self.stated();
        let command = client_command(name, name_span, args, open, tail, span, func);
        facts.commands.push(command);
    }

    /// A run of `script` with `keys` and `args` at the call `n`
    /// ([`script_call`]).
    fn push_run(&mut self, n: Node<'_>, script: Value, keys: Seq, args: Seq) {
        let span = self.span(n);
        let (facts, func) = self.stated();
        facts
            .script_calls
            .push(script_call(script, keys, args, span, func));
    }

    /// The call `n` of a function of the code base ([`call_fact`]).
    fn push_call(
        &mut self,
        n: Node<'_>,
        path: Vec<String>,
        args: Vec<Value>,
        receiver: Option<Value>,
    ) {
        let span = self.span(n);
        let (facts, func) = self.stated();
        facts
            .calls
            .push(call_fact(path, args, receiver, span, func));
    }

    /// The arguments the call just pushed passes by name (`f(a, keys=[..])`,
    /// `f(a, keys: [..])`), each bound to the callee's parameter of its name.
    fn name_arguments(&mut self, named: Vec<(String, Value)>) {
        let (facts, _) = self.stated();
        if let Some(c) = facts.calls.last_mut().filter(|_| !named.is_empty()) {
            c.named = named;
        }
    }
}

/// What a call passes as one sequence (a script's keys, its args): the
/// items listed, whether more may follow, and the collection they come
/// from when they are not listed.
pub(crate) struct Seq {
    pub(crate) items: Vec<Value>,
    pub(crate) open: bool,
    pub(crate) from: Option<Value>,
}

impl Seq {
    /// Nothing passed.
    pub(crate) fn empty() -> Seq {
        Seq {
            items: Vec::new(),
            open: false,
            from: None,
        }
    }

    /// A sequence argument's value: absent (empty), a list the code shows
    /// whole, or a collection whose items are not listed (open, from it).
    pub(crate) fn of(v: Option<Value>) -> Seq {
        match v {
            None => Seq::empty(),
            Some(Value::List { items, tail, .. }) if tail.is_empty() => Seq {
                items,
                open: false,
                from: None,
            },
            Some(v) => Seq {
                items: Vec::new(),
                open: true,
                from: Some(v),
            },
        }
    }
}

/// A run of `script` with `keys` and `args`, the call at `span` in the
/// function `func`.
pub(crate) fn script_call(
    script: Value,
    keys: Seq,
    args: Seq,
    span: Span,
    func: Option<usize>,
) -> ScriptCall {
    ScriptCall {
        script,
        numkeys: None,
        keys: keys.items,
        args: args.items,
        open_keys: keys.open,
        open_args: args.open,
        keys_from: keys.from,
        args_from: args.from,
        span,
        func,
        returned: false,
    }
}

/// A command a client sends: `name` (written at `name_span`), the `args`
/// listed, and whether more may follow (`open`) and what they are
/// (`tail`); the call at `span` in the function `func`.
pub(crate) fn client_command(
    name: String,
    name_span: Span,
    args: Vec<Value>,
    open: bool,
    tail: Vec<Value>,
    span: Span,
    func: Option<usize>,
) -> Command {
    Command {
        name,
        name_span,
        name_of: None,
        args,
        open_tail: open,
        tail,
        span,
        func,
        sink: Sink::Client,
    }
}

/// A call of a function of the code base by `path`, with its `args` (and
/// the value it is called on, `receiver`); the call at `span` in the
/// function `func`.
pub(crate) fn call_fact(
    path: Vec<String>,
    args: Vec<Value>,
    receiver: Option<Value>,
    span: Span,
    func: Option<usize>,
) -> CallFact {
    CallFact {
        path,
        args,
        receiver,
        span,
        func,
        named: Vec::new(),
        on_client: false,
    }
}

/// A call's receiver as a name the link may follow (a constant, a
/// parameter, a script); any other value (what a call returned) stays
/// opaque, `opaque()`.
pub(crate) fn receiver(v: Value, opaque: impl FnOnce() -> Value) -> Value {
    match v {
        v @ (Value::Const { .. } | Value::Param { .. } | Value::ScriptRef { .. }) => v,
        _ => opaque(),
    }
}
