#!/bin/sh
# The keys perfwatch.conf(5) documents and the keys the code reads, both
# ways.  unit/test_config holds the manual to the parser's schema; this
# holds the schema's users to the manual, from the sources:
#  - every config_get_*(), config_is_set() or config_key_line() call
#    that names its section and key (a literal "quiet", "max_load") asks
#    for a key the manual documents in that section, and one that names
#    only its key (a [sink] or [git] section in a variable) a key the
#    manual documents in a named section: a key missing there is fatal
#    ("config: no key") when the call is first reached, which a test
#    that never reaches it does not see;
#  - every documented key is named somewhere in the code besides the
#    parser's table (common/config.c), so a key whose reader is gone is
#    not left documented and accepted for nothing.
set -eu
. "$(dirname "$0")/lib.sh"

top=${PERFWATCH_TOP:?}
python3 - "$top" <<'EOPY' >"$T/report" || fail "$(cat "$T/report")"
import glob, os, re, sys

top = sys.argv[1]
man = open(os.path.join(top, "man/perfwatch.conf.5"), encoding="utf-8")
documented = {}
section = None
for line in man:
    m = re.match(r"\.Ss \[(\w+)", line)
    if m:
        section = m.group(1)
        continue
    if line.startswith(".Sh ") or line.startswith(".Ss "):
        section = None
        continue
    m = re.match(r"\.It Ic (\w+) Ns =", line)
    if m and section is not None:
        documented.setdefault(section, set()).add(m.group(1))
named = {s for s in documented if s in ("git", "workload", "sink")}
if len(documented) < 8 or sum(len(k) for k in documented.values()) < 70:
    print("the manual's sections and keys were not found: %r" % documented)
    sys.exit(1)

call = re.compile(r'config_(?:get_\w+|is_set|key_line)\(\s*[^,()]+,'
                  r'\s*("[a-z]+"|[A-Za-z_][\w>.-]*)\s*,\s*"(\w+)"\s*[,)]')
sources = []
for d in ("bench", "bisect", "cli", "common", "daemon", "detect", "notify",
          "store", "sysinfo", "view", "workloads"):
    sources += sorted(glob.glob(os.path.join(top, d, "*.c")))
problems = []
reads = 0
text_of = {}
for path in sources:
    rel = os.path.relpath(path, top)
    text = open(path, encoding="utf-8").read()
    text_of[rel] = text
    if rel == "common/config.c":
        continue
    for m in call.finditer(text):
        reads += 1
        sec, key = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        if sec.startswith('"'):
            sec = sec.strip('"')
            if key not in documented.get(sec, ()):
                problems.append("%s:%d: reads [%s] %s, which the manual "
                                "does not document" % (rel, line, sec, key))
        elif not any(key in documented[s] for s in named):
            problems.append("%s:%d: reads %s of a named section, which the "
                            "manual documents in none" % (rel, line, key))
if reads < 40:
    problems.append("only %d reads of a key were found in the sources" % reads)

for sec in sorted(documented):
    for key in sorted(documented[sec]):
        lit = '"%s"' % key
        if not any(lit in t for rel, t in text_of.items()
                   if rel != "common/config.c"):
            problems.append("[%s] %s is documented, but no code outside "
                            "common/config.c names it" % (sec, key))
print("\n".join(problems))
sys.exit(1 if problems else 0)
EOPY
pass
