"""certkit and the reference verifiers, each run on one case's files in a directory.

Each function returns a dict {"ok": bool, "detail": str} (certkit also "exit"). A reference that cannot even
parse an input rejects it."""

import datetime as dt
import ipaddress
import json
import os
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore", module="cryptography")
warnings.filterwarnings("ignore", message=".*serial number.*")

import der

FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
TIMEOUT = 20

REFERENCES = ["openssl", "openssl-strict", "gnutls", "pyca"]


def write_case(case, d):
    """Writes anchors.pem, chain.pem, leaf.pem, untrusted.pem and (if any) crl.pem into `d`."""
    files = {}

    def w(name, blocks, label="CERTIFICATE"):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write("".join(der.pem(label, b) for b in blocks))
        files[name] = path

    anchors = case.anchor_ders()
    chain = case.presented_ders()
    w("anchors.pem", anchors)
    w("chain.pem", chain)
    w("leaf.pem", chain[:1])
    w("untrusted.pem", chain[1:])
    if case.crl_mode:
        w("crl.pem", case.crl_ders(), "X509 CRL")
    return files


def host_kind(host):
    """'ip' when `host` is a canonical IPv4/IPv6 literal (Python's strict parser), else 'dns'."""
    try:
        ipaddress.ip_address(host)
        return "ip"
    except ValueError:
        return "dns"


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def certkit_cmd(binary, d, case, profile=None, rel=False, audit=False):
    """certkit on both backends; with `audit`, in the audit mode (the libraries' own verifiers judge the chosen
    path too): a backend disagreement (exit 3) is a finding in either mode."""
    p = (lambda n: n) if rel else (lambda n: os.path.join(d, n))
    cmd = [binary, "evaluate", "--backend", "both", "--json", "--anchors", p("anchors.pem")]
    if audit:
        cmd.append("--audit")
    if case.crl_mode:
        cmd += ["--crl", p("crl.pem")]
    cmd += ["--host", case.host, "--at", iso(case.at)]
    if profile:
        cmd += ["--profile", profile]
    cmd.append(p("chain.pem"))
    return cmd


def run_certkit(binary, d, case, profile=None, audit=False):
    cmd = certkit_cmd(binary, d, case, profile, audit=audit)
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"ok": False, "exit": "timeout", "detail": "timeout"}
    detail = ""
    trusting = []
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode in (0, 3, 10, 11, 12, 13):
        try:
            doc = json.loads(out)
            if r.returncode == 3:
                reps = doc.get("reports", {})
                detail = "; ".join("%s=%s" % (k, _short(v)) for k, v in sorted(reps.items()))
                trusting = sorted(k for k, v in reps.items() if v.get("trusted"))
            else:
                detail = _short(doc)
        except ValueError:
            detail = out[:300]
    else:
        detail = (r.stderr.decode("utf-8", "replace").strip() or out)[:300]
    return {"ok": r.returncode == 0, "exit": r.returncode, "detail": detail, "trusting": trusting}


def _short(doc):
    if doc.get("error"):
        e = doc["error"]
        return "%s %s@%s: %s" % (doc.get("result"), e.get("check"), e.get("certificateIndex"), e.get("message"))
    return str(doc.get("result"))


def openssl_cmd(d, case, strict=False, rel=False):
    p = (lambda n: n) if rel else (lambda n: os.path.join(d, n))
    cmd = ["openssl", "verify", "-CAfile", p("anchors.pem")]
    if len(case.presented_ders()) > 1:
        cmd += ["-untrusted", p("untrusted.pem")]
    cmd += ["-attime", str(int(case.at.timestamp())), "-purpose", "sslserver"]
    if strict:
        cmd.append("-x509_strict")
    if any(not _self_signed_name(a) for a in case.anchor_ders()):
        cmd.append("-partial_chain")
    if host_kind(case.host) == "ip":
        cmd += ["-verify_ip", case.host]
    else:
        cmd += ["-verify_hostname", case.host]
    if case.crl_mode:
        cmd += ["-CRLfile", p("crl.pem"), "-crl_check_all"]
    if getattr(case, "policy_check", False):
        cmd += ["-policy_check", "-policy", "2.5.29.32.0"]  # user-initial-policy-set = any-policy (RFC 5280 6.1.1 c)
    cmd.append(p("leaf.pem"))
    return cmd


