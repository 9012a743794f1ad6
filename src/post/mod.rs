//! What happens to the findings after the checks: inline suppressions
//! (`suppress`), the baseline of known findings (`baseline`), and the
//! edits `check --fix` applies (`fix`). The pipeline's own step over them
//! is `pipeline::post`.

pub mod baseline;
pub mod fix;
pub mod suppress;
