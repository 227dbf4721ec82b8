// The C API of gbench.h over Google Benchmark 1.7.1.
#include "gbench.h"

#include <benchmark/benchmark.h>
#include <regex.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "args.h"
}

static_assert(int{GB_COUNTER_RATE} == int{benchmark::Counter::kIsRate}, "");
static_assert(int{GB_COUNTER_ITERATION_INVARIANT} ==
                  int{benchmark::Counter::kIsIterationInvariant}, "");
static_assert(int{GB_COUNTER_AVG_ITERATIONS} ==
                  int{benchmark::Counter::kAvgIterations}, "");

namespace {

benchmark::State &state_of(gb_state *s)
{
    return *reinterpret_cast<benchmark::State *>(s);
}

const benchmark::State &state_of(const gb_state *s)
{
    return *reinterpret_cast<const benchmark::State *>(s);
}

// Every registered name, to count what the filter selects, and the ones
// started so far, for progress.
std::vector<std::string> registered;
std::set<std::string> started;
size_t selected;
std::chrono::steady_clock::time_point run_start;
double excluded_seconds; // gb_progress_exclude's

std::string minutes_seconds(double seconds)
{
    char buf[32];
    long s = static_cast<long>(seconds + 0.5);
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// "[n/N] name", and once some have run, the time so far and an estimate of
// the time left at the average pace.
void note_started(const std::string &name)
{
    if (!started.insert(name).second)
        return;
    size_t done = started.size() - 1;
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - run_start;
    std::string eta;
    if (done > 0) {
        double pace = (elapsed.count() - excluded_seconds) / done;
        eta = " (" + minutes_seconds(elapsed.count()) + " elapsed, about " +
              minutes_seconds(pace * (selected - done)) + " left)";
    }
    std::fprintf(stderr, "[%zu/%zu] %s%s\n", started.size(), selected,
                 name.c_str(), eta.c_str());
}

// The filter as RunSpecifiedBenchmarks applies it (a POSIX extended regex
// searched in the name, "all" for everything, a leading '-' negating),
// because 1.7.1 has no public way to ask which benchmarks it selects.
struct {
    regex_t re;
    bool negative;
} name_filter;

int compile_filter(char *err, size_t errlen)
{
    std::string filter = benchmark::GetBenchmarkFilter();
    std::string spec = filter.empty() || filter == "all" ? "." : filter;
    name_filter.negative = spec[0] == '-';
    if (name_filter.negative)
        spec.erase(0, 1);
    int rc = regcomp(&name_filter.re, spec.c_str(), REG_EXTENDED | REG_NOSUB);
    if (rc == 0)
        return 0;
    char why[128], q[128];
    regerror(rc, &name_filter.re, why, sizeof why);
    std::snprintf(err, errlen, "--benchmark_filter=%s is not a valid "
                  "extended regex (%s)", cli_quote(filter.c_str(), q, sizeof q),
                  why);
    return -1;
}

bool has_flag(const std::vector<char *> &args, const char *flag)
{
    size_t n = std::strlen(flag);
    for (char *a : args)
        if (std::strncmp(a, flag, n) == 0 && (a[n] == '=' || a[n] == '\0'))
            return true;
    return false;
}

// The counters gb_state_set_timed_calls leaves for the reports: the library
// aggregates counters over repetitions, so the per-call time's mean,
// median, stddev and cv arrive here computed like any counter's.
const char kTimedCalls[] = "cyclebench:timed_calls";
const char kSecondsPerCall[] = "cyclebench:seconds_per_call";

// Google Benchmark's iterations, real_time and cpu_time are the calls
// timed and the time per call (accumulated time over iterations). The
// library calls each benchmark once and times the whole call, warm-up and
// bookkeeping included; a benchmark that timed its calls itself is reported
// as what it timed. For an aggregate the library has already set iterations
// to the repetitions; its cv (a percentage) is written as it stands.
std::vector<benchmark::BenchmarkReporter::Run>
per_call(std::vector<benchmark::BenchmarkReporter::Run> runs)
{
    using Run = benchmark::BenchmarkReporter::Run;
    for (Run &r : runs) {
        auto seconds = r.counters.find(kSecondsPerCall);
        auto calls = r.counters.find(kTimedCalls);
        if (seconds == r.counters.end() || calls == r.counters.end())
            continue;
        if (r.run_type == Run::RT_Iteration)
            r.iterations = static_cast<benchmark::IterationCount>(
                calls->second.value);
        double scale = r.run_type == Run::RT_Aggregate &&
                               r.aggregate_unit == benchmark::kPercentage
                           ? 1.0
                           : static_cast<double>(r.iterations);
        r.real_accumulated_time = seconds->second.value * scale;
        r.cpu_accumulated_time = r.real_accumulated_time;
        r.counters.erase(seconds);
        r.counters.erase(calls);
    }
    return runs;
}

// Hands every report to the display and to the file reports, so one run
// writes them all and the caller decides where (and how atomically) the
// files go.
class TeeReporter : public benchmark::BenchmarkReporter {
public:
    explicit TeeReporter(benchmark::BenchmarkReporter *display)
        : display_(display) {}
    void add(benchmark::BenchmarkReporter *r) { files_.push_back(r); }
    long instances() const { return instances_; }

    // The display's machine description goes to stderr as before; after
    // the library's DEBUG warning, a word on why it does not touch ours.
    bool ReportContext(const Context &context) override
    {
        for (auto *r : files_)
            r->ReportContext(context);
        std::ostringstream description;
        std::ostream *err = &display_->GetErrorStream();
        display_->SetErrorStream(&description);
        bool ok = display_->ReportContext(context);
        display_->SetErrorStream(err);
        *err << description.str();
        if (description.str().find("built as DEBUG") != std::string::npos)
            *err << "cyclebench: that warning is about Google Benchmark's own "
                    "timing loop. cyclebench's figures come from fenced RDTSC "
                    "reads around its own batches of kernel calls, built -O3; "
                    "the library only calls each benchmark once and writes "
                    "the reports.\n";
        return ok;
    }
    void ReportRuns(const std::vector<Run> &runs) override
    {
        std::vector<Run> timed = per_call(runs);
        instances_++;
        display_->ReportRuns(timed);
        for (auto *r : files_)
            r->ReportRuns(timed);
    }
    void Finalize() override
    {
        display_->Finalize();
        for (auto *r : files_)
            r->Finalize();
    }

private:
    benchmark::BenchmarkReporter *display_;
    std::vector<benchmark::BenchmarkReporter *> files_;
    long instances_ = 0;
};

std::unique_ptr<benchmark::BenchmarkReporter> make_reporter(gb_format f)
{
    switch (f) {
    case GB_FORMAT_JSON:
        return std::unique_ptr<benchmark::BenchmarkReporter>(
            new benchmark::JSONReporter);
    case GB_FORMAT_CSV:
// 1.7.1 marks its CSV reporter deprecated; it is still the format
// --benchmark_out_format=csv writes, and what the results' CSV is.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        return std::unique_ptr<benchmark::BenchmarkReporter>(
            new benchmark::CSVReporter);
#pragma GCC diagnostic pop
    default:
        return std::unique_ptr<benchmark::BenchmarkReporter>(
            new benchmark::ConsoleReporter(benchmark::ConsoleReporter::OO_None));
    }
}

} // namespace

