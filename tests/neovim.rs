//! The Neovim snippets of docs/editors.md: each parses as Lua, and the one
//! for Neovim 0.7 calls nothing newer than 0.7 (no `vim.fs`, no
//! `vim.lsp.start`), where the newcomer's 0.7-0.9 found `vim.fs` nil; and
//! the first runs, as written, on the Neovim installed.

mod common;

use std::process::Command;

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

/// After the first snippet, what a user does: open a file; then write the
/// buffer's filetype and every diagnostic Neovim holds to `$WL_OUT`.
const DRIVER: &str = r#"vim.cmd("edit " .. vim.env.WL_FILE)
local function found()
  local rows = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ":.")
    table.insert(rows, string.format("%s:%d %s", name, d.lnum + 1, d.code or "?"))
  end
  table.sort(rows)
  return rows
end
vim.wait(60000, function() return #found() >= 1 end, 100)
local f = io.open(vim.env.WL_OUT, "w")
f:write(vim.bo.filetype .. "\n" .. table.concat(found(), "\n") .. "\n")
f:close()
vim.cmd("qall!")
"#;

/// The 0.7 snippet, as docs/editors.md gives it, in a headless Neovim with
/// its defaults (`--clean`: filetype detection on, no user config), with
/// `wirelint` on the PATH: opening a file of a divergent tree shows its
/// finding. Skips, saying so, where `nvim` is not installed.
#[test]
fn the_first_snippet_runs_on_the_installed_neovim() {
    let Ok(version) = Command::new("nvim").arg("--version").output() else {
        eprintln!("SKIPPED neovim: `nvim` is not installed (apt-get install neovim)");
        return;
    };
    let version = String::from_utf8_lossy(&version.stdout);
    let md = std::fs::read_to_string(common::repo().join("docs/editors.md")).unwrap();
    let dir = common::variant("payload-renamed");
    let root = dir.path().canonicalize().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let snippet = scratch.path().join("snippet.lua");
    let driver = scratch.path().join("driver.lua");
    let out = scratch.path().join("out.txt");
    std::fs::write(&snippet, &lua_blocks(&md)[0]).unwrap();
    std::fs::write(&driver, DRIVER).unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_wirelint"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", snippet.display()))
        .arg("-c")
        .arg(format!("luafile {}", driver.display()))
        .current_dir(&root)
        .env("PATH", path)
        .env("WL_FILE", "echo_mq/lib/echo_mq/jobs.ex")
        .env("WL_OUT", &out)
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "elixir\necho_mq/lib/echo_mq/jobs.ex:10 WL201\necho_mq/lib/echo_mq/jobs.ex:10 WL305\n",
        "{}",
        version.lines().next().unwrap_or_default()
    );
}
