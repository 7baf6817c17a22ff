"""The --lint-libraries mode: the `openssl` and `gnutls` columns of `certkit lint` against `openssl verify` and
`certtool --verify` run with the settings the audit mode gives the libraries (no host name, no purpose, OpenSSL auth
level 0 with -partial_chain and -ignore_critical, GnuTLS with broken algorithms allowed), on the same generated
chains as the differential tester. A case with CRLs is skipped (certkit hands a library only the CRLs it validated,
and a certificate without one is no refusal; `-crl_check_all` would refuse it).

Each case gives one of the categories below; a difference is saved with its files and a reproducer."""

import json
import os
import subprocess

import refs

CATEGORIES = ["lint-agree", "lint-explained", "lint-openssl-differs", "lint-gnutls-differs", "lint-both-differ",
              "lint-unreadable", "lint-skipped-crl", "lint-error"]
DIFFERENCES = ["lint-openssl-differs", "lint-gnutls-differs", "lint-both-differ", "lint-error"]
SAVED = DIFFERENCES + ["lint-explained"]


def explanation(column, reference, library, case):
    """Why a column and its reference may differ by design, or None. The columns are the library's verdict on the
    path certkit builds, as the audit mode runs it; the references build their own path with their defaults."""
    words = column["detail"]
    if not column["ok"] and "library.notShown" in words:
        return "not-shown: a path holding a key certkit refuses is never shown to a library"
    if not column["ok"] and "library.noIssuer" in words and reference["ok"]:
        return "no-core-path: certkit built no anchored path (its allowlist or key-identifier linkage refused a link)"
    if library == "openssl" and column["ok"] and "error 20 at" in reference["detail"]:
        return ("path-given: the audit mode makes OpenSSL follow certkit's path (VerificationRecorder.checkIssued), so "
                "X509_check_issued, which refuses a subject whose extensions OpenSSL finds invalid, is not asked")
    if (library == "openssl" and column["ok"] and any("error %d at 0 depth" % code in reference["detail"] for code in (47, 48, 49))
            and not _has_dns_san(case.presented_ders()[0])):
        return ("cn-not-constrained: the audit mode runs OpenSSL with X509_CHECK_FLAG_NEVER_CHECK_SUBJECT, so name "
                "constraints never reach a leaf's commonName (webpki.name-constraints-cn is the core's rule)")
    if library == "gnutls" and column["ok"] and case.presented_ders()[0] in case.anchor_ders():
        return "anchor-is-leaf: GnuTLS is asked for no path verdict on a leaf that is itself an anchor (trusted as given)"
    if library == "gnutls" and column["ok"] and "unknown critical extension" in reference["detail"]:
        return "unknown-critical: the audit mode runs GnuTLS with GNUTLS_VERIFY_IGNORE_UNKNOWN_CRIT_EXTENSIONS (certkit.critical-extensions decides)"
    return None


def _has_dns_san(leaf_der):
    """True when the leaf has a dNSName subjectAltName (or cannot be read: then no explanation is given)."""
    try:
        from cryptography import x509
    except ImportError:
        return True
    try:
        names = x509.load_der_x509_certificate(leaf_der).extensions.get_extension_for_class(
            x509.SubjectAlternativeName).value
        return bool(names.get_values_for_type(x509.DNSName))
    except x509.ExtensionNotFound:
        return False
    except Exception:
        return True


def lint_cmd(binary, d, case, rel=False):
    p = (lambda n: n) if rel else (lambda n: os.path.join(d, n))
    return [binary, "lint", "--targets", "openssl,gnutls", "--json", "--anchors", p("anchors.pem"),
            "--host", case.host, "--at", refs.iso(case.at), p("chain.pem")]


def openssl_cmd(d, case, rel=False):
    p = (lambda n: n) if rel else (lambda n: os.path.join(d, n))
    cmd = ["openssl", "verify", "-CAfile", p("anchors.pem")]
    if len(case.presented_ders()) > 1:
        cmd += ["-untrusted", p("untrusted.pem")]
    cmd += ["-attime", str(int(case.at.timestamp())), "-partial_chain", "-ignore_critical", "-auth_level", "0"]
    cmd.append(p("leaf.pem"))
    return cmd


