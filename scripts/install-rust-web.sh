#!/usr/bin/env bash
# Debian's Rust 1.96 toolchain ("rustc-web" route, docs/board.md §11) unpacked into
# <repo>/build/rust-web/ (git-ignored), for `no_std` builds for thumbv7em-none-eabihf with
# `-Zbuild-std=core`. Leaves rustup and any system rustc/cargo untouched.
#
#   scripts/install-rust-web.sh          # idempotent; prints the rustc version
#
# Afterwards (what hqc-verify/board/m4kem/build.sh does):
#   R=<repo>/build/rust-web/tree/usr
#   export LD_LIBRARY_PATH=$R/lib/x86_64-linux-gnu
#   RUSTC=$R/bin/rustc RUSTC_BOOTSTRAP=1 $R/bin/cargo build --release -Zbuild-std=core \
#       --target thumbv7em-none-eabihf
#
# Needs root (or sudo) only when the shared libraries libllvm22 / libgit2-1.5 are missing or
# the apt lists are stale. The .deb files (~115 MB) stay in build/rust-web/debs/, the
# unpacked tree (~730 MB on disk) in build/rust-web/tree/.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
dest=$repo/build/rust-web
tree=$dest/tree
R=$tree/usr
VERSION=1.96.0+dfsg1-1~deb12u2
PKGS=(rustc-web cargo-web rust-web-src libstd-rust-web-dev libstd-rust-web-1.96)
LIBS=(libllvm22 libgit2-1.5)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

# The toolchain is complete when the compiler, cargo, the core sources and the marker exist.
complete() {
    [ -x "$R/bin/rustc" ] && [ -x "$R/bin/cargo" ] &&
        [ -f "$R/lib/rustlib/src/rust/library/core/src/lib.rs" ] &&
        [ -f "$dest/.complete-$VERSION" ]
}

lib_missing() {
    local missing=()
    for p in "${LIBS[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    echo "${missing[@]:-}"
}

lists_refreshed=0
refresh_lists() {
    if [ "$lists_refreshed" = 0 ]; then
        echo "install-rust-web: apt-get update"
        $SUDO apt-get update -qq
        lists_refreshed=1
    fi
}

# The candidate must be the bookworm-security 1.96 build; bookworm main only has 1.85.
candidate() { apt-cache policy rustc-web 2>/dev/null | awk '/Candidate:/ {print $2}'; }

missing_libs=$(lib_missing)
if ! complete || [ -n "$missing_libs" ]; then
    cand=$(candidate)
    if [ "$cand" != "$VERSION" ]; then
        refresh_lists
        cand=$(candidate)
    fi
    if [ "$cand" != "$VERSION" ]; then
        echo "install-rust-web: apt-cache policy rustc-web gives candidate '${cand:-none}', need $VERSION" >&2
        echo "install-rust-web: (it comes from bookworm-security; is that apt source configured?)" >&2
        exit 1
    fi
fi

if [ -n "$missing_libs" ]; then
    echo "install-rust-web: installing $missing_libs"
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing_libs >/dev/null ||
        { refresh_lists; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing_libs >/dev/null; }
fi

if ! complete; then
    mkdir -p "$dest/debs"
    cd "$dest/debs"
    need=()
    for p in "${PKGS[@]}"; do
        ls "${p}_"*.deb >/dev/null 2>&1 || need+=("$p=$VERSION")
    done
    if [ ${#need[@]} -gt 0 ]; then
        echo "install-rust-web: apt-get download ${need[*]}"
        # apt-get download runs as the _apt user when root; make the folder writable for it.
        chmod 0777 "$dest/debs" 2>/dev/null || true
        apt-get download -qq "${need[@]}"
    fi
    rm -rf "$tree"
    for f in "$dest"/debs/*.deb; do
        dpkg -x "$f" "$tree"
    done
    touch "$dest/.complete-$VERSION"
fi

export LD_LIBRARY_PATH=$R/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$R/bin/rustc" -vV | sed -n '1p;/^LLVM version/p'
"$R/bin/cargo" -V
