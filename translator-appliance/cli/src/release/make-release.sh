#!/usr/bin/env bash
# Makes the release archive dta-VERSION-linux-x86_64.tar.gz: the CLI jar, the native DPDK shim, the C reference loop,
# a Java runtime made by jlink from a JDK >= 25 with the modules the jar needs, the launcher, the example
# configuration, the systemd units, man pages (picocli's ManPageGenerator, converted by asciidoctor) and bash
# completion (picocli's AutoComplete). Run by the perf module's package phase (the last module built).
#
# Usage: make-release.sh VERSION OUT_DIR JAR SHIM CREF PICOCLI_CODEGEN_JAR
set -euo pipefail

readonly release_version=$1 jar=$3 shim=$4 cref=$5 codegen=$6
out=$(cd "$2" && pwd)
readonly out
dist=$(cd "$(dirname "${BASH_SOURCE[0]}")/../dist" && pwd)
readonly dist
readonly name="dta-$release_version"
readonly archive="$out/$name-linux-x86_64.tar.gz"
# The modules the product runs with: jdk.httpserver and java.logging for dta stat --serve (the Prometheus HTTP server
# logs through java.util.logging), jdk.unsupported for Agrona, jdk.management for the benchmarks' per-thread CPU time
# and allocation. jdeps -s dta.jar also names java.compiler (Agrona's code generation), java.desktop, java.sql and
# java.xml (Jackson's optional java.beans, java.sql and DOM support), which no command loads: leaving them out saves
# 20 MB (the release test runs the commands on this runtime).
readonly modules=java.base,java.logging,jdk.httpserver,jdk.management,jdk.unsupported

find_jdk() {
    local candidate version
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*/; do
        candidate=${candidate%/}
        [[ -n "$candidate" && -x "$candidate/bin/jlink" ]] || continue
        version=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 |
            awk -F'= ' '/java.specification.version/ {print $2; exit}')
        if [[ -n "$version" && "$version" -ge 25 ]]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

for f in "$jar" "$shim" "$cref" "$codegen"; do
    [[ -f "$f" ]] || { echo "make-release: missing $f" >&2; exit 1; }
done
jdk=$(find_jdk) || { echo "make-release: no JDK >= 25 with jlink (JAVA_HOME, /usr/lib/jvm/*)" >&2; exit 1; }

stage="$out/release"
root="$stage/$name"
rm -rf "$stage"
rm -f "$out"/dta-*-linux-x86_64.tar.gz
mkdir -p "$root"/{bin,lib,etc,lib/systemd/system,share/man/man1,share/bash-completion/completions}

# Not compressed by jlink: gzip compresses the archive better without it (the runtime is 4 MB smaller in the archive),
# jlink runs faster and the JVM starts faster.
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --output "$root/runtime"

cp "$jar" "$root/lib/dta.jar"
cp "$shim" "$cref" "$root/lib/"
cp "$dist/bin/dta" "$root/bin/dta"
chmod 755 "$root/bin/dta"
cp "$dist"/etc/* "$root/etc/"
cp "$dist"/systemd/*.service "$root/lib/systemd/system/"
mkdir -p "$root/share/doc/dta"
cp "$dist/../../../../docs/operations.md" "$root/share/doc/dta/"

# Man pages and completion from the bundled runtime: the runtime proves it runs the jar on the way.
java="$root/runtime/bin/java"
adoc="$stage/adoc"
"$java" -cp "$root/lib/dta.jar:$codegen" picocli.codegen.docgen.manpage.ManPageGenerator -d "$adoc" \
    io.dta.appliance.cli.DtaCommand >/dev/null
if command -v asciidoctor >/dev/null 2>&1; then
    asciidoctor -b manpage -a reproducible -D "$root/share/man/man1" "$adoc"/*.adoc
else
    echo "make-release: warning: asciidoctor is not installed (apt-get install asciidoctor): the man pages are" \
        "shipped as AsciiDoc in share/man/adoc" >&2
    mkdir -p "$root/share/man/adoc"
    cp "$adoc"/*.adoc "$root/share/man/adoc/"
fi
rm -rf "$adoc"
(cd "$root/share/bash-completion/completions" &&
    "$java" -cp "$root/lib/dta.jar" picocli.AutoComplete --force -n dta io.dta.appliance.cli.DtaCommand >/dev/null &&
    mv dta_completion dta)

tar -C "$stage" -czf "$archive" "$name"
echo "make-release: $archive ($(du -k "$archive" | cut -f1) KB)"
