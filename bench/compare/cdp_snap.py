#!/usr/bin/env python3
"""cdp-skill snapshots. Usage: python3 cdp_snap.py  (writes out/cdp-*.txt)
Env: CDP_SKILL_STATE_DIR=./state, Chrome on port 9444."""
import json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("CDP_SKILL_STATE_DIR", os.path.join(HERE, "state"))
BIN, PORT = os.path.join(HERE, "cdp-skill"), "9444"
BIG = 10_000_000
VARIANTS = {                      # name -> snapshot params
    "default":        {"inlineLimit": BIG},                                   # auto-scoped to <main>
    "body":           {"root": "body", "inlineLimit": BIG},                   # full page
    "viewport":       {"viewportOnly": True, "inlineLimit": BIG},             # viewport, auto-scoped
    "viewport-body":  {"viewportOnly": True, "root": "body", "inlineLimit": BIG},
    "interactive-body": {"detail": "interactive", "root": "body", "inlineLimit": BIG},  # extra
}
def run(cmd):
    r = subprocess.run([BIN, "--port", PORT, json.dumps(cmd)], capture_output=True, text=True)
    d = json.loads(r.stdout)
    if d.get("status") != "ok":
        sys.exit(f"cdp-skill failed: {r.stdout}\n{r.stderr}")
    return d
pages = json.load(open(os.path.join(HERE, "pages.json")))
for p in pages:
    for name, params in VARIANTS.items():
        # fresh tab per snapshot so every snapshot id is s1 (refs s1eN), like Playwright's e1.. per page
        d = run({"steps": [{"openTab": p["url"]}, {"snapshot": params}]})
        tab, vp, out = d["tab"], d["context"]["viewport"], d["steps"][1]["output"]
        y = out["yaml"]
        extra = {k: v for k, v in out.items() if k != "yaml"}
        open(os.path.join(HERE, "out", f"cdp-{name}-{p['name']}.txt"), "w").write(y)
        print(p["name"], name, f"{vp['width']}x{vp['height']}", len(y.encode()), extra, flush=True)
        run({"steps": [{"closeTab": tab}]})
