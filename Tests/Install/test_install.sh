#!/usr/bin/env bash
# Scripts/install.sh as a user runs it, into a scratch prefix: the files land where the layout of install.sh says, the
# binary runs without the Swift toolchain (no Swift library among its dependencies; with the toolchain's directory
# hidden by an empty mount when this process may mount, else with a bare environment), `man -l` renders the page,
# bash loads the completion and completes subcommands and --profile values, zsh and fish parse theirs; a failed
# build installs nothing; a bad argument is a usage error. Run by Scripts/test.sh (full pass: the static release
# build takes minutes, so not in --quick).
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...: runs COMMAND, reports it
  local description=$1
  shift
  if "$@"; then echo "ok    $description"; else echo "FAIL  $description"; failures=$((failures + 1)); fi
}

# A bad argument is a usage error, before any build.
set +e
Scripts/install.sh --frobnicate >/dev/null 2>&1
status=$?
set -e
check "an unknown argument exits 2" test "$status" = 2

# A failed build installs nothing: a `swift` that fails stands first on PATH.
mkdir -p "$scratch/failing-swift" "$scratch/untouched"
printf '#!/bin/sh\necho "swift: simulated build failure" >&2\nexit 1\n' > "$scratch/failing-swift/swift"
chmod +x "$scratch/failing-swift/swift"
set +e
PATH="$scratch/failing-swift:$PATH" Scripts/install.sh --prefix "$scratch/untouched" >/dev/null 2>&1
status=$?
set -e
check "a failed build exits non-zero" test "$status" != 0
check "a failed build installs nothing" test -z "$(find "$scratch/untouched" -mindepth 1 -print -quit)"

prefix="$scratch/prefix"
Scripts/install.sh --prefix "$prefix" > "$scratch/installed.txt"
for file in bin/certkit share/man/man1/certkit.1 share/bash-completion/completions/certkit \
  share/zsh/site-functions/_certkit share/fish/vendor_completions.d/certkit.fish; do
  check "installs $file" test -s "$prefix/$file"
  check "names $file" grep -qxF "$prefix/$file" "$scratch/installed.txt"
done
check "leaves no temporary file" test -z "$(find "$prefix" -name '*.certkit-install.*' -print -quit)"
certkit="$prefix/bin/certkit"

# No Swift library among the dependencies; it runs with an empty environment and a PATH without the toolchain.
check "ldd lists no Swift library" sh -c "! ldd '$certkit' | grep -E 'libswift|libFoundation|libdispatch|swift'"
check "ldd lists OpenSSL and GnuTLS" sh -c "ldd '$certkit' | grep -q libssl && ldd '$certkit' | grep -q libgnutls"
check "runs with env -i and no toolchain on PATH" sh -c "env -i PATH=/usr/bin:/bin '$certkit' --version | grep -q '^gnutls: GnuTLS '"
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
if unshare -m true 2>/dev/null; then
  # The toolchain's directory replaced by an empty one for this process only: the real toolchain stays put.
  check "runs with the toolchain directory ($toolchain) hidden" unshare -m sh -c "
    mount -t tmpfs none '$toolchain' && test ! -e '$toolchain/bin/swift' &&
    env -i PATH=/usr/bin:/bin '$certkit' evaluate --anchors Samples/root-ca.pem --at 2030-06-01 --host localhost \
      Samples/server-chain.pem | grep -q '^unspecified: trusted'"
else
  echo "note  cannot mount here (not root): the toolchain directory is not hidden; ldd and env -i above stand for it"
  check "evaluates with env -i" sh -c "env -i PATH=/usr/bin:/bin '$certkit' evaluate --anchors Samples/root-ca.pem \
    --at 2030-06-01 --host localhost Samples/server-chain.pem | grep -q '^unspecified: trusted'"
fi

# The man page renders and is the binary's own; the completions load and complete.
check "man -l renders the page" sh -c "MANPAGER=cat PAGER=cat MANWIDTH=80 man -l '$prefix/share/man/man1/certkit.1' 2>/dev/null | grep -q 'CERTKIT(1)'"
check "the man page is the binary's help --man" cmp -s "$prefix/share/man/man1/certkit.1" <("$certkit" help --man)
bash_completion="$prefix/share/bash-completion/completions/certkit"
check "bash: complete -p certkit" sh -c "bash --norc -c 'source \"$bash_completion\"; complete -p certkit' | grep -qx 'complete -F _certkit certkit'"
complete_bash() {  # complete_bash EXPECTED WORDS...: the completion of the last word is EXPECTED
  local expected=$1
  shift
  [ "$(bash --norc -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _certkit; echo "${COMPREPLY[*]}"' \
    "$bash_completion" "$@")" = "$expected" ]
}
check "bash: subcommands" complete_bash "evaluate" certkit eva
check "bash: trust subcommands" complete_bash "add remove list show export --help" certkit trust ""
check "bash: --profile values" complete_bash "apple rfc5280 webpki" certkit evaluate --profile ""
check "zsh parses _certkit" zsh -n "$prefix/share/zsh/site-functions/_certkit"
check "fish: --profile values" sh -c "fish --no-config -c 'source \"$prefix/share/fish/vendor_completions.d/certkit.fish\"; complete -C \"certkit evaluate --profile \"' | cut -f1 | tr '\n' ' ' | grep -qx 'apple rfc5280 webpki '"

# Installing again over the same prefix replaces the files in place.
Scripts/install.sh --prefix "$prefix" >/dev/null
check "a second install leaves the same files" test "$(find "$prefix" -type f | wc -l)" = 5

echo "install test: $failures failure(s)"
[ "$failures" = 0 ]
