/* SPDX-License-Identifier: MIT */
/*
 * cli.c - the `contractc` command line (docs/contract-language.md §13, "The
 * CLI").
 *
 *   contractc generate CONTRACT... -o DIR [--schema-dialect D]... [--tool D]... [--check]
 *                      [--depfile FILE]
 *   contractc lint CONTRACT...
 *   contractc validate CONTRACT REPLY [--source FILE] [--json]
 *   contractc schema CONTRACT [--schema-dialect D]
 *   contractc prompt CONTRACT
 *   contractc grammar CONTRACT
 *   contractc import SCHEMA.json [--name NAME] [--pointer /json/pointer] [--lenient] [-o FILE]
 *
 *   contractc vendor DIR, contractc stats LOG... [--json]
 *   contractc COMMAND --help (or contractc help COMMAND), contractc --help,
 *   contractc --version
 *
 * Every command: results on stdout; diagnostics and informational lines
 * (generate's dialect summaries, vendor's file list, schema's not-carried
 * list, validate's note on check rules) on stderr, the latter dropped by
 * -q/--quiet anywhere among the arguments.  `-` as an input reads stdin,
 * once per run.  The manual page is docs/contractc.1.
 *
 * Exit codes: 0 success; 1 contract errors, a rejected reply, or drift;
 * 2 usage (and, for validate and --check, a contract error).  A failed
 * write of standard output is 1 (validate: 2, since 1 is "rejected").
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_gbnf.h"
#include "generator.h"
#include "import.h"
#include "internal.h"
#include "io.h"
#include "tables.h"

#define EXIT_REJECTED 1
#define EXIT_USAGE 2

static const char usage_text[] =
    "usage: contractc [-q] COMMAND ...\n"
    "\n"
    "  generate CONTRACT... -o DIR [--schema-dialect D]... [--tool D]... [--grammar gbnf]\n"
    "           [--check] [--depfile FILE]\n"
    "        write NAME.h, NAME.c, NAME.schema.json and NAME.prompt.txt to DIR\n"
    "        (--check compares instead of writing: exit 1 on drift;\n"
    "        --depfile also writes a Make-style depfile)\n"
    "  lint CONTRACT...              print every diagnostic (exit 1 on errors)\n"
    "  validate CONTRACT REPLY [--source FILE] [--json]\n"
    "        check a reply (a file, or - for stdin) as the generated parser\n"
    "        would: exit 0 accepted, 1 rejected, 2 usage or contract error\n"
    "  schema CONTRACT [--schema-dialect D]   print the JSON Schema\n"
    "  prompt CONTRACT                        print the prompt\n"
    "  grammar CONTRACT                       print the GBNF grammar (llama.cpp)\n"
    "  toolset NAME CONTRACT... -o DIR [--check]\n"
    "        write NAME.h and NAME.c: the contracts as one set of tools\n"
    "  import SCHEMA.json [--name NAME] [--pointer /json/pointer] [--lenient] [-o FILE]\n"
    "        a JSON Schema (or an OpenAPI document's schema) as a contract; the\n"
    "        ledger of every change of meaning on stderr\n"
    "  vendor DIR                    write the runtime's files for vendoring\n"
    "  stats LOG... [--json]         rejection rates from decision logs\n"
    "  help COMMAND                  the same as contractc COMMAND --help\n"
    "  --help, --version   (and contractc COMMAND --help)\n"
    "  -q, --quiet         no informational lines on stderr (any command)\n"
    "  -                   as CONTRACT, REPLY, LOG or --source FILE: standard input\n"
    "                      (one of them per run)\n"
    "Results go to stdout; diagnostics and informational lines to stderr.\n"
    "The manual: man contractc.\n";

/* `contractc CMD --help`: each command's usage and what it does, on
 * stdout with exit 0 (stats and vendor included, answered here before
 * their own argument parsing). */
