//! The script inventory: every Lua script the code holds, once. Lua in a
//! `.lua` file or embedded in a host string is a script; a host reference
//! to a `.lua` file (`include_str!`, `File.read!`) names the file's script
//! (an alias), and `@include`d files add their key uses to the script.

use crate::hash::HashMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{
    command_use, normalize_name, normalize_path, push_command, scripts, shares_identity, Ctx,
    LinkInput, Model, Resolver, Script, ScriptId,
};
use crate::facts::{FileId, ScriptDef, ScriptSource, Span};
use crate::source::SourceMap;

/// A host reference to a script held in a `.lua` file, resolved once every
/// `.lua` file is in the inventory.
struct FileRef {
    file: FileId,
    /// The name the code gives it (an attribute, a const).
    name: Option<String>,
    /// That name is a local variable's.
    local: bool,
    /// Where the reference is written.
    span: Span,
    /// The path as written, and as resolved.
    written: String,
    path: PathBuf,
    /// The key count written where the script is registered.
    registration: Option<(u32, Span)>,
    /// Index in `FileFacts::scripts`.
    index: usize,
}

/// The inventory as linking builds it.
#[derive(Default)]
pub(super) struct Inventory {
    /// The scripts of `.lua` files, by normalised path.
    lua_files: HashMap<PathBuf, ScriptId>,
    /// References to `.lua` files.
    refs: Vec<FileRef>,
    /// Script definitions by (file, index in `FileFacts::scripts`).
    pub script_at: HashMap<(FileId, usize), ScriptId>,
    /// The files each script `@include`s, in the order written.
    pub includes: HashMap<ScriptId, Vec<ScriptId>>,
}

impl Inventory {
    /// Takes in one script definition of a file: a script of its own with
    /// its Redis commands, or a reference to a `.lua` file.
    pub fn add(
        &mut self,
        resolver: &Resolver<'_>,
        input: &LinkInput<'_>,
        model: &mut Model,
        cx: &Ctx,
        index: usize,
        s: &ScriptDef,
    ) {
        match &s.source {
            ScriptSource::Inline(lua) => {
                let id = model.scripts.len();
                let src = input.sources.get(cx.file);
                let is_file = src.lang.is_some_and(|l| l.is_script());
                let names: Vec<String> = s.name.iter().cloned().collect();
                let file_count = if is_file {
                    scripts::file_name_count(&src.path, s.name_span)
                } else {
                    None
                };
                let (shared, local): (Vec<String>, Vec<String>) = names
                    .iter()
                    .map(|n| normalize_name(n))
                    .partition(|n| shares_identity(n, s.local));
                model.scripts.push(Script {
                    norm_names: shared.into_iter().collect(),
                    local_names: local.into_iter().map(|n| (cx.file, n)).collect(),
                    names,
                    speaker: cx.speaker,
                    def_span: s.name_span,
                    lua: std::sync::Arc::clone(lua),
                    contract: None,
                    sha1: s.text.as_deref().map(scripts::sha1_hex),
                    text: s.text.clone(),
                    file_count,
                    registration: s.declared_keys,
                    is_file,
                    included: false,
                    body: true,
                });
                self.script_at.insert((cx.file, index), id);
                if is_file {
                    self.lua_files.insert(normalize_path(&src.path), id);
                }
                for c in &lua.commands {
                    push_command(model, command_use(resolver, c, cx, Some(id)));
                }
            }
            ScriptSource::File {
                path,
                relative_to_file,
                ..
            } => {
                let src = input.sources.get(cx.file);
                let base = if *relative_to_file {
                    src.path.parent().map(Path::to_path_buf)
                } else {
                    input.speaker_dirs.get(cx.speaker).cloned().flatten()
                };
                match base {
                    Some(b) => self.refs.push(FileRef {
                        file: cx.file,
                        name: s.name.clone(),
                        local: s.local,
                        span: s.name_span,
                        written: path.clone(),
                        path: normalize_path(&b.join(path)),
                        registration: s.declared_keys,
                        index,
                    }),
                    None => model
                        .notes
                        .push((cx.file, format!("cannot resolve script path `{path}`"))),
                }
            }
        }
    }

    /// Each reference to a `.lua` file names the file's script: its name
    /// and registration count join the script.
    pub fn resolve_file_refs(&mut self, model: &mut Model, sources: &SourceMap) {
        // Missing script files, by the file naming them: one note each.
        let mut missing: BTreeMap<FileId, Vec<String>> = BTreeMap::new();
        let mut stand_ins: BTreeMap<FileId, Vec<(String, String)>> = BTreeMap::new();
        for r in std::mem::take(&mut self.refs) {
            let id = match self.lua_files.get(&r.path) {
                Some(&id) => id,
                None => match self.stand_in(&r.path) {
                    Some(id) => {
                        let found = sources.get(model.scripts[id].def_span.file).rel.clone();
                        stand_ins
                            .entry(r.file)
                            .or_default()
                            .push((r.written.clone(), found));
                        id
                    }
                    None => {
                        missing.entry(r.file).or_default().push(r.written.clone());
                        let id = self.missing_file(model, &r);
                        self.lua_files.insert(r.path.clone(), id);
                        id
                    }
                },
            };
            self.script_at.insert((r.file, r.index), id);
            let script = &mut model.scripts[id];
            if let Some(n) = r.name {
                let norm = normalize_name(&n);
                if shares_identity(&norm, r.local) {
                    script.norm_names.insert(norm);
                } else {
                    script.local_names.insert((r.file, norm));
                }
                if !script.names.contains(&n) {
                    script.names.push(n);
                }
            }
            if script.registration.is_none() {
                script.registration = r.registration;
            }
        }
        for (file, mut pairs) in stand_ins {
            pairs.sort();
            pairs.dedup();
            let (written, found) = &pairs[0];
            let more = match pairs.len() {
                1 => String::new(),
                n => format!(" ({} more files the same way)", n - 1),
            };
            model.notes.push((
                file,
                format!("script file `{written}` is not among the scanned files (generated at build time?); `{found}`, the one scanned file of that name, is read in its place{more}"),
            ));
        }
        for (file, mut names) in missing {
            names.sort();
            names.dedup();
            let message = match names.as_slice() {
                [one] => format!("script file `{one}` is not among the scanned files; its body is not checked, only the keys its callers pass"),
                [first, ..] => format!(
                    "{} script files it names are not among the scanned files (`{first}` and {} more); their bodies are not checked, only the keys their callers pass",
                    names.len(),
                    names.len() - 1
                ),
                [] => continue,
            };
            model.notes.push((file, message));
        }
    }

