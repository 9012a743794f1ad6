//! The Neovim snippets of docs/editors.md: each parses as Lua, and the one
//! for Neovim 0.7 calls nothing newer than 0.7 (no `vim.fs`, no
//! `vim.lsp.start`), where the newcomer's 0.7-0.9 found `vim.fs` nil.

mod common;

/// The ```lua blocks of the docs.
fn lua_blocks(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in md.lines() {
        match (&mut cur, line.trim_end()) {
            (None, "```lua") => cur = Some(String::new()),
            (Some(_), "```") => out.extend(cur.take()),
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_neovim_snippets_parse_and_the_first_needs_only_0_7() {
    let md = std::fs::read_to_string(common::repo().join("docs/editors.md")).unwrap();
    assert!(md.contains("Neovim 0.7 to 0.10 (every call below exists since 0.7"));
    let blocks = lua_blocks(&md);
    assert_eq!(blocks.len(), 3, "0.7, 0.10 and nvim-lint");
    let old = &blocks[0];
    assert!(old.contains("vim.lsp.start_client(") && old.contains("vim.lsp.buf_attach_client("));
    for newer in ["vim.fs", "vim.lsp.start(", "vim.gsplit", "vim.iter"] {
        assert!(!old.contains(newer), "{newer} is newer than Neovim 0.7");
    }
    assert!(
        !blocks[2].contains("vim.gsplit"),
        "its table form needs 0.9"
    );
    let dir = tempfile::tempdir().unwrap();
    for (i, b) in blocks.iter().enumerate() {
        let file = dir.path().join(format!("snippet{i}.lua"));
        std::fs::write(&file, b).unwrap();
        let (code, facts, _) = common::run(&["facts", file.to_str().unwrap()], dir.path());
        assert_eq!(code, 0);
        assert!(
            facts.contains("errors: [],"),
            "snippet {i} has syntax errors:\n{facts}"
        );
        assert!(
            !facts.contains("errors: [\n"),
            "snippet {i} has syntax errors:\n{facts}"
        );
    }
}