static const struct {
    const char *cmd, *text;
} command_help[] = {
    {"generate",
     "usage: contractc generate CONTRACT... -o DIR [--schema-dialect D]... [--tool D]...\n"
     "                          [--grammar gbnf] [--check] [--depfile FILE]\n"
     "  Writes NAME.h, NAME.c, NAME.schema.json and NAME.prompt.txt (and\n"
     "  NAME.D.schema.json, NAME.D.notes.txt per dialect D) into DIR, made with\n"
     "  its parents if missing.  A file whose bytes would not change is left\n"
     "  alone (its modification time too).  CONTRACT may be - (standard input).\n"
     "  -o DIR                output directory (not -)\n"
     "  --schema-dialect D    also a provider dialect: openai-strict, gemini,\n"
     "                        anthropic, llama-cpp (repeatable)\n"
     "  --tool D              also NAME.D.tool.json, the contract as one tool\n"
     "                        definition, and NAME.D.tool.notes.txt: openai,\n"
     "                        anthropic, gemini, mcp (repeatable); embedded in\n"
     "                        NAME.c as NAME_tool_D_json[]\n"
     "  --grammar gbnf        also NAME.gbnf and NAME.gbnf.notes.txt (llama.cpp's\n"
     "                        GBNF), embedded in NAME.c as NAME_gbnf[]\n"
     "  --check               compare with DIR instead of writing: exit 1 on drift,\n"
     "                        with the command that regenerates\n"
     "  --depfile FILE        also write FILE (and its parents), a Make-style\n"
     "                        depfile as protoc --dependency_out: every file\n"
     "                        written depends on the contracts read from files\n"
     "  -q, --quiet           no summary line per dialect or tool on stderr\n"
     "  exit: 0; 1 contract errors, a refused dialect or tool, drift or a write error;\n"
     "  2 usage (and, with --check, a contract error)\n"},
    {"lint",
     "usage: contractc lint CONTRACT...\n"
     "  Prints every diagnostic (errors and notes) on stderr.  CONTRACT may be -.\n"
     "  exit: 0 clean; 1 errors; 2 usage\n"},
    {"validate",
     "usage: contractc validate CONTRACT REPLY [--source FILE] [--json]\n"
     "  Checks one reply (a file, or - for standard input) as the generated\n"
     "  parser would; at most the contract's reply.max_bytes are read, a longer\n"
     "  reply is rejected (kind limit).  Prints the accepted value as JSON, or\n"
     "  one \"PATH: message\" line per problem.\n"
     "  --source FILE   the source text grounded values are copied from\n"
     "  --json          one JSON line: accepted, problems, dropped, fenced,\n"
     "                  value, not_run\n"
     "  -q, --quiet     no note on stderr naming the check rules not run\n"
     "  Only one of CONTRACT, REPLY and FILE may be - (standard input).\n"
     "  exit: 0 accepted; 1 rejected; 2 usage, contract error, unreadable input\n"
     "  or out of memory\n"},
    {"schema",
     "usage: contractc schema CONTRACT [--schema-dialect D]\n"
     "  Prints the JSON Schema (a dialect's notes go to stderr).  CONTRACT may be -.\n"
     "  --schema-dialect D   the provider dialect's form: openai-strict, gemini,\n"
     "                       anthropic, llama-cpp\n"
     "  -q, --quiet          no list on stderr of what the dialect cannot carry\n"
     "  exit: 0; 1 contract errors or a refused dialect; 2 usage\n"},
    {"prompt",
     "usage: contractc prompt CONTRACT\n"
     "  Prints the prompt.  CONTRACT may be -.\n"
     "  exit: 0; 1 contract errors; 2 usage\n"},
    {"grammar",
     "usage: contractc grammar CONTRACT\n"
     "  Prints the GBNF grammar for llama.cpp (root rule root; docs/grammar.md);\n"
     "  what it does not carry goes to stderr.\n"
     "  exit: 0; 1 contract errors; 2 usage\n"},
    {"toolset",
     "usage: contractc toolset NAME CONTRACT... -o DIR [--check]\n"
     "  Writes DIR/NAME.h and DIR/NAME.c (DIR made if missing): the contracts\n"
     "  as one set of tools, each called by its contract's name, with\n"
     "  NAME_call_t, NAME_parse_call, NAME_loop_run and NAME_call_free over the\n"
     "  contracts' own NAME.h (generate them with contractc generate;\n"
     "  docs/tools.md, \"Generated toolsets\").\n"
     "  --check   compare with DIR's files instead of writing: exit 1 on drift\n"
     "  exit: 0; 1 contract errors, drift or a write error; 2 usage or a bad NAME\n"},
    {"import",
     "usage: contractc import SCHEMA.json [--name NAME] [--pointer /json/pointer] [--lenient]\n"
     "                        [-o FILE]\n"
     "  Reads a JSON Schema (drafts 2020-12, 2019-09, 07, 06, 04) or an OpenAPI\n"
     "  3.0/3.1 document and writes one contract (YAML) to stdout or FILE; on\n"
     "  stderr the ledger, one \"POINTER: CLASS: text\" line per change of meaning\n"
     "  (docs/contract-language.md §17).  The contract lints clean.  SCHEMA may be -.\n"
     "  --name NAME        the contract's name (else the title or the file name)\n"
     "  --pointer PTR      the schema inside the document (/components/schemas/Order)\n"
     "  --lenient          drop what a contract cannot carry (ledgered \"dropped\")\n"
     "  -o FILE            write the contract to FILE\n"
     "  exit: 0 imported; 1 not importable (every blocker with its pointer); 2 usage,\n"
     "  unreadable input or invalid JSON\n"},
    {"vendor",
     "usage: contractc vendor DIR\n"
     "  Writes DIR/contractc_runtime.c and DIR/contractc/contractc.h (DIR and\n"
     "  its parents made if missing), then cc -I DIR app.c NAME.c\n"
     "  DIR/contractc_runtime.c builds with nothing of contractc installed.\n"
     "  The files written are listed on stderr.\n"
     "  -q, --quiet   no list of the files on stderr\n"
     "  exit: 0; 1 a write error; 2 usage\n"},
    {"stats",
     "usage: contractc stats LOG... [--json]\n"
     "  Rejection rates per contract hash from decision logs (one LOG may be -).\n"
     "  --json   the figures as one JSON object\n"
     "  exit: 0; 2 usage or an unreadable log\n"},
};

/* The help text of cmd, or NULL for an unknown command. */
static const char *help_of(const char *cmd)
{
    for (size_t i = 0; i < sizeof command_help / sizeof command_help[0]; i++)
        if (strcmp(command_help[i].cmd, cmd) == 0)
            return command_help[i].text;
    return NULL;
}

/* Loads a contract ("-": standard input), printing its diagnostics; NULL
 * on errors.  A contract read from stdin is named <stdin> in diagnostics
 * and "-" in the generated banners, so their regenerate command works
 * (`contractc generate - -o DIR`). */
static cc_contract_t *load(const char *path, FILE *err, bool print_notes)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load(path, &d);
    if (c && !d.errors && strcmp(path, "-") == 0) {
        char *dash = cc_strdup("-");
        if (dash) {
            free(c->file_name);
            c->file_name = dash;
        } else {
            const cc_mark_t whole = {0, 0};
            cc_error(&d, "<stdin>", whole, "out of memory");
        }
    }
    if (!c || d.errors || print_notes)
        cc_diags_print(&d, err);
    if (c && d.errors) {
        cc_contract_free(c);
        c = NULL;
    }
    cc_diags_free(&d);
    return c;
}

/* False, with "contractc CMD: only one ... can be - (standard input)" on
 * err, when more than one of names[0..n) is "-": stdin can be read once. */
static bool stdin_once(const char *const *names, size_t n, const char *cmd, const char *what,
                       FILE *err)
{
    size_t dashes = 0;
    for (size_t i = 0; i < n; i++)
        dashes += names[i] && strcmp(names[i], "-") == 0;
    if (dashes <= 1)
        return true;
    fprintf(err, "contractc %s: only one %s can be - (standard input, read once)\n", cmd, what);
    return false;
}

static char *join_path(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + 1 + strlen(name) + strlen(ext) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

/* NULL when the file holds exactly data[0..len); else why not ("differs",
 * "is missing"). */
static const char *compare_file(const char *path, const char *data, size_t len)
{
    size_t have_len = 0;
    char *have = cc_read_file(path, &have_len);
    if (!have)
        return "is missing";
    int differs = have_len != len || memcmp(have, data, len) != 0;
    free(have);
    return differs ? "differs" : NULL;
}

/* Appends word to b as one POSIX shell word: as is when it holds only
 * characters no shell treats specially, else in single quotes. */
static void shell_word(cc_buf_t *b, const char *word)
{
    bool plain = *word != '\0';
    for (const char *p = word; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-=:,@%",
                       *p) != NULL;
    if (plain) {
        cc_buf_puts(b, word);
        return;
    }
    cc_buf_putc(b, '\'');
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            cc_buf_puts(b, "'\\''");
        else
            cc_buf_putc(b, *p);
    }
    cc_buf_putc(b, '\'');
}

/* Appends path to b as one word of a Make depfile, escaped as gcc -MD
 * and protoc --dependency_out do and as GNU make and Ninja read it: a
 * space or '#' gets a backslash (so do the backslashes before one), '$'
 * is doubled.  A line break cannot be escaped: callers refuse it. */
static void depfile_word(cc_buf_t *b, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '#') {
            /* 2n backslashes then the escaped character */
            for (const char *q = p; q > path && q[-1] == '\\'; q--)
                cc_buf_putc(b, '\\');
            cc_buf_putc(b, '\\');
        } else if (*p == '$') {
            cc_buf_putc(b, '$');
        }
        cc_buf_putc(b, *p);
    }
}

