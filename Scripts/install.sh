#!/usr/bin/env bash
# Builds certkit in release mode with the Swift standard library and Foundation linked in statically (the binary
# then needs only the C and C++ runtimes, OpenSSL and GnuTLS, not the Swift toolchain) and installs under PREFIX
# (default /usr/local):
#
#   bin/certkit
#   share/man/man1/certkit.1                        certkit help --man
#   share/bash-completion/completions/certkit       certkit help --completion bash
#   share/zsh/site-functions/_certkit               certkit help --completion zsh
#   share/fish/vendor_completions.d/certkit.fish    certkit help --completion fish
#
# The man page and the completions are made by the built binary from the tables its --help and argument parser use.
# Everything is built, generated and checked in a staging directory first (no Swift library among the binary's
# dependencies, the binary runs with a bare environment, the man page renders); then each file is copied next to
# its destination under a temporary name, and only when every copy succeeded are they renamed into place. A failed
# build or check installs nothing.
#
#   Scripts/install.sh [--prefix DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }
      prefix=$2
      shift 2
      ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (usage: Scripts/install.sh [--prefix DIR])" >&2; exit 2 ;;
  esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac

Scripts/bootstrap.sh --build  # OpenSSL's and GnuTLS's headers, pkg-config, the CA bundle, the Public Suffix List
stage=$(mktemp -d)
temporaries=()
cleanup() {
  rm -rf "$stage"
  for file in "${temporaries[@]}"; do rm -f "$file"; done
}
trap cleanup EXIT

# A scratch directory of its own: the static build does not disturb the debug and release builds' caches.
scratch=.build/install
echo "install.sh: building certkit (release, static Swift standard library) in $scratch" >&2
swift build -c release --product certkit --static-swift-stdlib --scratch-path "$scratch" >&2
built="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/certkit"

mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
  "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
cp "$built" "$stage/bin/certkit"
chmod 0755 "$stage/bin/certkit"

# The binary must not need the toolchain: no Swift runtime library among its dependencies, and it runs with an
# empty environment and a PATH without the toolchain.
if ldd "$stage/bin/certkit" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_FoundationICU' >&2; then
  echo "install.sh: the binary still links the Swift libraries above dynamically" >&2
  exit 1
fi
env -i PATH=/usr/bin:/bin "$stage/bin/certkit" --version >&2

run() { env -i PATH=/usr/bin:/bin "$stage/bin/certkit" "$@"; }
run help --man > "$stage/share/man/man1/certkit.1"
run help --completion bash > "$stage/share/bash-completion/completions/certkit"
run help --completion zsh > "$stage/share/zsh/site-functions/_certkit"
run help --completion fish > "$stage/share/fish/vendor_completions.d/certkit.fish"
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -Tutf8 -ww -z "$stage/share/man/man1/certkit.1" 2>&1)
  [ -z "$warnings" ] || { echo "install.sh: the man page does not render cleanly: $warnings" >&2; exit 1; }
fi
bash -n "$stage/share/bash-completion/completions/certkit"

files=(bin/certkit share/man/man1/certkit.1 share/bash-completion/completions/certkit
  share/zsh/site-functions/_certkit share/fish/vendor_completions.d/certkit.fish)
# Phase 1: every file copied next to its destination under a temporary name (removed again on any failure).
for file in "${files[@]}"; do
  directory="$prefix/$(dirname "$file")"
  mkdir -p "$directory"
  temporary="$directory/.$(basename "$file").certkit-install.$$"
  temporaries+=("$temporary")
  mode=0644
  [ "$file" = bin/certkit ] && mode=0755
  install -m "$mode" "$stage/$file" "$temporary"
done
# Phase 2: renamed into place, each one atomically.
for index in "${!files[@]}"; do
  mv -f "${temporaries[$index]}" "$prefix/${files[$index]}"
done
temporaries=()
for file in "${files[@]}"; do echo "$prefix/$file"; done
echo "install.sh: installed certkit under $prefix ($("$prefix/bin/certkit" --version | head -1))" >&2
