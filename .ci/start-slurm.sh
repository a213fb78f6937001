#!/usr/bin/env bash
# Installs and starts a one-machine Slurm (munge + slurmctld + slurmd) as root; safe to run again when it is up.
set -euo pipefail

HOST="$(hostname -s)"
CONF_DIR=/etc/slurm
CONF="$CONF_DIR/slurm.conf"

if [ "$(id -u)" -ne 0 ]; then
  echo "start-slurm: must run as root (it installs packages and starts daemons)" >&2
  exit 1
fi

# Already up with an idle (or busy) node: nothing to do.
if command -v sinfo >/dev/null 2>&1 && sinfo -h -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then
  echo "start-slurm: Slurm is already running on $HOST"
  exit 0
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  # The package lists may be stale or missing: update only when the install fails, then try once more.
  if ! apt-get install -y --no-install-recommends slurm-wlm munge; then
    apt-get update
    apt-get install -y --no-install-recommends slurm-wlm munge
  fi
fi

# The node advertises at most 2 CPUs and 1000 MB (REFERENCE.md section 8); more than the machine has would drain it.
CPUS="$(nproc)"
[ "$CPUS" -le 2 ] || CPUS=2
mkdir -p "$CONF_DIR"
cat >"$CONF.new" <<EOF
# One-machine Slurm for rl-chatops tests (written by .ci/start-slurm.sh).
ClusterName=rlchatops
SlurmctldHost=${HOST}(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=${HOST} NodeAddr=127.0.0.1 CPUs=${CPUS} RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=${HOST} Default=YES MaxTime=INFINITE State=UP
EOF
mv "$CONF.new" "$CONF"

mkdir -p /run/munge /var/spool/slurmctld /var/log/slurm /var/spool/slurmd
chown munge:munge /run/munge
chown slurm:slurm /var/spool/slurmctld /var/log/slurm

# The package creates a key on install; make one if it is missing (e.g. a minimal image).
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
fi

# A daemon counts as running unless it is only a zombie left by an earlier, killed instance.
running() {
  local pid
  for pid in $(pgrep -x "$1" || true); do
    [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ] || return 0
  done
  return 1
}

running munged || runuser -u munge -- /usr/sbin/munged
running slurmctld || /usr/sbin/slurmctld -i
running slurmd || /usr/sbin/slurmd

# Wait (bounded) for the node; one that went down earlier (e.g. a killed slurmd) is returned to service.
for _ in $(seq 1 100); do
  state="$(sinfo -h -n "$HOST" -o '%T' 2>/dev/null | head -n1 || true)"
  case "$state" in
    idle | mixed | allocated)
      echo "start-slurm: node $HOST is $state"
      exit 0
      ;;
    down* | drain* | fail*)
      scontrol update NodeName="$HOST" State=RESUME >/dev/null 2>&1 || true
      ;;
  esac
  sleep 0.2
done

echo "start-slurm: node $HOST did not become idle within 20 s (last state: ${state:-none})" >&2
tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1