/* Writes the depfile of a generate run: one rule, `TARGETS: PREREQUISITES`
 * (targets: the files written, in DIR, already escaped, each followed by
 * " \\\n  "), the prerequisites being every contract read from a file
 * (not "-"; the generator reads nothing else: its templates are compiled
 * in).  Its parents are made; the file is rewritten only when its bytes
 * change.  false with a message on err. */
static bool write_depfile(const char *depfile, const cc_buf_t *targets, const char *dir,
                          const char *const *contracts, size_t count, FILE *err)
{
    bool newline = strchr(depfile, '\n') != NULL || strchr(dir, '\n') != NULL;
    for (size_t i = 0; i < count; i++)
        newline = newline || strchr(contracts[i], '\n') != NULL;
    if (newline) {
        fprintf(err, "contractc generate: cannot write %s: a path with a line break cannot be "
                     "written in a depfile\n", depfile);
        return false;
    }
    cc_buf_t text = CC_BUF_INIT;
    /* the targets without the last " \\\n  " */
    cc_buf_append(&text, targets->data ? targets->data : "", targets->len > 5 ? targets->len - 5 : 0);
    cc_buf_putc(&text, ':');
    for (size_t i = 0; i < count; i++) {
        if (strcmp(contracts[i], "-") == 0)
            continue;
        cc_buf_puts(&text, " \\\n  ");
        depfile_word(&text, contracts[i]);
    }
    cc_buf_putc(&text, '\n');
    char *parent = cc_strdup(depfile);
    bool ok = !targets->failed && !text.failed && text.data && parent;
    if (!ok) {
        fprintf(err, "contractc generate: out of memory writing %s\n", depfile);
    } else {
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            ok = cc_make_dirs(parent, "generate", err);
        }
        ok = ok && cc_write_file_if_changed(depfile, text.data, text.len, "generate", err) >= 0;
    }
    free(parent);
    cc_buf_free(&text);
    return ok;
}

/* --check for one file: false (and a line on out naming the file, what is
 * wrong with it and the command that regenerates it) on drift. */
static bool check_file(FILE *out, const char *path, const char *data, size_t len,
                       const char *contract, const char *regen)
{
    const char *why = compare_file(path, data, len);
    if (!why)
        return true;
    bool differs = strcmp(why, "differs") == 0;
    fprintf(out, "%s: %s%s%s (run %s)\n", path, why, differs ? " from " : "",
            differs ? contract : "", regen ? regen : "contractc generate");
    return false;
}

/* `contractc generate`; info is where the informational lines go (NULL:
 * -q). */
