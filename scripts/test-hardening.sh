#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hardening runs (called by scripts/test.sh after the gcc suite; runs alone
# too).  Each builds what it needs in its own build directory:
#
#   1. fuzz      build-hardening-fuzz: clang, libFuzzer + ASan + UBSan.  Each
#                target replays its corpus (the seeds that the build
#                assembles from tests/data and examples/ into
#                build-hardening-fuzz/fuzz/corpus/T, see fuzz/seeds.cmake,
#                and the saved crashes in fuzz/regressions/T), then runs a fixed number of iterations from a fixed seed
#                (-seed=1 -runs=N) on a fresh copy of the corpus, so a run is
#                repeatable.  Any crash, leak, timeout or sanitizer report
#                fails.  Prints executions and corpus size per target.
#   2. valgrind  build-hardening-plain: gcc, no sanitizers.  Every example
#                program and `contractc generate`/`validate` on the example
#                contracts and replies under memcheck: zero errors, zero
#                leaks (definite, indirect, possible and reachable).
#   3. alloc     the same build: tests/test_alloc_fail with every failure
#                point (CONTRACTC_ALLOC_STRIDE=1), the runtime through its
#                allocator option and the generator through the LD_PRELOAD
#                fail-the-n-th-malloc shim.
#
# CONTRACTC_FUZZ_RUNS scales the seeded iterations (default 1: the numbers
# below).
#
# To fuzz one target for as long as you like (not in CI):
#   bash scripts/test-hardening.sh fuzz TARGET [SECONDS] [libFuzzer options]
# TARGET: reader, differential, generated, validate, contract, stats,
# client_response, stream; SECONDS
# defaults to 600 (0: until stopped).  New inputs collect in
# build-hardening-fuzz/corpus-long/TARGET; a crash is written to
# build-hardening-fuzz/artifacts/TARGET/: copy it into fuzz/regressions/TARGET/
# and every later CI run replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scale=${CONTRACTC_FUZZ_RUNS:-1}
status=0
fb=build-hardening-fuzz

configure_fuzz() {
  cmake -S . -B "$fb" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTRACTC_WERROR=ON \
    -DCONTRACTC_FUZZ=ON -DCONTRACTC_SANITIZE=ON -DCONTRACTC_BUILD_TESTS=OFF \
    -DCONTRACTC_BUILD_EXAMPLES=OFF >/dev/null
}
# Inputs up to 4 KiB, contracts up to 16 KiB (room for the named types that
# expand, which fuzz_contract's size budget catches), HTTP responses up to
# 8 KiB (the recorded ones are up to 5 KiB), event streams as much.
max_len() { case $1 in contract) echo 16384 ;; client_response | client_stream) echo 8192 ;; *) echo 4096 ;; esac; }
# Memory: libFuzzer fails a run past 2 GiB of RSS, or on any one malloc
# over 512 MiB (an allocation sized by the input, before it shows as RSS).
mem_limits=(-rss_limit_mb=2048 -malloc_limit_mb=512)
corpus_dirs() { # TARGET: the read-only seed directories (the assembled
  local t=$1   # seeds, built with the target, and the saved crashes)
  dirs=("$fb/fuzz/corpus/$t")
  [ -d fuzz/regressions/$t ] && dirs+=(fuzz/regressions/$t)
  return 0
}

