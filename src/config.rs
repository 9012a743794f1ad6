//! `wirelint.toml`: the repository's settings, found by searching upward
//! from the scanned root.
//!
//! ```toml
//! contract = "rules/ourqueue.toml"   # a contract file, relative to this file
//! # contract = false                 # check agreement only, no contract
//! select = ["WL1", "WL201"]          # codes or code prefixes (default: all)
//! ignore = ["WL103"]                 # codes or code prefixes
//! exclude = ["vendor/**"]            # globs, relative to this file
//!
//! [severity]                         # per-code severity
//! WL001 = "error"
//!
//! [speakers.canonical]               # speakers by path, relative to this file
//! path = "apps/echo_mq"
//! canonical = true
//!
//! [generated]                        # generated script copy = its source
//! "peers/worker/priv/enqueue.lua" = "lua/enqueue.lua"
//! ```
//!
//! The parts beyond `contract` live in [`crate::settings`].

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::contract::ContractError;

pub const FILE_NAME: &str = "wirelint.toml";

#[derive(Debug, Clone, PartialEq)]
pub enum ContractSetting {
    /// The embedded contract; `named` when the file says `contract = true`
    /// (it then applies whatever the tree holds).
    Embedded {
        named: bool,
    },
    Off,
    Path(PathBuf),
}

#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    pub contract: ContractSetting,
    /// select, ignore, severity, exclude, speakers, generated.
    pub settings: crate::settings::Settings,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    contract: Option<toml::Spanned<RawContractSetting>>,
    #[serde(default)]
    select: Option<Vec<toml::Spanned<String>>>,
    #[serde(default)]
    ignore: Vec<toml::Spanned<String>>,
    #[serde(default)]
    exclude: Vec<toml::Spanned<String>>,
    #[serde(default)]
    severity: std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    #[serde(default)]
    speakers: std::collections::BTreeMap<String, crate::settings::RawSpeaker>,
    #[serde(default)]
    generated: std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
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
            None => ContractSetting::Embedded { named: false },
            Some(RawContractSetting::Flag(true)) => ContractSetting::Embedded { named: true },
            Some(RawContractSetting::Flag(false)) => ContractSetting::Off,
            Some(RawContractSetting::Path(p)) => ContractSetting::Path(base.join(p)),
        };
        let settings = crate::settings::Settings::from_raw(
            crate::settings::RawSettings {
                select: raw.select,
                ignore: raw.ignore,
                exclude: raw.exclude,
                severity: raw.severity,
                speakers: raw.speakers,
                generated: raw.generated,
            },
            base,
        )
        .map_err(|(message, span, help)| {
            Box::new(ContractError {
                origin: origin.clone(),
                text: text.to_string(),
                message,
                span: Some(span),
                label: "here".into(),
                help,
            })
        })?;
        Ok(Config {
            path: path.to_path_buf(),
            contract,
            settings,
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
            ContractSetting::Embedded { named: false }
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
