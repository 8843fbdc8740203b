/* SPDX-License-Identifier: MIT */
/*
 * bench_simdjson.cpp - the limit references: simdjson's DOM parse (no
 * validation against any contract) and its UTF-8 check alone.
 *
 *   bench_simdjson MODE RUNNER CORPUS [SECONDS]
 *
 * RUNNER: simdjson (dom::parser::parse, one parser reused, as its
 * documentation recommends) or utf8 (simdjson::validate_utf8).  MODE:
 * time | verdicts | once, with bench_c's output (bench_c.c); `once` makes an
 * uncounted warm-up pass first, as bench_c's does (here the first parse also
 * allocates the parser's buffers: not per-reply work either).
 * Replies are copied into padded_strings at load time: simdjson needs
 * SIMDJSON_PADDING readable bytes past the end, and a caller that reads
 * replies off the network can allocate them padded for free.
 */
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "corpus.h"

namespace {

double now_ns()
{
    return std::chrono::duration<double, std::nano>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool g_utf8 = false;

bool run_one(simdjson::dom::parser &parser, const simdjson::padded_string &s)
{
    if (g_utf8)
        return simdjson::validate_utf8(s.data(), s.size());
    simdjson::dom::element doc;
    return parser.parse(s).get(doc) == simdjson::SUCCESS;
}

} // namespace

extern "C" __attribute__((noinline)) size_t bench_pass(simdjson::dom::parser *parser,
                                                       const std::vector<simdjson::padded_string> *c)
{
    size_t ok = 0;
    for (const auto &s : *c)
        ok += run_one(*parser, s);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_simdjson time|verdicts|once simdjson|utf8 CORPUS [SECONDS]\n");
        return 2;
    }
    std::string mode = argv[1], runner = argv[2];
    g_utf8 = runner == "utf8";
    if (!g_utf8 && runner != "simdjson")
        return 2;
    double seconds = argc > 4 ? std::atof(argv[4]) : 0.3;
    bench_corpus_t c;
    if (bench_corpus_read(argv[3], &c) != 0)
        return 1;
    std::vector<simdjson::padded_string> replies;
    for (size_t i = 0; i < c.count; i++)
        replies.emplace_back(c.items[i].reply, c.items[i].reply_len);
    simdjson::dom::parser parser;
    if (mode == "verdicts") {
        for (const auto &s : replies)
            std::putchar(run_one(parser, s) ? '1' : '0');
        std::putchar('\n');
    } else if (mode == "once") {
        for (const auto &s : replies) // warm-up, outside bench_pass: not counted
            (void)run_one(parser, s);
        size_t ok = bench_pass(&parser, &replies);
        std::printf("replies=%zu bytes=%zu accepted=%zu\n", c.count, c.bytes, ok);
    } else if (mode == "time") {
        std::vector<double> passes;
        bench_pass(&parser, &replies);
        double start = now_ns();
        while (passes.size() < 5 || now_ns() - start < seconds * 1e9) {
            double t0 = now_ns();
            bench_pass(&parser, &replies);
            passes.push_back(now_ns() - t0);
        }
        double m = median(passes);
        std::printf("ns_per_reply=%.1f mb_per_s=%.1f passes=%zu replies=%zu bytes=%zu\n",
                    m / (double)c.count, (double)c.bytes / m * 1e3, passes.size(), c.count, c.bytes);
    } else {
        bench_corpus_free(&c);
        return 2;
    }
    bench_corpus_free(&c);
    return 0;
}
