//! A `check` run's results as the results memo keeps them
//! (`crate::pipeline::cache::results`): what the checks and the
//! post-processing computed and the reporters print from, before any
//! printing. The reporters print from [`Results`] as they print from a
//! run's own, so that every format works from a memo.
//!
//! Kept: the file table (paths, languages, whether a file may hold a
//! suppression; the bytes only of a file not read from the disk, the
//! contract's), the findings, the notes, the contract as reporters name
//! it (name, origin, text, how it was chosen), the speakers' names, the
//! coverage view and the files of the paths given. Not kept: the model
//! (the reporters read only its speakers' names), which is what a memo
//! spares making again. Decoding checks every file and speaker a finding
//! or the coverage names: a memo that names one it does not hold is none.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::contract::Contract;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Impact, Label, Layer, Severity};
use crate::discover::Note;
use crate::facts::{Lang, Span};
use crate::link::records::Unclear;
use crate::link::{Model, Speaker};
use crate::pipeline::{Analysis, Stats};
use crate::source::{SourceFile, SourceMap};
use crate::views::coverage::{Coverage, SpeakerCoverage, Unchecked, UncheckedRecord, Unused};

/// What a `check` run computed for its reporter.
pub struct Results {
    /// The analysis after the post-processing, its paths as reports show
    /// them. From a memo, its model holds the speakers alone.
    pub analysis: Analysis,
    /// The coverage of the files of the paths given (all, when the run's
    /// root is not above them).
    pub coverage: Coverage,
    /// How many findings the baseline left out.
    pub baselined: usize,
}

/// The format's version: a memo of another is none.
const VERSION: u32 = 1;

/// A span: file, start, end.
type S = (u32, u32, u32);

/// A fix: safe, title, edits.
type FixOut = (bool, String, Vec<(S, String)>);

/// An unchecked call: span, linked, reason, test, wrapper.
type UncheckedOut = (S, bool, String, bool, bool);

/// A speaker's coverage: speaker, calls, test calls, checked, the
/// unchecked calls.
type SpeakerOut = (u64, u64, u64, u64, Vec<UncheckedOut>);

#[derive(Serialize, Deserialize)]
struct Stored {
    version: u32,
    sources: Vec<FileOut>,
    diagnostics: Vec<DiagOut>,
    notes: Vec<(String, String)>,
    contract: Option<ContractOut>,
    contract_file: Option<u32>,
    files_checked: u64,
    /// Name, directory, canonical.
    speakers: Vec<(String, String, bool)>,
    coverage: CoverageOut,
    baselined: u64,
}

#[derive(Serialize, Deserialize)]
struct FileOut {
    rel: String,
    path: PathBuf,
    /// Its language's name (the language is its path's).
    lang: Option<String>,
    may_suppress: bool,
    /// The bytes of a file not read from the disk.
    bytes: Option<Vec<u8>>,
}

#[derive(Serialize, Deserialize)]
struct DiagOut {
    code: String,
    name: String,
    error: bool,
    layer: u8,
    message: String,
    primary: (S, String),
    related: Vec<(S, String)>,
    help: Option<String>,
    speaker: Option<String>,
    impact: Option<(Vec<String>, Vec<String>)>,
    fix: Option<FixOut>,
}

#[derive(Serialize, Deserialize)]
struct ContractOut {
    name: String,
    origin: String,
    embedded: bool,
    chosen: bool,
    drafted: bool,
    text: String,
}

#[derive(Serialize, Deserialize)]
struct CoverageOut {
    speakers: Vec<SpeakerOut>,
    /// Script, name, span.
    unused: Vec<(u64, String, S)>,
    /// Key, span, reason.
    records: Vec<(String, S, String)>,
}

fn s(span: Span) -> S {
    (span.file, span.start, span.end)
}

fn label(l: &Label) -> (S, String) {
    (s(l.span), l.message.clone())
}

/// The bytes of `r`; `None` when they cannot be made (a path that is not
/// UTF-8).
pub fn encode(r: &Results) -> Option<Vec<u8>> {
    let a = &r.analysis;
    let stored = Stored {
        version: VERSION,
        sources: a
            .sources
            .iter()
            .map(|(_, f)| FileOut {
                rel: f.rel.clone(),
                path: f.path.clone(),
                lang: f.lang.map(|l| l.name().to_string()),
                may_suppress: f.may_suppress,
                bytes: (!f.from_disk()).then(|| f.bytes().to_vec()),
            })
            .collect(),
        diagnostics: a.diagnostics.iter().map(diag_out).collect(),
        notes: a
            .notes
            .iter()
            .map(|n| (n.path.clone(), n.message.clone()))
            .collect(),
        contract: a.contract.as_ref().map(|c| ContractOut {
            name: c.name.clone(),
            origin: c.origin.clone(),
            embedded: c.embedded,
            chosen: c.chosen,
            drafted: c.drafted,
            text: c.text.clone(),
        }),
        contract_file: a.contract_file,
        files_checked: a.files_checked as u64,
        speakers: a
            .model
            .speakers
            .iter()
            .map(|sp| (sp.name.clone(), sp.dir.clone(), sp.canonical))
            .collect(),
        coverage: coverage_out(&r.coverage),
        baselined: r.baselined as u64,
    };
    postcard::to_stdvec(&stored).ok()
}

