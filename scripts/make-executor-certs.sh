#!/usr/bin/env bash
# make-executor-certs.sh DIR NAME...
# Makes a private CA (DIR/ca.pem, DIR/ca.key) and a certificate for an
# executor-server (DIR/server.pem, DIR/server.key) that names every NAME (IP
# addresses and DNS names: what clients connect to), with `openssl req`.
# Clients trust DIR/ca.pem (EXECUTOR_TLS_CA); the keys are made private.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 DIR NAME..." >&2; exit 2; }
dir=$1; shift
mkdir -p "$dir"
umask 077
san=""
for name in "$@"; do
  if [[ $name =~ ^[0-9.]+$ || $name == *:* ]]; then entry="IP:$name"; else entry="DNS:$name"; fi
  san=${san:+$san,}$entry
done
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -days 825 -subj "/CN=executor-studio private CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" \
  -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -days 825 -subj "/CN=$1" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
  -addext "subjectAltName=$san" -addext "basicConstraints=critical,CA:FALSE" \
  -addext "extendedKeyUsage=serverAuth" \
  -keyout "$dir/server.key" -out "$dir/server.pem" 2>/dev/null
chmod 644 "$dir/ca.pem" "$dir/server.pem"
echo "$dir/ca.pem $dir/server.pem $dir/server.key"
