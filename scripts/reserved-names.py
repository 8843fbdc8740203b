#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates the table of standard C and POSIX names in generator/reserved.c.

Every identifier that the C11 headers and the POSIX.1-2017 (XSI) headers
declare or define, as glibc exposes them under -std=c11
-D_XOPEN_SOURCE=700: object-like and function-like macros (from gcc -dM),
typedef names, functions, variables, enum constants and struct, union and
enum tags (from clang's AST dump).  Names starting with '_' are left out:
generator/reserved.c refuses every generated name starting with '__' or '_'
and a capital letter as a class.  Each name is attributed to the first
of <stddef.h>, <stdint.h>, <stdbool.h> and <sys/types.h> that has it,
else to a header that declares it in its own file (not in one of glibc's
bits/ files), else to the first header of the lists that has it.

Usage (needs gcc and clang with the C library headers installed):
    scripts/reserved-names.py            # rewrites the table in place
Read the diff: the table is reviewed by reading it.
"""
import os
import re
import subprocess

C11 = ("stddef.h stdint.h stdbool.h limits.h float.h errno.h assert.h ctype.h locale.h "
       "math.h setjmp.h signal.h stdarg.h stdio.h stdlib.h string.h time.h wchar.h wctype.h "
       "complex.h fenv.h inttypes.h iso646.h stdalign.h stdatomic.h stdnoreturn.h uchar.h "
       "threads.h tgmath.h").split()
POSIX = ("sys/types.h unistd.h sys/stat.h fcntl.h sys/time.h sys/socket.h netinet/in.h "
         "aio.h arpa/inet.h cpio.h dirent.h dlfcn.h fmtmsg.h fnmatch.h ftw.h glob.h grp.h "
         "iconv.h langinfo.h libgen.h monetary.h mqueue.h net/if.h netdb.h netinet/tcp.h "
         "nl_types.h poll.h pthread.h pwd.h regex.h sched.h search.h semaphore.h spawn.h "
         "strings.h sys/ipc.h sys/mman.h sys/msg.h sys/resource.h sys/select.h sys/sem.h "
         "sys/shm.h sys/statvfs.h sys/times.h sys/uio.h sys/un.h sys/utsname.h sys/wait.h "
         "syslog.h tar.h termios.h ulimit.h utime.h utmpx.h wordexp.h").split()
FLAGS = ["-std=c11", "-D_XOPEN_SOURCE=700"]
# kind letters, as the C table's bits (generator/reserved.c)
KINDS = {"M": "RM", "F": "RF", "f": "RFN", "v": "RV", "e": "RE", "T": "RT", "S": "RS"}
ORDER = "MFfveTS"

def run(args, src):
    return subprocess.run(args, input=src, capture_output=True, text=True, check=True).stdout

predefined = {l.split()[1].split("(")[0] for l in run(["gcc", *FLAGS, "-dM", "-E", "-"], "").splitlines()}
names = {}  # name -> {kind letters}, [(header, declared in the header's own file)]
LOC = re.compile(r"((?:/[^\s:<>,]+)+\.h):\d+:\d+")

def add(name, kind, header, own):
    if name.startswith("_"):
        return
    entry = names.setdefault(name, [set(), []])
    entry[0].add(kind)
    entry[1].append((header, own))

def own_file(path, header):
    return path.endswith("/" + header) and "/bits/" not in path

DECL = r"0x[0-9a-f]+ (?:(?:parent|prev) 0x[0-9a-f]+ )*<.*?> \S+(?: used| referenced)* "
for h in C11 + POSIX:
    src = "#include <%s>\n" % h
    current, macros = "", {}
    for line in run(["gcc", *FLAGS, "-dD", "-E", "-"], src).splitlines():
        m = re.match(r'# \d+ "([^"]*)"', line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"#undef ([A-Za-z_][A-Za-z0-9_]*)", line)
        if m:
            macros.pop(m.group(1), None)
            continue
        m = re.match(r"#define ([A-Za-z_][A-Za-z0-9_]*)(\(?)", line)
        if m and m.group(1) not in predefined and current not in ("<built-in>", "<command-line>"):
            macros[m.group(1)] = ("F" if m.group(2) else "M", own_file(current, h))
    for name, (kind, own) in macros.items():
        add(name, kind, h, own)
    ast = run(["clang", *FLAGS, "-Xclang", "-ast-dump", "-fsyntax-only", "-x", "c", "-"], src)
    current = ""
    for line in ast.splitlines():
        files = LOC.findall(line)
        # clang prints a path only when it changes: the declaration's own
        # location is the token after the source range
        m = re.search(r"> (\S+)", line)
        if m and LOC.match(m.group(1)):
            current = LOC.match(m.group(1)).group(1)
        elif files:
            current = files[-1]
        if " implicit " in line:
            continue
        m = re.match(r"[|`]-(TypedefDecl|FunctionDecl|VarDecl) " + DECL + r"([A-Za-z_]\w*) '", line)
        if m:
            add(m.group(2), {"TypedefDecl": "T", "FunctionDecl": "f", "VarDecl": "v"}[m.group(1)], h,
                own_file(current, h))
            continue
        m = re.match(r"[|`]-(?:RecordDecl|EnumDecl) " + DECL + r"(?:(?:struct|union) )?([A-Za-z_]\w*)(?: definition)?$", line)
        if m and m.group(1) not in ("struct", "union", "definition"):
            # a forward declaration (wchar.h's struct tm;) is not the tag's home
            add(m.group(1), "S", h, own_file(current, h) and line.endswith(" definition"))
            continue
        m = re.match(r"[| ]*[|`]-EnumConstantDecl " + DECL + r"([A-Za-z_]\w*) '", line)
        if m:
            add(m.group(1), "e", h, own_file(current, h))

def origin(found):
    """The header to name: one of the three the generated code includes
    (what reserved.c refuses as struct members depends on it) or
    <sys/types.h> (POSIX's home of the types), else one that declares it in
    its own file, else the first that has it."""
    for h, own in found:
        if h in C11[:3] or h == "sys/types.h":
            return h
    for h, own in found:
        if own:
            return h
    return found[0][0]

headers = C11 + POSIX
rows, line = [], "   "
for n in sorted(names, key=lambda s: s.encode()):
    kinds, found = names[n]
    h = origin(found)
    cell = ' {"%s", %d, %s},' % (n, headers.index(h), "|".join(KINDS[k] for k in ORDER if k in kinds))
    if len(line) + len(cell) > 99:
        rows.append(line)
        line = "   "
    line += cell
rows.append(line)
hrows, line = [], "   "
for h in headers:
    cell = ' "<%s>",' % h
    if len(line) + len(cell) > 99:
        hrows.append(line)
        line = "   "
    line += cell
hrows.append(line)

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generator", "reserved.c")
text = open(path).read()
begin, end = "/* BEGIN TABLE (scripts/reserved-names.py) */\n", "/* END TABLE */\n"
a, b = text.index(begin) + len(begin), text.index(end)
table = ("static const char *const std_headers[] = {\n%s\n};\n\n"
         "/* %d names, sorted by strcmp for bsearch */\n"
         "static const std_name_t std_names[] = {\n%s\n};\n" % ("\n".join(hrows), len(names), "\n".join(rows)))
open(path, "w").write(text[:a] + table + text[b:])
print("%d names from %d headers" % (len(names), len(headers)))
