//! The parts of `wirelint.toml` beyond the contract: which rules run
//! (`select`, `ignore`), their severities, which files are never read
//! (`exclude`), speakers by path, and generated script copies.
//!
//! - `select` / `ignore` take codes or code prefixes (`WL2`, `WL201`). The
//!   most specific matching entry decides; on a tie `ignore` wins. Without
//!   `select` every rule is selected.
//! - `[severity]` maps a code to `"error"` or `"warning"`.
//! - `exclude` globs are relative to the directory of `wirelint.toml`; `*`
//!   stays within one path segment, `**` crosses them. A glob that matches a
//!   directory excludes everything under it. Excluded files are never read,
//!   even when named on the command line.
//! - `[speakers.NAME] path = "dir"` (relative to `wirelint.toml`) names a
//!   speaker, as a contract's `[speakers]` does, with or without a contract;
//!   a contract's own entry of the same name wins.
//! - `[generated] "copy.lua" = "source.lua"` records that a script file is
//!   a generated copy of another (both relative to `wirelint.toml`). It is
//!   validated and stored; the linker does not use it yet.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, Severity, AUDIT_CODES, RULE_CODES};

/// The TOML as read, with spans for errors.
pub struct RawSettings {
    pub select: Option<Vec<Spanned<String>>>,
    pub ignore: Vec<Spanned<String>>,
    pub exclude: Vec<Spanned<String>>,
    pub severity: BTreeMap<Spanned<String>, Spanned<String>>,
    pub speakers: BTreeMap<String, RawSpeaker>,
    pub generated: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpeaker {
    path: Spanned<String>,
    #[serde(default)]
    canonical: bool,
}

/// A speaker named in `wirelint.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigSpeaker {
    pub name: String,
    /// Absolute (the config's directory joined with the given path).
    pub dir: PathBuf,
    pub canonical: bool,
}

/// Compiled `exclude` globs.
#[derive(Debug, Clone)]
pub struct Exclude {
    /// The directory the globs are relative to (canonical).
    pub base: PathBuf,
    pub patterns: Vec<String>,
    set: GlobSet,
}

impl Exclude {
    /// Whether `path` (or a directory above it, up to the base) matches.
    pub fn matches(&self, path: &Path) -> bool {
        let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let Ok(rel) = abs.strip_prefix(&self.base) else {
            return false;
        };
        let mut p = Some(rel);
        while let Some(r) = p {
            if r.as_os_str().is_empty() {
                break;
            }
            if self.set.is_match(r) {
                return true;
            }
            p = r.parent();
        }
        false
    }
}

#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Upper-case codes or prefixes; `None` selects every rule.
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    pub severity: BTreeMap<String, Severity>,
    pub exclude: Option<Exclude>,
    pub speakers: Vec<ConfigSpeaker>,
    /// (generated copy, its source), both absolute.
    pub generated: Vec<(PathBuf, PathBuf)>,
}

type SettingsError = (String, Range<usize>, Option<String>);

/// `wirelint.toml`'s `select` and `ignore` name the rules of both tools.
const BOTH: &[Tool] = &[Tool::Check, Tool::Audit];

/// The two tools whose findings `select` and `ignore` choose: `check`
/// (WL codes) and `audit` (WA codes). `wirelint.toml`'s lists hold codes
/// of either; each tool reads the entries that name its own rules (a
/// tool none of whose rules `select` names runs them all). On the
/// command line each takes its own codes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Check,
    Audit,
}

impl Tool {
    /// The tool whose rule `code` is.
    fn of(code: &str) -> Tool {
        if code.starts_with("WA") {
            Tool::Audit
        } else {
            Tool::Check
        }
    }

    /// Its rule codes, in order.
    pub fn codes(self) -> &'static [&'static str] {
        match self {
            Tool::Check => RULE_CODES,
            Tool::Audit => AUDIT_CODES,
        }
    }

    /// Whether `prefix` (upper case) is a code or code prefix of its rules.
    fn has(self, prefix: &str) -> bool {
        !prefix.is_empty() && self.codes().iter().any(|c| c.starts_with(prefix))
    }

    fn name(self) -> &'static str {
        match self {
            Tool::Check => "check",
            Tool::Audit => "audit",
        }
    }
}

