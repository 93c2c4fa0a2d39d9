#!/usr/bin/env bash
# Builds the reference collector's Key-Write query in C (no DPDK) at generate-resources:
#   <target>/native/libdta_qref.so    dta_qref.c, loaded by io.dta.perf.query.CQueryReference
# Usage: build.sh <target-directory>
set -euo pipefail

readonly target=${1:?usage: build.sh <target-directory>}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly src
readonly qlib="$target/native/libdta_qref.so"

command -v gcc >/dev/null 2>&1 || { echo "perf: gcc was not found (apt-get install gcc)" >&2; exit 1; }

mkdir -p "$target/native"
if [[ ! -f "$qlib" || "$src/dta_qref.c" -nt "$qlib" || "$0" -nt "$qlib" ]]; then
    gcc -O3 -g -Wall -Wextra -march=native -fPIC -shared -o "$qlib" "$src/dta_qref.c"
fi
