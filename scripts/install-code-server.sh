#!/usr/bin/env bash
# Installs a real VS Code (code-server, with the Node 24 it needs) for the end-to-end test, cached outside
# the repository so that later runs skip it. Prints the cache directory.
set -euo pipefail
VERSION=4.139.1
CACHE="${BUFFERLENS_CACHE:-$HOME/.cache/bufferlens}/code-server-$VERSION"
ENTRY="$CACHE/code-server/node_modules/code-server/out/node/entry.js"
NODE="$CACHE/node24/node_modules/.bin/node"
if [ -f "$ENTRY" ] && [ -x "$NODE" ]; then
  echo "$CACHE"
  exit 0
fi
mkdir -p "$CACHE"
[ -x "$NODE" ] || npm install --no-audit --no-fund --prefix "$CACHE/node24" node@24 >&2
# A failed earlier attempt can leave a broken link behind.
rm -f "$CACHE/code-server/node_modules/.bin/cross-env"
PATH="$CACHE/node24/node_modules/.bin:$PATH" npm install --no-audit --no-fund --prefix "$CACHE/code-server" "code-server@$VERSION" >&2
[ -f "$ENTRY" ] || { echo "code-server did not install" >&2; exit 1; }
echo "$CACHE"