/// `s` upper-cased, when it is a code or code prefix of one of `tools`;
/// else why not, with a did-you-mean among their codes, and, when it is
/// another tool's, whose.
fn code_or_prefix(
    s: &Spanned<String>,
    what: &str,
    tools: &[Tool],
) -> Result<String, SettingsError> {
    let up = s.get_ref().trim().to_ascii_uppercase();
    if tools.iter().any(|t| t.has(&up)) {
        return Ok(up);
    }
    let other = [Tool::Check, Tool::Audit]
        .into_iter()
        .find(|t| !tools.contains(t) && t.has(&up));
    let codes: Vec<&str> = tools.iter().flat_map(|t| t.codes()).copied().collect();
    let message = match other {
        Some(t) => format!(
            "`{}` in `{what}` is a code of `wirelint {}`'s rules, not `wirelint {}`'s",
            s.get_ref(),
            t.name(),
            tools.first().map_or("", |t| t.name())
        ),
        None => format!(
            "`{}` in `{what}` is no rule code or code prefix",
            s.get_ref()
        ),
    };
    let help = match other {
        Some(_) => None,
        None => crate::contract::suggest(&up, codes.iter().copied())
            .or_else(|| Some(format!("rules are {}", codes.join(", ")))),
    };
    Err((message, s.span(), help))
}

/// `[severity]`: rule codes to `error` or `warning`.
fn severities(
    raw: &BTreeMap<Spanned<String>, Spanned<String>>,
) -> Result<BTreeMap<String, Severity>, SettingsError> {
    let mut severity = BTreeMap::new();
    for (k, v) in raw {
        let code = k.get_ref().to_ascii_uppercase();
        if !RULE_CODES.contains(&code.as_str()) {
            return Err((
                format!("`{}` in `[severity]` is no rule code", k.get_ref()),
                k.span(),
                crate::contract::suggest(&code, RULE_CODES.iter().copied()),
            ));
        }
        let sev = match v.get_ref().as_str() {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            other => {
                return Err((
                    format!("severity `{other}` is neither `error` nor `warning`"),
                    v.span(),
                    crate::contract::suggest(other, ["error", "warning"].into_iter()),
                ))
            }
        };
        severity.insert(code, sev);
    }
    Ok(severity)
}

/// `exclude`: the globs, relative to `base` (canonical).
fn compile_exclude(raw: &[Spanned<String>], base: &Path) -> Result<Option<Exclude>, SettingsError> {
    if raw.is_empty() {
        return Ok(None);
    }
    let mut b = GlobSetBuilder::new();
    let mut patterns = Vec::new();
    for g in raw {
        let text = g.get_ref().trim_start_matches("./").trim_end_matches('/');
        let glob = GlobBuilder::new(text)
            .literal_separator(true)
            .build()
            .map_err(|e| {
                (
                    format!("`{}` in `exclude` is not a glob: {}", g.get_ref(), e.kind()),
                    g.span(),
                    None,
                )
            })?;
        b.add(glob);
        patterns.push(g.get_ref().clone());
    }
    let set = b
        .build()
        .map_err(|e| (format!("`exclude`: {e}"), 0..0, None))?;
    Ok(Some(Exclude {
        base: base.to_path_buf(),
        patterns,
        set,
    }))
}

