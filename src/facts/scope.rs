//! Where a file's calls of a client library get the library from: a module
//! tree as its files state it. A file whose client facts (commands, script
//! calls, field reads) count only with a client library in scope states a
//! [`ModuleScope`]; the link step (`crate::link::scope`) drops those facts
//! when no module the file draws its names from names a client library.

/// What one file says of its place in a module tree.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ModuleScope {
    /// The file names a client library itself.
    pub names_client: bool,
    /// The modules it declares in files of their own.
    pub children: Vec<ChildModule>,
    /// The modules whose names it brings into its scope.
    pub imports: Vec<ModuleRef>,
    /// The names it imports from a client library (`*` for all of them,
    /// a glob import): a named import of one of them from this file's
    /// module brings the client.
    pub client_names: Vec<String>,
}

/// A module declared in a file of its own.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ChildModule {
    /// Its path from the declaring file's module (`a::x` for a declaration
    /// inside a module `a` written in the file).
    pub name: Vec<String>,
    /// The files that may hold it, relative to the declaring file's
    /// directory: the first that exists does.
    pub files: Vec<String>,
}

/// A module a file imports names from: `up` levels above the file's module
/// (or the tree's root when `root`), then down `path` (a segment that is
/// no module declared in a file of its own goes on inside the file
/// reached); all its names (a glob import), or the one `name`.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ModuleRef {
    pub root: bool,
    pub up: usize,
    pub path: Vec<String>,
    pub name: Option<String>,
}

impl super::FileFacts {
    /// Forgets the facts that count only with a client library in scope.
    /// A field read of a parameter stays: it reads what the callers pass,
    /// and a caller's own client read shows that it came from a hash.
    pub fn drop_client_facts(&mut self) {
        self.commands.clear();
        self.script_calls.clear();
        self.field_reads.retain(|r| r.row.is_some());
    }
}
