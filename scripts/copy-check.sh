#!/usr/bin/env bash
# The repository stands on its own (docs/kat.md): copy it into a fresh temporary folder none of
# whose ancestors holds a folder named `shared` (where an outside reference library might sit),
# unset HQC_KAT_DIR, and run there
#   1. the host KAT check: `hqc-verify kat --level 1 --count 10` (both flavours), which must say
#      it was checked against the committed per-entry pins and match;
#   2. one board run: `hqc-verify board --params results/export/hqc1-lightest/params.json
#      --count 2` (QEMU), judged by the same pins.
# The copy holds the working tree as a clone would get it once committed: the files git tracks and
# the untracked ones it does not ignore, with their contents and modification times (so cargo's
# mtime-based freshness stays right for the shared target folder). On a clean checkout (CI) that is
# exactly a clone. The build folders are reused so little is recompiled: cargo's target folder
# ($CARGO_TARGET_DIR, default <repo>/target), and from the board build folder <repo>/build the
# rustc-web toolchain and the m4kem cargo folders (symlinked into the copy's build/). The
# temporary folder is removed on exit.
#
#   scripts/copy-check.sh [--host-only]
#
# Environment: COPY_CHECK_TMP (parent of the temporary folder, default /tmp),
# BOARD_PARAMS (default results/export/hqc1-lightest/params.json), BOARD_COUNT (default 2).
# Exit status 0 only if every check passed; 1 if a check failed; 2 on bad usage.
set -euo pipefail

host_only=0
case "${1:-}" in
    '') ;;
    --host-only) host_only=1 ;;
    *) echo "usage: $0 [--host-only]" >&2; exit 2 ;;
esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
parent=${COPY_CHECK_TMP:-/tmp}
params=${BOARD_PARAMS:-results/export/hqc1-lightest/params.json}
count=${BOARD_COUNT:-2}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$repo/target}
export CARGO_TERM_COLOR=never
unset HQC_KAT_DIR

fail() { echo "copy-check: FAIL: $*" >&2; exit 1; }
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }

[ -d "$parent" ] || { echo "copy-check: $parent is not a folder" >&2; exit 2; }
copy=$(mktemp -d "$parent/fafft-copy.XXXXXX")
cleanup() { rm -rf -- "$copy"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The premise: no ancestor of the copy holds a folder named `shared`.
d=$copy
while :; do
    [ -e "$d/shared" ] && fail "a folder named shared exists in $d, above the copy; set COPY_CHECK_TMP to another folder"
    [ "$d" = / ] && break
    d=$(dirname "$d")
done

echo "copy-check: copying $repo to $copy"
# Tracked and untracked, not ignored files that exist (a deletion not yet committed is skipped).
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -cf -) | tar -xf - -C "$copy"
[ -f "$copy/Cargo.toml" ] || fail "the copy has no Cargo.toml"
# The board build folder: the copy gets its own build/ (removed with it, so the per-run firmware
# folders, named after the copy's path, do not pile up), with the expensive parts linked from the
# repository's: Debian's rustc-web tree and the cargo folders of the m4kem staticlib.
[ -e "$copy/build" ] && fail "build/ is tracked; it should be git-ignored"
mkdir -p "$copy/build/m4kem" "$repo/build/m4kem/target-portable" "$repo/build/m4kem/target-c-fafft"
[ -d "$repo/build/rust-web" ] && ln -s "$repo/build/rust-web" "$copy/build/rust-web"
for t in "$repo"/build/m4kem/target-*; do ln -s "$t" "$copy/build/m4kem/$(basename "$t")"; done
echo "copy-check: $(cd "$copy" && find . -path ./build -prune -o -type f -print | wc -l) files copied ($(elapsed))"

cd "$copy"
echo "copy-check: cargo build -p hqc-board (target folder $CARGO_TARGET_DIR)"
cargo build --quiet -p hqc-board --bin hqc-verify || fail "hqc-verify does not build in the copy"
bin=$CARGO_TARGET_DIR/debug/hqc-verify

echo "copy-check: host KAT check, HQC-1, entries 0..9, both flavours ($(elapsed))"
set +e
"$bin" kat --level 1 --count 10 --flavour all >"$copy/kat.out" 2>"$copy/kat.err"
rc=$?
set -e
cat "$copy/kat.err" "$copy/kat.out"
[ "$rc" = 0 ] || fail "hqc-verify kat exited $rc in the copy"
grep -q "checked against committed per-entry pins" "$copy/kat.err" \
    || fail "hqc-verify kat did not say it was checked against the committed pins"
grep -q "^2/2 level/flavour combinations match" "$copy/kat.out" \
    || fail "hqc-verify kat did not report 2/2 matches"

if [ "$host_only" = 1 ]; then
    echo "copy-check: host part passed; board run skipped (--host-only) ($(elapsed))"
    exit 0
fi

[ -f "$params" ] || fail "$params is not in the copy (is it tracked?)"
echo "copy-check: board run: hqc-verify board --params $params --count $count ($(elapsed))"
set +e
"$bin" board --params "$params" --count "$count" >"$copy/board.out" 2>"$copy/board.err"
rc=$?
set -e
cat "$copy/board.err" "$copy/board.out"
[ "$rc" = 0 ] || fail "hqc-verify board exited $rc in the copy"
echo "copy-check: passed: host KAT check and one board run from a copy with no outside folder ($(elapsed))"
