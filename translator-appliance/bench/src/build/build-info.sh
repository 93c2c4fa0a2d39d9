#!/usr/bin/env bash
# Writes what dta bench --json reports of the build itself: the git commit the jar was built from (with "-dirty" when
# the tree had uncommitted changes), the DPDK version it was built against (pkg-config), and the build time. Run by
# Maven in generate-resources; any of them it cannot learn is written as "unknown", never a failed build.
set -uo pipefail
out_dir=$1
source_dir=$2
mkdir -p "$out_dir"
commit=$(git -C "$source_dir" rev-parse HEAD 2>/dev/null) || commit=unknown
if [[ "$commit" != unknown ]] && [[ -n $(git -C "$source_dir" status --porcelain --untracked-files=no 2>/dev/null) ]]
then
    commit="$commit-dirty"
fi
dpdk=$(pkg-config --modversion libdpdk 2>/dev/null) || dpdk=unknown
printf 'commit=%s\ndpdkVersion=%s\nbuildTime=%s\n' "$commit" "${dpdk:-unknown}" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$out_dir/build-info.properties.tmp"
mv "$out_dir/build-info.properties.tmp" "$out_dir/build-info.properties"
