#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs everything contractc needs to build and test, on Debian 12.
# Idempotent; run as root (or through sudo).
set -euo pipefail
packages=(
  build-essential cmake pkg-config clang valgrind
  libclang-rt-14-dev    # clang's sanitizer and libFuzzer runtimes (only a Recommends of clang)
  libyaml-dev      # reading contracts (generator)
  libcjson-dev     # schemas, --json, logs (generator and CLI)
  libssl-dev       # libcrypto: sha256 of the contract (generator)
  check            # unit tests
  libpcre2-dev     # pattern oracle (tests only)
  locales          # de_DE.UTF-8 for the locale determinism test
  nodejs           # ajv, the JSON Schema oracle of the dialect tests (tests/schema)
  libcurl4-openssl-dev  # the optional chat-completions client (client/)
  python3          # the loopback replay server of the client test
  meson ninja-build     # the Meson consumer route (tests/integration/consumer_meson.sh)
  reuse            # the licence check of the tree (tests/licence/tree.sh)
  man-db           # man -l renders docs/contractc.1 (tests/cli/cli.sh manpage; brings groff-base)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# npm for `npm ci` of tests/schema: nodesource's nodejs bundles it, Debian's
# nodejs needs the separate npm package.
if ! command -v npm >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends npm
fi
# A German locale, so tests can show that numbers never depend on it.
if ! locale -a 2>/dev/null | grep -qi '^de_DE.utf8$'; then
  $SUDO sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen 2>/dev/null || true
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null || echo 'de_DE.UTF-8 UTF-8' | $SUDO tee -a /etc/locale.gen >/dev/null
  $SUDO locale-gen >/dev/null 2>&1 || true
fi
