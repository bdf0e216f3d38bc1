#!/usr/bin/env bash
# Build the m4kem firmware for QEMU mps2-an386 (Cortex-M4F, 640 KiB RAM cap).
#
#   build.sh [portable|c-fafft]     # default: portable
#
# 1. the Rust staticlib (this crate) with Debian's rustc-web 1.96 and -Zbuild-std=core
#    (scripts/install-rust-web.sh is run first when the toolchain is missing);
# 2. harness.c + the firmware's startup/semihosting layer (../firmware/board.c,
#    platform_common.c, link.ld) linked with arm-none-eabi-gcc;
#    with c-fafft also fafft_shim.c and the C FAFFT+CRT multiplier object built by
#    ../firmware/Makefile (target $(BUILD)/fafft.o) for the headers in PARAMS_DIR (default
#    <repo>/results/export/hqc1-joint, a committed `search export`), into <repo>/build/m4kem/fafft-<tag>/. The C object serves
#    the one ring degree of its PARAMS_DIR (HQC_N): an HQC-3 or HQC-5 directory (e.g. from
#    `search export`) gives an ELF for that level.
#
# Environment: HARNESS=kat|ct (ct: ct_driver.c, the constant-time trace driver, ELF *-ct.elf).
# Environment (c-fafft): PARAMS_DIR, BUILD_TAG (default: the PARAMS_DIR folder name; names
# the object folder and the ELF), XOR=asm|export (see ../firmware/Makefile).
# Outputs in <repo>/build/m4kem/ (git-ignored): m4kem.elf; m4kem-c-fafft.elf for the default
# PARAMS_DIR, m4kem-c-fafft-<tag>.elf when PARAMS_DIR or BUILD_TAG is set; .map beside.
# The last line printed is the ELF path.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
fw=$here/../firmware
out=$repo/build/m4kem
mul=${1:-portable}
R=$repo/build/rust-web/tree/usr

case "$mul" in
    portable) features=(); elf=$out/m4kem.elf ;;
    c-fafft)  features=(--features c-fafft); elf=$out/m4kem-c-fafft.elf ;;
    *) echo "usage: $0 [portable|c-fafft]" >&2; exit 2 ;;
esac

if [ ! -x "$R/bin/cargo" ] || [ ! -x "$R/bin/rustc" ]; then
    "$repo/scripts/install-rust-web.sh" >&2
fi
for t in arm-none-eabi-gcc arm-none-eabi-size; do
    command -v "$t" >/dev/null || { echo "build.sh: $t missing (scripts/install-board-deps.sh)" >&2; exit 1; }
done

export LD_LIBRARY_PATH=$R/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
target=thumbv7em-none-eabihf
tdir=$out/target-$mul
# FEATURES=eea,profile,cache (any of them, comma separated): extra cargo features of m4kem; they get
# their own target folder and an ELF name suffix (-eea, -profile, -eea-profile).
fsfx=
if [ -n "${FEATURES:-}" ]; then
    case "$FEATURES" in *[!a-z,-]*|,*|*,) echo "build.sh: bad FEATURES '$FEATURES'" >&2; exit 2 ;; esac
    features+=(--features "$FEATURES")
    fsfx=-${FEATURES//,/-}
    tdir=$tdir$fsfx
fi
# EXPAND=asm|rust (default asm): support expansion by support_expand.S (feature asm-expand) or
# by the core's portable Rust (the old path; own target folder, ELF name + -rustexp).
case "${EXPAND:-asm}" in
    asm) features+=(--features asm-expand); xsfx= ;;
    rust) xsfx=-rustexp ;;
    *) echo "build.sh: EXPAND must be asm or rust" >&2; exit 2 ;;
esac
tdir=$tdir$xsfx
mkdir -p "$out"
(
    cd "$here"
    CARGO_TARGET_DIR=$tdir RUSTC=$R/bin/rustc RUSTDOC=$R/bin/rustdoc RUSTC_BOOTSTRAP=1 \
        "$R/bin/cargo" build --quiet --release -Zbuild-std=core --target $target "${features[@]}"
) >&2
lib=$tdir/$target/release/libm4kem.a

ARCH="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
CFLAGS="$ARCH -O2 -std=c11 -Wall -Wextra -ffreestanding -ffunction-sections -fdata-sections -I$fw -I$here"
LDFLAGS="$ARCH -nostdlib -nostartfiles -T $fw/link.ld -Wl,--gc-sections -Wl,--no-warn-execstack"
srcs=("$here/harness.c" "$fw/board.c" "$fw/platform_common.c" "$here/support_expand.S" "$here/keccak_f1600.S" "$here/mem_m4.S")
# FEATURES with cache: harness.c's cache=1 mode and 4 C transform slots (fafft_shim.c)
case ",${FEATURES:-}," in
    *,cache,*) CFLAGS="$CFLAGS -DM4KEM_CACHE -DFAFFT_SLOTS=4" ;;
    *) CFLAGS="$CFLAGS -DFAFFT_SLOTS=2" ;;
esac
if [ "$mul" = c-fafft ]; then
    # The multiplier object comes from the firmware's Makefile (its target $(BUILD)/fafft.o, which
    # also generates the headers it needs under $(BUILD)/gen), built into our own folder.
    params=$(cd "${PARAMS_DIR:-$repo/results/export/hqc1-joint}" && pwd)
    tag=${BUILD_TAG:-$(basename "$params")}
    case "$tag" in ''|*/*|*' '*) echo "build.sh: bad BUILD_TAG '$tag'" >&2; exit 2 ;; esac
    fbuild=$out/fafft-$tag
    if [ -n "${PARAMS_DIR:-}${BUILD_TAG:-}" ]; then elf=$out/m4kem-c-fafft-$tag.elf; fi
    command -v make >/dev/null || { echo "build.sh: make missing" >&2; exit 1; }
    if ! make -s -C "$fw" PARAMS_DIR="$params" BUILD="$fbuild" "$fbuild/fafft.o" >&2; then
        echo "build.sh: could not build the C multiplier with ../firmware/Makefile (target \$(BUILD)/fafft.o)" >&2
        exit 1
    fi
    CFLAGS="$CFLAGS -I$fw/fafft -I$params -I$fbuild/gen"
    srcs+=("$here/fafft_shim.c" "$fbuild/fafft.o")
fi
elf=${elf%.elf}$fsfx.elf
# HARNESS=ct: the constant-time trace driver ct_driver.c instead of harness.c, ELF name + -ct
case "${HARNESS:-kat}" in
    kat) ;;
    ct) srcs[0]=$here/ct_driver.c; elf=${elf%.elf}-ct.elf ;;
    *) echo "build.sh: HARNESS must be kat or ct" >&2; exit 2 ;;
esac
elf=${elf%.elf}$xsfx.elf
# shellcheck disable=SC2086
arm-none-eabi-gcc $CFLAGS $LDFLAGS -Wl,-Map="${elf%.elf}.map" "${srcs[@]}" "$lib" -lc -lgcc -o "$elf" >&2
arm-none-eabi-size "$elf" | tail -n 1 >&2
echo "$elf"
