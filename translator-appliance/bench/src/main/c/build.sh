#!/usr/bin/env bash
# Builds the C reference loop of `dta bench --io dpdk --compare-c` against the installed DPDK and zlib (run by
# Maven at generate-resources):
#   <target>/native/libdta_cref.so    dta_cref.c, loaded by io.dta.appliance.bench.CReference through FFM
# Usage: build.sh <target-directory>
set -euo pipefail

readonly target=${1:?usage: build.sh <target-directory>}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly src
readonly lib="$target/native/libdta_cref.so"

missing() {
    cat >&2 <<MSG
translator-bench: $1
  The C reference loop needs gcc, pkg-config, the DPDK 22.11 development files and zlib:
    apt-get install dpdk libdpdk-dev pkg-config gcc zlib1g-dev
MSG
    exit 1
}

command -v gcc >/dev/null 2>&1 || missing "gcc was not found."
command -v pkg-config >/dev/null 2>&1 || missing "pkg-config was not found."
pkg-config --exists libdpdk || missing "pkg-config does not know libdpdk (libdpdk-dev is not installed)."
[[ -f /usr/include/zlib.h ]] || pkg-config --exists zlib || missing "zlib.h was not found (zlib1g-dev)."

mkdir -p "$target/native"
if [[ ! -f "$lib" || "$src/dta_cref.c" -nt "$lib" || "$0" -nt "$lib" ]]; then
    # -march=native after pkg-config's -march=corei7: the reference may use everything this CPU has, as the JIT does.
    # shellcheck disable=SC2086
    gcc -O3 -g -Wall -Wextra -DALLOW_EXPERIMENTAL_API -fPIC -shared -Wl,--as-needed -o "$lib" "$src/dta_cref.c" \
        $(pkg-config --cflags libdpdk) -march=native $(pkg-config --libs libdpdk) -lz
fi
