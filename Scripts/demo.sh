#!/usr/bin/env bash
# The main job on the bundled samples: inspect and evaluate the demo PKI in Samples/, then a trust store. Each step
# is one captioned command: what it shows and why it matters.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "demo: first Scripts/bootstrap.sh checks the Debian packages certkit needs; any that are missing it installs"
echo "demo: with apt-get as root (or through sudo), naming them before it starts."
Scripts/bootstrap.sh
echo "demo: building certkit (swift build)"
swift build --product certkit >/dev/null
certkit=$(swift build --show-bin-path)/certkit
# step CAPTION ARGUMENTS...: prints the caption and the command, runs it and shows its exit code.
step() {
  local caption=$1
  shift
  echo "# $caption"
  echo "\$ certkit $*"
  "$certkit" "$@"
  echo "(exit $?)"
  echo
}
set +e
step "What a certificate says (names, validity, key, extensions, fingerprints): the first look at any file." \
  inspect Samples/server.pem
step "A good chain to a root you trust: trusted (exit 0), the verdict an app acts on." \
  evaluate --anchors Samples/root-ca.pem --host localhost Samples/server-chain.pem
step "The same with both TLS libraries: OpenSSL and GnuTLS reach the same verdict through one policy." \
  evaluate --anchors Samples/root-ca.pem --host localhost --backend both Samples/server-chain.pem
step "An expired server certificate: recoverableTrustFailure (exit 10), named as SecTrust names it." \
  evaluate --anchors Samples/root-ca.pem --intermediates Samples/intermediate-ca.pem --host localhost Samples/expired.pem
step "A certificate for another host: SSLHostname fails (exit 10), the most common misconfiguration." \
  evaluate --anchors Samples/root-ca.pem --intermediates Samples/intermediate-ca.pem --host localhost Samples/wrong-host.pem
step "A self-signed certificate trusted as its own anchor, checked against an IP address." \
  evaluate --anchors Samples/self-signed.pem --host 127.0.0.1 Samples/self-signed.pem
step "The wrong anchor: no path reaches it (the intermediate's issuer is unknown: MissingIntermediate), so no trust." \
  evaluate --anchors Samples/self-signed.pem --host localhost Samples/server-chain.pem
# A trust store in a scratch directory: import the root once, then evaluate with the store's settings.
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
step "Import the root into a trust store once (here a scratch directory): later runs need no --anchors." \
  trust add --store "$store" Samples/root-ca.pem
step "Evaluate with the store's settings: proceed, trusted because the user said so." \
  evaluate --store "$store" --host localhost --backend both Samples/server-chain.pem
step "Distrust the intermediate for this host only: a deny setting, as in macOS Keychain Access." \
  trust add --store "$store" --result deny --policy ssl-server --host localhost Samples/intermediate-ca.pem
step "The same chain is now denied (exit 12): a distrust beats any trust." \
  evaluate --store "$store" --host localhost Samples/server-chain.pem
step "What the store holds, with every setting." \
  trust list --store "$store"
exit 0
