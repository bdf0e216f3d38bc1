#!/usr/bin/env bash
# Prototype of the Debian rust-web route (docs/board.md §11): download Debian's rustc-web,
# cargo-web and rust-web-src 1.96 as .deb files, unpack them under <repo>/build/rust-web (git-ignored),
# build the no_std staticlib m4kern for thumbv7em-none-eabihf with -Zbuild-std=core (offline, from
# the vendored library sources), link it into a C harness and run it on QEMU mps2-an386.
# Needs root for the apt-get install of the two runtime libraries. Prints timings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/build/rust-web
fw=$here/../firmware
mkdir -p "$out"
t0=$(date +%s.%N)
stamp() { printf '%-28s %6.1f s\n' "$1" "$(echo "$(date +%s.%N) - $t0" | bc)"; }

if ! dpkg -s libllvm22 libgit2-1.5 >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y libllvm22 libgit2-1.5
fi
stamp "runtime libraries"
# the unpacked toolchain (tree/) may be shared with other users of build/rust-web; this
# prototype's own outputs go to build/rust-web/board-proto
cd "$out"
if [ ! -x tree/usr/bin/rustc ]; then
    mkdir -p debs
    (cd debs && apt-get download rustc-web cargo-web rust-web-src libstd-rust-web-dev libstd-rust-web-1.96)
    stamp "download .debs"
    for f in debs/*.deb; do dpkg -x "$f" tree; done
    stamp "unpack"
fi
mine=$out/board-proto
mkdir -p "$mine"
R=$out/tree/usr
export LD_LIBRARY_PATH=$R/lib/x86_64-linux-gnu
"$R/bin/rustc" --version
export CARGO_HOME=$mine/cargo-home CARGO_TARGET_DIR=$mine/target
RUSTC=$R/bin/rustc RUSTDOC=$R/bin/rustdoc RUSTC_BOOTSTRAP=1 \
    "$R/bin/cargo" build --release --offline -Zbuild-std=core --target thumbv7em-none-eabihf \
    --manifest-path "$here/m4kern/Cargo.toml" \
    --config "source.crates-io.replace-with='vendored'" \
    --config "source.vendored.directory='$R/lib/rustlib/src/rust/library/vendor'"
stamp "cargo build (core + crate)"
lib=$mine/target/thumbv7em-none-eabihf/release/libm4kern.a
F="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -ffreestanding -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--no-warn-execstack"
arm-none-eabi-gcc $F -I"$fw" -T "$fw/link.ld" "$fw/board.c" "$fw/platform_common.c" "$here/rustcall.c" "$lib" -lc -lgcc -o "$mine/rustcall.elf"
stamp "link C harness"
set +e
qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 -kernel "$mine/rustcall.elf" </dev/null
rc=$?
set -e
stamp "run on QEMU (exit $rc)"
exit $rc
