//! A method that runs the script a field of its receiver holds
//! (`self.inc.key(k).invoke(con)`, `this.script.run(..)`) runs that
//! field's script: the one its type's constructors put there. It is no
//! wrapper whose callers pick the script: the call is the method's, and
//! its callers (which bind its keys, where they are parameters) share its
//! place. A field whose script the constructors do not show stays the
//! receiver's, for the callers to bind.

use super::Proto;
use crate::facts::{Span, Value, RECEIVER};
use crate::link::identify::{identify_own_field, Lookup};

/// The script a proto of a method of `module` runs when its script is a
/// field of the receiver that names one, as a reference to that script.
pub(super) fn own_field_script(p: &Proto, module: &str, lk: &Lookup<'_>) -> Option<Value> {
    let Value::Param {
        index: RECEIVER,
        name,
        ..
    } = &p.script
    else {
        return None;
    };
    if name == "self" || module.is_empty() {
        return None;
    }
    let id = identify_own_field(&p.script, p.speaker, p.file, module, lk)?;
    // A place that holds the script: the first of its definitions.
    let (file, index) = lk
        .script_at
        .iter()
        .filter(|(_, s)| **s == id)
        .map(|(at, _)| *at)
        .min()?;
    Some(Value::ScriptRef {
        index,
        span: Span::new(file, 0, 0),
    })
}
