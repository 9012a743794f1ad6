//! How much of a tree the prefilter lets through:
//!
//! ```sh
//! cargo run --release --example prefilter-stats -- DIR
//! ```
//!
//! Prints the files and bytes read, the files that mark their speaker, and
//! the files of marked speakers (what a run parses), with the embedded
//! contract. Measures nothing about time.

use std::path::PathBuf;

use wirelint::contract::Contract;
use wirelint::discover::{discover, ProjectFinder};
use wirelint::pipeline::prefilter::Prefilter;

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let mut notes = Vec::new();
    let cands = discover(
        &root,
        std::slice::from_ref(&root),
        wirelint::input::DEFAULT_LIMIT,
        &mut notes,
    );
    let contract = Contract::embedded();
    let pf = Prefilter::new(Some(&contract));
    let mut projects = ProjectFinder::default();
    let mut by_project: std::collections::BTreeMap<Option<PathBuf>, (usize, u64, bool)> =
        Default::default();
    let (mut bytes, mut marked_files, mut marked_bytes) = (0u64, 0usize, 0u64);
    for c in &cands {
        let b = std::fs::read(&c.path).unwrap_or_default();
        let stem = c
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let m = pf.scan(c.lang, &stem, &b).parse();
        bytes += b.len() as u64;
        if m {
            marked_files += 1;
            marked_bytes += b.len() as u64;
        }
        let e = by_project
            .entry(projects.project_of(&root, &c.path))
            .or_default();
        e.0 += 1;
        e.1 += b.len() as u64;
        e.2 |= m;
    }
    let (pf_files, pf_bytes) = by_project
        .values()
        .filter(|v| v.2)
        .fold((0, 0u64), |a, v| (a.0 + v.0, a.1 + v.1));
    let pct = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    println!(
        "files read:            {:>7}  {:>8.1} MB",
        cands.len(),
        bytes as f64 / 1e6
    );
    println!(
        "files that mark:       {:>7}  {:>8.1} MB  ({:.1}% of files)",
        marked_files,
        marked_bytes as f64 / 1e6,
        pct(marked_files as f64, cands.len() as f64)
    );
    println!(
        "files parsed (speaker): {:>6}  {:>8.1} MB  ({:.1}% of bytes), {} of {} speakers",
        pf_files,
        pf_bytes as f64 / 1e6,
        pct(pf_bytes as f64, bytes as f64),
        by_project.values().filter(|v| v.2).count(),
        by_project.len()
    );
}
