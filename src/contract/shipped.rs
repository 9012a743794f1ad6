//! The contracts wirelint ships: EchoMQ's (the embedded default) and one
//! per queue family, each written from its upstream's code (the header of
//! each file names the upstream commit). `--contract NAME` and
//! `contract = "NAME"` in `wirelint.toml` select one by name.

use super::{Contract, ContractError};

/// A shipped contract: its name and its text.
pub struct Shipped {
    pub name: &'static str,
    /// `rules/NAME.toml`.
    pub path: &'static str,
    pub text: &'static str,
}

/// Every shipped contract, EchoMQ's first.
pub const SHIPPED: &[Shipped] = &[
    Shipped {
        name: "echomq",
        path: "rules/echomq.toml",
        text: super::EMBEDDED_TEXT,
    },
    Shipped {
        name: "bullmq",
        path: "rules/bullmq.toml",
        text: include_str!("../../rules/bullmq.toml"),
    },
    Shipped {
        name: "rsmq",
        path: "rules/rsmq.toml",
        text: include_str!("../../rules/rsmq.toml"),
    },
    Shipped {
        name: "sidekiq",
        path: "rules/sidekiq.toml",
        text: include_str!("../../rules/sidekiq.toml"),
    },
    Shipped {
        name: "asynq",
        path: "rules/asynq.toml",
        text: include_str!("../../rules/asynq.toml"),
    },
];

/// The families a tree may speak besides EchoMQ: every shipped contract
/// but the embedded default.
pub fn families() -> impl Iterator<Item = &'static Shipped> {
    SHIPPED.iter().filter(|s| s.name != "echomq")
}

/// Each family's keyspace as shipped (no `prefix` given), in
/// [`families`] order: loaded once, as every run reads them (the
/// prefilter's key marks, the family the tree's keys are of).
pub fn family_keyspaces() -> &'static [(&'static str, super::Keyspace)] {
    static LOADED: std::sync::OnceLock<Vec<(&'static str, super::Keyspace)>> =
        std::sync::OnceLock::new();
    LOADED.get_or_init(|| {
        families()
            .filter_map(|s| Some((s.name, s.load(None).ok()?.keyspace?)))
            .collect()
    })
}

/// The shipped contract named `name` (`bullmq`), if there is one.
pub fn named(name: &str) -> Option<&'static Shipped> {
    SHIPPED.iter().find(|s| s.name == name)
}

/// Whether a contract named on the command line (`--contract VALUE`) or
/// in `wirelint.toml` (`contract = "VALUE"`) is a file: it is written as a
/// path (with a `/`, absolute, or ending in `.toml`). Anything else is the
/// name of a shipped contract, whatever file or directory of that name
/// the current directory holds: a pull request cannot replace the
/// contract CI pins with `--contract echomq` by adding a file `echomq`.
pub fn is_path(value: &str) -> bool {
    value.contains('/')
        || value.contains(std::path::MAIN_SEPARATOR)
        || value.ends_with(".toml")
        || std::path::Path::new(value).is_absolute()
}

/// Why `name` names no shipped contract, in two parts: the nearest name
/// (`did you mean `echomq`?`) when one is near, and the names there are
/// with how a file is named (`quote` wraps the path as the setting writes
/// it: `"./NAME"` in `wirelint.toml`).
pub fn unknown(name: &str, quote: &str) -> (Option<String>, String) {
    let names: Vec<&str> = SHIPPED.iter().map(|s| s.name).collect();
    let near = super::suggest(name, names.iter().copied());
    let listing = format!(
        "the shipped contracts are {}, and a contract file is written as a path ({quote}./{name}{quote}, or a name ending in .toml)",
        names.join(", ")
    );
    (near, listing)
}

/// The usage error of a name (`--contract NAME`, `wirelint contract show
/// NAME`) that names no shipped contract: the nearest name, and the names
/// there are.
pub fn unknown_message(name: &str) -> String {
    let (near, listing) = unknown(name, "");
    let near = near.map(|n| format!(" ({n})")).unwrap_or_default();
    format!("no shipped contract is named `{name}`{near}: {listing}")
}

