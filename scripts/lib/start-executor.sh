# Sourced by the scripts and tests that start an executor-server of their own.
#
# start_executor SERVER OUT LOG [ARGS...]
#   Starts SERVER --bind 127.0.0.1:0 ARGS in the background (its standard
#   output in OUT, its log in LOG) and waits up to 10 s for its "listening on"
#   line. Sets executor_pid and executor_address (host:port); returns 1, with
#   the log on standard error, when the server did not start.
start_executor() {
  local server=$1 out=$2 log=$3
  shift 3
  "$server" --bind 127.0.0.1:0 "$@" >"$out" 2>"$log" &
  executor_pid=$!
  for _ in $(seq 200); do
    grep -q "^listening on" "$out" 2>/dev/null && break
    kill -0 "$executor_pid" 2>/dev/null || break
    sleep 0.05
  done
  executor_address=$(sed -n 's/^listening on //p' "$out" | head -n 1)
  if [ -z "$executor_address" ]; then
    echo "executor-server did not start:" >&2
    cat "$log" >&2
    return 1
  fi
}
