use super::*;
use crate::facts::{Span, Template};

/// The language of files named `x.EXT`.
fn lang(ext: &str) -> Lang {
    Lang::from_path(Path::new(&format!("x.{ext}"))).expect("a language")
}

fn stamp(size: u64, mtime: u64) -> Stamp {
    Stamp { size, mtime }
}

#[test]
fn a_directory_inside_a_tree_is_found_through_links_and_before_it_exists() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = std::fs::canonicalize(tmp.path()).unwrap().join("tree");
    let out = tree.parent().unwrap().join("out");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(tree.join("sub"), out.join("link")).unwrap();
    assert!(inside(&tree.join("sub/new/deeper"), &tree));
    assert!(inside(&out.join("link/new"), &tree));
    assert!(inside(&out.join("new/../x"), &tree));
    assert!(!inside(&out.join("new"), &tree));
    assert!(!inside(&tree.join("../out/new"), &tree));
}

#[test]
fn compacted_facts_are_the_facts_and_what_the_cache_stores() {
    let src = b"const S = 'return redis.call(\"hget\", KEYS[1], ARGV[1])';\n\
        function f(redis, q) { return redis.eval(S, 1, `emq:{${q}}:job`, 'state'); }\n\
        class Q { add(redis) { return redis.hset('emq:{q}:job', { state: 'w', attempts: 0 }); } }\n";
    let mut parsers = crate::parse::Parsers::new().unwrap();
    let facts = crate::extract::extract_file(&mut parsers, lang("js"), 4, src, "q");
    assert_eq!((facts.functions.len(), facts.commands.len()), (2, 2));
    let (back, encoded) = compacted(facts.clone(), 4);
    assert_eq!(back, facts);
    let dir = tempfile::tempdir().unwrap();
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    let key = FactsKey::new(&content_hash(src), lang("js"), "q");
    c.store_encoded(&key, &encoded.unwrap());
    assert_eq!(*c.facts(&key, 4).unwrap(), facts);
}

#[test]
fn facts_come_back_in_the_file_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    let mut facts = FileFacts::default();
    facts
        .templates
        .push(Template::lit("emq:{q}:job", Span::new(3, 10, 21)));
    let key = FactsKey::new(&content_hash(b"x"), lang("rs"), "keys");
    c.store_facts(&key, &facts);
    let back = c.facts(&key, 7).unwrap();
    assert_eq!(back.templates[0].span, Span::new(7, 10, 21));
    assert_eq!(
        back.templates[0].as_literal().as_deref(),
        Some("emq:{q}:job")
    );
    // Another stem or language is another entry.
    assert!(c
        .facts(&FactsKey::new(&content_hash(b"x"), lang("lua"), "keys"), 7)
        .is_none());
}

/// A run's facts are in its pack; the next run finds them through
/// the index, which names the facts of the files it recorded only.
#[test]
fn the_next_run_finds_facts_through_the_index() {
    let dir = tempfile::tempdir().unwrap();
    files_in(dir.path(), &["a.rs"]);
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    let settled = c.started - 10_000_000_000;
    let mut facts = FileFacts::default();
    facts
        .templates
        .push(Template::lit("emq:{q}:job", Span::new(3, 10, 21)));
    let key = |b: &[u8]| FactsKey::new(&content_hash(b), lang("rs"), "a");
    c.store_facts(&key(b"a"), &facts);
    c.store_facts(&key(b"b"), &FileFacts::default());
    let marks = Marks {
        speaks: true,
        scoped: false,
        keys: false,
        suppress: false,
    };
    let h = content_hash(b"a");
    c.record("a.rs", stamp(5, settled), marks, Some(h), Some(&key(b"a")));
    c.save();
    let packs = std::fs::read_dir(pack::dir(&c_dir(dir.path())))
        .unwrap()
        .count();
    assert_eq!(packs, 1, "one pack per run");
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    assert_eq!(c.facts(&key(b"a"), 7).unwrap().templates[0].span.file, 7);
    assert!(c.facts(&key(b"b"), 7).is_none(), "named by no index");
}

fn c_dir(base: &Path) -> PathBuf {
    Cache::open(base, base, "p").unwrap().dir
}

