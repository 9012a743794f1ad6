//! `check`'s options for what is reported and how it looks: the flags ruff
//! and clippy users reach for (`--select`, `--ignore`, `--statistics`,
//! `--quiet`, `--color`, `--show-source`).

use clap::ValueEnum;

use crate::config::settings::{Settings, Tool};

#[derive(clap::Args, Debug, Default, Clone)]
pub struct ReportArgs {
    /// Run only these rules: codes or code prefixes, comma-separated
    /// (`WL3,WL201`), as `select` in wirelint.toml, which it replaces.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub select: Option<Vec<String>>,
    /// Leave these rules out: codes or code prefixes, comma-separated, as
    /// `ignore` in wirelint.toml, to which they are added. The most
    /// specific entry of either decides.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Print how many findings each rule has (count, code, name; on
    /// stdout) instead of the findings.
    #[arg(long)]
    pub statistics: bool,
    /// Print the findings and nothing else: no notes, no coverage summary,
    /// no closing line (the exit code still says how the run went).
    #[arg(long, short)]
    pub quiet: bool,
    /// Colour in the full format: `auto` (a terminal, unless `NO_COLOR` is
    /// set), `always` or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: Color,
    /// The full format without the source lines: one line per finding
    /// (`path:line:col: severity[CODE]: message`) and its help.
    #[arg(long, overrides_with = "show_source")]
    pub no_show_source: bool,
    /// The full format with the source lines around each finding (the
    /// default; overrides an earlier `--no-show-source`).
    #[arg(long, overrides_with = "no_show_source")]
    pub show_source: bool,
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

impl ReportArgs {
    /// `wirelint.toml`'s settings with `--select` and `--ignore` applied.
    pub fn settings(&self, s: Settings) -> Result<Settings, String> {
        s.with_command_line(self.select.as_deref(), &self.ignore, Tool::Check)
    }

    /// Whether the full format is coloured.
    pub fn color(&self) -> bool {
        match self.color {
            Color::Auto => crate::report::human::want_color(),
            Color::Always => true,
            Color::Never => false,
        }
    }
}