    /// The script of the `.lua` file at `path`, where the tree holds one
    /// there.
    pub fn script_at_path(&self, path: &Path) -> Option<ScriptId> {
        self.lua_files.get(path).copied()
    }

    /// A missing script file's stand-in: the one scanned `.lua` file with the
    /// same file name (`commands/obliterate-2.lua`, copied from
    /// `src/commands/` by a build step). Scripts are identified by name
    /// across speakers already; a file name that only one file in the tree
    /// carries names the same script. Two candidates, or none: no stand-in.
    /// The script of the `.lua` file at `path` (normalised), or of the one
    /// scanned file of its name.
    pub fn script_of_path(&self, path: &Path) -> Option<ScriptId> {
        self.lua_files
            .get(path)
            .copied()
            .or_else(|| self.stand_in(path))
    }

    fn stand_in(&self, path: &Path) -> Option<ScriptId> {
        let name = path.file_name()?;
        let mut found = self
            .lua_files
            .iter()
            .filter(|(p, _)| p.file_name() == Some(name));
        let (_, &id) = found.next()?;
        found.next().is_none().then_some(id)
    }

    /// A script whose file is not in the tree (generated at build time, or
    /// left out): known by its name, its registration and its file name's
    /// key count; its body may touch any key.
    fn missing_file(&mut self, model: &mut Model, r: &FileRef) -> ScriptId {
        let speaker = model
            .file_speaker
            .get(r.file as usize)
            .copied()
            .flatten()
            .unwrap_or(0);
        let stem = r.path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let names: Vec<String> = stem
            .map(|s| crate::extract::script_name_from_stem(&s))
            .into_iter()
            .collect();
        let lua = crate::facts::LuaFacts {
            dynamic_keys: true,
            span: r.span,
            ..Default::default()
        };
        model.scripts.push(Script {
            norm_names: names
                .iter()
                .map(|n| normalize_name(n))
                .filter(|n| shares_identity(n, false))
                .collect(),
            local_names: Default::default(),
            names,
            speaker,
            def_span: r.span,
            lua: lua.into(),
            contract: None,
            sha1: None,
            text: None,
            file_count: scripts::file_name_count(&r.path, r.span),
            registration: None,
            is_file: true,
            included: false,
            body: false,
        });
        model.scripts.len() - 1
    }

    /// `--- @include "includes/x"`: the included file's Lua is part of the
    /// script, so its `KEYS[n]` uses count as the script's. Paths are relative
    /// to the script's directory, `.lua` optional. Unresolved includes are
    /// noted: the script's key uses may then be incomplete, so it is treated as
    /// touching keys dynamically.
    pub fn resolve_includes(&mut self, model: &mut Model, sources: &SourceMap) {
        let lua_files = &self.lua_files;
        // (the including script, the included key uses, whether its keys are
        // dynamic)
        type Merge = (ScriptId, Vec<(u32, Span)>, bool);
        let mut merges: Vec<Merge> = Vec::new();
        let mut notes = Vec::new();
        let mut included = Vec::new();
        for (id, s) in model.scripts.iter().enumerate() {
            if s.lua.includes.is_empty() {
                continue;
            }
            let file = sources.get(s.def_span.file);
            let Some(dir) = file.path.parent() else {
                continue;
            };
            for (path, span) in &s.lua.includes {
                let plain = normalize_path(&dir.join(path));
                let with_ext = normalize_path(&dir.join(format!("{path}.lua")));
                match lua_files.get(&plain).or_else(|| lua_files.get(&with_ext)) {
                    Some(&inc) if inc != id => {
                        let lua = &model.scripts[inc].lua;
                        merges.push((id, lua.key_uses.clone(), lua.dynamic_keys));
                        included.push(inc);
                        self.includes.entry(id).or_default().push(inc);
                    }
                    Some(_) => {}
                    None => {
                        notes.push((
                            span.file,
                            format!("cannot resolve `@include \"{path}\"`; its keys are not known"),
                        ));
                        merges.push((id, Vec::new(), true));
                    }
                }
            }
        }
        for inc in included {
            model.scripts[inc].included = true;
        }
        for (id, uses, dynamic) in merges {
            let lua = std::sync::Arc::make_mut(&mut model.scripts[id].lua);
            lua.key_uses.extend(uses);
            lua.dynamic_keys |= dynamic;
        }
        model.notes.extend(notes);
    }
}
