#!/usr/bin/env bash
# Mutation testing of the security rules. Not part of CI: each mutant costs an incremental build and a
# test run (about a minute).
#
#   Scripts/mutation.sh                      every mutant of Tests/Mutation/mutants.json
#   Scripts/mutation.sh --only ID[,ID...]    just these
#   Scripts/mutation.sh --filter REGEX       swift test --filter for every mutant (default: a mutant's own
#                                            "filter", else ConformanceTests|CertKitTests)
#   Scripts/mutation.sh --check              only check that every mutant's original text is found exactly once
#   Scripts/mutation.sh --work DIR           the scratch copy (default: $TMPDIR/certkit-mutation); kept between
#                                            runs so that builds stay incremental
#
# The script copies the tracked (and untracked, not ignored) files of this working tree to the scratch directory
# outside the repository, builds it and runs the tests once unmutated (the baseline: its failures, if any, are
# remembered and do not count), then applies each mutant alone: the mutant's "original" text must occur exactly
# once in its file (else the script stops: the list is stale, refresh it), is replaced by "replacement", the
# package is rebuilt incrementally and the tests run. A mutant is KILLED when a test fails that passed in the
# baseline, SURVIVED otherwise; one that does not compile is STILLBORN (not counted). Mutants marked
# "equivalent" (with the reason) are expected to survive; they are reported apart. It prints the kill rate and
# the survivors, and exits non-zero when a non-equivalent mutant survived.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIST="$ROOT/Tests/Mutation/mutants.json"
WORK="${TMPDIR:-/tmp}/certkit-mutation"
ONLY=""
FILTER=""
CHECK_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY="$2"; shift 2 ;;
    --filter) FILTER="$2"; shift 2 ;;
    --list) LIST="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    --check) CHECK_ONLY=1; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "mutation.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$WORK" in "$ROOT"|"$ROOT"/*) echo "mutation.sh: --work must be outside the repository" >&2; exit 2 ;; esac

MUT="python3 $ROOT/Tests/Mutation/mutation_tool.py"
$MUT check "$LIST" "$ROOT" "$ONLY"
[ "$CHECK_ONLY" = 1 ] && exit 0

echo "mutation: copying the working tree to $WORK" >&2
mkdir -p "$WORK"
# Copy every tracked or untracked-but-not-ignored file whose content differs (unchanged files keep their
# modification time, so the build stays incremental); delete files that are gone from the tree.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) | $MUT sync "$ROOT" "$WORK"

LOG="$WORK/.mutation-logs"
rm -rf "$LOG"
mkdir -p "$LOG"
# Work from a snapshot of the list: editing it during a run must not change the run.
cp "$LIST" "$LOG/mutants.json"
LIST="$LOG/mutants.json"
build() { (cd "$WORK" && swift build --build-tests >"$1" 2>&1); }
run_tests() {  # run_tests FILTER LOGFILE
  (cd "$WORK" && swift test --skip-build --filter "$1" >"$2" 2>&1) || true
}

echo "mutation: baseline build" >&2
build "$LOG/baseline-build.log" || { echo "mutation: the unmutated tree does not build, see $LOG/baseline-build.log" >&2; exit 1; }

filter_of() {  # the --filter of mutant $1
  local f="${FILTER:-$($MUT field "$LIST" "$1" filter)}"
  echo "${f:-ConformanceTests|CertKitTests}"
}
baseline_log() { echo "$LOG/baseline-$(printf '%s' "$1" | md5sum | cut -c1-12).log"; }

# Baselines first, on the unmutated build: one test run per distinct filter.
IDS=$($MUT ids "$LIST" "$ONLY")
for id in $IDS; do
  filter=$(filter_of "$id")
  log=$(baseline_log "$filter")
  [ -f "$log.done" ] && continue
  echo "mutation: baseline tests (--filter '$filter')" >&2
  run_tests "$filter" "$log"
  touch "$log.done"
  failing=$($MUT failures "$log" | grep -c . || true)
  if [ "$failing" -gt 0 ]; then
    echo "mutation: the baseline already fails $failing test case(s); they do not count:" >&2
    $MUT failures "$log" | sed 's/^/  /' | cut -c1-160 >&2
  fi
done

RESULTS="$LOG/results.tsv"
: > "$RESULTS"
trap '$MUT restore "$WORK" 2>/dev/null || true' EXIT
for id in $IDS; do
  filter=$(filter_of "$id")
  baseline=$(baseline_log "$filter")
  $MUT apply "$LIST" "$id" "$WORK"
  start=$(date +%s)
  if ! build "$LOG/$id-build.log"; then
    verdict=STILLBORN; detail="does not compile (see $LOG/$id-build.log)"
  else
    run_tests "$filter" "$LOG/$id-test.log"
    detail=$($MUT compare "$baseline" "$LOG/$id-test.log")
    if [ -n "$detail" ]; then verdict=KILLED; else verdict=SURVIVED; fi
  fi
  $MUT restore "$WORK"
  equivalent=$($MUT field "$LIST" "$id" equivalent)
  [ "$verdict" = SURVIVED ] && [ -n "$equivalent" ] && verdict=EQUIVALENT
  printf '%s\t%s\t%s\n' "$id" "$verdict" "$detail" >> "$RESULTS"
  printf '%-10s %-34s %4ss  %s\n' "$verdict" "$id" "$(( $(date +%s) - start ))" "${detail:0:150}"
done
# Leave the scratch copy built unmutated for the next run.
build "$LOG/final-build.log" || true
$MUT summary "$LIST" "$RESULTS"