impl Shipped {
    /// The contract, `<prefix>` set to `prefix` when given.
    pub fn load(&self, prefix: Option<&str>) -> Result<Contract, Box<ContractError>> {
        let mut c = Contract::parse_with(self.text, &format!("{} (shipped)", self.path), prefix)?;
        c.embedded = true;
        Ok(c)
    }

    /// The contract's one-line description.
    pub fn description(&self) -> String {
        toml::from_str::<toml::Table>(self.text)
            .ok()
            .and_then(|t| t.get("description")?.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths() {
        for path in ["./echomq", "rules/x.toml", "x.toml", "/etc/c", "a/b"] {
            assert!(is_path(path), "{path}");
        }
        for name in ["echomq", "bullmq", "mine", "echomq.json", ""] {
            assert!(!is_path(name), "{name}");
        }
        assert_eq!(
            unknown("bullmg", "").0.as_deref(),
            Some("did you mean `bullmq`?")
        );
        assert_eq!(unknown("zzzzzz", "").0, None);
    }

    /// Every shipped contract loads, is named as its file, and names the
    /// upstream commit it describes.
    #[test]
    fn every_shipped_contract_loads() {
        for s in SHIPPED {
            let c = s.load(None).unwrap_or_else(|e| panic!("{}: {e}", s.path));
            assert_eq!(c.name, s.name);
            assert_eq!(s.path, format!("rules/{}.toml", s.name));
            if s.name != "echomq" {
                assert!(s.text.contains("Upstream: "), "{}", s.path);
                assert!(!s.description().is_empty());
            }
        }
    }

    fn bullmq(prefix: Option<&str>) -> Contract {
        named("bullmq").unwrap().load(prefix).unwrap()
    }

    /// `<prefix>` takes the contract's default, or the value given.
    #[test]
    fn the_prefix_placeholder_has_a_default_that_can_be_set() {
        let ks = bullmq(None).keyspace.unwrap();
        assert_eq!(
            (ks.prefix.as_str(), ks.pattern.as_str()),
            ("bull:", "bull:<queue>:<type>")
        );
        let ks = bullmq(Some("myapp")).keyspace.unwrap();
        assert_eq!(ks.prefix, "myapp:");
        let ks = named("sidekiq")
            .unwrap()
            .load(Some("exq:"))
            .unwrap()
            .keyspace
            .unwrap();
        let queue = ks.type_named("queue").unwrap();
        assert!(queue.whole && queue.queue_scoped());
        assert_eq!(ks.render(queue), "exq:queue:<queue>");
        assert!(!ks.type_named("queues").unwrap().queue_scoped());
    }

    /// Whole templates next to the queue key: global keys, the bare queue
    /// key, field templates.
    #[test]
    fn whole_templates_and_field_templates() {
        let c = named("rsmq").unwrap().load(None).unwrap();
        let ks = c.keyspace.as_ref().unwrap();
        assert_eq!(
            ks.render(ks.type_named("messages").unwrap()),
            "rsmq:<queue>"
        );
        assert_eq!(
            ks.render(ks.type_named("attributes").unwrap()),
            "rsmq:<queue>:Q"
        );
        let rec = &c.records[0];
        for f in ["vt", "totalsent", "abc123", "abc123:rc", "abc123:fr"] {
            assert!(rec.has_field(f), "{f}");
        }
        for f in ["abc:rx", "a:b:rc", ":rc"] {
            assert!(!rec.has_field(f), "{f}");
        }
    }

    #[test]
    fn bad_keyspaces_say_why() {
        let err = |ks: &str| {
            let text = format!("name = \"x\"\n[keyspace]\n{ks}\n");
            Contract::parse(&text, "c.toml").unwrap_err().message
        };
        assert!(
            err("key = \"<prefix>:<queue>:<type>\"\ntypes = { a = \"a\" }").contains("no default")
        );
        assert!(
            err("prefix = \"p\"\nkey = \"p:<queue>:<type>\"\ntypes = { a = \"a\" }")
                .contains("no key template names")
        );
        assert!(err("keys = { a = \"<x>\" }").contains("no literal bytes"));
        assert!(err("types = { a = \"a\" }").contains("has no `key`"));
        assert!(
            err("key = \"p:<queue>:<type>\"\ntypes = { a = \"a\" }\nkeys = { a = \"g\" }")
                .contains("defined in")
        );
        assert!(err("clustered = false").contains("declares no types"));
    }
}
