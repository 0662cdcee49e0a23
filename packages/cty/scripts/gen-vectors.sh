#!/usr/bin/env bash
# Rebuilds packages/cty/testdata/go-cty-vectors.json from go-cty itself.
# Needs the Debian packages golang-go, golang-github-zclconf-go-cty-dev and
# golang-gopkg-vmihailenco-msgpack.v2-dev; works offline (GOPATH mode).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pkg="$(dirname "$here")"
gen="$pkg/testdata/gen"
out="$pkg/testdata/go-cty-vectors.json"

debver() {
  # Upstream version of a Debian package, without the Debian revision.
  dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed -e 's/^[0-9]*://' -e 's/-[^-]*$//'
}
cty_version="$(debver golang-github-zclconf-go-cty-dev || true)"
msgpack_version="$(debver golang-gopkg-vmihailenco-msgpack.v2-dev || true)"
if [ -z "$cty_version" ]; then
  echo "gen-vectors: golang-github-zclconf-go-cty-dev is not installed" >&2
  exit 1
fi

export GO111MODULE=off GOFLAGS= GOPATH=/usr/share/gocode
# The build cache must be writable; fall back to a private temp dir.
if ! mkdir -p "$(go env GOCACHE)" 2>/dev/null || [ ! -w "$(go env GOCACHE)" ]; then
  GOCACHE="$(mktemp -d)"; export GOCACHE
  trap 'rm -rf "$GOCACHE"' EXIT
fi

cd "$gen"
go vet .
tmp="$(mktemp "$out.XXXXXX")"
go run . -cty-version "$cty_version" -msgpack-version "${msgpack_version:-unknown}" -o "$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
echo "gen-vectors: wrote $out" >&2
