#!/usr/bin/env bash
# The benchmark of record (docs/performance.md): the real corpus as
# extracted (WIRELINT_CORPUS: one OWNER+NAME directory per row of
# tests/realcode/corpus.tsv), every language wirelint reads, against
# ripgrep over the same files with the same facts as regexes.
#
#   WIRELINT_CORPUS=/work/corpus [RUNS=5] [WIRELINT=bin] [WIRELINT_BEFORE=bin] \
#     [OUT=table.md] scripts/bench-real.sh
#
# Cases, each timed in one loop whose rounds run every command in turn
# (ripgrep A B ripgrep A B ...), so that "x ripgrep" is taken round by
# round, then the median of those ratios:
#   - the first 32 rows (hard-linked into one directory): ripgrep, wirelint
#     warm (its cache filled by a first run), cold (an empty cache
#     directory, removed before each run) and --no-cache;
#   - the pre-commit case: a committed copy of taskforcesh/bullmq, each round
#     appends a comment line to the same 10 files (4 Lua, 3 Elixir, 3 Rust),
#     then `wirelint check FILE...` with a warm cache;
#   - the whole corpus (every row), warm, against ripgrep.
# WIRELINT_BEFORE (an older binary) adds its own rows to each loop, with a
# cache of its own, so that two builds are compared pair by pair.
# Each run is timed by fork and wait4 (python3): wall, user + system CPU and
# the peak RSS of the process. The markdown it prints (and writes to OUT)
# is what docs/performance.md shows, with the commit and the host's load.
# Nothing is written under WIRELINT_CORPUS: the copies and caches live in a
# temporary directory beside it (BENCH_TMP to choose another), so that the
# first 32 rows are hard links, not copies.
set -uo pipefail
cd "$(dirname "$0")/.."
CORPUS=$(cd "${WIRELINT_CORPUS:?set WIRELINT_CORPUS}" && pwd)
RUNS=${RUNS:-5}
BEFORE=${WIRELINT_BEFORE:-}
if [ -n "${WIRELINT:-}" ]; then
  WL=$(realpath "$WIRELINT")
  COMMIT=${WIRELINT_COMMIT:-$(basename "$WL")}
else
  cargo build --release --quiet --bin wirelint || exit 1
  WL=${CARGO_TARGET_DIR:-$PWD/target}/release/wirelint
  COMMIT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock || echo '+dirty')
