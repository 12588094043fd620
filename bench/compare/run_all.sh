#!/bin/bash
# Snapshot compactness against Playwright and agent-browser on the demo site
# and the Go spec page. From the repository root:
#   (cd bench/compare && npm ci) && bash bench/compare/run_all.sh
# Needs Go, node, /usr/bin/chromium and python3; writes results.md and
# results.csv here (playwright-core@1.65.1 agent-browser@0.27.0 gpt-tokenizer@4.0.0).
set -euo pipefail
cd "$(dirname "$0")"
root=$(git rev-parse --show-toplevel)
mkdir -p out state
export CDP_SKILL_STATE_DIR=$PWD/state
(cd "$root" && CGO_ENABLED=0 go build -ldflags='-s -w' -o "$OLDPWD/cdp-skill" ./cmd/cdp-skill)
started=()
if ! curl -sf -o /dev/null http://127.0.0.1:8099/login.html; then
  ./cdp-skill demo --serve --addr 127.0.0.1:8099 > demo.log 2>&1 & started+=($!)
fi
if ! curl -sf -o /dev/null http://127.0.0.1:8098/go_spec.html; then
  python3 -m http.server 8098 --bind 127.0.0.1 --directory "$(go env GOROOT)/doc" > spec.log 2>&1 & started+=($!)
fi
sleep 1
python3 cdp_snap.py          # cdp-skill (its Chrome on port 9444, viewport 1280x713)
node pw.mjs                  # Playwright, viewport set to 1280x713
bash ab_snap.sh              # agent-browser, viewport set to 1280x713
./cdp-skill --port 9444 chrome stop
HOME=$PWD/abhome AGENT_BROWSER_SESSION=compare node_modules/agent-browser/bin/agent-browser-linux-x64 close
node measure.mjs             # -> results.md, results.csv
python3 check_refs.py | tee refcheck.txt
for pid in "${started[@]}"; do kill "$pid"; done