if [ "${1:-}" = fuzz ]; then
  t=${2:?usage: scripts/test-hardening.sh fuzz TARGET [SECONDS] [options...]}
  secs=${3:-600}
  shift $(( $# >= 3 ? 3 : 2 ))
  configure_fuzz
  cmake --build "$fb" -j2 --target "fuzz_$t"
  corpus_dirs "$t"
  mkdir -p "$fb/corpus-long/$t" "$fb/artifacts/$t"
  exec "$fb/fuzz/fuzz_$t" -max_len="$(max_len "$t")" -timeout=25 "${mem_limits[@]}" -max_total_time="$secs" \
    -artifact_prefix="$fb/artifacts/$t/" "$@" "$fb/corpus-long/$t" "${dirs[@]}"
fi

echo "==> hardening: fuzz targets (libFuzzer, ASan, UBSan; replay, then -seed=1 -runs=N)"
if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
     | clang -x c -fsanitize=fuzzer,address,undefined -o /tmp/contractc-fuzz-probe.$$ - 2>/dev/null; then
  echo "FAILED: clang cannot link -fsanitize=fuzzer (libclang-rt / compiler-rt missing?)" >&2
  exit 1
fi
rm -f /tmp/contractc-fuzz-probe.$$
configure_fuzz
targets=(reader differential generated validate contract)
targets+=(stats)
targets+=(client_response)
targets+=(stream)
targets+=(client_stream)
cmake --build "$fb" -j2 --target "${targets[@]/#/fuzz_}"

# iterations per target: the JSON-only targets run ~10,000 inputs a second,
# the contract-level ones ~700, the log reader ~1,000 (three reports an input)
declare -A runs=([reader]=200000 [differential]=200000 [generated]=20000 [validate]=20000 [contract]=20000)
runs[stats]=20000
runs[client_response]=300000 # ~30,000 a second from the seeds
runs[stream]=5000 # eight contracts, and each reply fed one byte at a time too
runs[client_stream]=50000 # ~2,500 a second: each stream read 8 times, the parser fed its text
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
summary=()
for t in "${targets[@]}"; do
  bin=$fb/fuzz/fuzz_$t
  corpus_dirs "$t"
  art=$fb/artifacts/$t/
  work=$fb/corpus-work/$t
  rm -rf "$work" "$art"
  mkdir -p "$work" "$art"
  common=(-max_len="$(max_len "$t")" -timeout=25 "${mem_limits[@]}" -artifact_prefix="$art" -print_final_stats=1)
  log=$fb/fuzz_$t.log
  # replay: every file once
  if ! "$bin" "${common[@]}" -runs=0 "${dirs[@]}" >"$log.replay" 2>&1; then
    echo "FAILED: fuzz_$t crashed replaying its corpus (see $log.replay)"; tail -30 "$log.replay"
    status=1; continue
  fi
  replayed=$(find "${dirs[@]}" -type f | wc -l)
  # seeded run on a fresh copy, so the run is the same every time
  n=$(( ${runs[$t]} * scale ))
  if ! "$bin" "${common[@]}" -seed=1 -runs="$n" "$work" "${dirs[@]}" >"$log" 2>&1; then
    echo "FAILED: fuzz_$t crashed (input in $art; add it to fuzz/regressions/$t/)"; tail -40 "$log"
    status=1; continue
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  corpus=$(find "$work" -type f | wc -l)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  line="fuzz_$t: replayed $replayed files; $execs executions (-seed=1 -runs=$n), $cov, corpus $corpus new inputs, 0 crashes"
  echo "$line"
  summary+=("$line")
done

echo "==> hardening: valgrind memcheck on the examples and the CLI"
pb=build-hardening-plain
cmake -S . -B "$pb" -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTRACTC_WERROR=ON >/dev/null
cmake --build "$pb" -j2
vg=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --show-leak-kinds=all
    --errors-for-leak-kinds=all --track-origins=yes -q)
vg_runs=0
vg_run() { # LABEL CMD...
  local label=$1; shift
  local out=$pb/valgrind.out
  set +e
  "${vg[@]}" --log-file="$out" "$@" >/dev/null 2>&1
  local rc=$?
  set -e
  vg_runs=$((vg_runs + 1))
  if [ "$rc" = 99 ] || [ -s "$out" ]; then
    echo "FAILED: valgrind: $label"; cat "$out"; status=1
  elif [ "$rc" -gt 2 ]; then
    echo "FAILED: $label exited $rc under valgrind"; status=1
  fi
}
for program in "$pb"/examples/*/*_example; do
  [ -x "$program" ] || continue
  case $program in
    *refund_loop_example) vg_run "$program" "$program" "$root/examples/refund/data/loop" "$pb/valgrind-loop.log" ;;
    *) vg_run "$program" "$program" ;;
  esac
done
vgout=$(mktemp -d)
for contract in examples/*/*.contract.yaml tests/data/contracts/*.contract.yaml; do
  vg_run "contractc generate $contract" "$pb/generator/contractc" generate "$contract" -o "$vgout"
  vg_run "contractc lint $contract" "$pb/generator/contractc" lint "$contract"
done
for hostile in tests/data/hostile/*.contract.yaml; do
  vg_run "contractc lint $hostile" "$pb/generator/contractc" lint "$hostile"
done
for reply in examples/refund/data/*.reply.json; do
  email=examples/refund/data/$(basename "$reply" | cut -d- -f1).email.txt
  vg_run "contractc validate $reply" "$pb/generator/contractc" validate \
    examples/refund/refund_request.contract.yaml "$reply" --source "$email" --json
done
rm -rf "$vgout"
echo "valgrind: $vg_runs runs under memcheck, $( [ $status = 0 ] && echo "0 errors, 0 leaks" || echo "FAILURES above")"

echo "==> hardening: allocation failures at every failure point"
CK_FORK=no CONTRACTC_ALLOC_STRIDE=1 "$pb/tests/test_alloc_fail" | tee "$pb/alloc.log" \
  | grep -E 'allocation failures|VIOLATION|SKIPPED|Checks|:F:|:E:' || true
if ! grep -q '100%: Checks' "$pb/alloc.log"; then
  echo "FAILED: allocation-failure runs (see $pb/alloc.log)"; status=1
fi

echo "==> hardening summary"
for line in "${summary[@]}"; do echo "  $line"; done
if [ $status = 0 ]; then
  echo "hardening: passed"
else
  echo "hardening: FAILED"
fi
exit $status
