//! Issue 9 properties: output independent of thread count and directory
//! order, spans inside their files on character boundaries, JSON that always
//! parses, fuzz regressions, and a scanned tree left untouched.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{copy_tree, repo, run, variant, walk};
use wirelint::facts::Lang;
use wirelint::parse::Parsers;

const VARIANTS: &[&str] = &[
    "",
    "prefix-changed",
    "payload-renamed",
    "pending-dropped",
    "verb-renamed",
    "hash-tag-removed",
    "type-misspelled",
];

fn json(root: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["check", ".", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(&args, root);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    (code, stdout)
}

/// Every span of a JSON report (primary and related) lies inside its file,
/// starts and ends on character boundaries when the file is UTF-8, and its
/// line and column agree with the offset.
fn assert_spans_sound(root: &Path, stdout: &str) {
    let v: serde_json::Value = serde_json::from_str(stdout).expect("JSON parses");
    for d in v["diagnostics"].as_array().unwrap() {
        let mut spans = vec![(d["path"].as_str().unwrap(), &d["span"])];
        for r in d["related"].as_array().unwrap() {
            spans.push((r["path"].as_str().unwrap(), &r["span"]));
        }
        for (path, span) in spans {
            let bytes = if path.ends_with("(embedded)") {
                wirelint::contract::EMBEDDED_TEXT.as_bytes().to_vec()
            } else {
                std::fs::read(root.join(path)).unwrap()
            };
            let s = span["start"]["offset"].as_u64().unwrap() as usize;
            let e = span["end"]["offset"].as_u64().unwrap() as usize;
            assert!(
                s <= e && e <= bytes.len(),
                "{path}: {s}..{e} of {}",
                bytes.len()
            );
            if let Ok(text) = std::str::from_utf8(&bytes) {
                assert!(
                    text.is_char_boundary(s) && text.is_char_boundary(e),
                    "{path}: {s}..{e}"
                );
            }
            let f = wirelint::source::SourceFile::new(path.into(), path.into(), None, bytes);
            let lc = f.line_col(s as u32);
            assert_eq!(
                (lc.line as u64, lc.column as u64),
                (
                    span["start"]["line"].as_u64().unwrap(),
                    span["start"]["column"].as_u64().unwrap()
                ),
                "{path}"
            );
        }
    }
}

#[test]
fn same_output_with_one_thread_and_many_over_repeated_runs() {
    for name in VARIANTS {
        let dir = variant(name);
        let (_, first) = json(dir.path(), &["--threads", "1"]);
        for _ in 0..3 {
            for t in ["1", "2", "8"] {
                let (_, again) = json(dir.path(), &["--threads", t]);
                assert_eq!(again, first, "{name}: --threads {t}");
            }
        }
        let (_, default) = json(dir.path(), &[]);
        assert_eq!(default, first, "{name}: default threads");
    }
}

#[test]
fn output_does_not_depend_on_directory_order() {
    // The same tree, created in opposite orders (so directory entries come
    // back in different orders), and once under renamed parent directories.
    let base = variant("type-misspelled");
    let files = walk(base.path());
    let make = |order: &mut dyn Iterator<Item = &PathBuf>| {
        let dir = tempfile::tempdir().unwrap();
        for f in order {
            let rel = f.strip_prefix(base.path()).unwrap();
            let dest = dir.path().join(rel);
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::copy(f, dest).unwrap();
        }
        dir
    };
    let fwd = make(&mut files.iter());
    let rev = make(&mut files.iter().rev());
    let (c1, a) = json(fwd.path(), &[]);
    let (c2, b) = json(rev.path(), &[]);
    assert_eq!((c1, &a), (c2, &b));
    // Renamed through a temporary name and back: new directory inodes.
    std::fs::rename(rev.path().join("peers"), rev.path().join("zz")).unwrap();
    std::fs::rename(rev.path().join("zz"), rev.path().join("peers")).unwrap();
    let (_, c) = json(rev.path(), &[]);
    assert_eq!(a, c);
}

#[test]
fn spans_are_inside_their_files_on_char_boundaries() {
    for name in VARIANTS {
        let dir = variant(name);
        let (_, out) = json(dir.path(), &[]);
        assert_spans_sound(dir.path(), &out);
    }
}

/// A small deterministic generator (no dependency): xorshift.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Mutates bytes: flips, inserts of syntax-heavy tokens, deletions, splices.
fn mutate(rng: &mut Rng, mut b: Vec<u8>) -> Vec<u8> {
    const TOKENS: &[&[u8]] = &[
        b"\"",
        b"'",
        b"\"\"\"",
        b"#{",
        b"}",
        b"{",
        b"(",
        b")",
        b"[[",
        b"]]",
        b"\\",
        b"\r",
        b"\r\n",
        b"\xe9",
        b"\xef\xbb\xbf",
        b"\t",
        b"\xf0\x9f\x98\x80",
        b"-- KEYS[1] ",
        b"<>",
        b"..",
        b"{{",
        b"}}",
        b"%s",
        b"r#\"",
        b"\"#",
        b"~w(",
        b"@enqueue ",
        b"format!(\"",
        b"\x00",
    ];
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(b.len() + 1);
        match rng.below(4) {
            0 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] = rng.next() as u8;
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                b.splice(at..at, t.iter().copied());
            }
            2 => {
                let end = (at + rng.below(40)).min(b.len());
                b.drain(at..end);
            }
            _ => {
                let from = rng.below(b.len());
                let end = (from + rng.below(60)).min(b.len());
                let piece = b[from..end].to_vec();
                b.splice(at..at, piece);
            }
        }
    }
    b
}

