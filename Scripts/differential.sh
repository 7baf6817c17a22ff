#!/usr/bin/env bash
# Differential tester: mutated, re-signed chains from seed PKIs, evaluated by certkit (both backends) and by
# OpenSSL (`openssl verify`, default and -x509_strict), GnuTLS (`certtool --verify`, under libfaketime) and
# pyca/cryptography's web-PKI verifier. Every case certkit accepts while a reference rejects is a finding unless
# Tests/Differential/known-differences.md explains it (classifier: Scripts/differential/classify.py).
#
#   Scripts/differential.sh [--seed N] [--cases N] [--jobs N] [--out DIR] [--profile P] [--audit] [--all-refs]
#   Scripts/differential.sh --seed N --case I [--case J ...]     # re-run single cases (reproducers)
#   Scripts/differential.sh --ci [--audit]                       # fixed seed, 2,000 cases, exit 1 on a finding
#
# --audit runs certkit in its audit mode (the libraries' own verifiers judge the chosen path too); Scripts/test.sh
# gates on backend disagreements in both modes.
#
# Installs what it needs: a venv with `cryptography` under .build/differential-venv, and (as root, from
# Debian) gnutls-bin, openssl and faketime when missing. Builds certkit in release mode unless --certkit is given.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/differential-venv
if ! "$venv/bin/python" -c 'import cryptography.x509.verification' >/dev/null 2>&1; then
    echo "differential: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'cryptography>=43'
fi

missing=()
command -v certtool >/dev/null || missing+=(gnutls-bin)
command -v openssl >/dev/null || missing+=(openssl)
[ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 ] || missing+=(faketime)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "differential: installing ${missing[*]}" >&2
        (apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "${missing[@]}"; }) >&2
    else
        echo "differential: missing ${missing[*]} (install them, or run as root)" >&2
        exit 2
    fi
fi

if [[ " $* " != *" --certkit "* ]] && [[ " $* " != *" -h "* ]] && [[ " $* " != *" --help "* ]]; then
    if [ ! -x .build/release/certkit ] || [ -n "$(find Sources Package.swift -newer .build/release/certkit -print -quit 2>/dev/null)" ]; then
        echo "differential: building certkit (release)" >&2
        swift build -c release --product certkit >&2
    fi
fi

exec "$venv/bin/python" Scripts/differential/main.py "$@"
