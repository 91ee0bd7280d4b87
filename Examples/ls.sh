#!/usr/bin/env bash
# A walk through `ubq ls` against the default container. Start ubqd first (`make run` in
# another terminal), then run this from the repository: `Examples/ls.sh`.
# It works in a folder of its own inside the container and removes it at the end.
set -euo pipefail
UBQ=${UBQ:-.build/debug/ubq}
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

documents=$("$UBQ" containers --json | python3 -c 'import json,sys; print([c for c in json.load(sys.stdin) if c["id"]=="iCloud.org.ubiquity.Default"][0]["documents"])')
demo="$documents/ls-walkthrough"
trap 'rm -rf "$demo"' EXIT
mkdir -p "$demo/Notes"
printf 'Groceries: milk, eggs, café au lait\n' > "$demo/Notes/groceries.txt"
printf '# Meeting\nBudget review on Friday\n' > "$demo/Notes/Meeting.md"
printf '{"theme": "dark"}\n' > "$demo/settings.json"
head -c 20000 /dev/urandom > "$demo/photo.bin"

step "$UBQ" containers
step "$UBQ" ls 'kMDItemPath CONTAINS "ls-walkthrough"'
step "$UBQ" ls 'kMDItemFSName ENDSWITH[c] ".MD" OR kMDItemFSName ENDSWITH ".txt"' --attrs kMDItemFSName,kMDItemContentType
step "$UBQ" ls 'kMDItemFSName == "*.json"cd' --json
step "$UBQ" ls 'kMDItemTextContent CONTAINS "cafe"' --attrs kMDItemPath
step "$UBQ" ls 'kMDItemContentTypeTree == "public.text" AND kMDItemPath CONTAINS "ls-walkthrough"' --sort=-kMDItemFSSize --attrs kMDItemFSName,kMDItemFSSize
step "$UBQ" ls --explain 'kMDItemFSName BEGINSWITH[cd] "gro" AND kMDItemFSSize > 10'
step "$UBQ" mdls "$demo/Notes/groceries.txt"
echo
echo "Now edit a file in $demo with any editor and run: $UBQ ls 'kMDItemPath CONTAINS \"ls-walkthrough\"'"
