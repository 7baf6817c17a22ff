#!/usr/bin/env bash
# The main job on the bundled samples: convert, inspect and evaluate the demo PKI in Samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build --product certkit >/dev/null
certkit=$(swift build --show-bin-path)/certkit
run() { echo "\$ certkit $*"; "$certkit" "$@"; status=$?; echo "(exit $status)"; echo; }
set +e
run inspect Samples/server.pem
run evaluate --anchors Samples/root-ca.pem --host localhost Samples/server-chain.pem
run evaluate --anchors Samples/root-ca.pem --host localhost --backend both Samples/server-chain.pem
run evaluate --anchors Samples/root-ca.pem --intermediates Samples/intermediate-ca.pem --host localhost Samples/expired.pem
run evaluate --anchors Samples/root-ca.pem --intermediates Samples/intermediate-ca.pem --host localhost Samples/wrong-host.pem
run evaluate --anchors Samples/self-signed.pem --host 127.0.0.1 Samples/self-signed.pem
run evaluate --anchors Samples/self-signed.pem --host localhost Samples/server-chain.pem
# A trust store in a scratch directory: import the root once, then evaluate with the store's settings.
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
run trust add --store "$store" Samples/root-ca.pem
run evaluate --trust-store="$store" --host localhost --backend both Samples/server-chain.pem
run trust add --store "$store" --result deny --policy ssl-server --host localhost Samples/intermediate-ca.pem
run evaluate --trust-store="$store" --host localhost Samples/server-chain.pem
run trust list --store "$store"
exit 0
