#!/usr/bin/env bash
# The Slurm job-array recipe of docs/cluster.md on a real one-node Slurm cluster.
#
# Installs Debian's slurm-wlm and munge (apt) if missing, starts munged, slurmctld and slurmd on
# localhost with their own configuration, state and sockets in a temporary directory, submits
# the joint search (`search moduli --objective product`) as a 4-shard job array, then
# `search merge` as a dependent job (--dependency=afterok), and checks that the merged file has
# exactly the bytes of one unsharded run. The daemons it started are stopped by PID on exit.
#
# Usage: scripts/slurm-check.sh            (builds `search` with cargo --release)
#        SEARCH=/path/to/search scripts/slurm-check.sh
# Environment: SLURM_CHECK_ARGS overrides the (small) space searched; SLURM_CHECK_KEEP=1 keeps
# the temporary directory. Needs root (apt-get, daemons). Part of the extended suite.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARDS=4
# a small space (2 orbits x 4 conjugates x all 2^10 offsets, screen only): seconds per shard
read -r -a SPACE <<<"${SLURM_CHECK_ARGS:---m 32 --l 10 --objective product --orbits 2 --conjugates 4 --offset-bits 10 --top 8 --optimise 0}"

say() { echo "slurm-check: $*" >&2; }
die() { say "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (apt-get install, slurmd)"

# --- 1. packages ------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null
fi
slurmctld -V >&2

# --- 2. the search binary ---------------------------------------------------------------------
if [ -z "${SEARCH:-}" ]; then
  say "building search (cargo build --release -p search)"
  (cd "$ROOT" && cargo build --release -q -p search --bin search)
  SEARCH="${CARGO_TARGET_DIR:-$ROOT/target}/release/search"
fi
[ -x "$SEARCH" ] || die "no search binary at $SEARCH"
SEARCH="$(cd "$(dirname "$SEARCH")" && pwd)/$(basename "$SEARCH")"

# --- 3. a private cluster ---------------------------------------------------------------------
T="$(mktemp -d /tmp/slurm-check.XXXXXX)"
chmod 755 "$T"
PIDS=()
cleanup() {
  local rc=$?
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$rc" != 0 ]; then
    for f in "$T"/*.log "$T"/work/*.out; do
      [ -f "$f" ] && { say "--- $f (tail)"; tail -n 20 "$f" >&2; }
    done
  fi
  if [ "${SLURM_CHECK_KEEP:-0}" = 1 ]; then say "kept $T"; else rm -rf "$T"; fi
  exit "$rc"
}
trap cleanup EXIT INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# munge: own key, socket and state
mkdir -p "$T/munge" && chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
MUNGE_SOCK="$T/munge/munge.socket"
munged --force --foreground --key-file="$T/munge/munge.key" --socket="$MUNGE_SOCK" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge/seed" \
  >"$T/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$MUNGE_SOCK" ] && break; sleep 0.1; done
[ -S "$MUNGE_SOCK" ] || die "munged did not start"
munge --socket="$MUNGE_SOCK" -n | unmunge --socket="$MUNGE_SOCK" >/dev/null || die "munge round trip"

HOST="$(hostname -s)"
CPUS="$(nproc)"
CTL_PORT="$(free_port)"
D_PORT="$(free_port)"
mkdir -p "$T/state" "$T/spool" "$T/work"
export SLURM_CONF="$T/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=slurmcheck
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTL_PORT
SlurmdPort=$D_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=check Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
say "cluster in $T (slurmctld port $CTL_PORT, slurmd port $D_PORT, node $HOST, $CPUS CPUs)"
slurmctld -D -i -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$HOST" >"$T/slurmd.out" 2>&1 &
PIDS+=($!)
up=0
for _ in $(seq 120); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then up=1; break; fi
  sleep 0.5
done
[ "$up" = 1 ] || die "node did not come up ($(sinfo -h -o '%T' 2>&1 || true))"
sinfo >&2

# --- 4. the recipe: a job array of shards, then a dependent merge --------------------------------
cd "$T/work"
# joint-shard.sbatch is docs/cluster.md's block after its "joint-shard.sbatch" marker (one source)
awk '/^<!-- joint-shard.sbatch:/ {m=1; next} m && /^```sh$/ {on=1; next} on && /^```$/ {exit} on {print}' \
  "$ROOT/docs/cluster.md" >joint-shard.sbatch
grep -q '^exec "\$SEARCH" moduli' joint-shard.sbatch \
  || die "docs/cluster.md has no joint-shard.sbatch block after its marker"
export SEARCH
ARRAY="$(sbatch --parsable --export=ALL --array=0-$((SHARDS - 1)) joint-shard.sbatch "$SHARDS" "${SPACE[@]}")"
MERGE="$(sbatch --parsable --export=ALL --dependency=afterok:"$ARRAY" --job-name=joint-merge \
  --output=merge.out --wrap '"$SEARCH" merge part-*.json --out joint.json')"
say "submitted array $ARRAY (${SHARDS} shards) and merge $MERGE (afterok:$ARRAY)"

# meanwhile, the unsharded reference run outside Slurm
"$SEARCH" moduli "${SPACE[@]}" --threads 1 --out "$T/unsharded.json" 2>"$T/unsharded.log"

for _ in $(seq 1200); do
  [ -z "$(squeue -h -j "$ARRAY,$MERGE" 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$ARRAY,$MERGE" 2>/dev/null)" ] || die "jobs still queued after 10 min"
state="$(scontrol show job "$MERGE" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || echo 'JobState=?')"
[ "$state" = "JobState=COMPLETED" ] || die "merge job $MERGE: $state"
for i in $(seq 0 $((SHARDS - 1))); do
  [ -f "part-$i.json" ] || die "shard $i wrote no part-$i.json"
  grep -q "\"index\": $i" "part-$i.json" || die "part-$i.json is not shard $i"
done
[ -f joint.json ] || die "the merge job wrote no joint.json"
cmp joint.json "$T/unsharded.json" || die "merged bytes differ from the unsharded run"
say "OK: $SHARDS Slurm shards + dependent merge == one unsharded run ($(wc -c <joint.json) bytes, sha256 $(sha256sum joint.json | cut -c1-16))"