/// The memo serves the facts the last run used, in the same file only,
/// without reading the entry; a file it cannot serve is read as before.
#[test]
fn the_memo_serves_last_runs_facts_in_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let memo = Arc::new(Memo::default());
    let open = || Cache::open_with(dir.path(), dir.path(), "p", Some(memo.clone())).unwrap();
    let mut facts = FileFacts::default();
    facts
        .templates
        .push(Template::lit("emq:{q}:job", Span::new(3, 10, 21)));
    let key = FactsKey::new(&content_hash(b"x"), lang("rs"), "keys");
    let c = open();
    c.store_facts(&key, &facts);
    assert_eq!(c.facts(&key, 7).unwrap().templates[0].span.file, 7);
    c.save();
    // The entry on disk is gone: only the memo can serve it now.
    std::fs::remove_dir_all(pack::dir(&open().dir)).unwrap();
    let c = open();
    assert_eq!(
        c.facts(&key, 7).unwrap().templates[0].span,
        Span::new(7, 10, 21)
    );
    c.save();
    let c = open();
    assert!(c.facts(&key, 8).is_none());
    c.save();
    // Not used by the last run: forgotten.
    assert!(open().facts(&key, 7).is_none());
}

/// The memo keeps the index a run saved, identifiers and all: the
/// next run does not read it again, and checks its entries as ever.
#[test]
fn the_memo_keeps_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let memo = Arc::new(Memo::default());
    let open = || Cache::open_with(dir.path(), dir.path(), "p", Some(memo.clone())).unwrap();
    let c = open();
    let settled = c.started - 10_000_000_000;
    let marks = Marks {
        speaks: false,
        scoped: false,
        keys: false,
        suppress: false,
    };
    // The files the index names are there (a save that prunes drops
    // the entries of files gone).
    files_in(dir.path(), &["a.rs", "b.rs"]);
    c.record("a.rs", stamp(5, settled), marks, None, None);
    c.record_idents("a.rs", stamp(5, settled), Idents::of(lang("rs"), b"fn a"));
    // Another stamp than the one recorded: not taken.
    c.record("b.rs", stamp(5, settled), marks, None, None);
    c.record_idents("b.rs", stamp(6, settled), Idents::of(lang("rs"), b"fn b"));
    c.save();
    std::fs::remove_file(c_index(dir.path())).unwrap();
    let c = open();
    let e = c.lookup("a.rs", stamp(5, settled)).unwrap();
    assert_eq!(
        e.idents().as_deref(),
        Some(&Idents::of(lang("rs"), b"fn a"))
    );
    assert_eq!(c.lookup("b.rs", stamp(5, settled)).unwrap().idents(), None);
    assert!(c.lookup("a.rs", stamp(6, settled)).is_none());
    // Without the memo, the index is the disk's: gone.
    assert!(Cache::open(dir.path(), dir.path(), "p")
        .unwrap()
        .lookup("a.rs", stamp(5, settled))
        .is_none());
}

fn files_in(root: &Path, names: &[&str]) {
    for n in names {
        std::fs::write(root.join(n), b"fn f() {}").unwrap();
    }
}

fn c_index(base: &Path) -> PathBuf {
    Cache::open(base, base, "p").unwrap().index_path
}

#[test]
fn a_corrupt_entry_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    let key = FactsKey::new(&content_hash(b"x"), lang("rs"), "a");
    c.store_facts(&key, &FileFacts::default());
    let path = match &*c.pack.lock().unwrap() {
        Packing::Open(w) => w.reading_path().to_path_buf(),
        _ => panic!("no pack written"),
    };
    assert!(c.facts(&key, 0).is_some());
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();
    assert!(c.facts(&key, 0).is_none());
    std::fs::write(&path, b"garbage").unwrap();
    assert!(c.facts(&key, 0).is_none());
}

#[test]
fn the_index_trusts_only_settled_unchanged_files() {
    let dir = tempfile::tempdir().unwrap();
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    let settled = c.started - 10_000_000_000;
    let marks = Marks {
        speaks: true,
        scoped: false,
        keys: false,
        suppress: true,
    };
    files_in(dir.path(), &["a.rs", "racy.rs"]);
    c.record("a.rs", stamp(5, settled), marks, Some([1; 20]), None);
    c.record("racy.rs", stamp(5, c.started), marks, None, None);
    c.save();
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    let e = c.lookup("a.rs", stamp(5, settled)).unwrap();
    assert_eq!((e.marks(), e.hash()), (marks, Some([1; 20])));
    assert!(c.lookup("a.rs", stamp(6, settled)).is_none());
    assert!(c.lookup("a.rs", stamp(5, settled + 1)).is_none());
    assert!(c.lookup("racy.rs", stamp(5, c.started)).is_none());
    // Another prefilter has its own index.
    let other = Cache::open(dir.path(), dir.path(), "q").unwrap();
    assert!(other.lookup("a.rs", stamp(5, settled)).is_none());
    // A corrupt index is an empty one.
    std::fs::write(&c.index_path, b"WLC1 not an index").unwrap();
    let c = Cache::open(dir.path(), dir.path(), "p").unwrap();
    assert!(c.lookup("a.rs", stamp(5, settled)).is_none());
}
