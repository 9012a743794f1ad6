//! `wirelint contract`: the shipped contracts, listed (`list`, also
//! `wirelint rules --contracts`) or printed as shipped (`show NAME`), so
//! that a family is picked and read without a checkout of the rules.

use clap::Subcommand;

use super::{error, write_stdout};
use crate::contract::shipped::{self, SHIPPED};

#[derive(Subcommand, Debug)]
pub enum ContractCommand {
    /// List the shipped contracts: the name `--contract` takes, its file,
    /// and what it describes (as `wirelint rules --contracts`).
    List,
    /// Print a shipped contract's TOML exactly as shipped (`rules/NAME.toml`).
    Show {
        /// A shipped contract's name, such as bullmq.
        name: String,
    },
}

/// Runs `wirelint contract COMMAND`; the exit code.
pub(super) fn run(command: &ContractCommand) -> i32 {
    match command {
        ContractCommand::List => list(),
        ContractCommand::Show { name } => show(name),
    }
}

/// The shipped contracts, one a line: the name `--contract` takes, its
/// file, and what it describes.
pub(super) fn list() -> i32 {
    let w = SHIPPED.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut s = String::new();
    for c in SHIPPED {
        s.push_str(&format!("{:<w$} {} {}\n", c.name, c.path, c.description()));
    }
    write_stdout(&s)
}

/// `show NAME`: the text of the shipped contract NAME, byte for byte; a
/// name no contract has is a usage error with `check`'s did-you-mean.
fn show(name: &str) -> i32 {
    if let Some(s) = shipped::named(name) {
        return write_stdout(s.text);
    }
    if shipped::is_path(name) {
        return error(&format!(
            "`contract show` prints a shipped contract by its name; `{name}` is written as a path (`wirelint contract list` names the shipped ones)"
        ));
    }
    error(&shipped::unknown_message(name))
}
