"""Helper of Scripts/mutation.sh (python3, standard library only): reads Tests/Mutation/mutants.json, copies the
tree, applies and restores one mutant, compares test logs, prints the summary."""
import hashlib
import json
import os
import re
import shutil
import sys

STATE = ".mutation-applied.json"


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


FAILURE = re.compile(r'^✘ Test "(?P<test>[^"]*)" recorded an issue(?: with \d+ arguments? (?P<arg>.*?) at )?')
XCTEST = re.compile(r"^Test Case '(?P<test>[^']*)' failed")


def failures(log):
    found = set()
    text = open(log, errors="replace").read()
    for line in text.splitlines():
        m = FAILURE.match(line)
        if m:
            found.add(f"{m.group('test')} [{m.group('arg') or ''}]".replace(" []", ""))
            continue
        m = XCTEST.match(line)
        if m:
            found.add(m.group("test"))
    # A crash or a run that never got to the summary is a failure too.
    if not re.search(r"^[✔✘] Test run with \d+ tests?", text, re.M):
        found.add("(the test run did not finish: crash or build problem)")
    return found


def compare(baseline, log):
    new = sorted(failures(log) - failures(baseline))
    if new:
        print(f"{len(new)} new failure(s): " + "; ".join(new[:3]) + ("; …" if len(new) > 3 else ""))


def summary(path, results):
    mutants = {m["id"]: m for m in load(path)}
    rows = [line.rstrip("\n").split("\t", 2) for line in open(results) if line.strip()]
    count = {v: sum(1 for _, verdict, _ in rows if verdict == v) for v in ("KILLED", "SURVIVED", "EQUIVALENT", "STILLBORN")}
    judged = count["KILLED"] + count["SURVIVED"] + count["EQUIVALENT"]
    print()
    print(f"mutation: {len(rows)} mutant(s): {count['KILLED']} killed, {count['SURVIVED']} survived, "
          f"{count['EQUIVALENT']} equivalent (survived, as documented), {count['STILLBORN']} stillborn")
    if judged:
        print(f"mutation: kill rate {count['KILLED']}/{judged} = {100 * count['KILLED'] / judged:.1f}% of all; "
              f"{count['KILLED']}/{judged - count['EQUIVALENT']} = "
              f"{100 * count['KILLED'] / max(1, judged - count['EQUIVALENT']):.1f}% of the non-equivalent")
    for mid, verdict, _ in rows:
        if verdict in ("SURVIVED", "EQUIVALENT", "STILLBORN"):
            m = mutants.get(mid, {})
            why = f" — equivalent: {m['equivalent']}" if verdict == "EQUIVALENT" else ""
            print(f"  {verdict:10s} {mid} [{m.get('rule', '?')}] {m.get('file', '?')}{why}")
    for mid, verdict, _ in rows:
        m = mutants.get(mid, {})
        if verdict == "KILLED" and m.get("equivalent"):
            print(f"  note: {mid} is marked equivalent but was killed: drop the mark")
    sys.exit(1 if count["SURVIVED"] else 0)


def main():
    command, *args = sys.argv[1:]
    if command == "check":
        check(*args)
    elif command == "ids":
        print(" ".join(m["id"] for m in selected(load(args[0]), args[1])))
    elif command == "field":
        m = next(m for m in load(args[0]) if m["id"] == args[1])
        print(m.get(args[2]) or "")
    elif command == "sync":
        sync(*args)
    elif command == "apply":
        apply(*args)
    elif command == "restore":
        restore(*args)
    elif command == "failures":
        print("\n".join(sorted(failures(args[0]))))
    elif command == "compare":
        compare(*args)
    elif command == "summary":
        summary(*args)
    else:
        sys.exit(f"mutation_tool: unknown command {command}")


if __name__ == "__main__":
    main()
