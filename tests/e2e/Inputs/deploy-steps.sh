#!/usr/bin/env bash
# deploy-steps.sh PROGRAM -- inside with-sshd (Host `lab`, REMOTE_CACHE):
# runs PROGRAM (compiled for ADDR:PORT) on ssh://lab before and after
# executor-deploy, deploys twice, damages the copy and deploys again. Each
# step prints "== NAME", what it said, and "exit CODE".
set -u
prog=$1
step() {
  local name=$1
  shift
  echo "== $name"
  "$@" 2>&1
  echo "exit $?"
}
export EXECUTOR_ADDRESS_MAP="ADDR:PORT=ssh://lab"
step run-before "$prog"
step deploy executor-deploy ssh://lab
step deploy-again executor-deploy ssh://lab
step run "$prog"
# (the remote executor-server's log, which comes on standard error)
echo "== run-log"
"$prog" 2>&1 >/dev/null
copy=$(find "$REMOTE_CACHE/executor-studio" -name executor-server -type f)
echo "== copies"
echo "$copy" | sed "s|$REMOTE_CACHE|REMOTE_CACHE|"
printf 'X' | dd of="$copy" bs=1 seek=4096 conv=notrunc status=none
step run-damaged "$prog"
step deploy-damaged executor-deploy ssh://lab
step run-repaired "$prog"
