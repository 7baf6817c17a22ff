#!/usr/bin/env bash
# Mutation testing of the security rules. Not part of CI: each mutant costs an incremental
# build and the test runs that can observe it (about a minute or more).
#
#   Scripts/mutation.sh                      every mutant of Tests/Mutation/mutants.json
#   Scripts/mutation.sh --only ID[,ID...]    just these
#   Scripts/mutation.sh --filter REGEX       a strict narrowing: only this swift test --filter, for every mutant
#                                            (the report marks each verdict taken under it)
#   Scripts/mutation.sh --check              only check that every mutant's original text is found exactly once
#   Scripts/mutation.sh --work DIR           the scratch copy (default: $TMPDIR/certkit-mutation); kept between
#                                            runs so that builds stay incremental
#   Scripts/mutation.sh --timeout SECONDS    a test run's time-out floor (default 300; each run may take 10 times
#                                            its baseline)
#   Scripts/mutation.sh --resume             go on with an interrupted run in the same --work: mutants already
#                                            judged there keep their verdict (the baseline runs again; the tree
#                                            and the list are taken afresh from this working tree)
#
# The script copies the tracked (and untracked, not ignored) files of this working tree to the scratch directory
# outside the repository, builds it, then Tests/Mutation/mutation_tool.py runs the baseline (the unmutated
# tree must pass every test run it will use: a failing run is repeated once; failing twice stops the script,
# passing the second time is reported as flaky) and applies each mutant alone: its "original" text must occur
# exactly once in its file (else the script stops: the list is stale, refresh it), is replaced by "replacement",
# the package is rebuilt incrementally and the test targets that can observe the file run (derived from
# Package.swift; the mutant's "filter", if any, first). KILLED when a run exits non-zero or reports any failure
# (named or not, Swift Testing or XCTest, a crash, a time-out); SURVIVED when every run passes; STILLBORN when it
# does not compile (not counted); FLAKY when a failure no test named did not repeat. Mutants marked
# "equivalent" (with the reason) are expected to survive; they are reported apart. It prints the kill rate,
# the test runs of each mutant and the survivors, and exits non-zero when a non-equivalent mutant survived.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIST="$ROOT/Tests/Mutation/mutants.json"
WORK="${TMPDIR:-/tmp}/certkit-mutation"
ONLY=""
FILTER=""
TIMEOUT=300
RESUME=0
CHECK_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY="$2"; shift 2 ;;
    --filter) FILTER="$2"; shift 2 ;;
    --list) LIST="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --resume) RESUME=1; shift ;;
    --check) CHECK_ONLY=1; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "mutation.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$WORK" in "$ROOT"|"$ROOT"/*) echo "mutation.sh: --work must be outside the repository" >&2; exit 2 ;; esac

MUT="python3 $ROOT/Tests/Mutation/mutation_tool.py"
$MUT check "$LIST" "$ROOT" "$ONLY"
[ "$CHECK_ONLY" = 1 ] && exit 0

echo "mutation: copying the working tree to $WORK" >&2
mkdir -p "$WORK"
$MUT restore "$WORK"  # a run interrupted with a mutant applied
# Copy every tracked or untracked-but-not-ignored file whose content differs (unchanged files keep their
# modification time, so the build stays incremental); delete files that are gone from the tree.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) | $MUT sync "$ROOT" "$WORK"

LOG="$WORK/.mutation-logs"
if [ "$RESUME" = 1 ] && [ -f "$LOG/results.tsv" ]; then
  echo "mutation: resuming: $(grep -c . "$LOG/results.tsv" || true) mutant(s) already judged in $LOG" >&2
  # The tree was copied afresh above, so the list must be today's too (a moved original is re-anchored there);
  # mutants already judged keep their verdict.
  cp "$LIST" "$LOG/mutants.json"
else
  rm -rf "$LOG"
  mkdir -p "$LOG"
  # Work from a snapshot of the list: editing it during a run must not change the run.
  cp "$LIST" "$LOG/mutants.json"
  : > "$LOG/results.tsv"
fi
LIST="$LOG/mutants.json"
build() { (cd "$WORK" && swift build --build-tests >"$1" 2>&1); }

echo "mutation: baseline build" >&2
build "$LOG/baseline-build.log" || { echo "mutation: the unmutated tree does not build, see $LOG/baseline-build.log" >&2; exit 1; }

RESULTS="$LOG/results.tsv"
trap '$MUT restore "$WORK" 2>/dev/null || true' EXIT
status=0
$MUT run "$LIST" "$WORK" "$LOG" "$ONLY" "$FILTER" "$TIMEOUT" "$RESULTS" || status=$?
# Leave the scratch copy built unmutated for the next run.
$MUT restore "$WORK"
build "$LOG/final-build.log" || true
[ "$status" = 0 ] || exit "$status"
$MUT summary "$LIST" "$RESULTS" "$ONLY"
