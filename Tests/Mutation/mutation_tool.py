"""Mutation testing of the security rules (python3, standard library only), driven by Scripts/mutation.sh.

Reads Tests/Mutation/mutants.json, copies the tree to a scratch directory, applies one mutant at a time, rebuilds,
runs the tests and judges:

- KILLED     a test run of the mutant exits non-zero or reports any failure (a Swift Testing issue, named or not,
             an XCTest failure, a crash or a signal, a run that never reached its summary, a time-out);
- SURVIVED   every test run the mutant can be observed by passes;
- STILLBORN  the mutant does not compile (not counted);
- FLAKY      a run failed without any test naming a failure (a crash or a time-out), and the same run passed
             when repeated once: not counted as a kill (reported apart, as not killed);
- EQUIVALENT survived, and the entry documents why it cannot change a verdict.

Which tests: every test target that can observe the mutated file, derived from `swift package dump-package` (the
file's module, then every test target whose dependencies reach it; executables and files outside any module are
observable by every test target, since tests run the built programs). They run one target at a time, the fastest
first, and stop at the first failing one (the verdict is the same as one run of all, and kills are cheaper). A
mutant's own `filter` is tried first as a hint; when it does not kill, the observable targets still run, so a
hint never turns a kill into a survivor. A command-line `--filter` is a strict narrowing: the report marks each
verdict taken under it.

The baseline (the unmutated tree, each distinct test run once) must pass: a failing baseline run is repeated
once; failing twice stops the tool (fix the test first); passing the second time is reported loudly as flaky and
the run goes on.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

STATE = ".mutation-applied.json"


# ---------------------------------------------------------------------------------------------------------------
# The mutant list


def load(path):
    with open(path) as f:
        mutants = json.load(f)
    ids = [m["id"] for m in mutants]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        sys.exit(f"mutation: duplicate mutant ids {sorted(dupes)}")
    for m in mutants:
        for key in ("id", "file", "original", "replacement", "rule"):
            if not isinstance(m.get(key), str):
                sys.exit(f"mutation: mutant {m.get('id')} lacks {key}")
        if m["original"] == m["replacement"]:
            sys.exit(f"mutation: mutant {m['id']} does not change anything")
    return mutants


def selected(mutants, only):
    if not only:
        return mutants
    wanted = only.split(",")
    unknown = set(wanted) - {m["id"] for m in mutants}
    if unknown:
        sys.exit(f"mutation: unknown mutant id(s) {sorted(unknown)}")
    return [m for m in mutants if m["id"] in wanted]


def check(path, root, only):
    stale = []
    mutants = selected(load(path), only)
    for m in mutants:
        file = os.path.join(root, m["file"])
        count = open(file).read().count(m["original"]) if os.path.exists(file) else -1
        if count != 1:
            where = "file is missing" if count < 0 else f"original text found {count} times"
            stale.append(f"  {m['id']} ({m['file']}): {where}")
    if stale:
        print("mutation: the mutant list is stale (each original text must occur exactly once); refresh:\n"
              + "\n".join(stale), file=sys.stderr)
        sys.exit(1)
    print(f"mutation: {len(mutants)} mutant(s), every original text found exactly once", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------------------
# The scratch copy


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def sync(root, work):
    names = [n for n in sys.stdin.buffer.read().decode().split("\0") if n]
    keep = set()
    copied = 0
    for name in names:
        src, dst = os.path.join(root, name), os.path.join(work, name)
        if not os.path.isfile(src):
            continue
        keep.add(name)
        if os.path.exists(dst) and os.path.getsize(dst) == os.path.getsize(src) and digest(dst) == digest(src):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
        copied += 1
    removed = 0
    for dirpath, dirnames, filenames in os.walk(work):
        rel = os.path.relpath(dirpath, work)
        if rel.split(os.sep)[0] in (".build", ".mutation-logs", ".swiftpm"):
            dirnames[:] = []
            continue
        for filename in filenames:
            name = os.path.normpath(os.path.join(rel, filename))
            if name not in keep and filename != STATE:
                os.remove(os.path.join(dirpath, filename))
                removed += 1
    print(f"mutation: {copied} file(s) copied, {removed} removed", file=sys.stderr)


def apply(path, mid, work):
    m = next(m for m in load(path) if m["id"] == mid)
    file = os.path.join(work, m["file"])
    text = open(file).read()
    if text.count(m["original"]) != 1:
        sys.exit(f"mutation: {mid}: original text found {text.count(m['original'])} times in {m['file']}")
    with open(os.path.join(work, STATE), "w") as f:
        json.dump({"file": m["file"], "text": text}, f)
    with open(file, "w") as f:
        f.write(text.replace(m["original"], m["replacement"]))


def restore(work):
    state = os.path.join(work, STATE)
    if not os.path.exists(state):
        return
    with open(state) as f:
        saved = json.load(f)
    with open(os.path.join(work, saved["file"]), "w") as f:
        f.write(saved["text"])
    os.remove(state)


# ---------------------------------------------------------------------------------------------------------------
# Which test targets can observe a file


def target_path(target):
    if target.get("path"):
        return os.path.normpath(target["path"])
    return os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])


def dependency_names(target):
    names = []
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dep:
                names.append(dep[kind][0])
    return names


def observing_tests(package, file):
    """The test targets (sorted names) that can observe `file`, given `swift package dump-package` JSON."""
    targets = {t["name"]: t for t in package["targets"]}
    tests = sorted(n for n, t in targets.items() if t["type"] == "test")
    owner, longest = None, -1
    for name, t in targets.items():
        prefix = target_path(t) + os.sep
        if file.startswith(prefix) and len(prefix) > longest:
            owner, longest = name, len(prefix)
    if owner is None or targets[owner]["type"] == "executable":
        return tests  # outside any module, or a program tests may run: every test target

    def reaches(name, seen):
        if name == owner:
            return True
        seen.add(name)
        return any(reaches(d, seen) for d in dependency_names(targets.get(name, {})) if d not in seen)

    return [t for t in tests if reaches(t, set())]


def target_filter(target):
    """The `swift test --filter` of one whole test target."""
    return f"^{re.escape(target)}\\."


# ---------------------------------------------------------------------------------------------------------------
# Reading a `swift test` run


# Swift Testing: any line that marks a failure with ✘ (a test or suite that recorded an issue or failed, named by
# its display name or by its function name, the run summary), and the equivalents on macOS consoles.
SWIFT_TESTING_FAILURE = re.compile(r"^(?:✘|􀢄|􁁛) (?P<what>.*)$")
SWIFT_TESTING_ISSUE = re.compile(
    r'^(?:Test|Suite) (?P<name>"[^"]*"|\S+?)(?: recorded an issue| with \d+ test cases? failed| failed)'
    r'(?: with \d+ arguments? (?P<arg>.*?) at )?')
SWIFT_TESTING_SUMMARY = re.compile(r"^(?:✔|✘|􁁛|􀢄|􀟈) Test run with (?P<count>\d+) tests?", re.M)
XCTEST_FAILURE = re.compile(r"^Test Case '(?P<name>[^']*)' failed")
XCTEST_ASSERTION = re.compile(r"^.*:\d+: error: (?P<name>[^ ]+) : ")
XCTEST_SUMMARY = re.compile(r"^\s*Executed (?P<count>\d+) tests?, with (?P<failures>\d+) failures?", re.M)
CRASH = re.compile(
    r"(?:exited with (?:unexpected )?signal code \d+|: Fatal error: |^Fatal error: |Program crashed: [^*]*|"
    r"Segmentation fault|Illegal instruction \(core dumped\)|Aborted \(core dumped\))",
    re.M | re.I)
BUILD_ERROR = re.compile(r"^(?:.*:\d+:\d+: error: .*|error: fatalError)$", re.M)
NO_MATCH = re.compile(r"No matching test cases were run", re.M)


class Run:
    """The outcome of one `swift test` run: `failures` names what failed (empty: passed), `named` says whether a
    test named a failure (otherwise only the exit status, a crash or a missing summary told)."""

    def __init__(self, failures, named, tests):
        self.failures, self.named, self.tests = failures, named, tests

    @property
    def passed(self):
        return not self.failures

    @property
    def no_tests(self):
        return self.passed and self.tests == 0


def read_run(text, status, timed_out=False):
    failures, named = [], False

    def add(item, by_name):
        nonlocal named
        if item not in failures:
            failures.append(item)
        named = named or by_name

    for line in text.splitlines():
        m = SWIFT_TESTING_FAILURE.match(line)
        if m:
            issue = SWIFT_TESTING_ISSUE.match(m.group("what"))
            if issue:
                name = issue.group("name").strip('"')
                add(f"{name} [{issue.group('arg')}]" if issue.group("arg") else name, True)
            elif not m.group("what").startswith("Test run with"):
                add(m.group("what")[:160], True)
            continue
        m = XCTEST_FAILURE.match(line) or XCTEST_ASSERTION.match(line)
        if m:
            add(m.group("name"), True)
    swift_testing = [int(c) for c in SWIFT_TESTING_SUMMARY.findall(text)]
    xctest = [(int(m.group("count")), int(m.group("failures"))) for m in XCTEST_SUMMARY.finditer(text)]
    tests = sum(swift_testing) + (max(c for c, _ in xctest) if xctest else 0)
    if re.search(r"^✘ Test run with", text, re.M) and not named:
        add("(the Swift Testing run failed)", False)
    if any(f for _, f in xctest) and not named:
        add("(XCTest counted failures)", False)
    crash = CRASH.search(text)
    if crash:
        add(f"(crash: {crash.group(0).strip()})", False)
    build_error = BUILD_ERROR.search(text)
    if build_error:
        add(f"(does not build: {build_error.group(0).strip()[:120]})", False)
    if timed_out:
        add("(timed out)", False)
    elif status != 0:
        add(f"(swift test exited with status {status})", False)
    elif not swift_testing and not xctest and not NO_MATCH.search(text):
        add("(the test run never reached its summary)", False)
    return Run(failures, named, tests)


def failures_of(log, status):
    with open(log, errors="replace") as f:
        return read_run(f.read(), status)


# ---------------------------------------------------------------------------------------------------------------
# The run


def swift_test(work, test_filter, log, timeout):
    """Runs `swift test --skip-build [--filter]`, its output to `log`; returns the Run."""
    command = ["swift", "test", "--skip-build"] + (["--filter", test_filter] if test_filter else [])
    timed_out, status = False, 0
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=work, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, 9)
            status = process.wait()
    with open(log, errors="replace") as f:
        return read_run(f.read(), status, timed_out)


def build(work, log):
    with open(log, "w") as out:
        return subprocess.run(["swift", "build", "--build-tests"], cwd=work, stdout=out,
                              stderr=subprocess.STDOUT).returncode == 0


def say(text):
    print(text, file=sys.stderr, flush=True)


class Runner:
    def __init__(self, list_path, work, logs, narrowing, timeout):
        self.list_path, self.work, self.logs, self.narrowing = list_path, work, logs, narrowing
        self.timeout = timeout
        self.baseline_seconds = {}
        self.runs = 0
        dump = subprocess.run(["swift", "package", "dump-package"], cwd=work, capture_output=True, text=True,
                              check=True)
        self.package = json.loads(dump.stdout)

    def log(self, name):
        self.runs += 1
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80]
        return os.path.join(self.logs, f"{self.runs:04d}-{safe}.log")

    def plan(self, m):
        """The test runs of a mutant, in order: [(filter, why)], and how the report describes them."""
        if self.narrowing:
            return [(self.narrowing, "--filter")], f"narrowed by --filter '{self.narrowing}'"
        targets = observing_tests(self.package, m["file"])
        targets.sort(key=lambda t: self.baseline_seconds.get(target_filter(t), 0))
        stages = [(target_filter(t), t) for t in targets]
        described = "observable: " + ",".join(targets)
        if m.get("filter"):
            stages.insert(0, (m["filter"], "hint"))
            described = f"hint '{m['filter']}' first, then " + described
        return stages, described

    def baseline(self, test_filter):
        if test_filter in self.baseline_seconds:
            return
        say(f"mutation: baseline tests (--filter '{test_filter}')")
        for attempt in (1, 2):
            start = time.time()
            run = swift_test(self.work, test_filter, self.log(f"baseline-{test_filter}"), self.timeout)
            seconds = time.time() - start
            if run.no_tests:
                sys.exit(f"mutation: --filter '{test_filter}' matches no test: fix the filter")
            if run.passed:
                if attempt == 2:
                    say(f"mutation: WARNING: FLAKY BASELINE: --filter '{test_filter}' failed once and then passed")
                self.baseline_seconds[test_filter] = seconds
                return
            say(f"mutation: the unmutated tree FAILS --filter '{test_filter}' (attempt {attempt}): "
                + "; ".join(run.failures[:5]))
        sys.exit("mutation: the baseline fails twice: a test that fails unmutated cannot tell a mutant apart; "
                 "fix it first (logs in " + self.logs + ")")

    def judge(self, m):
        stages, described = self.plan(m)
        apply(self.list_path, m["id"], self.work)
        try:
            if not build(self.work, os.path.join(self.logs, f"{m['id']}-build.log")):
                return "STILLBORN", described, f"does not compile (see {self.logs}/{m['id']}-build.log)"
            flaky = []
            for test_filter, why in stages:
                limit = max(300, 10 * self.baseline_seconds.get(test_filter, 60))
                run = swift_test(self.work, test_filter, self.log(f"{m['id']}-{why}"), limit)
                if run.no_tests:
                    return "ERROR", described, f"--filter '{test_filter}' ran no test"
                if run.passed:
                    continue
                if not run.named:
                    # No test named a failure: a crash, a time-out or an exit status alone. Repeat once.
                    again = swift_test(self.work, test_filter, self.log(f"{m['id']}-{why}-again"), limit)
                    if again.passed:
                        flaky.append(f"{why}: " + "; ".join(run.failures))
                        continue
                    run = again
                return "KILLED", described, f"by {why}: {len(run.failures)} failure(s): " + "; ".join(
                    run.failures[:3]) + ("; …" if len(run.failures) > 3 else "")
            if flaky:
                return "FLAKY", described, "failed once without a named failure, passed when repeated: " + \
                    " / ".join(flaky)
            return "SURVIVED", described, ""
        finally:
            restore(self.work)


def run(list_path, work, logs, only, narrowing, timeout, results):
    judged = {row[0] for row in read_results(results)} if os.path.exists(results) else set()
    mutants = [m for m in selected(load(list_path), only) if m["id"] not in judged]
    runner = Runner(list_path, work, logs, narrowing, float(timeout))
    runner.runs = sum(1 for name in os.listdir(logs) if re.match(r"^\d{4}-", name))
    # Every baseline first, while the build is the unmutated one.
    for m in mutants:
        for test_filter, _ in runner.plan(m)[0]:
            runner.baseline(test_filter)
    for m in mutants:
        start = time.time()
        verdict, described, detail = runner.judge(m)
        if verdict == "SURVIVED" and m.get("equivalent"):
            verdict = "EQUIVALENT"
        with open(results, "a") as f:
            f.write("\t".join([m["id"], verdict, described, detail]) + "\n")
        print(f"{verdict:10s} {m['id']:40s} {int(time.time() - start):4d}s  [{described}]  {detail[:150]}",
              flush=True)


# ---------------------------------------------------------------------------------------------------------------
# The report

VERDICTS = ("KILLED", "SURVIVED", "FLAKY", "EQUIVALENT", "STILLBORN", "ERROR")


def read_results(results):
    rows = []
    with open(results) as f:
        lines = f.readlines()
    for line in lines:
        if line.strip():
            fields = line.rstrip("\n").split("\t")
            rows.append((fields + ["", "", ""])[:4])
    return rows


def summary(path, results, only=""):
    mutants = {m["id"]: m for m in load(path)}
    rows = read_results(results)
    done = {mid for mid, *_ in rows}
    not_run = [m for m in selected(list(mutants.values()), only) if m["id"] not in done]
    count = {v: sum(1 for _, verdict, *_ in rows if verdict == v) for v in VERDICTS}
    judged = count["KILLED"] + count["SURVIVED"] + count["FLAKY"] + count["EQUIVALENT"]
    print()
    print(f"mutation: {len(rows)} mutant(s) run: {count['KILLED']} killed, {count['SURVIVED']} survived, "
          f"{count['FLAKY']} flaky (not counted as killed), {count['EQUIVALENT']} equivalent (survived, as "
          f"documented), {count['STILLBORN']} stillborn, {count['ERROR']} error(s)"
          + (f"; {len(not_run)} not run" if not_run else ""))
    if judged:
        print(f"mutation: kill rate {count['KILLED']}/{judged} = {100 * count['KILLED'] / judged:.1f}% of all; "
              f"{count['KILLED']}/{judged - count['EQUIVALENT']} = "
              f"{100 * count['KILLED'] / max(1, judged - count['EQUIVALENT']):.1f}% of the non-equivalent")
    narrowed = sum(1 for _, _, described, _ in rows if described.startswith("narrowed"))
    if narrowed:
        print(f"mutation: {narrowed} verdict(s) taken under a --filter narrowing: a survivor there may be killed "
              "by a test outside it")
    for mid, verdict, described, detail in rows:
        if verdict != "KILLED":
            m = mutants.get(mid, {})
            why = f" — equivalent: {m['equivalent']}" if verdict == "EQUIVALENT" else (f" — {detail}" if detail else "")
            print(f"  {verdict:10s} {mid} [{m.get('rule', '?')}] {m.get('file', '?')} [{described}]{why}")
    for mid, verdict, *_ in rows:
        if verdict == "KILLED" and mutants.get(mid, {}).get("equivalent"):
            print(f"  note: {mid} is marked equivalent but was killed: drop the mark")
    if not_run:
        print("  not run: " + ", ".join(m["id"] for m in not_run))
    sys.exit(1 if count["SURVIVED"] or count["FLAKY"] or count["ERROR"] or not_run else 0)


def main():
    command, *args = sys.argv[1:]
    if command == "check":
        check(*args)
    elif command == "ids":
        print(" ".join(m["id"] for m in selected(load(args[0]), args[1])))
    elif command == "sync":
        sync(*args)
    elif command == "apply":  # apply LIST ID WORK: one mutant, by hand (restore WORK undoes it)
        apply(*args)
    elif command == "restore":
        restore(*args)
    elif command == "run":
        run(*args)
    elif command == "failures":  # failures LOG STATUS: what a saved run's log and exit status say
        print("\n".join(failures_of(args[0], int(args[1])).failures))
    elif command == "summary":
        summary(*args)
    else:
        sys.exit(f"mutation_tool: unknown command {command}")


if __name__ == "__main__":
    main()