static int cmd_generate(int argc, char **argv, FILE *out, FILE *info, FILE *err)
{
    const char *dir = NULL, *depfile = NULL;
    bool check = false, gbnf = false;
    const char **contracts = calloc((size_t)argc + 1, sizeof *contracts);
    const char **dialects = calloc((size_t)argc + 1, sizeof *dialects);
    const char **tools = calloc((size_t)argc + 1, sizeof *tools);
    size_t count = 0, dialect_count = 0, tool_count = 0;
    if (!contracts || !dialects || !tools) {
        free(contracts);
        free(dialects);
        free(tools);
        fprintf(err, "contractc: out of memory\n");
        return 1;
    }
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "--check") == 0) {
            check = true;
        } else if (strcmp(argv[i], "--depfile") == 0 && i + 1 < argc) {
            depfile = argv[++i];
        } else if (strcmp(argv[i], "--grammar") == 0 && i + 1 < argc) {
            if (strcmp(argv[i + 1], "gbnf") != 0) {
                fprintf(err, "contractc generate: unknown grammar '%s' (known: gbnf)\n", argv[i + 1]);
                free(contracts);
                free(dialects);
                free(tools);
                return EXIT_USAGE;
            }
            gbnf = true;
            i++;
        } else if (strcmp(argv[i], "--schema-dialect") == 0 && i + 1 < argc) {
            if (!cc_dialect_known(argv[i + 1])) {
                fprintf(err, "contractc generate: unknown schema dialect '%s' (known: openai-strict, "
                             "gemini, anthropic, llama-cpp)\n", argv[i + 1]);
                free(contracts);
                free(dialects);
                free(tools);
                return EXIT_USAGE;
            }
            dialects[dialect_count++] = argv[++i];
        } else if (strcmp(argv[i], "--tool") == 0 && i + 1 < argc) {
            if (!cc_tool_known(argv[i + 1])) {
                fprintf(err, "contractc generate: unknown tool '%s' (known: openai, anthropic, "
                             "gemini, mcp)\n", argv[i + 1]);
                free(contracts);
                free(dialects);
                free(tools);
                return EXIT_USAGE;
            }
            tools[tool_count++] = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(err, "contractc generate: unknown option '%s'\n%s", argv[i], usage_text);
            free(contracts);
            free(dialects);
            free(tools);
            return EXIT_USAGE;
        } else {
            contracts[count++] = argv[i];
        }
    }
    if (!dir || count == 0) {
        fprintf(err, "contractc generate: needs CONTRACT... and -o DIR\n%s", usage_text);
        free(contracts);
        free(dialects);
        free(tools);
        return EXIT_USAGE;
    }
    if (strcmp(dir, "-") == 0 || dir[0] == '\0') {
        /* generate writes several files: there is no standard-output form */
        fprintf(err, "contractc generate: -o needs a directory, not '%s' (generate writes "
                     "several files; schema and prompt print one)\n", dir);
        free(contracts);
        free(dialects);
        free(tools);
        return EXIT_USAGE;
    }
    if (depfile && (check || strcmp(depfile, "-") == 0 || depfile[0] == '\0')) {
        fprintf(err, "contractc generate: %s\n", check ? "--depfile writes a file and --check writes "
                                                        "nothing: give one of them"
                                                      : "--depfile needs a file name, not '-'");
        free(contracts);
        free(dialects);
        free(tools);
        return EXIT_USAGE;
    }
    if (!stdin_once(contracts, count, "generate", "CONTRACT", err)) {
        free(contracts);
        free(dialects);
        free(tools);
        return EXIT_USAGE;
    }
    /* The output directory is made if missing, parents too (mkdir -p). */
    if (!check && !cc_make_dirs(dir, "generate", err)) {
        free(contracts);
        free(dialects);
        free(tools);
        return 1;
    }
    int status = 0;
    cc_buf_t targets = CC_BUF_INIT; /* --depfile: every file written, escaped */
    for (size_t i = 0; i < count; i++) {
        cc_contract_t *m = load(contracts[i], err, false);
        if (!m) {
            status = check ? EXIT_USAGE : 1;
            continue;
        }
        /* the flags' dialects, or else the contract's `schema.dialect` */
        const char *own[1] = {m->default_dialect};
        const char *const *ds = dialect_count ? dialects : own;
        size_t dn = dialect_count ? dialect_count : (m->default_dialect ? 1 : 0);
        cc_artifacts_t a;
        cc_diags_t d;
        cc_diags_init(&d);
        int rc = cc_build_artifacts_tools(m, ds, dn, gbnf, tools, tool_count, &a, &d);
        cc_diags_print(&d, err);
        cc_diags_free(&d);
        if (rc < 0) {
            fprintf(err, "contractc: out of memory generating %s\n", contracts[i]);
            cc_contract_free(m);
            status = check ? EXIT_USAGE : 1;
            continue;
        }
        if (rc > 0)
            status = 1; /* a refused dialect; everything else is still written */
        /* the command that regenerates this contract's files, for --check */
        cc_buf_t regen = CC_BUF_INIT;
        if (check) {
            cc_buf_puts(&regen, "contractc generate ");
            shell_word(&regen, contracts[i]);
            cc_buf_puts(&regen, " -o ");
            shell_word(&regen, dir);
            for (size_t k = 0; k < dialect_count; k++) {
                cc_buf_puts(&regen, " --schema-dialect ");
                shell_word(&regen, dialects[k]);
            }
            for (size_t k = 0; k < tool_count; k++) {
                cc_buf_puts(&regen, " --tool ");
                shell_word(&regen, tools[k]);
            }
            if (gbnf)
                cc_buf_puts(&regen, " --grammar gbnf");
        }
        const char *regen_text = regen.failed ? NULL : regen.data;
        struct { const char *ext; const char *data; size_t len; } files[] = {
            {".h", a.header, a.header_len},
            {".c", a.source, a.source_len},
            {".schema.json", a.schema, a.schema_len},
            {".prompt.txt", a.prompt, a.prompt_len},
            {".gbnf", a.gbnf, a.gbnf_len},
            {".gbnf.notes.txt", a.gbnf_notes, a.gbnf_notes_len},
        };
        for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
            if (!files[k].data)
                continue; /* NAME.gbnf: only with --grammar gbnf */
            char *path = join_path(dir, m->name, files[k].ext);
            if (!path) {
                fprintf(err, "contractc: out of memory writing %s%s\n", m->name, files[k].ext);
                status = 1;
                continue;
            }
            if (check) {
                if (!check_file(out, path, files[k].data, files[k].len, contracts[i], regen_text) &&
                    status == 0)
                    status = 1;
            } else if (cc_write_file_if_changed(path, files[k].data, files[k].len, "generate", err) < 0) {
                status = 1;
            } else if (depfile) {
                depfile_word(&targets, path);
                cc_buf_puts(&targets, " \\\n  ");
            }
            free(path);
        }
        /* the dialects' files, then the tools' (NAME.D.tool.json) */
        for (size_t k = 0; k < a.dialect_count + a.tool_count; k++) {
            bool is_tool = k >= a.dialect_count;
            const cc_dialect_artifacts_t *da = is_tool ? &a.tools[k - a.dialect_count] : &a.dialects[k];
            cc_buf_t base = CC_BUF_INIT;
            cc_buf_printf(&base, "%s.%s", m->name, da->name);
            char *schema_path = base.data ? join_path(dir, base.data, is_tool ? ".tool.json" : ".schema.json") : NULL;
            char *notes_path = base.data ? join_path(dir, base.data, is_tool ? ".tool.notes.txt" : ".notes.txt") : NULL;
            cc_buf_free(&base);
            if (!schema_path || !notes_path) {
                status = 1;
            } else if (check) {
                /* the dialect files, compared only for the dialects generated */
                bool same = check_file(out, schema_path, da->schema, da->schema_len, contracts[i],
                                       regen_text);
                same = check_file(out, notes_path, da->notes, da->notes_len, contracts[i],
                                  regen_text) && same;
                if (!same && status == 0)
                    status = 1;
            } else {
                if (cc_write_file_if_changed(schema_path, da->schema, da->schema_len, "generate", err) < 0 ||
                    cc_write_file_if_changed(notes_path, da->notes, da->notes_len, "generate", err) < 0) {
                    status = 1;
                } else {
                    if (da->summary && info) /* only for files really written */
                        fprintf(info, "%s\n", da->summary);
                    if (depfile) {
                        depfile_word(&targets, schema_path);
                        cc_buf_puts(&targets, " \\\n  ");
                        depfile_word(&targets, notes_path);
                        cc_buf_puts(&targets, " \\\n  ");
                    }
                }
            }
            free(schema_path);
            free(notes_path);
        }
        cc_buf_free(&regen);
        cc_artifacts_free(&a);
        cc_contract_free(m);
    }
    /* the depfile only after a run without errors: a failed run leaves the
     * last good one, and the build reruns the command anyway */
    if (depfile && status == 0 && !write_depfile(depfile, &targets, dir, contracts, count, err))
        status = 1;
    cc_buf_free(&targets);
    free(contracts);
    free(dialects);
    free(tools);
    return status;
}

static int cmd_lint(int argc, char **argv, FILE *err)
{
    if (argc == 0) {
        fprintf(err, "contractc lint: needs CONTRACT...\n%s", usage_text);
        return EXIT_USAGE;
    }
    if (!stdin_once((const char *const *)argv, (size_t)argc, "lint", "CONTRACT", err))
        return EXIT_USAGE;
    int status = 0;
    for (int i = 0; i < argc; i++) {
        cc_diags_t d;
        cc_diags_init(&d);
        cc_contract_t *c = cc_contract_load(argv[i], &d);
        cc_diags_print(&d, err);
        if (!c || d.errors)
            status = 1;
        cc_contract_free(c);
        cc_diags_free(&d);
    }
    return status;
}

/* `contractc schema` (schema true) and `contractc prompt`; info gets the
 * dialect's not-carried list (NULL: -q). */
