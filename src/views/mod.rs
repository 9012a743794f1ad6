//! Views of an analysis, computed and never printed: the observed
//! contract per speaker (`observe`, what `extract` shows) and drafted as a
//! contract (`draft`, what `audit --from-code` and `check --upstream` hold
//! to), the agreement matrix (`matrix`), what the script checks could see
//! (`coverage`), and the difference of two analyses (`diff`). The
//! reporters print them.

mod callers;
pub mod coverage;
mod data_types;
pub mod diff;
pub mod draft;
pub mod matrix;
pub mod observe;
pub mod results;
