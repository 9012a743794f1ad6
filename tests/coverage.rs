//! Coverage: every form of running a script that `fixtures/coverage/` holds
//! is linked to its script with the exact numkeys and key templates that
//! `extract --format json` shows, and `check --coverage` lists exactly what
//! is not checked and which scripts nobody runs.

mod common;

use common::{repo, run};

/// `path:line script numkeys [keys]` of every linked call `extract` shows.
fn linked_calls(fixture: &str) -> Vec<String> {
    let dir = repo().join("fixtures/coverage").join(fixture);
    let (code, stdout, stderr) = run(
        &["extract", "--format", "json", dir.to_str().unwrap()],
        &repo(),
    );
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut out = Vec::new();
    for s in v["speakers"].as_array().unwrap() {
        for c in s["calls"].as_array().unwrap() {
            let keys: Vec<&str> = c["keys"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap_or("null"))
                .collect();
            out.push(format!(
                "{}:{} {} {} [{}]{}",
                c["at"]["path"].as_str().unwrap(),
                c["at"]["line"],
                c["script"].as_str().unwrap(),
                c["numkeys"],
                keys.join(", "),
                if c["keys_complete"] == true {
                    ""
                } else {
                    " incomplete"
                }
            ));
        }
    }
    out
}

#[test]
fn a_script_object_from_a_registry_runs_its_script() {
    // `table.get("bumpTally")` then `script.call(conn, &keys, &args)`, the
    // method building EVALSHA from `self.digest` and `self.key_count`.
    // `get(if up { "bumpTally" } else { "dropTally" })` (through a local):
    // either runs, so the one invocation is a use of each.
    assert_eq!(
        linked_calls("rust-registry"),
        [
            "src/tally.rs:13 bumpTally 2 [tl:{<*>}:row, tl:{<*>}:index]",
            "src/tally.rs:30 bumpTally 2 [tl:{<*>}:row, tl:{<*>}:index]",
            "src/tally.rs:30 dropTally 2 [tl:{<*>}:row, tl:{<*>}:index]",
        ]
    );
}

#[test]
fn statics_matches_and_pushed_vecs_are_linked() {
    assert_eq!(
        linked_calls("rust-statics"),
        [
            // A LazyLock script, keys pushed into a Vec, then a loop of `.key(k)`.
            "src/lib.rs:28 tick 2 [mt:{<*>}:counter, mt:{<*>}:log]",
            // `RESET.key(&[..])`.
            "src/lib.rs:37 RESET 1 [mt:{<*>}:counter]",
            // `match name { "tick" => Some(&TICK), .. }` looked up by name.
            "src/lib.rs:45 tick 2 [mt:{<*>}:counter, mt:{<*>}:log]",
        ]
    );
}

#[test]
fn elixir_registries_loaders_and_tuples_are_linked() {
    assert_eq!(
        linked_calls("elixir-registry"),
        [
            // `"2"` as numkeys.
            "lib/relay/claims.ex:6 claim 2 [rl:{<*>}:ready, rl:{<*>}:taken]",
            // `case get_sha(name) do sha -> ["EVALSHA", sha, length(keys) | ..]`.
            "lib/relay/claims.ex:10 claim 2 [rl:{<*>}:ready, rl:{<*>}:taken]",
            // A SHA from `SCRIPT LOAD` kept by a function; `to_string(1)`.
            "lib/relay/claims.ex:15 expire_all 1 [rl:{<*>}:parked]",
            // A `{name, sha, body}` tuple parameter.
            "lib/relay/packed.ex:10 claim 2 [rl:{<*>}:ready, rl:{<*>}:taken]",
            // `{body, _} = Scripts.get(:park)` through a wrapper that counts.
            "lib/relay/parking.ex:7 park 2 [rl:{<*>}:parked, rl:{<*>}:car:<*>]",
            // `{body, count} = ..` with the count the registry holds.
            "lib/relay/parking.ex:13 drop 1 [rl:{<*>}:parked]",
        ]
    );
}