fn diag_out(d: &Diagnostic) -> DiagOut {
    DiagOut {
        code: d.code.to_string(),
        name: d.name.to_string(),
        error: d.severity == Severity::Error,
        layer: match d.layer {
            Layer::Input => 0,
            Layer::L1 => 1,
            Layer::L2 => 2,
        },
        message: d.message.clone(),
        primary: label(&d.primary),
        related: d.related.iter().map(label).collect(),
        help: d.help.clone(),
        speaker: d.speaker.clone(),
        impact: d
            .impact
            .as_ref()
            .map(|i| (i.breaks.clone(), i.unaffected.clone())),
        fix: d.fix.as_ref().map(|f| {
            (
                f.applicability == Applicability::Safe,
                f.message.clone(),
                f.edits
                    .iter()
                    .map(|e| (s(e.span), e.text.clone()))
                    .collect(),
            )
        }),
    }
}

fn coverage_out(c: &Coverage) -> CoverageOut {
    CoverageOut {
        speakers: c
            .speakers
            .iter()
            .map(|sc| {
                let unchecked = sc
                    .unchecked
                    .iter()
                    .map(|u| (s(u.span), u.linked, u.reason.clone(), u.test, u.wrapper))
                    .collect();
                (
                    sc.speaker as u64,
                    sc.calls as u64,
                    sc.test_calls as u64,
                    sc.checked as u64,
                    unchecked,
                )
            })
            .collect(),
        unused: c
            .unused
            .iter()
            .map(|u| (u.script as u64, u.name.clone(), s(u.span)))
            .collect(),
        records: c
            .records
            .iter()
            .map(|r| (r.key.clone(), s(r.span), r.reason.to_string()))
            .collect(),
    }
}

/// The results `encode` made; `None` for bytes it did not make (another
/// version, damage) or that name a file, rule or speaker they do not hold.
pub fn decode(bytes: &[u8]) -> Option<Results> {
    let st: Stored = postcard::from_bytes(bytes).ok()?;
    if st.version != VERSION {
        return None;
    }
    let files = st.sources.len();
    let span = |(file, start, end): S| -> Option<Span> {
        ((file as usize) < files && start <= end).then_some(Span { file, start, end })
    };
    let mut sources = SourceMap::default();
    for f in st.sources {
        sources.add(source_in(f)?);
    }
    let diagnostics = st
        .diagnostics
        .into_iter()
        .map(|d| diag_in(d, &span))
        .collect::<Option<Vec<_>>>()?;
    let speakers: Vec<Speaker> = st
        .speakers
        .into_iter()
        .map(|(name, dir, canonical)| Speaker {
            name,
            dir,
            canonical,
        })
        .collect();
    let coverage = coverage_in(st.coverage, speakers.len(), &span)?;
    if st.contract_file.is_some_and(|f| f as usize >= files) {
        return None;
    }
    let analysis = Analysis {
        sources,
        model: Model {
            speakers,
            ..Model::default()
        },
        diagnostics,
        notes: st
            .notes
            .into_iter()
            .map(|(path, message)| Note { path, message })
            .collect(),
        contract: st.contract.map(contract_in),
        contract_file: st.contract_file,
        files_checked: usize::try_from(st.files_checked).ok()?,
        stats: Stats::default(),
    };
    Some(Results {
        analysis,
        coverage,
        baselined: usize::try_from(st.baselined).ok()?,
    })
}

fn source_in(f: FileOut) -> Option<SourceFile> {
    let lang = match &f.lang {
        None => None,
        Some(name) => Some(Lang::from_path(&f.path).filter(|l| l.name() == name)?),
    };
    Some(match f.bytes {
        None => SourceFile::on_disk(f.rel, f.path, lang, f.may_suppress),
        Some(bytes) => {
            let mut file = SourceFile::new(f.rel, f.path, lang, bytes);
            file.may_suppress = f.may_suppress;
            file
        }
    })
}

fn diag_in(d: DiagOut, span: &impl Fn(S) -> Option<Span>) -> Option<Diagnostic> {
    let rule = crate::checks::rule(&d.code).filter(|r| r.code == d.code && r.name == d.name)?;
    let label = |(sp, message): (S, String)| Some(Label::new(span(sp)?, message));
    let fix = match d.fix {
        None => None,
        Some((safe, message, edits)) => Some(Fix {
            applicability: if safe {
                Applicability::Safe
            } else {
                Applicability::Unsafe
            },
            message,
            edits: edits
                .into_iter()
                .map(|(sp, text)| {
                    Some(Edit {
                        span: span(sp)?,
                        text,
                    })
                })
                .collect::<Option<Vec<_>>>()?,
        }),
    };
    Some(Diagnostic {
        code: rule.code,
        name: rule.name,
        severity: if d.error {
            Severity::Error
        } else {
            Severity::Warning
        },
        layer: match d.layer {
            0 => Layer::Input,
            1 => Layer::L1,
            2 => Layer::L2,
            _ => return None,
        },
        message: d.message,
        primary: label(d.primary)?,
        related: d
            .related
            .into_iter()
            .map(label)
            .collect::<Option<Vec<_>>>()?,
        help: d.help,
        speaker: d.speaker,
        impact: d
            .impact
            .map(|(breaks, unaffected)| Impact { breaks, unaffected }),
        fix,
    })
}

