//! `--stdin-filename PATH`: an editor's unsaved buffer. The text read from
//! stdin stands in for PATH's bytes; PATH need not exist on disk yet (it is
//! then added to the files read, unless `wirelint.toml` excludes it).

use std::path::Path;

use crate::analyze::Read;
use crate::discover::Candidate;
use crate::facts::{FileId, Lang};
use crate::parse::Parsers;
use crate::settings::Settings;

/// Adds the buffer's file when discovery did not list it (a new file).
pub fn ensure_candidate(cands: &mut Vec<Candidate>, root: &Path, rel: &str, settings: &Settings) {
    if cands.iter().any(|c| c.rel == rel) {
        return;
    }
    let path = root.join(rel);
    let Some(lang) = Lang::from_path(&path) else {
        return;
    };
    if settings.excludes(&path) {
        return;
    }
    let at = cands.partition_point(|c| c.rel.as_str() < rel);
    cands.insert(
        at,
        Candidate {
            path,
            rel: rel.to_string(),
            lang,
        },
    );
}

/// Parses the buffer's bytes as the candidate's file.
pub(crate) fn read_buffer(
    parsers: Option<&mut Parsers>,
    c: &Candidate,
    file: FileId,
    bytes: &[u8],
) -> Read {
    let Some(p) = parsers else {
        return Read::Skipped("internal error: the grammars did not load".into());
    };
    let stem = c
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let facts = crate::extract::extract_file(p, c.lang, file, bytes, &stem);
    Read::Facts(
        bytes.to_vec(),
        Box::new(facts),
        crate::analyze::Marks {
            speaker: true,
            facts: true,
        },
    )
}
