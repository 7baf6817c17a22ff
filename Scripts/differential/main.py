"""certkit differential tester: mutated chains from seed PKIs, certkit (both backends) against OpenSSL, GnuTLS and
pyca/cryptography. Run through Scripts/differential.sh; `--help` lists the options."""

import argparse
import collections
import json
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import classify  # noqa: E402
import keys  # noqa: E402
import lintlib  # noqa: E402
import mutations  # noqa: E402
import pki  # noqa: E402
import refs  # noqa: E402

CI_SEED = 20250601
CI_CASES = 2000
SAVE_PER_GROUP = 10

_worker = {}


def make_case(seed, index, skip=None):
    """Case `index` of `seed`; with `skip`, the same case without its `skip`-th mutation (ablation), or
    mutations.NotAblatable when the other mutations do not replay to the same tags without it."""
    rng = random.Random("%s:%d" % (seed, index))
    names = list(pki.SEED_WEIGHTS)
    seed_name = rng.choices(names, weights=[pki.SEED_WEIGHTS[n] for n in names])[0]
    case = pki.Case(seed_name)
    count = rng.choices([1, 2, 3], weights=[55, 30, 15])[0]
    steps = []
    mutations.apply_random(case, rng, count, steps)
    if skip is not None:
        case = pki.Case(seed_name)
        mutations.replay(case, steps, skip)
    case.steps = len(steps)
    case.encode()
    return case


def _init_worker(opts):
    keys.warm()
    _worker["opts"] = opts
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    _worker["dir"] = tempfile.mkdtemp(prefix="certkit-diff-", dir=base)


def run_case(index, skip=None):
    opts = _worker["opts"]
    d = _worker["dir"]
    try:
        case = make_case(opts["seed"], index, skip)
    except mutations.NotAblatable as e:
        return {"index": index, "skip": skip, "category": "not-ablatable", "detail": str(e), "tags": []}
    except Exception as e:  # a mutation the encoder or signer cannot produce
        return {"index": index, "category": "generator-error", "detail": "%s: %s" % (type(e).__name__, e),
                "tags": []}
    for f in os.listdir(d):
        os.unlink(os.path.join(d, f))
    refs.write_case(case, d)
    ck = refs.run_certkit(opts["certkit"], d, case, opts["profile"], audit=opts["audit"])
    ref = {}
    if ck["exit"] not in (1, 3, 10, 11, 12, 13) or ck.get("trusting") or opts["all_refs"]:
        ref = refs.run_references(d, case)
    rejecting = sorted(r for r, v in ref.items() if not v["ok"])
    category, rule = classify.categorise(case, ck, ref, rejecting, opts["profile"])
    rec = {"index": index, "category": category, "rule": rule, "tags": case.mutations, "steps": case.steps,
           "seed_pki": case.seed_name,
           "host": case.host, "certkit_exit": ck["exit"], "certkit": ck["detail"], "trusting_backends": ck.get("trusting", []), "rejecting": rejecting,
           "references": {k: v["detail"] for k, v in ref.items() if not v["ok"]}}
    if skip is not None:
        rec["skip"] = skip
    if category in classify.SAVED or category in classify.EXPLAINED:
        rec["files"] = {f: open(os.path.join(d, f), "rb").read().decode() for f in os.listdir(d)}
        rec["reproducer"] = refs.reproducer(opts["certkit"], case, opts["profile"], audit=opts["audit"])
    return rec


def run_lint_case(index):
    """--lint-libraries: one case's lint columns against openssl verify and certtool --verify (lintlib.py)."""
    opts = _worker["opts"]
    d = _worker["dir"]
    try:
        case = make_case(opts["seed"], index)
    except Exception as e:  # a mutation the encoder or signer cannot produce
        return {"index": index, "category": "generator-error", "detail": "%s: %s" % (type(e).__name__, e), "tags": []}
    for f in os.listdir(d):
        os.unlink(os.path.join(d, f))
    refs.write_case(case, d)
    rec = lintlib.run_case(opts["certkit"], d, case)
    rec.update({"index": index, "tags": case.mutations, "seed_pki": case.seed_name})
    if rec["category"] in lintlib.SAVED:
        rec["files"] = {f: open(os.path.join(d, f), "rb").read().decode() for f in os.listdir(d)}
        rec["reproducer"] = lintlib.reproducer(opts["certkit"], case)
    return rec