static int cmd_print(int argc, char **argv, FILE *out, FILE *info, FILE *err, bool schema)
{
    const char *path = NULL, *dialect = NULL;
    for (int i = 0; i < argc; i++) {
        if (schema && strcmp(argv[i], "--schema-dialect") == 0 && i + 1 < argc) {
            dialect = argv[++i];
            if (!cc_dialect_known(dialect)) {
                fprintf(err, "contractc schema: unknown schema dialect '%s' (known: openai-strict, "
                             "gemini, anthropic, llama-cpp)\n", dialect);
                return EXIT_USAGE;
            }
        } else if (!path && !(argv[i][0] == '-' && argv[i][1])) {
            path = argv[i];
        } else {
            fprintf(err, "contractc: unexpected argument '%s'\n%s", argv[i], usage_text);
            return EXIT_USAGE;
        }
    }
    if (!path) {
        fprintf(err, "contractc: needs CONTRACT\n%s", usage_text);
        return EXIT_USAGE;
    }
    cc_contract_t *m = load(path, err, false);
    if (!m)
        return 1;
    size_t len = 0;
    char *text = NULL;
    if (schema && (dialect || m->default_dialect)) {
        char *notes = NULL, *summary = NULL;
        size_t notes_len = 0;
        cc_diags_t d;
        cc_diags_init(&d);
        int rc = cc_emit_schema_dialect(m, dialect ? dialect : m->default_dialect, &text, &len,
                                        &notes, &notes_len, &summary, &d);
        cc_diags_print(&d, err);
        cc_diags_free(&d);
        if (rc == 0 && notes && info) /* dialects.md 6.3: the not-carried list on stderr */
            fwrite(notes, 1, notes_len, info);
        free(notes);
        free(summary);
        if (rc > 0) {
            cc_contract_free(m);
            return 1;
        }
    } else {
        text = schema ? cc_emit_schema(m, &len) : cc_emit_prompt(m, &len);
    }
    cc_contract_free(m);
    if (!text) {
        fprintf(err, "contractc: out of memory\n");
        return 1;
    }
    cc_out_write(out, text, len); /* checked by cc_cli_main's cc_out_finish */
    free(text);
    return 0;
}

/* `contractc grammar CONTRACT`: NAME.gbnf on out, its notes on info (NULL:
 * -q). */
static int cmd_grammar(int argc, char **argv, FILE *out, FILE *info, FILE *err)
{
    if (argc != 1 || (argv[0][0] == '-' && argv[0][1])) {
        fprintf(err, "contractc grammar: needs CONTRACT\n%s", usage_text);
        return EXIT_USAGE;
    }
    cc_contract_t *m = load(argv[0], err, false);
    if (!m)
        return 1;
    char *text = NULL, *notes = NULL;
    size_t len = 0, notes_len = 0;
    bool ok = cc_emit_gbnf(m, &text, &len, &notes, &notes_len);
    cc_contract_free(m);
    if (!ok) {
        fprintf(err, "contractc: out of memory\n");
        return 1;
    }
    if (info) /* what the grammar does not carry: informational, dropped by -q */
        fwrite(notes, 1, notes_len, info);
    cc_out_write(out, text, len); /* checked by cc_cli_main's cc_out_finish */
    free(text);
    free(notes);
    return 0;
}

