#!/usr/bin/env python3
"""For each page: every interactive element (role + name) in Playwright's
locator('body').ariaSnapshot() must appear with a [ref=...] in cdp-skill's
full-page (root body) snapshot. Usage: python3 check_refs.py"""
import json, re, os
from collections import Counter
os.chdir(os.path.dirname(os.path.abspath(__file__)))
ROLES = ("link button textbox searchbox spinbutton checkbox radio combobox listbox "
         "slider switch menuitem menuitemcheckbox menuitemradio tab").split()
ROLE_RE = "|".join(sorted(ROLES, key=len, reverse=True))
Q = r'"((?:[^"\\]|\\.)*)"'
# Playwright: one node per line: "- role" or '- role "name"' then attrs / ':' / EOL
PW = re.compile(r'^\s*- (%s)(?: %s)?(?=[\s:\[]|$)' % (ROLE_RE, Q))
# cdp-skill: nodes may be inline (listitem: link "x" [ref=..]); capture role, name, bracket attrs
CDP = re.compile(r'(?:^|[\s:|])(%s)(?: %s)?((?: \[[^\]]*\])*)' % (ROLE_RE, Q))
def unq(s): return None if s is None else json.loads('"%s"' % s)
def pw_items(text):
    return [(m.group(1), unq(m.group(2)) or "") for l in text.splitlines() if (m := PW.match(l))]
def cdp_items(text):
    out = []
    for l in text.splitlines():
        for m in CDP.finditer(l):
            out.append((m.group(1), unq(m.group(2)) or "", "[ref=" in m.group(3)))
    return out
def same(pw_name, cdp_name):
    if cdp_name.endswith("…"):                     # cdp-skill truncates names > 100 chars
        return pw_name.startswith(cdp_name[:-1])
    return pw_name == cdp_name
total_missing = 0
for p in json.load(open("pages.json")):
    pw = pw_items(open(f"out/pw-body-{p['name']}.txt").read())
    cdp = cdp_items(open(f"out/cdp-body-{p['name']}.txt").read())
    with_ref = [(r, n) for r, n, ref in cdp if ref]
    without_ref = [(r, n) for r, n, ref in cdp if not ref]
    pool, missing = list(with_ref), []
    for role, name in pw:
        i = next((i for i, (r, n) in enumerate(pool) if r == role and same(name, n)), None)
        if i is None: missing.append((role, name))
        else: pool.pop(i)
    total_missing += len(missing)
    print(f"{p['name']}: playwright interactive={len(pw)} {dict(Counter(r for r, _ in pw))}; "
          f"cdp-skill with ref={len(with_ref)}; missing={len(missing)}")
    for role, name in missing:
        note = " (present in cdp-skill but without ref)" if any(r == role and same(name, n) for r, n in without_ref) else ""
        print(f"   MISSING {role} {json.dumps(name)}{note}")
    if pool: print(f"   cdp-skill refs not matched to a Playwright element: {pool}")
print("total missing:", total_missing)