/// Property harness on stable: mutated copies of the fixture (every
/// language, embedded Lua included) run through the binary. Exit 0 or 1,
/// JSON that parses, sound spans. `WIRELINT_PROPTEST_ROUNDS` raises the
/// round count (docs/robustness.md).
#[test]
fn mutated_fixtures_never_crash_and_json_always_parses() {
    let rounds: u64 = std::env::var("WIRELINT_PROPTEST_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let base = variant("");
    let files = walk(base.path());
    for round in 0..rounds {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (round + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
        let dir = tempfile::tempdir().unwrap();
        copy_tree(base.path(), dir.path());
        for f in &files {
            let rel = f.strip_prefix(base.path()).unwrap();
            let bytes = std::fs::read(f).unwrap();
            for k in 0..3 {
                let mutated = mutate(&mut rng, bytes.clone());
                let dest = dir.path().join(rel).with_file_name(format!(
                    "m{k}_{}",
                    rel.file_name().unwrap().to_string_lossy()
                ));
                std::fs::write(dest, mutated).unwrap();
            }
        }
        let (_, out) = json(dir.path(), &[]);
        assert_spans_sound(dir.path(), &out);
        let (code, _, stderr) = run(&["check", "."], dir.path());
        assert!(
            code == 0 || code == 1,
            "round {round}: exit {code}\n{stderr}"
        );
    }
}

/// Every input a fuzz target ever crashed on, extracted directly (spans in
/// bounds) and through the binary.
#[test]
fn fuzz_regressions() {
    let dir = repo().join("tests/fuzz_regressions");
    let mut parsers = Parsers::new().unwrap();
    let mut n = 0;
    for f in walk(&dir) {
        let Some(lang) = Lang::from_path(&f) else {
            continue;
        };
        let bytes = std::fs::read(&f).unwrap();
        let facts = wirelint::extract::extract_file(&mut parsers, lang, 0, &bytes, "enqueue");
        let dbg = format!("{facts:?}");
        for part in dbg.split("Span { file: 0, start: ").skip(1) {
            let nums: Vec<usize> = part
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .take(2)
                .map(|s| s.parse().unwrap())
                .collect();
            assert!(
                nums[0] <= nums[1] && nums[1] <= bytes.len(),
                "{}: {nums:?}",
                f.display()
            );
        }
        n += 1;
    }
    assert!(n >= 3);
    let (_, out) = json(&dir, &[]);
    assert_spans_sound(&dir, &out);
}

/// Listing, contents, permissions and mtimes of everything under `root`
/// (symbolic links by their target text).
fn snapshot(root: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32, std::time::SystemTime)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            let content = if m.file_type().is_symlink() {
                std::fs::read_link(&p)
                    .unwrap()
                    .into_os_string()
                    .into_encoded_bytes()
            } else if m.is_dir() {
                stack.push(p.clone());
                Vec::new()
            } else {
                std::fs::read(&p).unwrap()
            };
            out.insert(p, (content, m.permissions().mode(), m.modified().unwrap()));
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn a_scan_never_touches_the_tree() {
    let dir = variant("payload-renamed");
    let d = dir.path();
    std::fs::write(d.join("broken.rs"), b"fn x( {").unwrap();
    std::fs::write(d.join("bin.rs"), b"\x00\x01").unwrap();
    std::fs::write(d.join("wirelint.toml"), b"contract = true\n").unwrap();
    std::os::unix::fs::symlink("broken.rs", d.join("link.rs")).unwrap();
    let dir_mtime = std::fs::metadata(d).unwrap().modified().unwrap();
    let before = snapshot(d);
    for args in [
        vec!["check", "."],
        vec!["check", ".", "--format", "json"],
        vec!["check", ".", "--threads", "1", "--max-file-size", "10"],
        vec!["check", "broken.rs", "link.rs"],
    ] {
        run(&args, d);
    }
    assert_eq!(snapshot(d), before);
    assert_eq!(std::fs::metadata(d).unwrap().modified().unwrap(), dir_mtime);
}
