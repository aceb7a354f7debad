#!/usr/bin/env bash
# Regenerates the TableGen reference and copies it into
# docs/Generated. Usage: utils/update-docs.sh [build-dir]
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
cmake --build "$build" --target hidet-doc
mkdir -p "$src/docs/Generated"
rm -f "$src/docs/Generated/"*.md
cp "$build/docs/"*.md "$src/docs/Generated/"
echo "update-docs: refreshed $(ls "$build/docs/"*.md | wc -l) files"