impl Settings {
    pub fn from_raw(raw: RawSettings, base: &Path) -> Result<Settings, SettingsError> {
        let select = match raw.select {
            None => None,
            Some(v) => Some(
                v.iter()
                    .map(|s| code_or_prefix(s, "select", BOTH))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let ignore = raw
            .ignore
            .iter()
            .map(|s| code_or_prefix(s, "ignore", BOTH))
            .collect::<Result<Vec<_>, _>>()?;
        let severity = severities(&raw.severity)?;
        let canon_base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
        let exclude = compile_exclude(&raw.exclude, &canon_base)?;
        let speakers = raw
            .speakers
            .into_iter()
            .map(|(name, s)| ConfigSpeaker {
                name,
                dir: canon_base.join(s.path.get_ref().trim_end_matches('/')),
                canonical: s.canonical,
            })
            .collect();
        let generated = raw
            .generated
            .iter()
            .map(|(copy, src)| {
                (
                    canon_base.join(copy.get_ref()),
                    canon_base.join(src.get_ref()),
                )
            })
            .collect();
        Ok(Settings {
            select,
            ignore,
            severity,
            exclude,
            speakers,
            generated,
        })
    }

    /// Whether a rule runs, by `select` and `ignore`: the entries of its
    /// own tool's (a `select` that names none of its tool's rules selects
    /// them all).
    pub fn enabled(&self, code: &str) -> bool {
        let best = |list: &[String]| {
            list.iter()
                .filter(|p| code.starts_with(p.as_str()))
                .map(|p| p.len())
                .max()
        };
        let tool = Tool::of(code);
        let selected = match &self.select {
            Some(s) if s.iter().any(|p| tool.has(p)) => best(s),
            _ => Some(0),
        };
        match (selected, best(&self.ignore)) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(s), Some(i)) => s > i,
        }
    }

    /// `--select` and `--ignore` on the command line of `tool`, read as
    /// `select` and `ignore` are: codes or code prefixes of its rules (a
    /// code of the other tool is a usage error), the most specific entry
    /// deciding. `--select` replaces `select`; `--ignore` adds to
    /// `ignore`.
    pub fn with_command_line(
        mut self,
        select: Option<&[String]>,
        ignore: &[String],
        tool: Tool,
    ) -> Result<Settings, String> {
        let code = |flag: &str, s: &String| {
            let spanned = Spanned::new(0..0, s.clone());
            code_or_prefix(&spanned, flag, &[tool]).map_err(|(m, _, help)| match help {
                Some(h) => format!("{m} ({h})"),
                None => m,
            })
        };
        if let Some(list) = select {
            let codes = list.iter().map(|s| code("--select", s));
            self.select = Some(codes.collect::<Result<_, _>>()?);
        }
        for s in ignore {
            self.ignore.push(code("--ignore", s)?);
        }
        Ok(self)
    }

    /// Drops the findings of rules that do not run and applies the
    /// per-code severities.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain(|d| self.enabled(d.code));
        for d in diagnostics.iter_mut() {
            if let Some(s) = self.severity.get(d.code) {
                d.severity = *s;
            }
        }
    }

    /// Whether a file is excluded.
    pub fn excludes(&self, path: &Path) -> bool {
        self.exclude.as_ref().is_some_and(|e| e.matches(path))
    }

    /// The configured speakers as a contract's speaker specs, with paths
    /// relative to `root`.
    pub fn speaker_specs(&self, root: &Path) -> Vec<crate::contract::SpeakerSpec> {
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        self.speakers
            .iter()
            .map(|s| crate::contract::SpeakerSpec {
                name: s.name.clone(),
                path: crate::source::rel_path(&root, &s.dir),
                canonical: s.canonical,
            })
            .collect()
    }
}

