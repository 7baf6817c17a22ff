#!/usr/bin/env bash
# The fixture sets (Scripts/fixtures/certkit_fixtures, one module per set under sets/):
#   Scripts/fixtures.sh                 regenerate every set into Tests/Fixtures/ (and Samples/, Tests/Fuzz/Corpus/)
#   Scripts/fixtures.sh --set NAME      only that set (repeatable)
#   Scripts/fixtures.sh --list          the sets, what each writes and reads
#   Scripts/fixtures.sh --check         regenerate into a temporary directory and compare with the committed files:
#                                       exit 1 with the list of files that differ
#   Scripts/fixtures.sh --test          the package's unit tests (Scripts/fixtures/tests)
# Needs python3, the openssl CLI (3.0+) and certtool (sanity passes). `cryptography` and gmpy2 come from PyPI into a
# private venv, .build/fixtures-venv (made on first use): the pinned `cryptography` bundles an OpenSSL with
# RFC 6979 deterministic ECDSA, which the system's may lack.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.build/fixtures-venv"
if ! "$VENV/bin/python3" -c 'import cryptography, gmpy2' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q 'cryptography>=44' gmpy2 >&2
fi
export PYTHONPATH="$ROOT/Scripts/fixtures${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1
if [ "${1:-}" = "--test" ]; then
  exec "$VENV/bin/python3" -m unittest discover -s "$ROOT/Scripts/fixtures/tests" -t "$ROOT/Scripts/fixtures" -q
fi
exec "$VENV/bin/python3" -m certkit_fixtures.runner "$@"