/* Adds item under key; false (item freed) when either is out of memory. */
static bool add_item(cJSON *object, const char *key, cJSON *item)
{
    if (!item)
        return false;
    if (!cJSON_AddItemToObject(object, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

/* The `check` rules the CLI cannot run (the user's C code), as ids, each
 * once.  false when out of memory (the list is then incomplete). */
static bool list_not_run(const cc_object_t *o, cJSON *arr, unsigned depth)
{
    if (!o || depth > 64)
        return true;
    for (size_t i = 0; i < o->field_count; i++) {
        const cc_value_t *v = &o->fields[i].value;
        while (v && v->type == CONTRACTC_TYPE_ARRAY)
            v = v->items;
        if (v && v->type == CONTRACTC_TYPE_OBJECT && !list_not_run(v->object, arr, depth + 1))
            return false;
        for (size_t k = 0; v && v->type == CONTRACTC_TYPE_UNION && k < v->variant_count; k++)
            if (!list_not_run(v->variants[k].object, arr, depth + 1)) /* each variant's */
                return false;
        for (size_t k = 0; v && v->type == CONTRACTC_TYPE_VALUE_UNION && k < v->alternative_count;
             k++) {
            const cc_value_t *a = &v->alternatives[k]; /* an object alternative's, §4.13 */
            while (a && a->type == CONTRACTC_TYPE_ARRAY)
                a = a->items;
            if (a && a->type == CONTRACTC_TYPE_OBJECT && !list_not_run(a->object, arr, depth + 1))
                return false;
        }
    }
    for (size_t i = 0; i < o->rule_count; i++) {
        if (o->rules[i].kind != CC_RULE_CHECK)
            continue;
        bool dup = false;
        for (int k = 0; k < cJSON_GetArraySize(arr); k++)
            dup = dup || strcmp(cJSON_GetArrayItem(arr, k)->valuestring, o->rules[i].id) == 0;
        if (dup)
            continue;
        cJSON *id = cJSON_CreateString(o->rules[i].id);
        if (!id || !cJSON_AddItemToArray(arr, id)) {
            cJSON_Delete(id);
            return false;
        }
    }
    return true;
}

/* validate --json: the whole result as one line of JSON (accepted,
 * problems, dropped, fenced, value, not_run).  value is
 * the accepted record's JSON or NULL; not_run is consumed.  NULL when out
 * of memory: then nothing is printed. */
static char *validate_json(bool accepted, const contractc_problems_t *problems, const char *value,
                           cJSON *not_run)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) {
        cJSON_Delete(not_run);
        return NULL;
    }
    cJSON *arr = NULL;
    bool ok = cJSON_AddBoolToObject(root, "accepted", accepted) &&
              (arr = cJSON_AddArrayToObject(root, "problems")) != NULL;
    for (size_t i = 0; ok && i < contractc_problems_count(problems); i++) {
        const contractc_problem_t *p = contractc_problems_at(problems, i);
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(arr, o) && cJSON_AddStringToObject(o, "path", p->path) &&
             cJSON_AddStringToObject(o, "kind", contractc_kind_name(p->kind)) &&
             cJSON_AddStringToObject(o, "message", p->message) &&
             (!p->rule || cJSON_AddStringToObject(o, "rule", p->rule));
        if (!o)
            break;
    }
    ok = ok && cJSON_AddNumberToObject(root, "dropped", (double)problems->dropped) &&
         cJSON_AddBoolToObject(root, "fenced", problems->fenced) &&
         (!value || add_item(root, "value", cJSON_CreateRaw(value)));
    ok = add_item(root, "not_run", not_run) && ok;
    char *text = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    return text;
}

/* Reads a reply of at most max bytes (docs/security.md: a bound on what an
 * untrusted input may cost): NULL with a message when it cannot be read.
 * A longer reply is not read past max + 1 bytes; *over says so. */
static char *read_reply(const char *path, size_t max, size_t *len, bool *over,
                        unsigned long long *size, FILE *err)
{
    char *reply = cc_read_bounded(path, max, len, over, size);
    if (!reply)
        fprintf(err, "contractc validate: cannot read %s: %s\n",
                strcmp(path, "-") == 0 ? "standard input" : path, strerror(errno));
    return reply;
}

/* `contractc validate`; info gets the note on check rules (NULL: -q). */
static int cmd_validate(int argc, char **argv, FILE *out, FILE *info, FILE *err)
{
    const char *contract_path = NULL, *reply_path = NULL, *source_path = NULL;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--source") == 0 && i + 1 < argc)
            source_path = argv[++i];
        else if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(err, "contractc validate: unknown option '%s'\n%s", argv[i], usage_text);
            return EXIT_USAGE;
        } else if (!contract_path)
            contract_path = argv[i];
        else if (!reply_path)
            reply_path = argv[i];
        else {
            fprintf(err, "contractc validate: unexpected argument '%s'\n%s", argv[i], usage_text);
            return EXIT_USAGE;
        }
    }
    if (!contract_path || !reply_path) {
        fprintf(err, "contractc validate: needs CONTRACT and REPLY\n%s", usage_text);
        return EXIT_USAGE;
    }
    int stdin_uses = (strcmp(contract_path, "-") == 0) + (strcmp(reply_path, "-") == 0) +
                     (source_path && strcmp(source_path, "-") == 0);
    if (stdin_uses > 1) {
        fprintf(err, "contractc validate: only one of CONTRACT, REPLY and --source can be - "
                     "(standard input)\n");
        return EXIT_USAGE;
    }
    cc_contract_t *m = load(contract_path, err, false);
    if (!m)
        return EXIT_USAGE;
    if (m->has_source && !source_path) {
        fprintf(err, "contractc validate: %s grounds values in %s: give it with --source FILE\n",
                contract_path, m->source_name ? m->source_name : "a source text");
        cc_contract_free(m);
        return EXIT_USAGE;
    }
    if (!m->has_source && source_path) {
        fprintf(err, "contractc validate: %s has no source; --source is not allowed\n", contract_path);
        cc_contract_free(m);
        return EXIT_USAGE;
    }
    int status = EXIT_USAGE;
    size_t reply_len = 0, source_len = 0;
    char *reply = NULL, *source = NULL, *value = NULL;
    cc_artifacts_t a;
    memset(&a, 0, sizeof a);
    cc_tables_t *t = NULL;
    void *record = NULL;
    bool parsed = false;
    cJSON *not_run = NULL;
    cc_buf_t text = CC_BUF_INIT;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    /* The reply is read up to the contract's reply.max_bytes + 1: a longer
     * one is rejected (kind limit) from what was read, never read whole. */
    size_t max = m->max_bytes < (uint64_t)SIZE_MAX ? (size_t)m->max_bytes : SIZE_MAX - 1;
    bool over = false;
    unsigned long long whole = 0;
    reply = read_reply(reply_path, max, &reply_len, &over, &whole, err);
    if (!reply)
        goto done;
    if (source_path) {
        /* the user's own text, not the model's: read whole (- is stdin) */
        bool source_over = false;
        unsigned long long source_size = 0;
        source = cc_read_bounded(source_path, SIZE_MAX - 1, &source_len, &source_over, &source_size);
        if (!source) {
            fprintf(err, "contractc validate: cannot read %s: %s\n",
                    strcmp(source_path, "-") == 0 ? "standard input" : source_path, strerror(errno));
            goto done;
        }
    }
    if (!cc_build_artifacts(m, &a) || !(t = cc_tables_build(m, a.hash)) ||
        !(record = calloc(1, t->contract.root->size)) || !(not_run = cJSON_CreateArray()) ||
        !list_not_run(&m->root, not_run, 0))
        goto oom;
    contractc_status_t rc;
    if (over) {
        /* the runtime's limit problem (same kind, place and form), with the
         * size when it is known without reading on (a regular file) */
        cc_buf_t msg = CC_BUF_INIT;
        if (whole > max)
            cc_buf_printf(&msg, "line 1, column 1: the reply is %llu bytes; the limit is %zu bytes",
                          whole, max);
        else
            cc_buf_printf(&msg, "line 1, column 1: the reply is more than %zu bytes; the limit is "
                                "%zu bytes", max, max);
        bool added = msg.data && !msg.failed &&
                     cc_problems_add(&problems, CONTRACTC_KIND_LIMIT, "$", 1, msg.data, msg.len,
                                     msg.data, msg.len, NULL, 1, 1);
        cc_buf_free(&msg);
        if (!added)
            goto oom;
        rc = CONTRACTC_REJECTED;
    } else {
        rc = contractc_parse(&t->contract, reply, reply_len, source, source_len, NULL, record,
                             &problems);
    }
    if (rc == CONTRACTC_ENOMEM)
        goto oom;
    if (rc == CONTRACTC_EINVAL) {
        fprintf(err, "contractc validate: %s\n", problems.error ? problems.error : contractc_status_name(rc));
        goto done;
    }
    parsed = rc == CONTRACTC_OK;
    if (parsed && !(value = contractc_to_json(&t->contract, record, NULL)))
        goto oom;
    if (cJSON_GetArraySize(not_run) > 0 && info) {
        fprintf(info, "contractc validate: note: check rules are the user's C code and did not run:");
        for (int k = 0; k < cJSON_GetArraySize(not_run); k++)
            fprintf(info, " %s", cJSON_GetArrayItem(not_run, k)->valuestring);
        fprintf(info, "\n");
    }
    /* The result is made whole before any of it is printed: out of memory
     * half way prints nothing on stdout (exit 2 with the message). */
    if (json) {
        char *line = validate_json(parsed, &problems, value, not_run);
        not_run = NULL;
        if (!line)
            goto oom;
        cc_buf_puts(&text, line);
        free(line);
    } else if (parsed) {
        cc_buf_puts(&text, value);
    } else {
        for (size_t i = 0; i < contractc_problems_count(&problems); i++) {
            const contractc_problem_t *p = contractc_problems_at(&problems, i);
            cc_buf_printf(&text, "%s: %s\n", p->path, p->message);
        }
        if (problems.dropped)
            cc_buf_printf(&text, "... and %zu more", problems.dropped);
    }
    if (json || parsed || problems.dropped)
        cc_buf_putc(&text, '\n');
    if (!text.data || text.failed)
        goto oom;
    /* a failed write is reported by cc_cli_main's cc_out_finish */
    cc_out_write(out, text.data, text.len);
    status = parsed ? 0 : EXIT_REJECTED;
    goto done;
oom:
    fprintf(err, "contractc validate: out of memory\n");
done:
    cc_buf_free(&text);
    cJSON_Delete(not_run);
    free(value);
    if (parsed)
        contractc_record_free(&t->contract, record);
    contractc_problems_clear(&problems);
    free(record);
    cc_tables_free(t);
    cc_artifacts_free(&a);
    free(reply);
    free(source);
    cc_contract_free(m);
    return status;
}

/* `contractc toolset NAME CONTRACT... -o DIR [--check]` (docs/tools.md,
 * "Generated toolsets"): every contract is loaded and hashed as generate
 * would, then NAME.h and NAME.c are written (or compared). */