fi
[ -n "$BEFORE" ] && BEFORE=$(realpath "$BEFORE")
command -v python3 >/dev/null && command -v rg >/dev/null || { echo "needs python3 and rg" >&2; exit 1; }
TSV=$PWD/tests/realcode/corpus.tsv
TMP=$(mktemp -d "${BENCH_TMP:-$(dirname "$CORPUS")}/wirelint-bench.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The extensions of every language wirelint reads (src/extract/lang.rs).
EXTS=ex,exs,rs,lua,py,js,mjs,cjs,jsx,ts,mts,cts,tsx,go,rb
SRC_NAMES=()
for e in ${EXTS//,/ }; do SRC_NAMES+=(${SRC_NAMES[0]:+-o} -name "*.$e"); done
load() { cut -d' ' -f1-3 /proc/loadavg; }

# The first 32 rows, as one tree.
FIRST=$TMP/first32
mkdir -p "$FIRST"
tail -n +2 "$TSV" | head -32 | cut -f1 | while read -r repo; do
  d=${repo/\//+}
  cp -al "$CORPUS/$d" "$FIRST/$d" 2>/dev/null || cp -a "$CORPUS/$d" "$FIRST/$d"
done
count() { find "$1" -type f \( "${SRC_NAMES[@]}" \) -print0 | du -cb --files0-from=- | tail -1 | cut -f1; }
files() { find "$1" -type f \( "${SRC_NAMES[@]}" \) | wc -l; }
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
RG=(rg -l -i --no-messages --type-add "wl:*.{$EXTS}" -t wl -f "$NEEDLES" .)

# One run of argv[3:] in argv[2], its output discarded: a line
# "wall_s cpu_s rss_kb" appended to argv[1].
TIMER='
import os, sys, time
out, cwd, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.chdir(cwd)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(out, "a") as f:
    f.write("%.4f %.4f %d %d\n" % (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, status))
'
# time_one NAME DIR CMD...
time_one() { local name=$1 dir=$2; shift 2; python3 -c "$TIMER" "$TMP/t.$name" "$dir" "$@"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
col() { cut -d' ' -f"$2" "$TMP/t.$1"; }
# row NAME LABEL [YARDSTICK]: wall median (min), CPU median, x yardstick
# (the median of the round-by-round ratios of wall time), peak RSS median.
row() {
  local name=$1 label=$2 base=${3:-} x=1
  if [ -n "$base" ] && [ "$base" != "$name" ]; then
    x=$(paste -d' ' <(col "$name" 1) <(col "$base" 1) | awk '{print $1 / $2}' | median | awk '{printf "%.1f", $1}')
  fi
  printf '| %s | %s s (%s) | %s s | %s | %s MB |\n' "$label" \
    "$(col "$name" 1 | median | awk '{printf "%.2f", $1}')" \
    "$(col "$name" 1 | sort -g | head -1 | awk '{printf "%.2f", $1}')" \
    "$(col "$name" 2 | median | awk '{printf "%.2f", $1}')" "$x" \
    "$(col "$name" 3 | median | awk '{printf "%.0f", $1 / 1024}')"
  awk '$4 != 0 {bad = 1} END {exit bad}' "$TMP/t.$name" || echo "| ($label: a run exited with a status other than 0) |"
}
head_row() { echo "| $1 | wall, median (min) | CPU, median | ${2:-× ripgrep, wall} | peak RSS |"; echo "|---|---|---|---|---|"; }

# bins: "NAME BINARY LABEL" for wirelint and the older build.
BINS=("wl $WL wirelint")
[ -n "$BEFORE" ] && BINS+=("old $BEFORE before")

{
echo "Measured on $COMMIT${BEFORE:+ (against $(basename "$BEFORE"))}, $(date -u +%Y-%m-%d),"
echo "$(nproc) cores, load average $(load) at the start; $RUNS rounds per case."
echo
echo "First 32 rows: $(files "$FIRST") files, $(count "$FIRST" | awk '{printf "%.1f", $1 / 1e6}') MB of source."
echo
for b in "${BINS[@]}"; do set -- $b; (cd "$FIRST" && "$2" check . --exit-zero --cache-dir "$TMP/warm-$1" >/dev/null 2>&1); done
for _ in $(seq "$RUNS"); do
  time_one rg "$FIRST" "${RG[@]}"
  for b in "${BINS[@]}"; do
    set -- $b
    time_one "warm-$1" "$FIRST" "$2" check . --format json --exit-zero --cache-dir "$TMP/warm-$1"
    rm -rf "$TMP/cold-$1"
    time_one "cold-$1" "$FIRST" "$2" check . --format json --exit-zero --cache-dir "$TMP/cold-$1"
    time_one "nocache-$1" "$FIRST" "$2" check . --format json --exit-zero --no-cache
  done
done
head_row "first 32 rows"
row rg "ripgrep, the same facts as regexes"
for b in "${BINS[@]}"; do
  set -- $b
  row "warm-$1" "$3, warm cache" rg
  row "cold-$1" "$3, cold (empty cache directory)" rg
  row "nocache-$1" "$3, \`--no-cache\`" rg
done
echo

# The pre-commit case: a committed copy of BullMQ, 10 files changed.
PC=$TMP/bullmq
cp -a "$CORPUS/taskforcesh+bullmq" "$PC"
(cd "$PC" && git init -q . && git add -A && git -c user.name=bench -c user.email=bench@localhost commit -q -m base)
STAGED=$(cd "$PC" && { find src/commands -name '*.lua' | sort | head -4; find elixir/lib -name '*.ex' | sort | head -3; find rust/src -name '*.rs' | sort | head -3; })
for b in "${BINS[@]}"; do
  set -- $b
  (cd "$PC" && "$2" check . --exit-zero --cache-dir "$TMP/pc-$1" >/dev/null 2>&1)
done
for i in $(seq "$RUNS"); do
  for f in $STAGED; do
    case $f in *.lua) echo "-- edit $i" >> "$PC/$f" ;; *.rs) echo "// edit $i" >> "$PC/$f" ;; *) echo "# edit $i" >> "$PC/$f" ;; esac
  done
  for b in "${BINS[@]}"; do
    set -- $b
    # shellcheck disable=SC2086
    time_one "pc-$1" "$PC" "$2" check $STAGED --format json --exit-zero --cache-dir "$TMP/pc-$1"
  done
done
head_row "pre-commit, BullMQ, 10 files changed" "× wirelint, wall"
for b in "${BINS[@]}"; do set -- $b; row "pc-$1" "$3, warm cache" pc-wl; done
echo

# The whole corpus, warm.
ALL=$(tail -n +2 "$TSV" | wc -l)
echo "Every row ($ALL): $(files "$CORPUS") files, $(count "$CORPUS" | awk '{printf "%.1f", $1 / 1e6}') MB of source."
echo
for b in "${BINS[@]}"; do set -- $b; (cd "$CORPUS" && "$2" check . --exit-zero --cache-dir "$TMP/all-$1" >/dev/null 2>&1); done
for _ in $(seq "$RUNS"); do
  time_one all-rg "$CORPUS" "${RG[@]}"
  for b in "${BINS[@]}"; do
    set -- $b
    time_one "all-$1" "$CORPUS" "$2" check . --format json --exit-zero --cache-dir "$TMP/all-$1"
  done
done
head_row "every row"
row all-rg "ripgrep, the same facts as regexes"
for b in "${BINS[@]}"; do set -- $b; row "all-$1" "$3, warm cache" all-rg; done
echo
echo "Load average at the end: $(load)."
} | tee "${OUT:-/dev/null}"
