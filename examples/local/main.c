/* SPDX-License-Identifier: MIT */
/*
 * examples/local/main.c - a local model steered by the contract's GBNF
 * grammar (docs/grammar.md).
 *
 *   local_example EMAIL [GRAMMAR_OUT]
 *       grounds the generated grammar (refund_request_gbnf[]) in one email
 *       with contractc_gbnf_grounded(): amount_text can then only be a
 *       substring of that email.  Prints the sizes and the grounded rule;
 *       writes the whole grammar to GRAMMAR_OUT when given.
 *
 *   local_example EMAIL - MODEL.gguf      (built with llama.cpp only)
 *       also runs the model with llama_sampler_init_grammar(vocab, grammar,
 *       "root"), so every token it samples keeps the reply inside the
 *       grammar, then checks the reply with the strict parser, which still
 *       decides (rules, grounding, what the notes list).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <contractc/contractc.h>

#include "refund_request.h"

#ifdef CONTRACTC_HAVE_LLAMA
#include <llama.h>
#endif

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = realloc(b, cap * 2 + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        *len = n;
    }
    return b;
}

#ifdef CONTRACTC_HAVE_LLAMA
/* Generates one reply under the grammar; malloc'd text, or NULL. */
static char *generate(const char *model_path, const char *grammar, const char *prompt, size_t *len)
{
    llama_backend_init();
    struct llama_model *model = llama_model_load_from_file(model_path, llama_model_default_params());
    if (!model)
        return NULL;
    const struct llama_vocab *vocab = llama_model_get_vocab(model);
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = 4096;
    struct llama_context *ctx = llama_init_from_model(model, cp);
    struct llama_sampler *smpl = llama_sampler_chain_init(llama_sampler_chain_default_params());
    /* the grammar first: it masks every token that would leave it */
    llama_sampler_chain_add(smpl, llama_sampler_init_grammar(vocab, grammar, "root"));
    llama_sampler_chain_add(smpl, llama_sampler_init_greedy());

    int n_prompt = -llama_tokenize(vocab, prompt, (int32_t)strlen(prompt), NULL, 0, true, true);
    llama_token *tokens = malloc((size_t)n_prompt * sizeof *tokens);
    llama_tokenize(vocab, prompt, (int32_t)strlen(prompt), tokens, n_prompt, true, true);
    struct llama_batch batch = llama_batch_get_one(tokens, n_prompt);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    for (int i = 0; out && i < 1024 && llama_decode(ctx, batch) == 0; i++) {
        llama_token t = llama_sampler_sample(smpl, ctx, -1);
        if (llama_vocab_is_eog(vocab, t))
            break;
        char piece[256];
        int k = llama_token_to_piece(vocab, t, piece, sizeof piece, 0, true);
        if (k < 0 || n + (size_t)k >= cap)
            break;
        memcpy(out + n, piece, (size_t)k);
        n += (size_t)k;
        static llama_token next;
        next = t;
        batch = llama_batch_get_one(&next, 1);
    }
    free(tokens);
    llama_sampler_free(smpl);
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    *len = n;
    return out;
}
#endif

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: local_example EMAIL [GRAMMAR_OUT|-] [MODEL.gguf]\n");
        return 2;
    }
    size_t email_len;
    char *email = read_all(argv[1], &email_len);
    if (!email) {
        fprintf(stderr, "local_example: cannot read %s\n", argv[1]);
        return 2;
    }
    char *grammar = NULL;
    size_t grammar_len = 0;
    int rc = contractc_gbnf_grounded(refund_request_gbnf, refund_request_gbnf_len, email, email_len,
                                     &grammar, &grammar_len);
    if (rc < 0) {
        fprintf(stderr, "local_example: out of memory\n");
        free(email);
        return 1;
    }
    printf("base grammar %zu bytes; grounded in a %zu-byte email: %zu bytes (%s)\n",
           (size_t)refund_request_gbnf_len, email_len, grammar_len,
           rc == 0 ? "amount_text is a substring of the email" : "grounding left to the parser");
    /* the rewritten rule */
    const char *line = strstr(grammar, "\ngrounded-amount-text ::=");
    if (line) {
        const char *end = strchr(line + 1, '\n');
        printf("%.*s\n", (int)(end - line - 1), line + 1);
    }
    if (argc > 2 && strcmp(argv[2], "-") != 0) {
        FILE *f = fopen(argv[2], "wb");
        if (!f || fwrite(grammar, 1, grammar_len, f) != grammar_len || fclose(f) != 0) {
            fprintf(stderr, "local_example: cannot write %s\n", argv[2]);
            free(grammar);
            free(email);
            return 1;
        }
    }
    int status = 0;
    if (argc > 3) {
#ifdef CONTRACTC_HAVE_LLAMA
        size_t prompt_len = refund_request_prompt_len + email_len + 1;
        char *prompt = malloc(prompt_len);
        if (prompt) {
            memcpy(prompt, refund_request_prompt, refund_request_prompt_len);
            memcpy(prompt + refund_request_prompt_len, email, email_len);
            prompt[prompt_len - 1] = '\0';
        }
        size_t reply_len = 0;
        char *reply = prompt ? generate(argv[3], grammar, prompt, &reply_len) : NULL;
        free(prompt);
        if (!reply) {
            fprintf(stderr, "local_example: cannot run %s\n", argv[3]);
            status = 1;
        } else {
            refund_request_t rec;
            contractc_problems_t problems;
            contractc_problems_init(&problems);
            contractc_status_t st = refund_request_parse(reply, reply_len, email, email_len, &rec, &problems);
            printf("reply: %.*s\nparser: %s\n", (int)reply_len, reply,
                   st == CONTRACTC_OK ? "accepted" : "rejected");
            if (st == CONTRACTC_OK)
                refund_request_free(&rec);
            contractc_problems_clear(&problems);
            free(reply);
        }
#else
        fprintf(stderr, "local_example: built without llama.cpp (llama.h not found), so MODEL is not run\n");
        status = 2;
#endif
    }
    free(grammar);
    free(email);
    return status;
}
