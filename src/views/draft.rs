//! A contract drafted from code: the analysis of a tree written as
//! `wirelint extract --as-contract` prints it ([`super::observe::as_contract`])
//! and compiled. `audit --from-code PATH` holds a live keyspace to it, and
//! `check --upstream DIR` the checked code.
//!
//! Computes only: the callers find the tree's `wirelint.toml` (a plan's
//! work, `tests/tidy.rs`) and say what went wrong.

use std::path::Path;

use crate::contract::{Contract, ContractError};
use crate::pipeline::{analyze, AnalyzeError, ContractChoice, FoundConfig, Options};

/// The contract the code under a tree observes, as text, and how much code
/// that was.
#[derive(Debug)]
pub struct Draft {
    /// The draft, in the `rules/` format.
    pub text: String,
    /// Source files the analysis read and checked (0: nothing to draft from).
    pub files: usize,
}

impl Draft {
    /// Whether the draft says nothing of the wire: no keyspace, record or
    /// script (the code read builds no key wirelint follows). A contract
    /// so empty is refused ([`Draft::compile`] says so).
    pub fn is_empty(&self) -> bool {
        let Ok(table) = toml::from_str::<toml::Table>(&self.text) else {
            return false;
        };
        !["keyspace", "records", "scripts"]
            .iter()
            .any(|k| table.contains_key(*k))
    }

    /// The draft compiled, under `origin` as reports name it.
    pub fn compile(&self, origin: &str) -> Result<Contract, Box<ContractError>> {
        Contract::parse(&self.text, origin)
    }
}

/// The name a draft of the tree at `root` takes: its folder's name
/// (`extracted` when it has none, as for `/`).
pub fn name_of(root: &Path) -> String {
    std::fs::canonicalize(root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "extracted".into())
}

/// The draft of the code under `path`, read as its own project (from
/// `path`, with `config`, its `wirelint.toml` as its plan found it: an
/// unreadable one is the error). `contract` reads the scripts' roles: with
/// a contract named, the draft names the slots by its types (`extract
/// --as-contract --contract NAME`).
pub fn of_code(
    path: &Path,
    contract: ContractChoice,
    config: FoundConfig,
) -> Result<Draft, AnalyzeError> {
    let settings = config.clone()?.map(|c| c.settings).unwrap_or_default();
    let analysis = analyze(&Options::new(
        path.to_path_buf(),
        vec![path.to_path_buf()],
        contract,
        config,
        settings,
    ))?;
    Ok(Draft {
        text: super::observe::as_contract(&analysis, &name_of(path)),
        files: analysis.files_checked,
    })
}