#[test]
fn elixir_values_flow_through_attributes_lookups_state_and_locals() {
    assert_eq!(
        linked_calls("elixir-flow"),
        [
            // A call of another module's function, followed to what it
            // returns: `counter_digest/0` returns `@tally_sha`, the SHA1 of
            // `@tally` ...
            "lib/meter/pages.ex:8 tally 1 [mt:{<*>}:hits]",
            // ... and `tally/0` returns `@tally` itself.
            "lib/meter/pages.ex:12 tally 1 [mt:{<*>}:hits]",
            // `by_name(:clear)` runs the one clause whose pattern is
            // `:clear`: it returns `@wipe`.
            "lib/meter/pages.ex:16 wipe 2 [mt:{<*>}:hits, mt:{<*>}:seen]",
            // `Keyword.fetch!(scripts, :clear)` where `scripts` is what
            // another module's `table/0` returns: the keyword list its
            // attribute holds, looked up by the key.
            "lib/meter/pages.ex:21 wipe 2 [mt:{<*>}:hits, mt:{<*>}:seen]",
            // `Keyword.fetch!(@table, :clear)`, the keyword list an
            // attribute of the same module holds.
            "lib/meter/scripts.ex:24 wipe 2 [mt:{<*>}:hits, mt:{<*>}:seen]",
            // A GenServer's state: the SHA `init/1` got from `SCRIPT LOAD`
            // of a `File.read!` of a joined path, read back by a map
            // pattern ...
            "lib/meter/server.ex:21 tally 1 [mt:{<*>}:hits]",
            // ... and by `state.sha`, the key built with `then/2`.
            "lib/meter/server.ex:27 tally 1 [mt:{<*>}:hits]",
            // A local bound to Lua in a string.
            "lib/mix/tasks/meter.bench.ex:10 script 1 [mt:{bench}:hits]",
        ]
    );
    // Every call of the pages is linked.
    let dir = repo().join("fixtures/coverage/elixir-flow");
    let (_, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    let pages: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("pages.ex"))
        .map(|l| l.split(": not linked").next().unwrap_or(""))
        .collect();
    assert_eq!(pages, Vec::<&str>::new());
}

#[test]
fn elixir_values_from_other_modules_are_linked() {
    // `fixtures/coverage/elixir-modules`: the command words, the key
    // separator and a key count are functions of `Depot.Wire`, in another
    // file, read through `alias Depot.Wire, as: W` (`W.evalsha()`) and
    // `import Depot.Wire` (`eval()`, beside a second `import`).
    assert_eq!(
        linked_calls("elixir-modules"),
        [
            // `[W.script(), W.load(), @claim]`'s SHA, `W.claim_keys()` keys.
            "lib/depot/claims.ex:16 claim 2 [dp:{<*>}:ready, dp:{<*>}:taken]",
            // `[eval(), @requeue, 2, ..]`, keys joined by `separator()`.
            "lib/depot/jobs.ex:23 requeue 2 [dp:{<*>}:taken, dp:{<*>}:ready]",
        ]
    );
    let dir = repo().join("fixtures/coverage/elixir-modules");
    let (code, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert_eq!(code, 0, "{stderr}");
    // The row `[hgetall(), job(..)]` reads is the row `[hset(), ..]` writes:
    // no finding.
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "coverage: fixtures/coverage/elixir-modules: 2 of 2 script calls checked",
            "wirelint: 2 of 2 script calls checked",
            "wirelint: 0 errors, 0 warnings in 6 files; exit 0: clean",
        ]
    );
}