def lint_libraries(a, opts, indices, out):
    """The --lint-libraries run: counts per category, differences saved (10 per mutation group), exit 1 on any."""
    counts = collections.Counter()
    groups = collections.defaultdict(collections.Counter)
    saved = collections.Counter()
    t0 = time.time()
    with open(os.path.join(out, "lint-differences.ndjson"), "w") as log:
        for rec in run_all(run_lint_case, indices, a.jobs, opts):
            cat = rec["category"]
            counts[cat] += 1
            for reason in rec.get("reasons", {}).values():
                counts["explained: " + reason.split(":")[0]] += 1
            if cat in lintlib.SAVED or cat == "generator-error":
                key = group_key(rec)
                groups[cat][key] += 1
                files = rec.pop("files", None)
                repro = rec.pop("reproducer", [])
                if files and saved[(cat, key)] < SAVE_PER_GROUP:
                    saved[(cat, key)] += 1
                    fd = os.path.join(out, cat, "case-%d" % rec["index"])
                    os.makedirs(fd, exist_ok=True)
                    for name, text in files.items():
                        with open(os.path.join(fd, name), "w") as f:
                            f.write(text)
                    with open(os.path.join(fd, "reproduce.sh"), "w") as f:
                        f.write("#!/bin/sh\n# %s\ncd \"$(dirname \"$0\")\"\n%s\n" % (key, "\n".join(repro)))
                    rec["dir"] = fd
                log.write(json.dumps(rec, sort_keys=True) + "\n")
    elapsed = time.time() - t0
    compared = sum(counts[c] for c in ("lint-agree", "lint-explained", "lint-openssl-differs", "lint-gnutls-differs",
                                       "lint-both-differ"))
    summary = {"seed": a.seed, "cases": len(indices), "compared": compared, "seconds": round(elapsed, 1),
               "counts": dict(counts), "groups": {k: dict(v.most_common()) for k, v in groups.items()}}
    with open(os.path.join(out, "lint-summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    for cat in lintlib.DIFFERENCES + ["generator-error"]:
        if groups.get(cat):
            print("%s by mutation:" % cat, file=sys.stderr)
            for g, n in groups[cat].most_common(40):
                print("  %6d  %s" % (n, g), file=sys.stderr)
    print("differential --lint-libraries: seed %d: %d cases, %d compared in %.0fs: %s; out %s" % (
        a.seed, len(indices), compared, elapsed,
        ", ".join("%s %d" % (c, n) for c, n in sorted(counts.items())), out))
    return 1 if sum(counts[c] for c in lintlib.DIFFERENCES) else 0


def _run_ablation(job):
    index, skip = job
    return run_case(index, skip)


def run_all(fn, jobs, n, opts):
    """fn over jobs in `n` worker processes (results in completion order)."""
    if n <= 1:
        _init_worker(opts)
        try:
            for j in jobs:
                yield fn(j)
        finally:
            shutil.rmtree(_worker["dir"], ignore_errors=True)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(n, initializer=_init_worker, initargs=(opts,)) as pool:
        for rec in pool.imap_unordered(fn, jobs, chunksize=8):
            yield rec


def group_key(rec):
    return " + ".join(rec["tags"]) or "(none)"


def family_key(rec):
    """Tags without variant details and targets, for the per-class report."""
    return " + ".join(sorted(t.split(":")[0].split("@")[0] for t in rec["tags"])) or "(none)"


def baseline(certkit, profile):
    """Every seed PKI, unmutated, must be trusted by certkit and by every reference: otherwise the environment
    is broken (no libfaketime, an old pyca, a stale certkit) and every case would be noise."""
    d = tempfile.mkdtemp(prefix="certkit-diff-baseline-")
    ok = True
    try:
        for name in pki.SEEDS:
            case = pki.Case(name)
            case.encode()
            refs.write_case(case, d)
            ck = refs.run_certkit(certkit, d, case, profile)
            results = refs.run_references(d, case)
            bad = ["certkit (exit %s: %s)" % (ck["exit"], ck["detail"])] if not ck["ok"] else []
            bad += ["%s (%s)" % (r, v["detail"]) for r, v in results.items() if not v["ok"]]
            if bad:
                ok = False
                print("differential: seed PKI %r is not accepted by %s" % (name, "; ".join(bad)), file=sys.stderr)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return ok


def reclassify(directory, profile):
    """Re-applies classify.py to the findings of an earlier run (after a rule was added or a fix landed)."""
    import types

    before, after = collections.Counter(), collections.Counter()
    groups = collections.Counter()
    lines = list(open(os.path.join(directory, "findings.ndjson")))
    if os.path.exists(os.path.join(directory, "explained.ndjson")):
        lines += list(open(os.path.join(directory, "explained.ndjson")))
    for line in lines:
        rec = json.loads(line)
        if rec["category"] not in classify.FINDINGS and rec["category"] not in classify.EXPLAINED:
            continue
        if rec.get("skip") is not None:
            continue
        case = types.SimpleNamespace(mutations=rec["tags"])
        ck = {"exit": rec["certkit_exit"], "trusting": rec.get("trusting_backends", []), "detail": rec.get("certkit", "")}
        ref = {r: {"ok": r not in rec["rejecting"], "detail": rec["references"].get(r, "")} for r in refs.REFERENCES}
        if rec["certkit_exit"] != 0 and not ck["trusting"]:
            ref = {}
        category, rule = classify.categorise(case, ck, ref, rec["rejecting"], profile)
        before[rec["category"]] += 1
        after[category] += 1
        if category in classify.FINDINGS:
            groups[(category, group_key(rec))] += 1
    for (cat, g), n in groups.most_common():
        print("  %6d  %-24s %s" % (n, cat, g))
    print("reclassify: before %s; after %s" % (dict(before), dict(after)))
    return 1 if any(after[c] for c in classify.FINDINGS) else 0


def main():
    ap = argparse.ArgumentParser(prog="Scripts/differential.sh", description=__doc__)
    ap.add_argument("--seed", type=int, default=None, help="run seed (default: random; printed)")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="first case index")
    ap.add_argument("--case", type=int, action="append", help="run only this case index (repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None, help="directory for findings and summary (default .build/differential/SEED)")
    ap.add_argument("--profile", default=None, help="certkit --profile passthrough (apple, rfc5280, webpki)")
    ap.add_argument("--audit", action="store_true",
                    help="run certkit in its audit mode (--audit); backend disagreements gate as in the default mode")
    ap.add_argument("--certkit", default=None, help="certkit binary (default .build/release/certkit)")
    ap.add_argument("--all-refs", action="store_true", help="run the references on every case, not only on accepts")
    ap.add_argument("--ci", action="store_true", help="fixed seed, %d cases, exit 1 on any unexplained finding" % CI_CASES)
    ap.add_argument("--gate", default=",".join(classify.FINDINGS),
                    help="finding categories that make the exit status 1 (default: %(default)s)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the check that every verifier accepts the seed PKIs")
    ap.add_argument("--no-ablation", action="store_true",
                    help="skip re-running explained cases without each of their mutations")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--lint-libraries", action="store_true",
                    help="compare the openssl and gnutls columns of certkit lint with openssl verify and certtool --verify "
                         "(the audit mode's settings: no host, no purpose, no security level); exit 1 on a difference")
    ap.add_argument("--reclassify", metavar="DIR", help="re-apply the classifier to DIR/findings.ndjson of an earlier run")
    a = ap.parse_args()
    if a.reclassify:
        return reclassify(a.reclassify, a.profile)

    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    if a.ci:
        a.seed = CI_SEED if a.seed is None else a.seed
        a.cases = CI_CASES
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1, 2**31)
    certkit = os.path.abspath(a.certkit or os.path.join(root, ".build", "release", "certkit"))
    out = os.path.abspath(a.out or os.path.join(root, ".build", "differential", str(a.seed)))
    os.makedirs(out, exist_ok=True)
    opts = {"seed": a.seed, "certkit": certkit, "profile": a.profile, "all_refs": a.all_refs, "audit": a.audit}
    indices = a.case if a.case else list(range(a.start, a.start + a.cases))

    print("differential: seed %d, %d cases, %d jobs, profile %s, mode %s, certkit %s, out %s"
          % (a.seed, len(indices), a.jobs, a.profile or "default", "audit" if a.audit else "default", certkit, out),
          file=sys.stderr, flush=True)
    keys.warm()
    if a.lint_libraries:
        return lint_libraries(a, opts, indices, out)
    if not a.no_baseline and not baseline(certkit, a.profile):
        return 2

    counts = collections.Counter()
    rules = collections.Counter()
    groups = collections.defaultdict(collections.Counter)  # category -> group -> count
    families = collections.defaultdict(collections.Counter)
    saved = collections.Counter()
    findings_log = open(os.path.join(out, "findings.ndjson"), "w")
    explained_log = open(os.path.join(out, "explained.ndjson"), "w")
    explained = []
    t0 = time.time()
    last = t0
    done = 0

    def handle(rec):
        nonlocal done, last
        done += 1
        cat = rec["category"]
        if cat == "usage-error":
            print("differential: certkit refused the command line: %s" % rec["certkit"], file=sys.stderr)
            sys.exit(2)
        counts[cat] += 1
        if rec.get("rule"):
            rules[rec["rule"]] += 1
        if cat in classify.EXPLAINED:
            explained.append(rec)
        if cat in classify.FINDINGS or cat in classify.SAVED or cat in classify.EXPLAINED or cat == "generator-error":
            groups[cat][group_key(rec)] += 1
            families[cat][family_key(rec)] += 1
            files = rec.pop("files", None)
            if files is not None:
                gk = (cat, group_key(rec))
                if saved[gk] < SAVE_PER_GROUP or len(indices) <= 50:
                    saved[gk] += 1
                    fd = os.path.join(out, cat, "case-%d" % rec["index"])
                    os.makedirs(fd, exist_ok=True)
                    for name, text in files.items():
                        with open(os.path.join(fd, name), "w") as f:
                            f.write(text)
                    repro = ("Scripts/differential.sh --seed %d --case %d%s --out DIR   # regenerates and re-runs"
                             % (a.seed, rec["index"], " --profile " + a.profile if a.profile else ""))
                    with open(os.path.join(fd, "reproduce.sh"), "w") as f:
                        f.write("#!/bin/sh\n# %s\n# %s\ncd \"$(dirname \"$0\")\"\n%s\n" % (
                            " + ".join(rec["tags"]), repro, "\n".join(rec["reproducer"])))
                    with open(os.path.join(fd, "case.json"), "w") as f:
                        json.dump({k: v for k, v in rec.items() if k != "reproducer"}, f, indent=1, sort_keys=True)
                    rec["dir"] = fd
                rec.pop("reproducer", None)
            (explained_log if cat in classify.EXPLAINED else findings_log).write(json.dumps(rec, sort_keys=True) + "\n")
            if len(indices) <= 50 and not a.quiet:
                print(json.dumps(rec, indent=1, sort_keys=True), file=sys.stderr)
        now = time.time()
        if not a.quiet and (now - last >= 10 or done == len(indices)):
            last = now
            print("differential: %d/%d cases, %.1f cases/s, unexplained %d, disagreements %d, crashes %d, explained %d"
                  % (done, len(indices), done / max(now - t0, 1e-9), counts["unexplained-accept"],
                     counts["backend-disagreement"], counts["crash"], counts["explained-accept"]),
                  file=sys.stderr, flush=True)

    for rec in run_all(run_case, indices, a.jobs, opts):
        handle(rec)
    explained_log.close()

    # Ablation: an explanation must hold for the cause, not for a tag that happens to be present. Every explained
    # case with two or more mutations is re-run without each mutation in turn; an ablated case that is now an
    # unexplained accept or a backend disagreement shows the explanation leaned on the mutation left out.
    ablations = [(rec["index"], k) for rec in explained if rec.get("steps", 0) >= 2 for k in range(rec["steps"])]
    ablated = collections.Counter()
    if ablations and not a.no_ablation:
        print("differential: ablation: %d explained cases with 2+ mutations, %d re-runs"
              % (len({i for i, _ in ablations}), len(ablations)), file=sys.stderr, flush=True)
        for rec in run_all(_run_ablation, ablations, a.jobs, opts):
            ablated[rec["category"]] += 1
            if rec["category"] in classify.ABLATION_FINDINGS:
                rec["ablated_from"] = rec["index"]
                rec["category"] = "ablation-unexplained"
                counts["ablation-unexplained"] += 1
                groups["ablation-unexplained"][group_key(rec)] += 1
                rec.pop("reproducer", None)
                files = rec.pop("files", None)
                fd = os.path.join(out, "ablation-unexplained", "case-%d-without-%d" % (rec["index"], rec["skip"]))
                os.makedirs(fd, exist_ok=True)
                for name, text in (files or {}).items():
                    with open(os.path.join(fd, name), "w") as f:
                        f.write(text)
                with open(os.path.join(fd, "case.json"), "w") as f:
                    json.dump(rec, f, indent=1, sort_keys=True)
                findings_log.write(json.dumps(rec, sort_keys=True) + "\n")
        print("differential: ablation results: %s" % dict(ablated), file=sys.stderr, flush=True)
    findings_log.close()
    elapsed = time.time() - t0

    summary = {"seed": a.seed, "cases": len(indices), "seconds": round(elapsed, 1),
               "cases_per_second": round(len(indices) / max(elapsed, 1e-9), 2), "profile": a.profile,
               "audit": a.audit,
               "counts": dict(counts), "explained_rules": dict(rules),
               "groups": {k: dict(v.most_common()) for k, v in groups.items()},
               "families": {k: dict(v.most_common()) for k, v in families.items()}}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    if not a.quiet:
        for cat in classify.FINDINGS + ["other-error", "generator-error"]:
            if groups.get(cat):
                print("%s by mutation:" % cat, file=sys.stderr)
                for g, n in groups[cat].most_common(40):
                    print("  %6d  %s" % (n, g), file=sys.stderr)
        if rules:
            print("explained by rule:", file=sys.stderr)
            for r, n in rules.most_common():
                print("  %6d  %s" % (n, r), file=sys.stderr)
    print("differential: seed %d: %d cases in %.0fs (%.1f/s): %s; %s; out %s" % (
        a.seed, len(indices), elapsed, len(indices) / max(elapsed, 1e-9),
        ", ".join("%s %d" % (c, counts[c]) for c in classify.ORDER if counts[c]), gate_verdict(counts, a.gate), out))
    return 1 if sum(counts[c] for c in a.gate.split(",") if c) else 0


def gate_verdict(counts, gate):
    """The closing words of a run: the gate's verdict first; findings of classes the gate does not cover are
    counted as printed, not gated (they never read as a failure when the gate passed)."""
    gated_classes = [c for c in gate.split(",") if c]
    gated = sum(counts[c] for c in gated_classes)
    ungated = sum(counts[c] for c in classify.FINDINGS if c not in gated_classes)
    if gated:
        verdict = "GATE FAILED: %d finding(s) of the gated classes (%s)" % (
            gated, ", ".join("%s %d" % (c, counts[c]) for c in gated_classes if counts[c]))
    else:
        verdict = "gate passed (%s)" % (", ".join(gated_classes) or "nothing gated")
    if ungated:
        verdict += "; %d finding(s) of ungated classes (%s), printed, not gated" % (
            ungated, ", ".join("%s %d" % (c, counts[c]) for c in classify.FINDINGS if c not in gated_classes and counts[c]))
    return verdict


if __name__ == "__main__":
    sys.exit(main())