extern "C" {

int gb_parse_format(const char *name, gb_format *out)
{
    static const struct {
        const char *name;
        gb_format format;
    } formats[] = { { "console", GB_FORMAT_CONSOLE },
                    { "json", GB_FORMAT_JSON },
                    { "csv", GB_FORMAT_CSV } };
    for (const auto &f : formats)
        if (std::strcmp(name, f.name) == 0) {
            *out = f.format;
            return 0;
        }
    return -1;
}

int gb_initialize(int argc, char **argv, char *err, size_t errlen)
{
    // Google Benchmark keeps pointers into argv (argv[0] names the
    // executable in reports), so the vector lives as long as the process.
    static std::vector<char *> args;
    static char tabular[] = "--benchmark_counters_tabular=true";
    // The benchmark functions sample for themselves (sampler.h): a minimum
    // time of nothing makes the library take the first call's report
    // instead of calling again with more iterations. (Iterations(1) would
    // do that too, but renames every benchmark "<name>/iterations:1".)
    static char no_min_time[] = "--benchmark_min_time=0.000000001";
    args.assign(argv, argv + argc);
    if (!has_flag(args, "--benchmark_counters_tabular"))
        args.push_back(tabular);
    args.push_back(no_min_time);
    int n = static_cast<int>(args.size());
    args.push_back(nullptr);
    // Google Benchmark explains a malformed value on std::cerr and leaves
    // the flag in argv; caught here, its words become our one-line error.
    std::ostringstream complaint;
    std::streambuf *cerr_buf = std::cerr.rdbuf(complaint.rdbuf());
    benchmark::Initialize(&n, args.data());
    std::cerr.rdbuf(cerr_buf);
    std::string why = complaint.str();
    why.erase(why.find_last_not_of(" \n") + 1);
    for (char &c : why) // it may echo a value: one line, still
        if (static_cast<unsigned char>(c) < 0x20)
            c = ' ';
    char q[128];
    if (n > 1 && why.empty())
        std::snprintf(err, errlen, "unknown flag %s: see the --benchmark_* "
                      "flags of Google Benchmark 1.7.1",
                      cli_quote(args[1], q, sizeof q));
    else if (n > 1)
        std::snprintf(err, errlen, "bad value in %s: %s",
                      cli_quote(args[1], q, sizeof q), why.c_str());
    if (n > 1)
        return -1;
    std::cerr << complaint.str();
    return compile_filter(err, errlen);
}

void gb_register(const char *name, gb_function *fn, void *arg)
{
    std::string n(name);
    registered.push_back(n);
    benchmark::RegisterBenchmark(name, [fn, arg, n](benchmark::State &st) {
        note_started(n);
        fn(reinterpret_cast<gb_state *>(&st), arg);
    });
}

void gb_add_context(const char *key, const char *value)
{
    std::string v(value);
    for (char &c : v)
        if (c == '"')
            c = '\'';
        else if (c == '\\')
            c = '/';
        else if (static_cast<unsigned char>(c) < 0x20)
            c = ' ';
    benchmark::AddCustomContext(key, v);
}

const char *gb_filter(void)
{
    static std::string filter;
    filter = benchmark::GetBenchmarkFilter();
    return filter.empty() ? "all" : filter.c_str();
}

int gb_selected(const char *name)
{
    return (regexec(&name_filter.re, name, 0, nullptr, 0) == 0) !=
           name_filter.negative;
}

long gb_run(const gb_format *formats, char **reports, size_t n_reports)
{
    selected = 0;
    for (const std::string &name : registered)
        selected += gb_selected(name.c_str());
    started.clear();
    run_start = std::chrono::steady_clock::now();
    excluded_seconds = 0;

    TeeReporter tee(benchmark::CreateDefaultDisplayReporter());
    std::vector<std::unique_ptr<benchmark::BenchmarkReporter>> files;
    std::vector<std::ostringstream> texts(n_reports);
    // Google Benchmark's CSV report starts with the machine description
    // (its "error stream"), which no CSV reader expects: that goes nowhere.
    std::ostringstream discarded;
    for (size_t i = 0; i < n_reports; i++) {
        files.push_back(make_reporter(formats[i]));
        files.back()->SetOutputStream(&texts[i]);
        files.back()->SetErrorStream(formats[i] == GB_FORMAT_CSV ? &discarded
                                                                 : &texts[i]);
        tee.add(files.back().get());
    }
    benchmark::RunSpecifiedBenchmarks(&tee);
    for (size_t i = 0; i < n_reports; i++)
        reports[i] = strdup(texts[i].str().c_str());
    return tee.instances();
}

void gb_progress_exclude(double seconds)
{
    excluded_seconds += seconds;
}

uint64_t gb_state_max_iterations(const gb_state *s)
{
    return static_cast<uint64_t>(state_of(s).max_iterations);
}

int gb_state_keep_running_batch(gb_state *s, uint64_t n)
{
    return state_of(s).KeepRunningBatch(static_cast<benchmark::IterationCount>(n));
}

void gb_state_set_timed_calls(gb_state *s, uint64_t calls,
                              double seconds_per_call)
{
    benchmark::State &st = state_of(s);
    st.counters[kTimedCalls] = benchmark::Counter(static_cast<double>(calls));
    st.counters[kSecondsPerCall] = benchmark::Counter(seconds_per_call);
}

void gb_state_set_counter(gb_state *s, const char *name, double value,
                          gb_counter_flags flags)
{
    state_of(s).counters[name] =
        benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(flags));
}

void gb_state_set_label(gb_state *s, const char *label)
{
    state_of(s).SetLabel(label);
}

void gb_state_skip_with_error(gb_state *s, const char *message)
{
    state_of(s).SkipWithError(message);
}

} // extern "C"
