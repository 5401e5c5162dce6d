#!/bin/sh
# client-gone.sh DIR: a client process (`sleep`) that ends once the server
# watching it (--clientProcessId) has answered `initialize`, so the server is
# past its start whatever the machine's speed; the server's stdin (a FIFO it
# holds open itself) never ends. Prints the server's exit code, then what it
# said on stderr. Every wait is bounded: a server that keeps running is
# ended by `timeout` and fails the test.
dir=$1
rm -rf "$dir" && mkdir -p "$dir" && mkfifo "$dir/in" || exit 2
sleep 600 &
client=$!
timeout 60 executor-lsp-server --stdio --clientProcessId=$client \
  <> "$dir/in" > "$dir/out" 2> "$dir/err" &
server=$!
init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
printf 'Content-Length: %d\r\n\r\n%s' "${#init}" "$init" > "$dir/in"
tries=0
until grep -q '"id":0' "$dir/out" 2>/dev/null; do
  tries=$((tries + 1))
  if [ $tries -ge 600 ]; then
    echo "no answer to initialize within 60 s"
    break
  fi
  sleep 0.1
done
kill $client
wait $server
echo "exit code: $?"
cat "$dir/err"