/// Every reason a record is unclear, for a stored one to be found again.
const UNCLEAR: [Unclear; 5] = [
    Unclear::BareKey,
    Unclear::HiddenField,
    Unclear::OpenTail,
    Unclear::CallsUndefined,
    Unclear::UnresolvedWrite,
];

fn coverage_in(
    c: CoverageOut,
    speakers: usize,
    span: &impl Fn(S) -> Option<Span>,
) -> Option<Coverage> {
    let mut per = Vec::new();
    for (speaker, calls, test_calls, checked, unchecked) in c.speakers {
        let speaker = usize::try_from(speaker).ok().filter(|s| *s < speakers)?;
        let unchecked = unchecked
            .into_iter()
            .map(|(sp, linked, reason, test, wrapper)| {
                Some(Unchecked {
                    span: span(sp)?,
                    linked,
                    reason,
                    test,
                    wrapper,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        per.push(SpeakerCoverage {
            speaker,
            calls: usize::try_from(calls).ok()?,
            test_calls: usize::try_from(test_calls).ok()?.min(calls as usize),
            checked: usize::try_from(checked).ok()?.min(calls as usize),
            unchecked,
        });
    }
    let unused = c
        .unused
        .into_iter()
        .map(|(script, name, sp)| {
            Some(Unused {
                script: usize::try_from(script).ok()?,
                name,
                span: span(sp)?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let records = c
        .records
        .into_iter()
        .map(|(key, sp, reason)| {
            let why = UNCLEAR.iter().find(|u| u.reason() == reason)?;
            Some(UncheckedRecord {
                key,
                span: span(sp)?,
                reason: why.reason(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Coverage {
        speakers: per,
        unused,
        records,
    })
}

/// The contract as the reporters read it: its name, origin and text, and
/// how it was chosen (nothing after the memo reads its entries).
fn contract_in(c: ContractOut) -> Contract {
    Contract {
        name: c.name,
        origin: c.origin,
        embedded: c.embedded,
        chosen: c.chosen,
        drafted: c.drafted,
        text: c.text,
        keyspace: None,
        scripts_build_keys: false,
        records: Vec::new(),
        scripts: Vec::new(),
        speakers: Vec::new(),
        retired: Default::default(),
        ids: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(file: u32) -> Results {
        let rule = crate::checks::rule("WL201").unwrap();
        let mut sources = SourceMap::default();
        sources.add(SourceFile::new(
            "ours.toml".into(),
            PathBuf::from("ours.toml"),
            None,
            b"[keyspace]\n".to_vec(),
        ));
        let d = Diagnostic {
            code: rule.code,
            name: rule.name,
            severity: Severity::Error,
            layer: Layer::L1,
            message: "m".into(),
            primary: Label::new(Span::new(file, 1, 3), "here"),
            related: Vec::new(),
            help: Some("h".into()),
            speaker: None,
            impact: None,
            fix: None,
        };
        Results {
            analysis: Analysis {
                sources,
                model: Model::default(),
                diagnostics: vec![d],
                notes: vec![Note {
                    path: ".".into(),
                    message: "n".into(),
                }],
                contract: None,
                contract_file: Some(0),
                files_checked: 1,
                stats: Stats::default(),
            },
            coverage: Coverage::default(),
            baselined: 2,
        }
    }

    #[test]
    fn results_come_back_as_they_were_kept() {
        let r = decode(&encode(&results(0)).unwrap()).unwrap();
        let a = &r.analysis;
        assert_eq!(a.diagnostics, results(0).analysis.diagnostics);
        assert_eq!(a.notes, results(0).analysis.notes);
        assert_eq!(a.sources.get(0).bytes(), b"[keyspace]\n");
        assert!(!a.sources.get(0).from_disk());
        assert_eq!(
            (a.contract_file, a.files_checked, r.baselined),
            (Some(0), 1, 2)
        );
    }

    /// A memo that names a file it does not hold, or that is cut short,
    /// is none (a reporter would index past the file table).
    #[test]
    fn a_memo_that_names_what_it_lacks_is_none() {
        assert!(decode(&encode(&results(1)).unwrap()).is_none());
        let bytes = encode(&results(0)).unwrap();
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n]).is_none(), "{n} bytes");
        }
        assert!(decode(b"").is_none());
    }
}
