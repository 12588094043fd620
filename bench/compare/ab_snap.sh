#!/bin/bash
# agent-browser snapshots. Usage: bash ab_snap.sh  (writes out/ab-*.txt)
set -euo pipefail
cd "$(dirname "$0")"
export HOME=$PWD/abhome                         # keep agent-browser's ~/.agent-browser in this directory
export AGENT_BROWSER_SESSION=compare
export AGENT_BROWSER_EXECUTABLE_PATH=/usr/bin/chromium
export AGENT_BROWSER_ARGS=--no-sandbox          # running as root
export AGENT_BROWSER_IDLE_TIMEOUT_MS=600000
mkdir -p "$HOME" out
AB=node_modules/agent-browser/bin/agent-browser-linux-x64
W=${VW:-1280} H=${VH:-713}
python3 -c 'import json;[print(p["name"],p["url"]) for p in json.load(open("pages.json"))]' |
while read -r name url; do
  $AB open "$url" >/dev/null
  $AB set viewport $W $H >/dev/null
  vp=$($AB eval '[innerWidth,innerHeight].join("x")')
  $AB snapshot      > out/ab-default-$name.txt
  $AB snapshot -i   > out/ab-interactive-$name.txt
  $AB snapshot -c   > out/ab-compact-$name.txt
  echo "$name viewport=$vp default=$(wc -c < out/ab-default-$name.txt) -i=$(wc -c < out/ab-interactive-$name.txt) -c=$(wc -c < out/ab-compact-$name.txt)"
done