def _self_signed_name(cert_der):
    """Subject == issuer, by bytes (enough to decide whether -partial_chain is needed)."""
    try:
        tbs = der.children(cert_der)[0]
        fields = der.children(tbs)
        if fields[0][0] == 0xA0:
            fields = fields[1:]
        return fields[2] == fields[4]
    except Exception:
        return True


def run_openssl(d, case, strict=False):
    cmd = openssl_cmd(d, case, strict)
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"ok": False, "detail": "timeout"}
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    ok = r.returncode == 0 and out.rstrip().endswith(": OK")
    detail = " | ".join(l for l in out.splitlines() if "error" in l.lower())[:2000] if not ok else "OK"
    return {"ok": ok, "detail": detail}


def gnutls_cmd(d, case, rel=False):
    p = (lambda n: n) if rel else (lambda n: os.path.join(d, n))
    cmd = ["certtool", "--verify", "--load-ca-certificate", p("anchors.pem"), "--infile", p("chain.pem"),
           "--verify-hostname", case.host, "--verify-purpose", "1.3.6.1.5.5.7.3.1", "--verify-profile", "medium"]
    if case.crl_mode:
        cmd += ["--load-crl", p("crl.pem")]
    return cmd


def gnutls_env(case):
    env = dict(os.environ)
    env["LD_PRELOAD"] = FAKETIME_LIB
    env["FAKETIME"] = "@" + case.at.strftime("%Y-%m-%d %H:%M:%S")
    env["FAKETIME_NO_CACHE"] = "1"
    env["TZ"] = "UTC"
    return env


def run_gnutls(d, case):
    cmd = gnutls_cmd(d, case)
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, env=gnutls_env(case))
    except subprocess.TimeoutExpired:
        return {"ok": False, "detail": "timeout"}
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    ok = r.returncode == 0 and "Chain verification output: Verified" in out
    if ok:
        return {"ok": True, "detail": "Verified"}
    lines = [l.strip() for l in out.splitlines() if "verification output" in l or "error" in l.lower()]
    return {"ok": False, "detail": " | ".join(lines)[-2000:] or out[-2000:]}


def run_pyca(case):
    from cryptography import x509
    from cryptography.x509 import DNSName, IPAddress
    from cryptography.x509.verification import PolicyBuilder, Store

    try:
        anchors = [x509.load_der_x509_certificate(b) for b in case.anchor_ders()]
        chain = [x509.load_der_x509_certificate(b) for b in case.presented_ders()]
        if host_kind(case.host) == "ip":
            subject = IPAddress(ipaddress.ip_address(case.host))
        else:
            subject = DNSName(case.host)
        verifier = (
            PolicyBuilder()
            .store(Store(anchors))
            .time(case.at.replace(tzinfo=None))
            .build_server_verifier(subject)
        )
        verifier.verify(chain[0], chain[1:])
        return {"ok": True, "detail": "OK"}
    except Exception as e:  # any parse or verification failure is a rejection
        return {"ok": False, "detail": ("%s: %s" % (type(e).__name__, e))[:1000]}


def run_references(d, case):
    return {
        "openssl": run_openssl(d, case),
        "openssl-strict": run_openssl(d, case, strict=True),
        "gnutls": run_gnutls(d, case),
        "pyca": run_pyca(case),
    }


def reproducer(binary, case, profile=None, audit=False):
    """Shell lines that re-run one finding from its directory."""
    q = lambda cmd: " ".join(_shq(c) for c in cmd)
    lines = [q(certkit_cmd(binary, ".", case, profile, rel=True, audit=audit)),
             q(openssl_cmd(".", case, rel=True)),
             q(openssl_cmd(".", case, strict=True, rel=True)),
             "LD_PRELOAD=%s FAKETIME=%s FAKETIME_NO_CACHE=1 %s" % (
                 FAKETIME_LIB, _shq("@" + case.at.strftime("%Y-%m-%d %H:%M:%S")), q(gnutls_cmd(".", case, rel=True))),
             q([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyca_verify.py"), ".",
                case.host, iso(case.at)])]
    return lines


def _shq(s):
    import shlex

    return shlex.quote(s)
