//! `check --upstream DIR`: the checked code held to the wire the code
//! under DIR shows, with no contract shipped. DIR is read as its own
//! project (its own `wirelint.toml`, found here as a plan finds it) and
//! drafted as `wirelint extract --as-contract DIR` prints it
//! (`views::draft`); the draft is the run's contract, named
//! `DIR (upstream's observed contract)`.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::pipeline::ContractChoice;
use crate::report::error::RunError;

use super::plan::contract_choice;

/// The contract of a run with `--upstream DIR`: the draft of DIR's code,
/// its scripts' slots named by `contract`'s types when one is given. A
/// DIR that is no directory, or whose code gives no draft, is a usage
/// error; a contract error of DIR's `wirelint.toml` is DIR's.
pub(super) fn choice(
    dir: &Path,
    contract: Option<&PathBuf>,
    max: u64,
) -> Result<ContractChoice, RunError> {
    let shown = crate::source::display_name(dir.as_os_str());
    directory(dir, &shown).map_err(RunError::usage)?;
    let origin = format!("{shown} (upstream's observed contract)");
    let config = Config::find_limited(dir, max);
    let draft = crate::views::draft::of_code(dir, contract_choice(contract, false), config)
        .map_err(super::analyze_error)?;
    if draft.files == 0 {
        return Err(RunError::usage(format!(
            "--upstream {shown} holds no source file wirelint reads ({}): there is no code to draft the upstream's contract from",
            crate::extract::lang::language_list("or")
        )));
    }
    if draft.is_empty() {
        let n = draft.files;
        let files = if n == 1 { "file" } else { "files" };
        return Err(RunError::usage(format!(
            "--upstream {shown}: its code ({n} source {files}) builds no key, writes no record and runs no script that wirelint follows, so the draft of its contract is empty and would hold the checked code to nothing"
        )));
    }
    // A draft that does not load is reported as a contract error in it.
    draft.compile(&origin).map_err(RunError::contract)?;
    Ok(ContractChoice::Drafted {
        text: draft.text,
        origin,
    })
}

/// `--upstream DIR` must name a directory (a symbolic link to one will do).
fn directory(dir: &Path, shown: &str) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => Err(format!(
            "--upstream {shown} is not a directory ({}): name the folder of the upstream's code",
            crate::input::kind(&m)
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(format!("--upstream {shown}: no such directory"))
        }
        Err(e) => Err(format!("--upstream {shown}: cannot read it: {e}")),
    }
}
