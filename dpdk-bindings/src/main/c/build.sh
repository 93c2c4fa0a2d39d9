#!/usr/bin/env bash
# Builds the native half of dpdk-bindings against the installed DPDK (run by Maven at generate-sources):
#   <target>/native/libdta_shim.so                                  the static-inline fast path (dta_shim.c)
#   <target>/generated-sources/dpdk/io/dta/dpdk/ffi/DpdkLayout.java  struct offsets and constants (layout_probe.c)
# Usage: build.sh <target-directory>
set -euo pipefail

readonly target=${1:?usage: build.sh <target-directory>}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly src
readonly shim="$target/native/libdta_shim.so"
readonly probe="$target/native/layout_probe"
readonly layout="$target/generated-sources/dpdk/io/dta/dpdk/ffi/DpdkLayout.java"

missing() {
    cat >&2 <<MSG
dpdk-bindings: $1
  The DPDK 22.11 development files, pkg-config and gcc are needed to build the C shim and the layout probe:
    apt-get install dpdk libdpdk-dev pkg-config gcc
MSG
    exit 1
}

command -v gcc >/dev/null 2>&1 || missing "gcc was not found."
command -v pkg-config >/dev/null 2>&1 || missing "pkg-config was not found."
pkg-config --exists libdpdk || missing "pkg-config does not know libdpdk (libdpdk-dev is not installed)."

mkdir -p "$target/native" "$(dirname "$layout")"
cflags=$(pkg-config --cflags libdpdk)
libs=$(pkg-config --libs libdpdk)

# Rebuild only what is older than its source, so an unchanged module costs nothing.
if [[ ! -f "$shim" || "$src/dta_shim.c" -nt "$shim" || "$0" -nt "$shim" ]]; then
    # --as-needed: pkg-config --libs libdpdk names every rte library; keep only those the shim uses, and
    # librte_net_ring, whose rte_eth_from_ring Java binds directly (found through the shim's own lookup).
    # shellcheck disable=SC2086
    gcc -O3 -g -Wall -Wextra -fPIC -shared -o "$shim" "$src/dta_shim.c" $cflags \
        -Wl,--no-as-needed -lrte_net_ring -Wl,--as-needed $libs
fi
if [[ ! -f "$layout" || "$src/layout_probe.c" -nt "$layout" || "$0" -nt "$layout" ]]; then
    # shellcheck disable=SC2086
    gcc -O0 -Wall -Wextra -o "$probe" "$src/layout_probe.c" $cflags $libs
    "$probe" > "$layout.tmp"
    mv "$layout.tmp" "$layout"
fi
