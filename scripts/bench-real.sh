#!/usr/bin/env bash
# The real corpus (WIRELINT_CORPUS: one OWNER+NAME directory per repository
# of tests/realcode/corpus.tsv), timed in one loop per case, medians of RUNS
# runs (default 5): wall time, CPU time (user + sys) and peak RSS of each
# run, timed by fork and wait4 in a small python3 helper (without python3,
# by /usr/bin/time, whose wall time comes in steps of 10 ms: too coarse for
# the pre-commit goal of 100 ms).
#
#   WIRELINT_CORPUS=/work/corpus [WIRELINT_BEFORE=old/wirelint] [RUNS=5] scripts/bench-real.sh
#
# Cases: the whole corpus in one run (ripgrep with the same facts as
# regexes; ast-grep when installed; wirelint cold, i.e. an empty cache
# directory, warm, and with --no-cache; the older binary if given); each
# repository alone (ripgrep, wirelint --no-cache and warm, files and bytes
# parsed); the pre-commit case (10 changed files in a copy of BullMQ, cache
# warm; in a copy with no commit, and in one with a commit, whose stored
# findings at HEAD are the base). Nothing is written under WIRELINT_CORPUS: caches and the copy live
# in a temporary directory.
set -uo pipefail
cd "$(dirname "$0")/.."
CORPUS=${WIRELINT_CORPUS:?set WIRELINT_CORPUS}
RUNS=${RUNS:-5}
BEFORE=${WIRELINT_BEFORE:-}
cargo build --release --quiet --bin wirelint || exit 1
WL=$PWD/target/release/wirelint
TSV=$PWD/tests/realcode/corpus.tsv
TMP=$(mktemp -d /tmp/wirelint-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }
# The extensions of every language wirelint reads (src/extract/lang.rs),
# for ripgrep's file type and find's names.
EXTS=ex,exs,rs,lua,py,js,mjs,cjs,jsx,ts,mts,cts,tsx,go,rb
SRC_NAMES=()
for e in ${EXTS//,/ }; do SRC_NAMES+=(${SRC_NAMES[0]:+-o} -name "*.$e"); done

echo "## machine"
echo "nproc: $(nproc); $(lscpu | grep 'Model name' | sed 's/  */ /g')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
SRC=$(find "$CORPUS" -type f \( "${SRC_NAMES[@]}" \) | wc -l)
echo "corpus: $CORPUS, $SRC source files"
echo "wirelint: $(git rev-parse --short HEAD)${BEFORE:+; before: $BEFORE}"
echo
# Warm the page cache.
find "$CORPUS" -type f \( "${SRC_NAMES[@]}" \) -print0 | xargs -0 cat >/dev/null 2>&1

# The same facts as regexes: Redis calls and scripts, quoted command
# heads, include_str!/File.read of a .lua, the contract's key shapes.
NEEDLES=$TMP/needles
cat > "$NEEDLES" <<'RX'
redis\.p?call
KEYS\[
\[\s*["'](hset|hget|hgetall|get|set|del|eval|evalsha|zadd|lpush|rpush|sadd)["']
\.(hset|hget|hgetall|eval|evalsha|zadd|lpush|rpush|sadd)\(
\.lua["']
emq
[}"']:job
[}"']:pending
[^:]:\{[^}]
RX

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# time_one NAME DIR CMD...: appends "wall_s cpu_s rss_kb" to $TMP/NAME.
time_one() {
  local name=$1 dir=$2; shift 2
  if have python3; then
    (cd "$dir" && python3 -c "$TIMER" "$TMP/t" "$@")
  else
    (cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$TMP/t" "$@" >/dev/null 2>&1)
  fi
  awk '{printf "%s %.3f %s\n", $1, $2 + $3, $4}' "$TMP/t" >> "$TMP/$name"
}
# One run of argv[2:], its output discarded: "wall user sys maxrss_kb" in argv[1].
TIMER='
import os, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, _, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(out, "w") as f:
    f.write("%.4f %.4f %.4f %d\n" % (wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
'
report() {
  local name=$1
  local w c r
  w=$(cut -d' ' -f1 "$TMP/$name" | median); c=$(cut -d' ' -f2 "$TMP/$name" | median); r=$(cut -d' ' -f3 "$TMP/$name" | median)
  printf '| %s | %.0f | %.0f | %s |\n' "$name" "$(ms "$w")" "$(ms "$c")" "$(echo "$r / 1024" | bc)"
}
# ms SECONDS: in milliseconds.
ms() { echo "$1 * 1000" | bc -l; }
# ratio A B: A / B with one decimal, "-" when B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "-" }'; }

echo "## whole corpus, one run each, medians of $RUNS (load before: $(cut -d' ' -f1 /proc/loadavg))"
WARM=$TMP/cache-warm
"$WL" check "$CORPUS" --format json --exit-zero --cache-dir "$WARM" >/dev/null 2>&1
CASES="ripgrep wirelint-cold wirelint-warm wirelint-nocache"
[ -n "$BEFORE" ] && CASES="$CASES before"
have ast-grep && CASES="$CASES ast-grep"
for _ in $(seq "$RUNS"); do
  for c in $CASES; do
    case $c in
      ripgrep) time_one ripgrep "$CORPUS" rg -l -i --no-messages --type-add "wl:*.{$EXTS}" -t wl -f "$NEEDLES" . ;;
      wirelint-cold) rm -rf "$TMP/cache-cold"; time_one "$c" "$CORPUS" "$WL" check . --format json --exit-zero --cache-dir "$TMP/cache-cold" ;;
      wirelint-warm) time_one "$c" "$CORPUS" "$WL" check . --format json --exit-zero --cache-dir "$WARM" ;;
      wirelint-nocache) time_one "$c" "$CORPUS" "$WL" check . --format json --exit-zero --no-cache ;;
      before) time_one before "$CORPUS" "$BEFORE" check . --format json --exit-zero ;;
      ast-grep) time_one ast-grep "$CORPUS" ast-grep run -p 'redis.call($$$)' -l lua . ;;
    esac
  done
done
echo "| case | wall ms | CPU ms | peak RSS MB |"
echo "|---|---|---|---|"
for c in $CASES; do report "$c"; done
RG=$(cut -d' ' -f1 "$TMP/ripgrep" | median)
for c in $CASES; do
  [ "$c" = ripgrep ] && continue
  printf '%s / ripgrep (wall): %sx\n' "$c" "$(ratio "$(cut -d' ' -f1 "$TMP/$c" | median)" "$RG")"
done
echo "load after: $(cut -d' ' -f1 /proc/loadavg)"
"$WL" check "$CORPUS" --format json --exit-zero --no-cache --read-stats 2>&1 >/dev/null | grep '^wirelint stats'
echo

echo "## each repository: medians of 3 (wall ms), files and bytes parsed (--no-cache)"
echo "| repository | kind | source files | MB | parsed files | parsed MB | rg | wirelint --no-cache | ×rg | wirelint warm | ×rg |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
tail -n +2 "$TSV" | while IFS=$'\t' read -r repo _ _ kind; do
  d=$CORPUS/${repo/\//+}
  [ -d "$d" ] || { echo "| $repo | $kind | missing |"; continue; }
  n=$(find "$d" -type f \( "${SRC_NAMES[@]}" \) | wc -l)
  mb=$(find "$d" -type f \( "${SRC_NAMES[@]}" \) -print0 | du -cb --files0-from=- | tail -1 | awk '{printf "%.1f", $1/1e6}')
  st=$("$WL" check "$d" --format json --exit-zero --no-cache --read-stats 2>&1 >/dev/null | grep '^wirelint stats')
  pf=$(echo "$st" | sed -E 's/.* ([0-9]+) parsed \(([0-9.]+) MB\).*/\1/')
  pmb=$(echo "$st" | sed -E 's/.* ([0-9]+) parsed \(([0-9.]+) MB\).*/\2/')
  rc=$TMP/repo-cache
  "$WL" check "$d" --format json --exit-zero --cache-dir "$rc" >/dev/null 2>&1
  rm -f "$TMP/r-rg" "$TMP/r-nc" "$TMP/r-warm"
  for _ in 1 2 3; do
    time_one r-rg "$d" rg -l -i --no-messages --type-add "wl:*.{$EXTS}" -t wl -f "$NEEDLES" .
    time_one r-nc "$d" "$WL" check . --format json --exit-zero --no-cache
    time_one r-warm "$d" "$WL" check . --format json --exit-zero --cache-dir "$rc"
  done
  rg_t=$(cut -d' ' -f1 "$TMP/r-rg" | median); nc_t=$(cut -d' ' -f1 "$TMP/r-nc" | median); w_t=$(cut -d' ' -f1 "$TMP/r-warm" | median)
  printf '| %s | %s | %s | %s | %s | %s | %.0f | %.0f | %s | %.0f | %s |\n' "$repo" "$kind" "$n" "$mb" "$pf" "$pmb" \
    "$(ms "$rg_t")" "$(ms "$nc_t")" "$(ratio "$nc_t" "$rg_t")" "$(ms "$w_t")" "$(ratio "$w_t" "$rg_t")"
done
echo

echo "## pre-commit: 10 changed files in a copy of BullMQ, cache warm, medians of $RUNS"
PC=$TMP/bullmq
cp -r "$CORPUS/taskforcesh+bullmq" "$PC" && (cd "$PC" && git init -q .)
(cd "$PC" && { find src/commands -name '*.lua' | sort | head -4; find elixir/lib -name '*.ex' | sort | head -3; find rust/src -name '*.rs' | sort | head -3; }) > "$TMP/staged"
PCC=$TMP/cache-pc
"$WL" check "$PC" --exit-zero --cache-dir "$PCC" >/dev/null 2>&1
# The same files in a copy with a commit, as a hook meets them: HEAD's
# findings are the base (read back from the cache after the first run).
PCG=$TMP/bullmq-committed
cp -r "$CORPUS/taskforcesh+bullmq" "$PCG" && (cd "$PCG" && git init -q . && git add -A \
  && git -c user.name=bench -c user.email=bench@localhost commit -q -m base)
# A cache of its own: the edits are the same bytes, whose facts the first
# copy's runs would have stored.
PCCG=$TMP/cache-pc-committed
(cd "$PCG" && "$WL" check . --exit-zero --cache-dir "$PCCG" >/dev/null 2>&1 \
  && "$WL" check $(cat "$TMP/staged") --exit-zero --cache-dir "$PCCG" >/dev/null 2>&1)
rm -f "$TMP/pre-commit-warm" "$TMP/pre-commit-nocache" "$TMP/pre-commit-committed"
for i in $(seq "$RUNS"); do
  while read -r f; do
    for d in "$PC" "$PCG"; do
      case $f in *.lua) echo "-- edit $i" >> "$d/$f" ;; *.rs) echo "// edit $i" >> "$d/$f" ;; *) echo "# edit $i" >> "$d/$f" ;; esac
    done
  done < "$TMP/staged"
  time_one pre-commit-warm "$PC" "$WL" check $(cat "$TMP/staged") --format json --exit-zero --cache-dir "$PCC"
  time_one pre-commit-nocache "$PC" "$WL" check $(cat "$TMP/staged") --format json --exit-zero --no-cache
  time_one pre-commit-committed "$PCG" "$WL" check $(cat "$TMP/staged") --format json --exit-zero --cache-dir "$PCCG"
done
echo "| case | wall ms | CPU ms | peak RSS MB |"
echo "|---|---|---|---|"
report pre-commit-warm
report pre-commit-nocache
report pre-commit-committed
while read -r f; do echo >> "$PC/$f"; done < "$TMP/staged"
(cd "$PC" && "$WL" check $(cat "$TMP/staged") --format json --exit-zero --cache-dir "$PCC" --read-stats 2>&1 >/dev/null | grep '^wirelint stats')
