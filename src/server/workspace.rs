//! Which directory the server checks: the workspace the editor names at
//! `initialize` (`rootUri`, else the first workspace folder), else the
//! current directory when it is inside a git repository. A root must be a
//! project: the root of a file system (`/`, the whole disk) is never one,
//! nor is the home directory unless it holds `.git` or `wirelint.toml`.
//! Refused, nothing is walked or checked, and the editor is told why
//! with a `window/showMessage` warning; requests are still answered.

use std::path::{Path, PathBuf};

use crossbeam_channel::Sender;
use lsp_server::{Message, Notification};
use serde_json::json;

use super::protocol;

/// The root to check, if any; the warning the editor gets when there is
/// none.
pub fn root(init: &serde_json::Value) -> Result<PathBuf, String> {
    let Some(root) = protocol::workspace_root(init).or_else(fallback_root) else {
        return Err("wirelint: the editor named no workspace folder and the current directory is in no git repository, so nothing is checked; open a folder".into());
    };
    let home = home().and_then(|h| std::fs::canonicalize(h).ok());
    match refusal(&root, home.as_deref()) {
        Some(why) => Err(format!(
            "wirelint: the workspace {} is {why}, so nothing is checked; open a project folder",
            crate::source::display_name(root.as_os_str())
        )),
        None => Ok(root),
    }
}

/// Without a workspace from the editor: the current directory when it is
/// inside a git repository.
fn fallback_root() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    crate::scope::git_root(&cwd).map(|_| cwd)
}

fn home() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(var)
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// Why `root` is not a project, if it is not: the root of its file
/// system, or `home` (canonical) holding neither `.git` nor
/// `wirelint.toml`.
fn refusal(root: &Path, home: Option<&Path>) -> Option<&'static str> {
    let real = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    if real.parent().is_none() {
        return Some("the root of the file system (the whole disk)");
    }
    let project = real.join(".git").exists() || real.join("wirelint.toml").is_file();
    (home == Some(real.as_path()) && !project)
        .then_some("the home directory, not a project (it holds no .git and no wirelint.toml)")
}

/// Shows `message` in the editor (`type`: 1 error, 2 warning).
pub fn show(out: &Sender<Message>, kind: u8, message: &str) {
    let params = json!({"type": kind, "message": message});
    let note = Notification::new("window/showMessage".into(), params);
    let _ = out.send(Message::Notification(note));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disk_and_a_home_that_is_no_project_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().canonicalize().unwrap();
        let whole = "the root of the file system (the whole disk)";
        assert_eq!(refusal(Path::new("/"), None), Some(whole));
        assert_eq!(refusal(Path::new("/.."), Some(&home)), Some(whole));
        assert_eq!(
            refusal(&home, Some(&home)),
            Some("the home directory, not a project (it holds no .git and no wirelint.toml)")
        );
        std::fs::create_dir(home.join("p")).unwrap();
        assert_eq!(refusal(&home.join("p"), Some(&home)), None);
        assert_eq!(refusal(&home.join("p/.."), None), None);
        std::fs::write(home.join("wirelint.toml"), "").unwrap();
        assert_eq!(refusal(&home, Some(&home)), None);
        std::fs::remove_file(home.join("wirelint.toml")).unwrap();
        std::fs::create_dir(home.join(".git")).unwrap();
        assert_eq!(refusal(&home.join("p/.."), Some(&home)), None);
    }
}