#[test]
fn a_typescript_interface_call_runs_each_adapter_and_its_script() {
    // `fixtures/coverage/ts-adapters`: `runScript(client, 'claimTask', ..)`
    // calls `client.runCommand(`${scriptName}:${this.version}`, args)` on
    // an interface; each implementation in the tree is bound. The ioredis
    // adapter runs `client[name](args)`, the command `defineCommand` gave
    // the client, with the key count of `claimTask-2.lua`: keys first in
    // the one array, `keys.concat([id, worker])` counted. The node-redis
    // adapter runs `evalSha(digest, {keys, arguments})` with `digest`
    // destructured from its map's entry: linked, its keys sliced at run
    // time.
    assert_eq!(
        linked_calls("ts-adapters"),
        [
            "src/backend.ts:21 claimTask 2 [<*>:pending, <*>:task:<*>]",
            "src/backend.ts:21 claimTask null [] incomplete",
            "src/backend.ts:26 finishTask 3 [<*>:task:<*>, <*>:claimed, <*>:done]",
            "src/backend.ts:26 finishTask null [] incomplete",
        ]
    );
    let dir = repo().join("fixtures/coverage/ts-adapters");
    let (_, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert!(
        stderr.contains("coverage: fixtures/coverage/ts-adapters: 2 of 2 script calls checked\n"),
        "{stderr}"
    );
}

#[test]
fn a_script_a_base_class_reads_from_the_file_its_subclass_names_is_linked() {
    // `fixtures/coverage/python-subclass-scripts`: the base's `__init__`
    // registers `open(Path(__file__).resolve().parent / "lua" /
    // self.lua_file).read()`; each subclass names its file and runs
    // `self.run(keys=[..], args=[..])`. The read's path is filled in with
    // the subclass's `lua_file`, so each call runs its own class's script.
    assert_eq!(
        linked_calls("python-subclass-scripts"),
        [
            "meter/gauges.py:10 gauge_set 1 [mt:{<*>}:gauge]",
            "meter/gauges.py:17 window_add 2 [mt:{<*>}:window, mt:{<*>}:total]",
        ]
    );
}

#[test]
fn a_script_a_helper_reads_by_a_bare_path_is_linked() {
    // `fixtures/coverage/python-package-data`: `TRIM = opened(path)`, a
    // helper that reads `open(path)`, its path filled in by the call;
    // registered into a field in `__init__` and run as `self.field(keys,
    // args)` in another method.
    assert_eq!(
        linked_calls("python-package-data"),
        ["tally/counter.py:18 log_cap 1 [tl:{<*>}:log]"]
    );
}

#[test]
fn a_script_file_a_wrapper_reads_by_the_name_each_call_passes_is_linked() {
    // `fixtures/coverage/ruby-read-by-name`: `entry(kind, keys, argv)`
    // reads `File.join(File.dirname(__FILE__), "scripts",
    // "#{kind}_entry.lua")` and EVALs it; each call's `kind` (a string, a
    // symbol) fills in the path, so each runs its own file's script.
    assert_eq!(
        linked_calls("ruby-read-by-name"),
        [
            "lib/ledger/book.rb:11 credit_entry 2 [lg:{<*>}:balance, lg:{<*>}:journal]",
            "lib/ledger/book.rb:15 debit_entry 1 [lg:{<*>}:balance]",
        ]
    );
}

#[test]
fn a_script_a_method_named_at_run_time_returns_is_linked() {
    // `fixtures/coverage/ruby-send-by-name`: `run(redis, op, ..)` runs
    // `evalsha(public_send("#{op}_sha"), ..)`, then `eval(send("#{op}_lua"),
    // ..)`; each call's `op` names the methods, whose heredocs check their
    // key count (`#KEYS ~= 2`, `~= 1`), so a call linked to the other
    // script would be a WL303 and the run is clean.
    assert_eq!(
        linked_calls("ruby-send-by-name"),
        [
            "lib/quota/counter.rb:10 <unnamed> 2 [qt:{<*>}:used, qt:{<*>}:limit]",
            "lib/quota/counter.rb:18 <unnamed> 1 [qt:{<*>}:used]",
        ]
    );
    let dir = repo().join("fixtures/coverage/ruby-send-by-name");
    let (code, _, stderr) = run(&["check", "--no-cache", dir.to_str().unwrap()], &repo());
    assert_eq!(
        (code, stderr.as_str()),
        (
            0,
            "wirelint: 2 of 2 script calls checked\nwirelint: 0 errors, 0 warnings in 1 file; exit 0: clean\n"
        )
    );
}

#[test]
fn arguments_passed_by_name_bind_the_parameters_of_their_names() {
    // `fixtures/coverage/python-keyword-wrapper`: `_run(self, script,
    // ttl=0, keys=None, args=None)` runs `script(keys=keys, args=args)`;
    // `deliver` passes `keys=[..]` by name (and leaves `ttl` to its
    // default), `redeliver` passes them by position: the same keys.
    assert_eq!(
        linked_calls("python-keyword-wrapper"),
        [
            "inbox/store.py:18 DELIVER 2 [ib:{<*>}:msg:<*>, ib:{<*>}:queue]",
            "inbox/store.py:26 DELIVER 2 [ib:{<*>}:msg:<*>, ib:{<*>}:queue]",
        ]
    );
}

#[test]
fn keyword_arguments_bind_a_ruby_wrappers_keyword_parameters() {
    // `fixtures/coverage/ruby-keyword-wrapper`: `Gate.run(redis:, lua:,
    // sha:, keys: [], argv: [])` runs `evalsha(sha, ..)`, then `eval(lua,
    // ..)`; the class passes its heredoc and its SHA1 by name.
    assert_eq!(
        linked_calls("ruby-keyword-wrapper"),
        ["lib/gate/turnstile.rb:20 PASS 2 [gt:{<*>}:count, gt:{<*>}:log]"]
    );
}

#[test]
fn a_table_of_scripts_a_method_fills_runs_by_name_and_builtin_methods_stay_builtin() {
    // `fixtures/coverage/python-script-table`: `Db.load_scripts` fills
    // `self._lua[stem] = script` in a loop over the `lua` directory, and
    // `Db.run(name, keys, args)` runs `self._lua[name](keys, args)`: a
    // field holding a table of scripts in another method. `Stack.append`
    // and `Stack.pop` run `stack_push` and `stack_pop` through it; `drain`'s
    // `log.append(name)` and `names.pop()` are a list's, not `Stack`'s
    // (they were linked as `Stack`'s before the built-in types' methods
    // were data).
    assert_eq!(
        linked_calls("python-script-table"),
        [
            "shelf/stack.py:9 stack_push 1 [sh:{<*>}:stack]",
            "shelf/stack.py:12 stack_pop 1 [sh:{<*>}:stack]",
        ]
    );
}

#[test]
fn a_command_a_client_registers_is_run_from_other_files() {
    // `fixtures/coverage/js-registered-command`: `client.ts` registers
    // `defineCommand('claimTicket', {numberOfKeys: 2, lua: ..})`; `desk.ts`
    // runs `redis.claimTicket(k1, k2, agent)` (and holds a function of that
    // name taking one argument, which the call is not). `take`'s call
    // binds through `claimTicket(desk)`, a call of `take`.
    assert_eq!(
        linked_calls("js-registered-command"),
        [
            "src/desk.ts:5 claim_ticket 2 [tk:{<*>}:open, tk:{<*>}:claimed]",
            "src/desk.ts:9 claim_ticket 2 [tk:{<*>}:open, tk:{<*>}:claimed]",
        ]
    );
}

#[test]
fn a_variable_a_function_stores_through_its_pointer_holds_what_it_stores() {
    // `fixtures/coverage/go-pointer-stores`: `Load` passes a map of
    // pointers (`"seize.lua": &grabCmd`) to `loadAll`, whose `range` over
    // it stores `*cmd = redis.NewScript(string(body))`, `body` the embedded
    // `"lua/" + file`; and `&pingCmd` to `loadOne`, which stores through it
    // directly. `tickets.go` runs the three variables, declared in the
    // other file. `describe(&grabCmd)`, before, stores nothing: it defines
    // nothing either. `limits.go`'s `init` ranges over a map literal of
    // pointers in place, its reads from the embedded files `scripts.go`
    // declares. The variables' names name no script: only the stores
    // link them, each to the file beside the package (`archive/lua/seize.lua`,
    // a copy of the name, is run by nobody).
    assert_eq!(
        linked_calls("go-pointer-stores"),
        [
            "store/limits.go:31 raise_cap 1 [tk:{<*>}:cap]",
            "store/limits.go:35 lower_cap 1 [tk:{<*>}:cap]",
            "store/tickets.go:10 seize 2 [tk:{<*>}:open, tk:{<*>}:claimed]",
            "store/tickets.go:14 hand_back 1 [tk:{<*>}:claimed]",
            "store/tickets.go:18 keepalive 1 [tk:{<*>}:open]",
        ]
    );
    let dir = repo().join("fixtures/coverage/go-pointer-stores");
    let (_, stdout, stderr) = run(&["check", "--format", "json", "."], &dir);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    let unused: Vec<&str> = v["coverage"]["unused_scripts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(unused, ["archive/lua/seize.lua"]);
    assert_eq!(v["coverage"]["checked"], 5, "{stdout}");
}

#[test]
fn a_sha_a_method_keeps_names_the_script_it_digests() {
    // `fixtures/coverage/ruby-memo-sha`: `enter` runs `evalsha(enter_sha,
    // ..)`, and `enter_sha` is `@enter_sha ||= Digest::SHA1.hexdigest(ENTER)`:
    // an assignment gives what it assigns (the method's last expression),
    // and the standard library's SHA1 names the script it digests.
    assert_eq!(
        linked_calls("ruby-memo-sha"),
        ["lib/turnstile.rb:18 ENTER 1 [ts:{<*>}:count]"]
    );
}

#[test]
fn a_key_list_a_helper_returns_is_counted() {
    // `fixtures/coverage/python-keymaps`: `keys = self.getKeys([..])`, whose
    // `return list(map(keyOf, roles))` is as long as the list passed, each
    // key what `keyOf` makes of a role (not followed): two keys, counted.
    let dir = repo().join("fixtures/coverage/python-keymaps");
    let (code, stdout, stderr) = run(
        &["extract", "--format", "json", dir.to_str().unwrap()],
        &repo(),
    );
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let calls: Vec<String> = v["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["calls"].as_array().unwrap())
        .map(|c| {
            format!(
                "{}:{} {} {} {} {}",
                c["at"]["path"].as_str().unwrap(),
                c["at"]["line"],
                c["script"].as_str().unwrap(),
                c["numkeys"],
                c["keys"],
                c["keys_complete"]
            )
        })
        .collect();
    assert_eq!(calls, ["shelf/store.py:24 restock 2 [null,null] true"]);
    let (_, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert!(
        stderr
            .contains("coverage: fixtures/coverage/python-keymaps: 1 of 1 script calls checked\n"),
        "{stderr}"
    );
}

#[test]
fn coverage_lists_what_is_not_checked_and_what_nobody_runs() {
    let dir = repo().join("fixtures/coverage/unlinked");
    let (code, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "coverage: fixtures/coverage/unlinked: 1 of 2 script calls checked",
            "  fixtures/coverage/unlinked/lib/loose.ex:7:25: not linked: the script comes from `fetch_body(..)`, which wirelint cannot follow to a script",
            "coverage: script `sweep` (fixtures/coverage/unlinked/priv/sweep.lua:1:1) is run by no speaker",
            "wirelint: 1 of 2 script calls checked; 1 not linked; 1 script run by no call",
            "wirelint: 0 errors, 0 warnings in 4 files; exit 0: clean",
        ]
    );
    // Without --coverage: one line that says where to look.
    let (_, _, stderr) = run(&["check", dir.to_str().unwrap()], &repo());
    assert_eq!(
        stderr.lines().next(),
        Some(
            "wirelint: 1 of 2 script calls checked; 1 not linked; 1 script run by no call: \
             --coverage lists them"
        )
    );
}

#[test]
fn the_json_coverage_object_says_the_same() {
    let dir = repo().join("fixtures/coverage/unlinked");
    let (_, stdout, _) = run(
        &["check", "--format", "json", dir.to_str().unwrap()],
        &repo(),
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let c = &v["coverage"];
    assert_eq!(
        (c["calls"].as_u64(), c["checked"].as_u64()),
        (Some(2), Some(1))
    );
    let u = &c["speakers"][0]["unchecked"];
    assert_eq!(u.as_array().unwrap().len(), 1);
    // Paths are relative to the current directory (the repository).
    assert_eq!(u[0]["path"], "fixtures/coverage/unlinked/lib/loose.ex");
    assert_eq!(u[0]["span"]["start"]["line"], 7);
    assert_eq!(u[0]["linked"], false);
    assert_eq!(u[0]["test"], false);
    let unused = c["unused_scripts"].as_array().unwrap();
    assert_eq!(unused.len(), 1);
    assert_eq!(unused[0]["script"], "sweep");
    assert_eq!(
        unused[0]["path"],
        "fixtures/coverage/unlinked/priv/sweep.lua"
    );
}

/// The notes of a `check --format json` run on a rule case, from its
/// directory.
fn notes_of(case: &str) -> Vec<String> {
    let dir = repo().join("tests/rules/WL309-argv-value").join(case);
    let (_, stdout, stderr) = run(&["check", "--no-contract", "--format", "json", "."], &dir);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{}: {}",
                n["path"].as_str().unwrap(),
                n["message"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_generated_script_file_is_read_from_its_one_namesake_and_says_so() {
    assert_eq!(
        notes_of("port-flag-generated-copy"),
        ["rust/src/lib.rs: script file `commands/obliterate-1.lua` is not among the scanned files (generated at build time?); `scripts/obliterate-1.lua`, the one scanned file of that name, is read in its place"]
    );
    // Two files of that name: no guess, the body is not checked, and the
    // note says so.
    assert_eq!(
        notes_of("port-flag-generated-two-namesakes"),
        ["rust/src/lib.rs: script file `commands/obliterate-1.lua` is not among the scanned files; its body is not checked, only the keys its callers pass"]
    );
}

#[test]
fn values_followed_through_definitions_are_linked() {
    // `fixtures/coverage/rust-flow`: scripts kept in struct fields set by a
    // constructor in another file, returned by functions and methods, held
    // in a `OnceLock` and a `lazy_static!`; keys built with `push_str`,
    // `+=` and `write!`, in blocks, pushed into a `Vec`; an invocation split
    // into statements.
    assert_eq!(
        linked_calls("rust-flow"),
        [
            // `self.scripts.enqueue`: `Producer::new` sets `scripts` to
            // `Arc::new(Scripts::new())`, whose `Self { .. }` sets `enqueue`.
            "src/producer.rs:24 enqueue 2 [fq:{<*>}:wait, fq:{<*>}:meta]",
            // `scripts.ack()`: the method returns `&self.ack`.
            "src/worker.rs:16 ack 1 [fq:{<*>}:active]",
            // `reap_script()` returns `Script::new(include_str!(..))`.
            "src/worker.rs:26 reap 2 [fq:{<*>}:active, fq:{<*>}:wait]",
            // The invocation `trim_invocation` builds and returns (from a
            // `OnceLock`'s initialiser), then run by its caller.
            "src/worker.rs:35 trim 1 [fq:{<*>}:done]",
            "src/worker.rs:42 trim 1 [fq:{<*>}:done]",
            // `lazy_static!`; the key built by `write!` then `push_str`.
            "src/worker.rs:47 purge 1 [fq:{<*>}:dead]",
            // An invocation split into statements, run by the last; its
            // keys pushed into a `Vec` a block builds, the first built in
            // a block of its own with `write!` and `push_str`.
            "src/worker.rs:65 reap 2 [fq:{<*>}:active, fq:{<*>}:wait]",
        ]
    );
    let dir = repo().join("fixtures/coverage/rust-flow");
    let (code, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert_eq!(code, 0, "{stderr}");
    // Built by `prepare_invoke()` is not run: six invocations, each checked.
    assert_eq!(
        stderr.lines().next(),
        Some("coverage: fixtures/coverage/rust-flow: 6 of 6 script calls checked")
    );
}

#[test]
fn a_public_wrapper_no_call_binds_is_listed_as_one() {
    // A public function that runs the script its caller passes, and that
    // no call in the tree binds (`def eval/4`, a Ruby method before
    // `private`, a Rust `pub fn` whose `ScriptInvocation` literal holds
    // `self`): its callers are the invocations. A private one never called
    // stays "not linked"; a public one called in the tree is linked there.
    // A public function that only passes its parameters on (`evalsha/4`
    // to `send_evalsha/4`) is that wrapper, placed at its command.
    let dir = repo().join("fixtures/coverage/wrappers");
    let (code, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert_eq!(code, 0, "{stderr}");
    let wrapper = |what: &str| {
        format!(
            "not linked: a public wrapper: {what}, and no call in the tree binds it; its \
             callers are the invocations (outside the tree, or client calls counted where they are)"
        )
    };
    let at = "  fixtures/coverage/wrappers";
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "coverage: fixtures/coverage/wrappers/ex: 1 of 4 script calls checked".to_string(),
            format!(
                "{at}/ex/lib/relay/connection.ex:6:25: {}",
                wrapper("`eval/4` of `Relay.Connection` runs the script its parameter `script` names")
            ),
            format!(
                "{at}/ex/lib/relay/connection.ex:14:25: {}",
                wrapper("`evalsha/4` of `Relay.Connection` runs the script its parameter `sha` names")
            ),
            format!("{at}/ex/lib/relay/connection.ex:19:25: not linked: the script is the parameter `script`, which no call binds"),
            "coverage: fixtures/coverage/wrappers/rb: 0 of 2 script calls checked".to_string(),
            format!(
                "{at}/rb/lib/courier/adapter.rb:6:9: {}",
                wrapper("`evalsha/3` of `Courier::Adapter::Compat` runs the script its parameter `sha` names")
            ),
            format!("{at}/rb/lib/courier/adapter.rb:13:9: not linked: the script is the parameter `body`, which no call binds"),
            "coverage: fixtures/coverage/wrappers/rs: 0 of 2 script calls checked".to_string(),
            format!(
                "{at}/rs/src/script.rs:17:9: {}",
                wrapper("`invoke/1` of `Script` runs the script it is called on")
            ),
            format!("{at}/rs/src/script.rs:30:9: not linked: the script is the parameter `self`, which no call binds"),
            "wirelint: 1 of 8 script calls checked; 3 not linked; 4 public wrappers".to_string(),
            // Public wrappers are no invocations: 3 of the other 4 are not
            // linked, so the run is not called clean.
            "wirelint: 0 errors, 0 warnings in 6 files; exit 0; warning: 3 of 4 script calls \
             outside test code not linked, so not checked"
                .to_string(),
        ]
    );
    assert_eq!(
        linked_calls("wrappers"),
        ["ex/lib/relay/grabs.ex:4 grab 1 [wr:{<*>}:ready]"]
    );
    // In the JSON, `wrapper: true` marks them (and only them).
    let (_, stdout, _) = run(
        &["check", "--format", "json", dir.to_str().unwrap()],
        &repo(),
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let marked: Vec<(String, u64)> = v["coverage"]["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["unchecked"].as_array().unwrap().clone())
        .filter(|u| u["wrapper"] == true)
        .map(|u| {
            (
                u["path"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
                u["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        marked,
        [
            ("connection.ex".to_string(), 6),
            ("connection.ex".to_string(), 14),
            ("adapter.rb".to_string(), 6),
            ("script.rs".to_string(), 17)
        ]
    );
}

/// Records whose fields are not all in the code are listed with the reason
/// (no field rule concludes a field is missing from them); a record whose
/// fields are all known is not.
#[test]
fn records_the_field_rules_leave_alone_are_listed_with_the_reason() {
    let dir = repo().join("fixtures/coverage/unclear-records");
    let (code, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "coverage: record `lg:{main}:entry:<*>` (fixtures/coverage/unclear-records/lib/ledger.ex:4:25): fields not checked: a command names a field through a value wirelint cannot read, so its fields are not all known",
            "coverage: record `lg:{main}:tag:<*>` (fixtures/coverage/unclear-records/lib/ledger.ex:13:25): fields not checked: a command passes a list of fields of unknown length, so its fields are not all known",
            "wirelint: 0 errors, 0 warnings in 2 files; exit 0: clean",
        ]
    );
    let (_, stdout, _) = run(
        &["check", "--format", "json", dir.to_str().unwrap()],
        &repo(),
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let got: Vec<(String, String, u64)> = v["coverage"]["unchecked_records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["record"].as_str().unwrap().to_string(),
                r["path"].as_str().unwrap().to_string(),
                r["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let at = "fixtures/coverage/unclear-records/lib/ledger.ex".to_string();
    assert_eq!(
        got,
        [
            ("lg:{main}:entry:<*>".to_string(), at.clone(), 4),
            ("lg:{main}:tag:<*>".to_string(), at, 13),
        ]
    );
}

#[test]
fn a_function_that_only_passes_its_parameters_on_is_the_same_call() {
    // `removeJob(r, q, id)` returns `dropJob(r, q, id)`: its call of
    // `dropJob` is no call site of its own (`link/calls/delegates.rs`);
    // `cancel`'s call through it is the one use, beside the wrapper's own.
    assert_eq!(
        linked_calls("js-delegates"),
        [
            "src/jobs.js:6 PURGE_DQ 2 [dq:<*>:job:<*>, dq:<*>:index]",
            "src/jobs.js:15 PURGE_DQ 2 [dq:mail:job:<*>, dq:mail:index]",
        ]
    );
}

#[test]
fn a_script_read_where_the_code_runs_from_a_configured_root_is_linked() {
    // `fixtures/coverage/elixir-runtime-read`: `{:ok, lua} = load(rel)`,
    // `load` piping a configured root through `Path.join(rel)` into
    // `File.read()`, and `File.read!(Path.join([root(), "lib", ..]))`:
    // each a read of the `.lua` file the path's literal end names under
    // the project's root; `"#{lua}"` is the text it holds.
    assert_eq!(
        linked_calls("elixir-runtime-read"),
        [
            "lib/ledger/store/accounts.ex:9 credit 2 [ledger:{<*>}:row, ledger:{<*>}:log]",
            "lib/ledger/store/accounts.ex:15 credit 2 [ledger:{<*>}:row, ledger:{<*>}:log]",
        ]
    );
}

#[test]
fn a_command_handed_to_a_wrapper_in_another_file_is_sent() {
    // `fixtures/coverage/elixir-wrapper-file`: `Store.command([..])`, and
    // `Gate.Store.command/1` in a file of its own hands its parameter to
    // eredis. That file holds no command of its own: the name pass parses
    // it because a parsed file hands a command to a function of its name.
    assert_eq!(
        linked_calls("elixir-wrapper-file"),
        ["lib/gate/lock.ex:6 take_script 1 [gate:{<*>}:lock]"]
    );
}

#[test]
fn a_call_on_a_module_chosen_where_the_code_runs_calls_each_definer() {
    // `fixtures/coverage/elixir-runtime-module`: `Store.command([..])`
    // pipes its command into `client().q(command)`, the module read from
    // the configuration; both modules that define `q/2` hand it to a
    // client, so the command is sent.
    assert_eq!(
        linked_calls("elixir-runtime-module"),
        ["lib/lock.ex:5 hold_script 1 [latch:{<*>}:lock]"]
    );
}

#[test]
fn a_client_method_called_by_the_name_of_a_redis_command_runs_no_script() {
    // `fixtures/coverage/js-command-by-name`: `send(client, name, args)`
    // runs `client[name](...args)`. Bound to `'holdSlot'`, the command
    // `defineCommand` gave the client, it runs `hold_slot.lua`; bound to
    // `'zcard'`, the client's own ZCARD, it runs no script and is no call
    // left unlinked.
    assert_eq!(
        linked_calls("js-command-by-name"),
        ["lib/store.js:18 hold_slot 1 [cq:{jobs}:<*>]"]
    );
    let dir = repo().join("fixtures/coverage/js-command-by-name");
    let (_, _, stderr) = run(&["check", "--coverage", dir.to_str().unwrap()], &repo());
    assert!(
        stderr.contains(
            "coverage: fixtures/coverage/js-command-by-name: 1 of 1 script calls checked\n"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("not linked"), "{stderr}");
}