static int cmd_toolset(int argc, char **argv, FILE *out, FILE *err)
{
    const char *dir = NULL, *name = NULL;
    bool check = false;
    const char **contracts = calloc((size_t)argc + 1, sizeof *contracts);
    size_t count = 0;
    if (!contracts) {
        fprintf(err, "contractc: out of memory\n");
        return 1;
    }
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "--check") == 0) {
            check = true;
        } else if (argv[i][0] == '-') {
            /* no standard input here: each contract's NAME.h is included */
            fprintf(err, "contractc toolset: unknown option '%s'\n%s", argv[i], usage_text);
            free(contracts);
            return EXIT_USAGE;
        } else if (!name) {
            name = argv[i];
        } else {
            contracts[count++] = argv[i];
        }
    }
    if (!name || count == 0 || !dir || dir[0] == '\0') {
        fprintf(err, "contractc toolset: needs NAME, CONTRACT... and -o DIR\n%s", usage_text);
        free(contracts);
        return EXIT_USAGE;
    }
    cc_contract_t **models = calloc(count, sizeof *models);
    cc_toolset_member_t *members = calloc(count, sizeof *members);
    char (*hashes)[72] = calloc(count, sizeof *hashes);
    int status = models && members && hashes ? 0 : 1;
    for (size_t i = 0; status == 0 && i < count; i++) {
        if (!(models[i] = load(contracts[i], err, false))) {
            status = 1;
            break;
        }
        cc_artifacts_t a;
        if (!cc_build_artifacts(models[i], &a)) {
            fprintf(err, "contractc: out of memory hashing %s\n", contracts[i]);
            status = 1;
            break;
        }
        memcpy(hashes[i], a.hash, sizeof hashes[i]);
        cc_artifacts_free(&a);
        members[i] = (cc_toolset_member_t){models[i]->name, models[i]->file_name, hashes[i]};
    }
    char why[256];
    if (status == 0 && !cc_toolset_name_ok(name, members, count, why, sizeof why)) {
        fprintf(err, "contractc toolset: %s\n", why);
        status = EXIT_USAGE;
    }
    char *header = NULL, *source = NULL;
    size_t header_len = 0, source_len = 0;
    if (status == 0 &&
        !cc_emit_toolset(name, members, count, &header, &header_len, &source, &source_len)) {
        fprintf(err, "contractc: out of memory generating the toolset %s\n", name);
        status = 1;
    }
    if (status == 0 && !check && !cc_make_dirs(dir, "toolset", err))
        status = 1;
    /* the command that regenerates the files, for --check */
    cc_buf_t regen = CC_BUF_INIT;
    cc_buf_puts(&regen, "contractc toolset ");
    shell_word(&regen, name);
    for (size_t i = 0; i < count; i++) {
        cc_buf_putc(&regen, ' ');
        shell_word(&regen, contracts[i]);
    }
    cc_buf_puts(&regen, " -o ");
    shell_word(&regen, dir);
    const struct { const char *ext; const char *data; size_t len; } files[] = {
        {".h", header, header_len}, {".c", source, source_len}};
    for (size_t k = 0; status == 0 && k < 2; k++) {
        char *path = join_path(dir, name, files[k].ext);
        if (!path) {
            fprintf(err, "contractc: out of memory writing %s%s\n", name, files[k].ext);
            status = 1;
        } else if (check) {
            if (!check_file(out, path, files[k].data, files[k].len, "the contracts",
                            regen.failed ? NULL : regen.data))
                status = 1;
        } else if (cc_write_file_if_changed(path, files[k].data, files[k].len, "toolset", err) <
                   0) {
            status = 1;
        }
        free(path);
    }
    cc_buf_free(&regen);
    free(header);
    free(source);
    for (size_t i = 0; models && i < count; i++)
        cc_contract_free(models[i]);
    free(models);
    free(members);
    free(hashes);
    free(contracts);
    return status;
}

/* How many times import names types again, at most (each time with the
 * type names the loader found taken added to the ones to avoid). */
#define IMPORT_MAX_AVOID 16

/* The types whose C names collide with a field's own (naming.c's "...
 * collides with that of type 'X'"; the field's name comes from the schema's
 * key and cannot change, the type's is import's choice): appended to avoid
 * (strdup'd, *n of IMPORT_MAX_AVOID).  False when none is new or there is
 * no room: the loader's refusal stands. */
static bool import_avoid_more(const cc_diags_t *d, const char **avoid, size_t *n)
{
    static const char marker[] = "collides with that of type '";
    bool more = false;
    for (size_t i = 0; i < d->count; i++) {
        const char *m = d->items[i].message ? strstr(d->items[i].message, marker) : NULL;
        if (!m)
            continue;
        m += sizeof marker - 1;
        const char *q = strchr(m, '\'');
        if (!q)
            continue;
        bool have = false;
        for (size_t k = 0; k < *n && !have; k++)
            have = strlen(avoid[k]) == (size_t)(q - m) && strncmp(avoid[k], m, (size_t)(q - m)) == 0;
        if (have || *n == IMPORT_MAX_AVOID)
            continue;
        char *name = malloc((size_t)(q - m) + 1);
        if (!name)
            return false;
        memcpy(name, m, (size_t)(q - m));
        name[q - m] = 0;
        avoid[(*n)++] = name;
        more = true;
    }
    return more;
}

/* `contractc import SCHEMA.json [--name NAME] [--pointer P] [--lenient]
 * [-o FILE]` (docs/contract-language.md §17): import.c writes the contract
 * and the ledger; the contract is loaded here before it is written, so what
 * is written always lints clean (a contract the loader refuses is exit 1,
 * with its diagnostics). */
