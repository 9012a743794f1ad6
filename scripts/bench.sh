#!/usr/bin/env bash
# Times wirelint on a generated monorepo against ripgrep (same needles, same
# files) and ast-grep (equivalent patterns), in one run; peak RSS; the
# pre-commit case. Medians of RUNS runs (default 5), timed in one loop.
#
#   scripts/bench.sh [FILES] [CORPUS_DIR]      # defaults: 20000 /tmp/wirelint-corpus
#
# The corpus lives outside the repository and is reused when its file count
# matches. Peers are installed the way a user would, and skipped when that
# fails: apt-get install ripgrep; npm i -g @ast-grep/cli.
#
# With WIRELINT_CORPUS set (the real corpus, one OWNER+NAME directory per
# repository of tests/realcode/corpus.tsv), measures that instead:
# scripts/bench-real.sh (WIRELINT_BEFORE=path/to/an/older/wirelint adds it
# to every loop).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -n "${WIRELINT_CORPUS:-}" ]; then exec scripts/bench-real.sh "$@"; fi
FILES=${1:-20000}
CORPUS=${2:-/tmp/wirelint-corpus}
RUNS=${RUNS:-5}

cargo build --release --quiet --bin wirelint --example gen-corpus || exit 1
WL=$PWD/target/release/wirelint

if [ ! -f "$CORPUS/.files-$FILES" ]; then
  rm -rf "$CORPUS"
  target/release/examples/gen-corpus --files "$FILES" --out "$CORPUS" || exit 1
  touch "$CORPUS/.files-$FILES"
fi

have() { command -v "$1" >/dev/null 2>&1; }
try_apt() { have "$1" || { have apt-get && (apt-get install -y -qq "$2" >/dev/null 2>&1 || sudo -n apt-get install -y -qq "$2" >/dev/null 2>&1); }; }
try_apt rg ripgrep
if ! have ast-grep && have npm; then npm i -g --silent @ast-grep/cli >/dev/null 2>&1; fi

echo "## machine"
echo "nproc: $(nproc); $(lscpu | grep 'Model name' | sed 's/  */ /g')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "corpus: $CORPUS, $(find "$CORPUS" -type f \( -name '*.ex' -o -name '*.exs' -o -name '*.rs' -o -name '*.lua' \) | wc -l) source files, $(du -sh "$CORPUS" | cut -f1)"
echo

# Warm the page cache.
cat $(find "$CORPUS" -type f) >/dev/null 2>&1 || true

# The prefilter's needles (for the embedded contract), one regex a line.
NEEDLES=$(mktemp)
cat > "$NEEDLES" <<'RX'
redis
keys\[
include_str!
file\.read
emq
[}"']:job
[}"']:pending
[^:]:\{
RX

declare -A CMD
CMD[wirelint]="$WL check $CORPUS --format json --exit-zero"
if have rg; then
  CMD[ripgrep]="rg -l -i --no-messages -t elixir -t rust -t lua -f $NEEDLES $CORPUS"
fi
if have ast-grep; then
  # Equivalent rules: string literals holding the needles, per language.
  RULES=$(mktemp -d)
  for lang in rust elixir lua; do
    cat > "$RULES/$lang.yml" <<YML
id: wire-$lang
language: $lang
rule:
  kind: string
  regex: '(?i)$(paste -sd'|' "$NEEDLES")'
YML
  done
  CMD[ast-grep]="sh -c 'for r in $RULES/*.yml; do ast-grep scan --rule \$r $CORPUS >/dev/null; done'"
fi

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
declare -A MED
for name in wirelint ripgrep ast-grep; do
  [ -n "${CMD[$name]:-}" ] || { echo "$name: not available, skipped"; continue; }
  times=()
  for _ in $(seq "$RUNS"); do
    s=$(date +%s.%N); eval "${CMD[$name]}" >/dev/null 2>&1; e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc)")
  done
  MED[$name]=$(printf '%s\n' "${times[@]}" | median)
  printf '%-9s median %.3f s over %d runs (%s)\n' "$name" "${MED[$name]}" "$RUNS" "${times[*]}"
done
echo
if [ -n "${MED[ripgrep]:-}" ]; then
  printf 'wirelint / ripgrep: %.2fx (target <= 1.5x)\n' "$(echo "${MED[wirelint]} / ${MED[ripgrep]}" | bc -l)"
fi
if [ -n "${MED[ast-grep]:-}" ]; then
  printf 'ast-grep / wirelint: %.2fx (target >= 5x)\n' "$(echo "${MED[ast-grep]} / ${MED[wirelint]}" | bc -l)"
fi

echo
echo "## peak RSS, full check"
/usr/bin/time -v $WL check "$CORPUS" --format json --exit-zero 2>&1 >/dev/null | grep -E 'Maximum resident|Elapsed'

echo
echo "## findings against expected.txt"
$WL check "$CORPUS" --format json --exit-zero 2>/dev/null \
  | python3 -c '
import json, sys
d = json.load(sys.stdin)
for x in sorted("%s %s:%s" % (x["code"], x["path"], x["span"]["start"]["line"]) for x in d["diagnostics"]):
    print(x)' > /tmp/wl-bench-got.txt
if diff -q /tmp/wl-bench-got.txt "$CORPUS/expected.txt" >/dev/null; then echo "exactly the $(wc -l < "$CORPUS/expected.txt") seeded findings"; else echo "DIFFERENT:"; diff /tmp/wl-bench-got.txt "$CORPUS/expected.txt" | head; fi

echo
echo "## pre-commit: 10 files named, after a full run"
STAGED=$(cd "$CORPUS" && { ls services/queue_01/peers/rust/src/*.rs services/queue_02/echo_mq/lib/echo_mq/*.ex; find crates -name '*.rs' | sort | head -4; } | head -10)
pc=()
for _ in $(seq "$RUNS"); do
  s=$(date +%s.%N); (cd "$CORPUS" && $WL check $STAGED --format json --exit-zero >/dev/null 2>&1); e=$(date +%s.%N)
  pc+=("$(echo "$e - $s" | bc)")
done
printf 'pre-commit median %.3f s over %d runs (target <= 0.100 s)\n' "$(printf '%s\n' "${pc[@]}" | median)" "$RUNS"