def gnutls_cmd(d, case, rel=False):
    p = (lambda n: n) if rel else (lambda n: os.path.join(d, n))
    return ["certtool", "--verify", "--load-ca-certificate", p("anchors.pem"), "--infile", p("chain.pem"),
            "--verify-allow-broken"]


def run_lint(binary, d, case):
    try:
        r = subprocess.run(lint_cmd(binary, d, case), capture_output=True, timeout=refs.TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if r.returncode not in (0, 10):
        return None, "exit %d: %s" % (r.returncode, r.stderr.decode("utf-8", "replace").strip()[:300])
    doc = json.loads(r.stdout)
    columns = {}
    for target in doc["targets"]:
        words = "; ".join("%s %s" % (f["rule"], f.get("detail") or "") for f in target["findings"])
        columns[target["name"]] = {"ok": target["trusted"], "detail": words or "trusted"}
    return columns, ""


def run_openssl(d, case):
    try:
        r = subprocess.run(openssl_cmd(d, case), capture_output=True, timeout=refs.TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"ok": False, "detail": "timeout"}
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    ok = r.returncode == 0 and out.rstrip().endswith(": OK")
    return {"ok": ok, "detail": "OK" if ok else " | ".join(l for l in out.splitlines() if "error" in l.lower())[:1000]}


def run_gnutls(d, case):
    try:
        r = subprocess.run(gnutls_cmd(d, case), capture_output=True, timeout=refs.TIMEOUT, env=refs.gnutls_env(case))
    except subprocess.TimeoutExpired:
        return {"ok": False, "detail": "timeout"}
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    ok = r.returncode == 0 and "Chain verification output: Verified" in out
    lines = [l.strip() for l in out.splitlines() if "verification output" in l or "error" in l.lower()]
    return {"ok": ok, "detail": "Verified" if ok else (" | ".join(lines)[-1000:] or out[-1000:])}


def run_case(binary, d, case):
    """The record of one case: its category, both columns and both references."""
    if case.crl_mode:
        return {"category": "lint-skipped-crl"}
    columns, problem = run_lint(binary, d, case)
    if columns is None:
        # certkit refuses to read the chain at all (its DER is stricter than the libraries'): no column to compare.
        return {"category": "lint-unreadable" if problem.startswith("exit 1:") else "lint-error", "detail": problem}
    ossl = run_openssl(d, case)
    gnutls = run_gnutls(d, case)
    openssl_differs = columns["openssl"]["ok"] != ossl["ok"]
    gnutls_differs = columns["gnutls"]["ok"] != gnutls["ok"]
    reasons = {}
    if openssl_differs:
        reasons["openssl"] = explanation(columns["openssl"], ossl, "openssl", case)
        openssl_differs = reasons["openssl"] is None
    if gnutls_differs:
        reasons["gnutls"] = explanation(columns["gnutls"], gnutls, "gnutls", case)
        gnutls_differs = reasons["gnutls"] is None
    category = ("lint-both-differ" if openssl_differs and gnutls_differs else
                "lint-openssl-differs" if openssl_differs else
                "lint-gnutls-differs" if gnutls_differs else
                "lint-explained" if reasons else "lint-agree")
    return {"category": category, "reasons": {k: v for k, v in reasons.items() if v},
            "lint": {k: v for k, v in columns.items()},
            "references": {"openssl verify": ossl, "certtool --verify": gnutls}}


def reproducer(binary, case):
    q = lambda cmd: " ".join(refs._shq(c) for c in cmd)
    return [q(lint_cmd(binary, ".", case, rel=True)), q(openssl_cmd(".", case, rel=True)),
            "LD_PRELOAD=%s FAKETIME=%s FAKETIME_NO_CACHE=1 TZ=UTC %s" % (
                refs.FAKETIME_LIB, refs._shq("@" + case.at.strftime("%Y-%m-%d %H:%M:%S")),
                q(gnutls_cmd(".", case, rel=True)))]
