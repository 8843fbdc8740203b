# SPDX-License-Identifier: MIT
# Helpers for the integration tests (CMakeLists.txt here).  Sourced, not run.
# Every test gets, from ctest's environment:
#   SRC     the contractc source tree        PREFIX  the temporary install prefix
#   WORK    a scratch directory of its own   CC, CXX the compilers of this build
#   SAN     sanitizer flags of this build (empty unless CONTRACTC_SANITIZE)
set -euo pipefail
: "${SRC:?}" "${PREFIX:?}" "${WORK:?}" "${CC:?}"
SAN=${SAN:-}
rm -rf "$WORK"
mkdir -p "$WORK"

fail() { echo "FAIL: $*" >&2; exit 1; }
# ctest maps exit 77 to "skipped" (SKIP_RETURN_CODE); the reason is printed.
skip() { echo "SKIPPED: $*" >&2; exit 77; }
pass() { echo "ok: $*"; }

# expect_contains FILE TEXT: FILE holds TEXT verbatim.
expect_contains() {
  grep -qF -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$1 lacks: $2"; }
}

# expect_fails LOG CMD...: CMD exits non-zero; its output goes to LOG.
expect_fails() {
  local log=$1; shift
  if "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "expected failure: $*"
  fi
}

# expect_same A B: byte-identical files.
expect_same() {
  cmp -s "$1" "$2" || { diff -u "$1" "$2" | head -20 >&2; fail "$1 and $2 differ"; }
}

CONTRACTC="$PREFIX/bin/contractc"
VERSION=$(sed -n 's/^#define CONTRACTC_VERSION "\(.*\)"$/\1/p' "$SRC/runtime/include/contractc/contractc.h")
[ -x "$CONTRACTC" ] || fail "no installed generator at $CONTRACTC (the vendor_install test sets it up)"
