#!/usr/bin/env bash
# Install the toolchain and emulator for the emulated Cortex-M4 board (see docs/board.md §2).
# Idempotent: does nothing but print versions when the tools are already present.
#   arm-none-eabi-gcc (+ newlib, binutils), qemu-system-arm (QEMU 7.2 on Debian 12, plugin API v1).
# Needs root (or sudo) only when something is missing.
set -euo pipefail

need=()
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need+=(gcc-arm-none-eabi binutils-arm-none-eabi)
# newlib provides -lc (memset/memcpy); check for its libc.a in the hard-float multilib.
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    libc=$(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -print-file-name=libc.a)
    [ -f "$libc" ] || need+=(libnewlib-arm-none-eabi)
else
    need+=(libnewlib-arm-none-eabi)
fi
command -v qemu-system-arm >/dev/null 2>&1 || need+=(qemu-system-arm)
command -v gcc >/dev/null 2>&1 || need+=(gcc)          # host compiler for the TCG plugin
# python3: the fixture generator, and gen_keccak.py, which board/m4kem/tests/keccak_gen.rs runs
# to check that the committed keccak_f1600.S is its output
command -v python3 >/dev/null 2>&1 || need+=(python3)

if [ ${#need[@]} -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    echo "install-board-deps: installing ${need[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${need[@]}"
fi

echo "arm-none-eabi-gcc: $(arm-none-eabi-gcc --version | head -n1)"
echo "multilib (hard-float): $(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 --print-multi-directory)"
echo "qemu-system-arm: $(qemu-system-arm --version | head -n1)"
echo "host gcc: $(gcc --version | head -n1)"
