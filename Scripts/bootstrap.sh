#!/usr/bin/env bash
# Installs the system packages certkit builds and tests against, when they are missing (publicsuffix: the
# Public Suffix List the webpki profile reads, /usr/share/publicsuffix/public_suffix_list.dat; man-db, zsh and fish:
# the tests render the man page and load the completions in each shell). `--build`: only what building and running
# certkit needs (Scripts/install.sh). The README lists the same two groups (a test compares them). Debian/Ubuntu;
# needs root (or sudo) only when something is missing, and says so first.
set -euo pipefail

build_packages=(libssl-dev libgnutls28-dev pkg-config ca-certificates publicsuffix)
test_packages=(openssl gnutls-bin python3 python3-venv faketime man-db zsh fish)
case "${1:-}" in
  --build) packages=("${build_packages[@]}") ;;
  "") packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "bootstrap: unknown argument '$1' (usage: Scripts/bootstrap.sh [--build])" >&2; exit 2 ;;
esac
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "bootstrap: missing Debian packages: ${missing[*]}; installing them with apt-get as root" >&2
if [ "$(id -u)" -eq 0 ]; then
  apt_get=(apt-get)
elif command -v sudo >/dev/null 2>&1; then
  apt_get=(sudo apt-get)
else
  echo "bootstrap: missing packages (${missing[*]}); run as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
