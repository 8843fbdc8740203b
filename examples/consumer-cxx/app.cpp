/* SPDX-License-Identifier: MIT */
// app.cpp - a C++17 program outside the contractc tree, in a CMake project
// that enables C++ alone (project(ticket_triage CXX)): contractc_generate()
// compiles the generated ticket.c as C and this file includes ticket.h from
// C++ (its extern "C" block keeps the names unmangled).  One support ticket,
// a reply with three problems (rejected, every problem at its path) and the
// model's corrected reply (accepted, the fields checked).
//
// Exit status: 0 when the first reply is rejected with exactly the three
// problems and the second accepted with the expected values, 1 otherwise.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ticket.h"

namespace {

constexpr std::string_view ticket_text =
    "From: ops@larchmont-dental.example\n"
    "Subject: Booking calendar down since this morning\n"
    "\n"
    "Hi, since about 8am none of our three practices can open the booking\n"
    "calendar. It just shows a spinner. Patients are calling and we cannot see\n"
    "who is booked. We cannot take or move any appointments until this is fixed.\n"
    "We are on the Practice Plus plan.\n"
    "\n"
    "Thanks, Dana (office manager)\n";

constexpr std::string_view first_reply =
    R"({"summary": "The booking calendar will not load in any of the three practices.",)"
    R"( "urgency": "urgent", "score": "4", "tags": ["calendar", 503, "outage"],)"
    R"( "customer_quote": "We cannot take or move any appointments until this is fixed."})";

constexpr std::string_view second_reply =
    R"({"summary":"The booking calendar will not load in any of the three practices.",)"
    R"("urgency":"high","score":5,"tags":["calendar","outage","practice-plus"],)"
    R"("customer_quote":"We cannot take or move any appointments until this is fixed."})";

// The problem list, cleared when it goes out of scope.
struct problem_list {
    contractc_problems_t list;
    problem_list() { contractc_problems_init(&list); }
    ~problem_list() { contractc_problems_clear(&list); }
    problem_list(const problem_list &) = delete;
    problem_list &operator=(const problem_list &) = delete;

    std::vector<std::string> paths() const
    {
        std::vector<std::string> out;
        for (size_t i = 0; i < contractc_problems_count(&list); i++)
            out.emplace_back(contractc_problems_at(&list, i)->path);
        return out;
    }
};

// A parsed record, freed when it goes out of scope.
struct record_deleter {
    void operator()(ticket_t *record) const
    {
        ticket_free(record);
        delete record;
    }
};
using record_ptr = std::unique_ptr<ticket_t, record_deleter>;

// Parses one reply: the record when accepted, else null (problems filled in).
record_ptr parse(std::string_view reply, problem_list &problems)
{
    auto *record = new ticket_t();
    contractc_status_t st = ticket_parse(reply.data(), reply.size(), ticket_text.data(),
                                         ticket_text.size(), record, &problems.list);
    if (st != CONTRACTC_OK) {
        std::printf("%s:\n", contractc_status_name(st));
        for (size_t i = 0; i < contractc_problems_count(&problems.list); i++) {
            const contractc_problem_t *p = contractc_problems_at(&problems.list, i);
            std::printf("  %s: %s\n", p->path, p->message);
        }
        delete record; // a rejected parse leaves nothing to free
        return nullptr;
    }
    return record_ptr(record);
}

bool check(bool ok, const char *what)
{
    if (!ok)
        std::printf("FAILED: %s\n", what);
    return ok;
}

} // namespace

int main()
{
    std::printf("contract %s (runtime %s), schema dialect %s\n", ticket_contract_hash,
                CONTRACTC_VERSION, ticket_dialects[0] ? ticket_dialects[0] : "(none)");
    bool ok = true;

    // The contract's own dialect (schema: {dialect: openai-strict}) is
    // compiled in: ticket_schema_openai_strict_json exists only for a
    // generated dialect.
    ok &= check(ticket_dialects[0] && std::string_view(ticket_dialects[0]) == "openai-strict" &&
                    !ticket_dialects[1] && ticket_schema_openai_strict_json_len > 0 &&
                    ticket_schema_openai_strict_json[0] == '{',
                "the contract's openai-strict schema is compiled in");

    problem_list first_problems;
    record_ptr first = parse(first_reply, first_problems);
    const std::vector<std::string> want = {"$.urgency", "$.score", "$.tags[1]"};
    ok &= check(!first && first_problems.paths() == want,
                "the first reply is rejected at $.urgency, $.score and $.tags[1]");

    problem_list second_problems;
    record_ptr second = parse(second_reply, second_problems);
    ok &= check(second != nullptr, "the second reply is accepted");
    if (second) {
        const ticket_t &t = *second;
        ok &= check(t.urgency == TICKET_URGENCY_HIGH && t.score == 5, "urgency high, score 5");
        ok &= check(t.tags_count == 3 && std::string_view(t.tags[2].data, t.tags[2].len) == "practice-plus",
                    "three tags, the last practice-plus");
        ok &= check(t.has_customer_quote && ticket_text.find(t.customer_quote) != std::string_view::npos,
                    "the quote is taken from the ticket");
        char *json = ticket_to_json(&t, nullptr);
        std::printf("accepted: %s\n", json ? json : "(out of memory)");
        std::free(json);
        std::printf("triage: urgency high, severity %lld, %zu tags\n",
                    static_cast<long long>(t.score), t.tags_count);
    }
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