static int cmd_import(int argc, char **argv, FILE *out, FILE *err)
{
    const char *path = NULL, *output = NULL;
    cc_import_options_t opt = {NULL, NULL, NULL, false, NULL, 0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
            opt.name = argv[++i];
        } else if (strcmp(argv[i], "--pointer") == 0 && i + 1 < argc) {
            opt.pointer = argv[++i];
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            output = argv[++i];
        } else if (strcmp(argv[i], "--lenient") == 0) {
            opt.lenient = true;
        } else if (!path && !(argv[i][0] == '-' && argv[i][1])) {
            path = argv[i];
        } else {
            fprintf(err, "contractc import: unexpected argument '%s'\n%s", argv[i],
                    help_of("import"));
            return EXIT_USAGE;
        }
    }
    if (!path) {
        fprintf(err, "contractc import: needs SCHEMA.json\n%s", help_of("import"));
        return EXIT_USAGE;
    }
    if (opt.name && !cc_import_name_ok(opt.name)) {
        fprintf(err, "contractc import: --name '%s' is not a contract name: [a-z][a-z0-9_]*, "
                     "not a C keyword or a reserved name\n", opt.name);
        return EXIT_USAGE;
    }
    opt.file_name = path;
    size_t len = 0;
    bool over = false;
    unsigned long long size = 0;
    const size_t max = (size_t)64 << 20;
    char *text = cc_read_bounded(path, max, &len, &over, &size);
    if (!text) {
        fprintf(err, "contractc import: cannot read %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    if (over) {
        fprintf(err, "contractc import: %s is larger than 64 MiB\n", path);
        free(text);
        return EXIT_USAGE;
    }
    cc_buf_t report = CC_BUF_INIT;
    char *yaml = NULL;
    size_t yaml_len = 0;
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = NULL;
    const char *avoid[IMPORT_MAX_AVOID];
    opt.avoid = avoid;
    int rc;
    for (;;) {
        rc = cc_import(text, len, &opt, &yaml, &yaml_len, &report);
        if (rc != CC_IMPORT_OK)
            break;
        m = cc_contract_load_buffer("<imported>", yaml, yaml_len, &d);
        /* a type whose C names a field's own took: named again, once more */
        if ((m && !d.errors) || !import_avoid_more(&d, avoid, &opt.avoid_count))
            break;
        cc_contract_free(m);
        m = NULL;
        free(yaml);
        yaml = NULL;
        cc_buf_free(&report);
        cc_diags_free(&d);
        cc_diags_init(&d);
    }
    free(text);
    if (rc != CC_IMPORT_OK) {
        for (size_t i = 0; i < opt.avoid_count; i++)
            free((char *)avoid[i]);
        cc_diags_free(&d);
        if (rc == CC_IMPORT_REFUSED)
            fprintf(err, "contractc import: %s is not importable:\n", path);
        else
            fprintf(err, "contractc import: %s: ", path);
        if (report.data)
            fputs(report.data, err);
        if (rc == CC_IMPORT_REFUSED)
            fputs("(--lenient drops what cannot be carried)\n", err);
        cc_buf_free(&report);
        return rc;
    }
    for (size_t i = 0; i < opt.avoid_count; i++)
        free((char *)avoid[i]);
    if (!m || d.errors) {
        fprintf(err, "contractc import: the contract made from %s does not load:\n", path);
        cc_diags_print(&d, err);
        rc = CC_IMPORT_REFUSED;
    }
    cc_contract_free(m);
    cc_diags_free(&d);
    if (report.data)
        fputs(report.data, err);
    cc_buf_free(&report);
    if (rc == CC_IMPORT_OK) {
        if (output) {
            if (cc_write_file_if_changed(output, yaml, yaml_len, "import", err) < 0)
                rc = 1;
        } else {
            cc_out_write(out, yaml, yaml_len); /* checked by cc_cli_main's cc_out_finish */
        }
    }
    free(yaml);
    return rc;
}

/* One command's run, before its output is flushed; info is err, or NULL
 * with -q. */
static int run_command(const char *cmd, int rest, char **args, FILE *out, FILE *info, FILE *err)
{
    if (strcmp(cmd, "generate") == 0)
        return cmd_generate(rest, args, out, info, err);
    if (strcmp(cmd, "lint") == 0)
        return cmd_lint(rest, args, err);
    if (strcmp(cmd, "validate") == 0)
        return cmd_validate(rest, args, out, info, err);
    if (strcmp(cmd, "schema") == 0)
        return cmd_print(rest, args, out, info, err, true);
    if (strcmp(cmd, "prompt") == 0)
        return cmd_print(rest, args, out, info, err, false);
    if (strcmp(cmd, "grammar") == 0)
        return cmd_grammar(rest, args, out, info, err);
    if (strcmp(cmd, "stats") == 0) {
        if (!stdin_once((const char *const *)args, (size_t)rest, "stats", "LOG", err))
            return EXIT_USAGE;
        return cc_stats_main(rest, args, out, err);
    }
    if (strcmp(cmd, "toolset") == 0)
        return cmd_toolset(rest, args, out, err);
    if (strcmp(cmd, "import") == 0)
        return cmd_import(rest, args, out, err);
    if (strcmp(cmd, "vendor") == 0)
        return cc_vendor_main(rest, args, info, err);
    fprintf(err, "contractc: unknown command '%s'\n%s", cmd, usage_text);
    return EXIT_USAGE;
}

static bool is_quiet(const char *arg)
{
    return strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0;
}

int cc_cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    /* -q/--quiet, anywhere after the program name, is taken out here: the
     * commands see the other arguments, and info (NULL) for their
     * informational lines */
    bool quiet = false;
    char *few[32]; /* the usual command line needs no allocation */
    char **args = argc < 32 ? few : malloc(((size_t)argc + 1) * sizeof *args);
    if (!args) {
        fprintf(err, "contractc: out of memory\n");
        /* validate's 1 means "rejected" */
        return argc > 1 && strcmp(argv[1], "validate") == 0 ? EXIT_USAGE : 1;
    }
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && is_quiet(argv[i]))
            quiet = true;
        else
            args[n++] = argv[i];
    }
    args[n] = NULL;
    argc = n;
    argv = args;
    FILE *info = quiet ? NULL : err;
    if (argc < 2) {
        fputs(usage_text, err);
        if (args != few)
            free(args);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    int status;
    if (strcmp(cmd, "help") == 0 && argc >= 3) {
        /* contractc help CMD: CMD --help */
        const char *help = help_of(argv[2]);
        if (help && argc == 3) {
            fputs(help, out);
            status = 0;
        } else {
            if (help)
                fprintf(err, "contractc help: one COMMAND, not '%s' too\n", argv[3]);
            else
                fprintf(err, "contractc help: unknown command '%s'\n%s", argv[2], usage_text);
            status = EXIT_USAGE;
        }
        cmd = NULL;
    } else if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, out);
        status = 0;
        cmd = NULL;
    } else if (strcmp(cmd, "--version") == 0) {
        fprintf(out, "contractc %s (descriptor ABI %d)\n", CONTRACTC_VERSION, CONTRACTC_ABI_VERSION);
        status = 0;
        cmd = NULL;
    } else {
        const char *help = help_of(cmd);
        bool wants_help = false;
        for (int i = 2; help && i < argc; i++)
            wants_help = wants_help || strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
        if (wants_help) {
            fputs(help, out);
            status = 0;
        } else {
            status = run_command(cmd, argc - 2, argv + 2, out, info, err);
        }
    }
    /* Every command's output is checked here, flush included: a full disk
     * is an error exit, never a truncated result with exit 0.  validate's
     * 1 means "rejected", so its write failure is 2. */
    if (!cc_out_finish(out, err, cmd)) {
        if (cmd && strcmp(cmd, "validate") == 0)
            status = EXIT_USAGE;
        else if (status == 0)
            status = 1;
    }
    if (args != few)
        free(args);
    return status;
}