/// Adds the configured speakers to the contract's (a contract entry of the
/// same name wins).
pub fn add_speakers(
    settings: &Settings,
    root: &Path,
    contract: Option<&mut crate::contract::Contract>,
) {
    let Some(c) = contract else {
        return;
    };
    for spec in settings.speaker_specs(root) {
        if !c.speakers.iter().any(|s| s.name == spec.name) {
            c.speakers.push(spec);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn settings(toml: &str) -> Settings {
        Config::parse(toml, Path::new("/r/wirelint.toml"))
            .unwrap()
            .settings
    }

    #[test]
    fn select_and_ignore_by_code_and_prefix() {
        let s = settings("select = [\"WL2\", \"wl101\"]\nignore = [\"WL202\"]");
        assert!(s.enabled("WL201"));
        assert!(!s.enabled("WL202"));
        assert!(s.enabled("WL101"));
        assert!(!s.enabled("WL102"));
        assert!(!s.enabled("WL001"));
        let s = settings("ignore = [\"WL1\"]");
        assert!(!s.enabled("WL103"));
        assert!(s.enabled("WL201"));
        // The more specific select wins over a broader ignore.
        let s = settings("select = [\"WL102\"]\nignore = [\"WL1\"]");
        assert!(s.enabled("WL102"));
        assert!(!s.enabled("WL101"));
    }

    /// `wirelint.toml`'s lists hold the codes of `check` and of `audit`;
    /// each reads its own, and a `select` that names none of a tool's
    /// rules leaves them all selected.
    #[test]
    fn each_tool_reads_its_own_entries() {
        let s = settings("select = [\"wa2\"]\nignore = [\"WA201\", \"WL3\"]");
        assert!(s.enabled("WL101"));
        assert!(!s.enabled("WL301"));
        assert!(s.enabled("WA202"));
        assert!(!s.enabled("WA201"));
        assert!(!s.enabled("WA101"));
        let s = settings("select = [\"WL1\"]");
        assert!(s.enabled("WA301"));
        assert!(!s.enabled("WL201"));
        let s = settings("select = [\"W\"]\nignore = [\"WA\"]");
        assert!(s.enabled("WL201"));
        assert!(!s.enabled("WA201"));
        // On the command line, each tool takes its own codes only.
        let e = Settings::default()
            .with_command_line(None, &["WA1".into()], Tool::Check)
            .unwrap_err();
        assert_eq!(
            e,
            "`WA1` in `--ignore` is a code of `wirelint audit`'s rules, not `wirelint check`'s"
        );
        let s = Settings::default()
            .with_command_line(Some(&["wa3".into()]), &[], Tool::Audit)
            .unwrap();
        assert_eq!(s.select, Some(vec!["WA3".to_string()]));
    }

    #[test]
    fn unknown_codes_get_a_did_you_mean() {
        let e = Config::parse("ignore = [\"WL210\"]", Path::new("/r/wirelint.toml")).unwrap_err();
        assert_eq!(
            e.message,
            "`WL210` in `ignore` is no rule code or code prefix"
        );
        assert_eq!(e.help.as_deref(), Some("did you mean `WL201`?"));
        assert_eq!(e.span, Some(10..17));
        let e = Config::parse(
            "[severity]\nWL201 = \"eror\"",
            Path::new("/r/wirelint.toml"),
        )
        .unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean `error`?"));
    }

    #[test]
    fn unknown_keys_get_a_did_you_mean() {
        let e = Config::parse("exlude = []", Path::new("/r/wirelint.toml")).unwrap_err();
        assert_eq!(e.message, "unknown key `exlude`");
        assert_eq!(e.help.as_deref(), Some("did you mean `exclude`?"));
    }

    #[test]
    fn severities_and_speakers_and_generated() {
        let s = settings(
            "[severity]\nwl001 = \"error\"\n[speakers.core]\npath = \"apps/core/\"\ncanonical = true\n[generated]\n\"w/enqueue.lua\" = \"lua/enqueue.lua\"",
        );
        assert_eq!(s.severity.get("WL001"), Some(&Severity::Error));
        assert_eq!(
            s.speakers,
            vec![ConfigSpeaker {
                name: "core".into(),
                dir: PathBuf::from("/r/apps/core"),
                canonical: true
            }]
        );
        assert_eq!(
            s.generated,
            vec![(
                PathBuf::from("/r/w/enqueue.lua"),
                PathBuf::from("/r/lua/enqueue.lua")
            )]
        );
    }

    #[test]
    fn exclude_globs_match_files_and_directories() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        std::fs::create_dir_all(base.join("vendor/x")).unwrap();
        std::fs::create_dir_all(base.join("lib")).unwrap();
        for f in ["vendor/x/a.ex", "lib/a.ex", "lib/gen.lua"] {
            std::fs::write(base.join(f), "").unwrap();
        }
        let s = Config::parse(
            "exclude = [\"vendor\", \"lib/*.lua\"]",
            &base.join("wirelint.toml"),
        )
        .unwrap()
        .settings;
        assert!(s.excludes(&base.join("vendor/x/a.ex")));
        assert!(s.excludes(&base.join("lib/gen.lua")));
        assert!(!s.excludes(&base.join("lib/a.ex")));
    }
}
