#!/usr/bin/env bash
# Opt-in check of the Slurm path on a real single-node Slurm (docs/sweeps.md):
# installs Debian's slurm-wlm and munge when missing, configures this host as the only
# node, starts munged, slurmctld and slurmd, submits the job array that
# 'warpreg sweep --slurm' writes for .ci/slurm-sweep.json, waits for it, and checks that
# every point finished and that results.csv has one row per point.
# Needs root (it writes /etc/slurm/slurm.conf and starts daemons) and a built binary.
#
#   bash .ci/slurm-local.sh [BUILD_DIR]     # default build/
#   KEEP_SLURM=1 bash .ci/slurm-local.sh    # leave the daemons running afterwards
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
warpreg="$(pwd)/$build/warpreg"
[ -x "$warpreg" ] || { echo "slurm-local: no $warpreg; build first" >&2; exit 2; }

packages=(slurm-wlm munge parallel)
if ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

host="$(hostname -s)"
cpus="$(nproc)"
memory_mb="$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)"
state=/var/lib/warpreg-slurm
mkdir -p /etc/slurm "$state/ctld" "$state/d" /var/log/slurm /run/munge
chown munge: /run/munge

# One node, one partition; no accounting and no systemd (containers have none).
cat >/etc/slurm/slurm.conf <<EOF
# Written by warpreg .ci/slurm-local.sh: this host as a one-node cluster.
ClusterName=warpreg-local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=1001
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

started=()
stop_daemons() {
  if [ "${KEEP_SLURM:-0}" = 1 ]; then return; fi
  for pidfile in "${started[@]}"; do
    if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
  done
}
trap stop_daemons EXIT

if ! munge -n </dev/null >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged
  started+=(/run/munge/munged.pid)
fi
if ! scontrol ping >/dev/null 2>&1; then
  /usr/sbin/slurmctld
  started+=("$state/slurmctld.pid")
fi
if [ ! -f "$state/slurmd.pid" ] || ! kill -0 "$(cat "$state/slurmd.pid")" 2>/dev/null; then
  /usr/sbin/slurmd
  started+=("$state/slurmd.pid")
fi

for _ in $(seq 1 30); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE 'idle|mix|alloc'; then break; fi
  sleep 1
done
sinfo

out="$(pwd)/out/slurm-local"
rm -rf "$out"
"$warpreg" sweep .ci/slurm-sweep.json --out "$out" --slurm --slurm-max-array 3 \
  --slurm-time 0:10:00
echo "== sbatch --wait $out/sweep.sbatch"
SECONDS=0
sbatch --wait "$out/sweep.sbatch"
echo "== job array finished after ${SECONDS}s"
ls "$out/slurm"

points="$(($(wc -l <"$out/manifest.tsv") - 1))"
done_points="$(find "$out/points" -name 'done' | wc -l)"
"$warpreg" collect "$out"
rows="$(($(wc -l <"$out/results.csv") - 1))"
echo "slurm-local: $done_points of $points points finished; results.csv has $rows rows"
[ "$done_points" -eq "$points" ] && [ "$rows" -eq "$points" ]
echo "slurm-local: OK"
