#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_guide.py CONTRACTC GUIDE WORK_DIR CC RUNTIME_INCLUDE RUNTIME_LIB [CFLAG...]

The user's guide (docs/contract-language.md) cannot drift from the code:
every example in it is run.  A fenced block is checked when the line just
before its opening fence is a marker comment:

  <!-- guide: lint NAME -->             YAML: written to NAME.contract.yaml,
                                        `contractc lint` exits 0 (and prints
                                        nothing unless a lint-output block
                                        shows it), then `contractc generate`
                                        writes its files
  <!-- guide: error NAME -->            YAML: `contractc lint` exits 1
  <!-- guide: lint-output NAME -->      text: exactly what lint of NAME wrote
                                        on stderr
  <!-- guide: excerpt FILE -->          C or text: occurs verbatim (as one
                                        run of lines) in the generated FILE
  <!-- guide: compile NAME -->          C: compiles warning-free (C99,
                                        -Wall -Wextra -Wpedantic -Werror)
                                        against the generated NAME.h
  <!-- guide: source NAME -->           text: the source text for NAME's
                                        replies (validate --source)
  <!-- guide: run NAME -->              C: a program, built with the
                                        generated NAME.c, NAME's compile
                                        blocks and the runtime, and run
  <!-- guide: run-output NAME -->       text: exactly what it printed
  <!-- guide: reply NAME -->            JSON: a reply for NAME
  <!-- guide: validate-output NAME -->  text: exactly what `contractc
                                        validate` printed on stdout for it
  <!-- guide: changes -->               the markdown table after it: each
                                        row's change is made (CHANGES below)
                                        and its hash / NAME.h / NAME.c
                                        columns are measured

