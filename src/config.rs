//! `wirelint.toml`: the repository's settings, found by searching upward
//! from the scanned root.
//!
//! ```toml
//! contract = "rules/ourqueue.toml"   # a contract file, relative to this file
//! # contract = false                 # check agreement only, no contract
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::contract::ContractError;

pub const FILE_NAME: &str = "wirelint.toml";

#[derive(Debug, Clone, PartialEq)]
pub enum ContractSetting {
    Embedded,
    Off,
    Path(PathBuf),
}

#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    pub contract: ContractSetting,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    contract: Option<toml::Spanned<RawContractSetting>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawContractSetting {
    Flag(bool),
    Path(String),
}

impl Config {
    /// The nearest `wirelint.toml` at or above `root`, parsed.
    pub fn find(root: &Path) -> Result<Option<Config>, Box<ContractError>> {
        let start = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut dir = Some(start.as_path());
        while let Some(d) = dir {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Config::load(&candidate).map(Some);
            }
            dir = d.parent();
        }
        Ok(None)
    }

    pub fn load(path: &Path) -> Result<Config, Box<ContractError>> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            Box::new(ContractError {
                origin: origin.clone(),
                text: String::new(),
                message: format!("cannot read: {e}"),
                span: None,
                label: String::new(),
                help: None,
            })
        })?;
        Config::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config, Box<ContractError>> {
        let origin = path.display().to_string();
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let (message, help) = crate::contract::describe_toml_error(e.message());
            Box::new(ContractError {
                origin: origin.clone(),
                text: text.to_string(),
                message,
                span: e.span(),
                label: "here".into(),
                help,
            })
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let contract = match raw.contract.map(|c| c.into_inner()) {
            None | Some(RawContractSetting::Flag(true)) => ContractSetting::Embedded,
            Some(RawContractSetting::Flag(false)) => ContractSetting::Off,
            Some(RawContractSetting::Path(p)) => ContractSetting::Path(base.join(p)),
        };
        Ok(Config {
            path: path.to_path_buf(),
            contract,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_settings() {
        let p = Path::new("/r/wirelint.toml");
        assert_eq!(
            Config::parse("", p).unwrap().contract,
            ContractSetting::Embedded
        );
        assert_eq!(
            Config::parse("contract = false", p).unwrap().contract,
            ContractSetting::Off
        );
        assert_eq!(
            Config::parse("contract = \"rules/q.toml\"", p)
                .unwrap()
                .contract,
            ContractSetting::Path(PathBuf::from("/r/rules/q.toml"))
        );
        let e = Config::parse("contrat = false", p).unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean `contract`?"));
    }
}
