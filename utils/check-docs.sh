#!/usr/bin/env bash
# Fails when the committed reference in docs/Generated differs
# from what TableGen generates now. Usage: utils/check-docs.sh <build-dir>
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: check-docs.sh <build-dir>}"
status=0
for f in "$build/docs/"*.md; do
  name="$(basename "$f")"
  if ! diff -u "$src/docs/Generated/$name" "$f"; then
    echo "check-docs: $name is stale"
    status=1
  fi
done
for f in "$src/docs/Generated/"*.md; do
  name="$(basename "$f")"
  if [ ! -f "$build/docs/$name" ]; then
    echo "check-docs: $name is no longer generated"
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "check-docs: run utils/update-docs.sh and commit the result"
fi
exit "$status"