Every ```yaml and ```c block must carry a marker, so an example cannot be
added unchecked.  Exit 0 when everything holds; else 1, naming each
failure with its line in the guide.
"""
import os
import re
import shutil
import subprocess
import sys

CONTRACTC, GUIDE, WORK, CC, RT_INCLUDE, RT_LIB = sys.argv[1:7]
CFLAGS = sys.argv[7:]  # a sanitizer build's flags, for what is linked with its runtime
GEN = os.path.join(WORK, 'gen')
failures = []
counts = {'lint': 0, 'error': 0, 'lint-output': 0, 'excerpt': 0, 'compile': 0,
          'run-output': 0, 'validate-output': 0, 'changes': 0}


def fail(line, msg):
    failures.append('%s:%d: %s' % (GUIDE, line, msg))


def run(args, cwd=WORK):
    p = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def write(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


# ---- the blocks of the guide ------------------------------------------------
MARKER = re.compile(r'^<!-- guide: ([a-z-]+)(?: (\S+))? -->$')
lines = read(GUIDE).split('\n')
blocks = []  # (kind, arg, line number of the fence, text, table rows)
i = 0
while i < len(lines):
    m = MARKER.match(lines[i])
    if m and m.group(1) == 'changes':
        rows, j = [], i + 1
        while j < len(lines) and lines[j].startswith('|'):
            rows.append((j + 1, [c.strip() for c in lines[j].strip('|').split('|')]))
            j += 1
        blocks.append(('changes', None, i + 1, None, rows[2:]))
        i = j
        continue
    if lines[i].startswith('```'):
        info = lines[i][3:].strip()
        j = i + 1
        while j < len(lines) and lines[j] != '```':
            j += 1
        text = '\n'.join(lines[i + 1:j]) + '\n'
        prev = MARKER.match(lines[i - 1]) if i > 0 else None
        if prev:
            blocks.append((prev.group(1), prev.group(2), i + 1, text, None))
        elif info in ('yaml', 'c'):
            fail(i + 1, 'a ```%s block without a <!-- guide: ... --> marker' % info)
        i = j + 1
        continue
    i += 1

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(GEN)
lint_stderr = {}


def contract_file(name):
    return name + '.contract.yaml'


def generate_into(name, out_dir, extra=(), path=None):
    rc, out, err = run([CONTRACTC, 'generate', path or contract_file(name), '-o', out_dir] + list(extra))
    return rc, err


# ---- "Changing a contract safely": each row's change, on a contract above ---
def swap(old, new):
    def edit(text):
        if old not in text:
            raise ValueError('the example no longer contains %r' % old)
        return text.replace(old, new)
    return edit


# change (the table's first cell) -> (contract, edit of its text, extra
# generate arguments, file name to write it under)
CHANGES = {
    'a YAML comment, blank lines, flow or block style':
        ('refund_request', swap('    values: [EUR, GBP, USD]\n',
                                '    # ISO 4217\n\n    values:\n      - EUR\n      - GBP\n      - USD\n'), [], None),
    'the order of keys inside a field':
        ('refund_request', swap('    type: enum\n    values: [EUR, GBP, USD]\n    nullable: true\n',
                                '    nullable: true\n    values: [EUR, GBP, USD]\n    type: enum\n'), [], None),
    "the contract file's name":
        ('refund_request', lambda t: t, [], 'refund.contract.yaml'),
    'the name of a named type':
        ('trade', lambda t: swap('  leg:', '  side:')(t).replace('{type: leg}', '{type: side}'), [], None),
    "a `check` rule's `message:`":
        ('booking', swap('the price of a night is not plausible', 'a night costs too much'), [], None),
    '`source.description`, where no prompt line quotes it':
        ('refund_request', swap('  description: the customer email', '  description: the email of the customer'), [], None),
    '`--schema-dialect D` on the command line':
        ('refund_request', lambda t: t, ['--schema-dialect', 'gemini'], None),
    '`schema: {dialect: D}` in the contract':
        ('refund_request', swap('\nfields:\n', '\nschema: {dialect: gemini}\nfields:\n'), [], None),
    '`instruction`, `description`, `format_text`, `example`, a rule\'s `prompt:`':
        ('refund_request', swap('Extract the order,', 'Read the order,'), [], None),
    'a pattern written another way with the same meaning':
        ('scalars', swap("'[A-Z]{2}[0-9]{8,18}'", "'[A-Z][A-Z][0-9]{8,18}'"), [], None),
    '`version`':
        ('refund_request', swap('version: 1 ', 'version: 2 '), [], None),
    'a constraint (`maximum`, `max_length`, `pattern`, `min_items`, `reply:` limits)':
        ('scalars', swap('    maximum: 99\n', '    maximum: 98\n'), [], None),
    'a declarative rule added, removed or changed, or its `id:`':
        ('refund_request', swap('  - all_or_none:', '  - id: amount_parts\n    all_or_none:'), [], None),
    "a decimal's `scale`, or `decimal` ↔ `integer`":
        ('refund_request', swap('    scale: 2 ', '    scale: 3 '), [], None),
    'a field added, removed, renamed or moved':
        ('refund_request', swap('  reason:\n', '  cause:\n'), [], None),
    '`nullable:` added or removed':
        ('refund_request', swap('    values: [duplicate_charge, not_received, damaged, other]\n',
                                '    values: [duplicate_charge, not_received, damaged, other]\n    nullable: true\n'), [], None),
    '`optional:` added or removed':
        ('refund_request', swap('    values: [duplicate_charge, not_received, damaged, other]\n',
                                '    values: [duplicate_charge, not_received, damaged, other]\n    optional: true\n'), [], None),
    "a field's `c_name:` (its C member)":
        ('refund_request', swap('    values: [duplicate_charge, not_received, damaged, other]\n',
                                '    values: [duplicate_charge, not_received, damaged, other]\n    c_name: cause\n'), [], None),
    'an enum value added, removed or moved':
        ('refund_request', swap('values: [EUR, GBP, USD]', 'values: [GBP, EUR, USD]'), [], None),
}

COMMENT = re.compile(r'/\*.*?\*/', re.S)
ERROR_LINE = re.compile(r'^#error .*$', re.M)


def code_diff(a, b):
    """same, comments only (comments and the texts of #error lines), or
    changes: two generated C files compared."""
    if a == b:
        return 'same'

    def code(t):
        return ERROR_LINE.sub('#error', COMMENT.sub('', t))
    return 'comments only' if code(a) == code(b) else 'changes'


def hash_of(h_text):
    m = re.search(r'Hash: (sha256:[0-9a-f]{64})', h_text)
    return m.group(1) if m else None


def measure(line, cells):
    change = cells[0]
    if change not in CHANGES:
        fail(line, 'no change is defined for the row %r (tests/guide/check_guide.py, CHANGES)' % change)
        return
    name, edit, extra, file_name = CHANGES[change]
    base_dir = os.path.join(WORK, 'changes', 'base-' + name)
    if not os.path.isdir(base_dir):
        rc, err = generate_into(name, base_dir)
        if rc != 0:
            fail(line, 'generating %s failed: %s' % (name, err))
            return
    d = os.path.join(WORK, 'changes', str(line))
    os.makedirs(d)
    try:
        text = edit(read(os.path.join(WORK, contract_file(name))))
    except ValueError as e:
        fail(line, '%s: %s' % (change, e))
        return
    path = os.path.join(d, file_name or contract_file(name))
    write(path, text)
    rc, err = generate_into(name, os.path.join(d, 'gen'), extra, path)
    if rc != 0:
        fail(line, '%s: generate failed: %s' % (change, err))
        return
    base = {f: read(os.path.join(base_dir, f)) for f in os.listdir(base_dir)}
    new = {f: read(os.path.join(d, 'gen', f)) for f in os.listdir(os.path.join(d, 'gen'))}
    h_name, c_name = name + '.h', name + '.c'
    got_hash = 'same' if hash_of(base[h_name]) == hash_of(new[h_name]) else 'changes'
    got_h = code_diff(base[h_name], new[h_name])
    got_c = code_diff(base[c_name], new[c_name])
    texts = (set(base) | set(new)) - {h_name, c_name}
    if got_c != 'changes' and any(base.get(f) != new.get(f) for f in texts):
        got_c = 'changes'
    want = [c.strip('`') for c in cells[2:5]]
    got = [got_hash, got_h, got_c]
    if want != got:
        fail(line, '%s: the guide says hash %s, NAME.h %s, NAME.c %s; generate gives %s, %s, %s'
             % tuple([change] + want + got))
    else:
        counts['changes'] += 1


# ---- run every block in order -----------------------------------------------
replies = {}
sources = {}
compiled = {}  # NAME -> the C files of its compile blocks
run_stdout = {}
WARN = ['-std=c99', '-Wall', '-Wextra', '-Wpedantic', '-Werror']
for kind, arg, line, text, rows in blocks:
    if kind in ('lint', 'error'):
        write(os.path.join(WORK, contract_file(arg)), text)
        if not re.search(r'^contract: %s\b' % re.escape(arg), text, re.M):
            fail(line, 'the contract shown as %s is not named %s' % (arg, arg))
        rc, out, err = run([CONTRACTC, 'lint', contract_file(arg)])
        lint_stderr[arg] = err
        if kind == 'lint':
            if rc != 0:
                fail(line, 'contractc lint %s exits %d, not 0:\n%s' % (contract_file(arg), rc, err))
                continue
            rc, err = generate_into(arg, 'gen')
            if rc != 0:
                fail(line, 'contractc generate %s exits %d:\n%s' % (contract_file(arg), rc, err))
                continue
        elif rc != 1:
            fail(line, 'contractc lint %s exits %d, not 1 (the guide shows it failing)' % (contract_file(arg), rc))
            continue
        counts[kind] += 1
    elif kind == 'lint-output':
        if arg not in lint_stderr:
            fail(line, 'lint output of %s shown before its contract' % arg)
        elif lint_stderr[arg] != text:
            fail(line, 'contractc lint %s writes:\n%sthe guide shows:\n%s' % (contract_file(arg), lint_stderr[arg], text))
        else:
            counts[kind] += 1
    elif kind == 'excerpt':
        path = os.path.join(GEN, arg)
        if not os.path.exists(path):
            fail(line, 'excerpt of %s, which no contract above generates' % arg)
        elif text not in read(path):
            fail(line, 'this excerpt is not in the generated %s (regenerate the excerpt from it)' % arg)
        else:
            counts[kind] += 1
    elif kind == 'compile':
        src = os.path.join(WORK, '%s_guide_%d.c' % (arg, line))
        write(src, text)
        rc, out, err = run([CC] + WARN + CFLAGS + ['-I', GEN, '-I', os.path.abspath(RT_INCLUDE),
                                                  '-c', src, '-o', src + '.o'])
        if rc != 0:
            fail(line, 'the C example for %s does not compile:\n%s' % (arg, err))
        else:
            compiled.setdefault(arg, []).append(src)
            counts[kind] += 1
    elif kind == 'run':
        src = os.path.join(WORK, '%s_main_%d.c' % (arg, line))
        exe = os.path.join(WORK, '%s_main_%d' % (arg, line))
        write(src, text)
        rc, out, err = run([CC] + WARN + CFLAGS + ['-I', GEN, '-I', os.path.abspath(RT_INCLUDE), src,
                                                  os.path.join(GEN, arg + '.c')] + compiled.get(arg, [])
                           + [os.path.abspath(RT_LIB), '-o', exe])
        if rc != 0:
            fail(line, 'the program for %s does not build:\n%s' % (arg, err))
            continue
        rc, out, err = run([exe])
        if rc != 0:
            fail(line, 'the program for %s exits %d:\n%s' % (arg, rc, err))
            continue
        run_stdout[arg] = out
    elif kind == 'run-output':
        if arg not in run_stdout:
            fail(line, 'output of a program for %s that did not run' % arg)
        elif run_stdout[arg] != text:
            fail(line, 'the program for %s prints:\n%sthe guide shows:\n%s' % (arg, run_stdout[arg], text))
        else:
            counts[kind] += 1
    elif kind == 'source':
        sources[arg] = os.path.join(WORK, arg + '.source.txt')
        write(sources[arg], text)
    elif kind == 'reply':
        replies[arg] = os.path.join(WORK, arg + '.reply.json')
        write(replies[arg], text)
    elif kind == 'validate-output':
        if arg not in replies:
            fail(line, 'validate output of %s shown before its reply' % arg)
            continue
        args = [CONTRACTC, 'validate', contract_file(arg), replies[arg]]
        if arg in sources:
            args += ['--source', sources[arg]]
        rc, out, err = run(args)
        if out != text:
            fail(line, 'contractc validate %s prints:\n%sthe guide shows:\n%s' % (contract_file(arg), out, text))
        else:
            counts[kind] += 1
    elif kind == 'changes':
        for row_line, cells in rows:
            measure(row_line, cells)
    else:
        fail(line, 'unknown marker kind %r' % kind)

# A contract shown clean without its lint output prints nothing at all.
shown_output = {arg for kind, arg, _, _, _ in blocks if kind == 'lint-output'}
for kind, arg, line, _, _ in blocks:
    if kind == 'lint' and arg not in shown_output and lint_stderr.get(arg):
        fail(line, 'contractc lint %s writes diagnostics the guide does not show:\n%s'
             % (contract_file(arg), lint_stderr[arg]))

# A guide whose examples all vanished must not pass.
for kind in ('lint', 'error', 'excerpt', 'compile', 'run-output', 'changes'):
    if counts[kind] == 0 and not failures:
        fail(1, 'no %s example was checked' % kind)

for f in failures:
    print('FAIL: ' + f)
print('guide: %d contracts lint clean and generate, %d fail lint as shown, %d lint outputs as shown, '
      '%d excerpts of generated files found verbatim, %d C examples compile, %d programs print as shown, '
      '%d validate outputs as shown, %d rows of "changing a contract" measured'
      % (counts['lint'], counts['error'], counts['lint-output'], counts['excerpt'], counts['compile'],
         counts['run-output'], counts['validate-output'], counts['changes']))
sys.exit(1 if failures else 0)
