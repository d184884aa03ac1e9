// SPDX-License-Identifier: MIT
// Findings on the real traces in tests/data/traces, checked against figures computed independently from the
// raw events: for the Nsight Systems export, SQL on the original file; for Kineto traces, the numbers printed
// by tests/data/kineto_ref.py (a stdlib-only Python parser), written down below with the command that made them.
#include "analysis/render/report_writer.h"
#include "profiler/base/units.h"
#include "profiler/importers/importer.h"
#include "tests/analysis/findings/trace_builder.h"

#include <nlohmann/json.hpp>

namespace placescope::testing {
namespace {

std::string dataPath(const std::string& name) { return std::string(PLACESCOPE_DATA_DIR) + "/traces/" + name; }

class RealTrace
{
public:
    explicit RealTrace(const std::string& file)
    {
        m_dir
            = std::filesystem::temp_directory_path() / ("ps_findings_real_" + std::to_string(::getpid()) + "_" + file);
        std::filesystem::create_directories(m_dir);
        m_path = (m_dir / "run.sqlite").string();
        auto imported = importTraces({ dataPath(file) }, m_path, ImportOptions {});
        m_ok = imported.isOk();
        m_error = m_ok ? std::string() : imported.status().message();
    }
    ~RealTrace() { std::filesystem::remove_all(m_dir); }
    bool ok() const { return m_ok; }
    const std::string& error() const { return m_error; }
    AnalysisReport analyze()
    {
        auto db = openTrace(m_path);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        auto report = analyzeTrace(*db, AnalysisOptions {});
        EXPECT_TRUE(report.isOk()) << report.status().message();
        return std::move(report.value());
    }

private:
    std::filesystem::path m_dir;
    std::string m_path;
    bool m_ok = false;
    std::string m_error;
};

int64_t rawInt(const std::string& file, const std::string& sql)
{
    auto db = SqliteDb::open(dataPath(file), SqliteDb::Mode::ReadOnly);
    EXPECT_TRUE(db.isOk());
    auto v = db->queryInt(sql);
    EXPECT_TRUE(v.isOk()) << v.status().message();
    return v.isOk() ? v.value() : -1;
}

const Evidence* evidenceStarting(const Finding& f, const std::string& prefix)
{
    for (const auto& e : f.evidence)
        if (e.what.rfind(prefix, 0) == 0)
            return &e;
    return nullptr;
}

TEST(FindingsRealTraces, NsysCloverLeafCopiesAgreeWithRawSql)
{
    const std::string file = "pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    RealTrace trace(file);
    ASSERT_TRUE(trace.ok()) << trace.error();
    auto report = trace.analyze();

    // Raw nsys export, independent of the importer: copies with a pageable side (nsys ENUM_CUDA_MEM_KIND 0).
    int64_t pageable = rawInt(file, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 OR dstKind = 0");
    int64_t pageableBytes
        = rawInt(file, "SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 OR dstKind = 0");
    int64_t pageableNs
        = rawInt(file, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 OR dstKind = 0");
    EXPECT_EQ(pageable, 279);
    const Finding* f = findRule(report, "copies.pageable");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    int64_t count = 0, bytes = 0, ns = 0;
    for (const auto& e : f->evidence) {
        count += e.count;
        bytes += e.totalBytes;
        ns += e.totalNs;
    }
    EXPECT_EQ(count, pageable);
    EXPECT_EQ(bytes, pageableBytes);
    EXPECT_EQ(ns, pageableNs);

    // Synchronous cudaMemcpy calls, minus HtoD of <= 64 KB (nsys's own cut), joined on the raw file.
    int64_t syncCopies = rawInt(file,
        "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
        "JOIN CUPTI_ACTIVITY_KIND_MEMCPY m ON m.correlationId = r.correlationId "
        "WHERE s.value LIKE 'cudaMemcpy%' AND s.value NOT LIKE '%Async%' AND NOT (m.copyKind = 1 AND m.bytes <= "
        "65536)");
    const Finding* sync = findRule(report, "copies.synchronous");
    ASSERT_NE(sync, nullptr) << ruleIds(report);
    const Evidence* e = evidenceStarting(*sync, "synchronous cudaMemcpy");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->count, syncCopies);

    EXPECT_EQ(report.kernelCount, rawInt(file, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(report.kernelNs, rawInt(file, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(report.layoutKernelCount, 0);
    ASSERT_EQ(report.topKernels.size(), 10u);
    EXPECT_EQ(report.topKernels[0].totalNs,
        rawInt(file,
            "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY demangledName "
            "ORDER BY 1 DESC LIMIT 1"));
    // CloverLeaf is plain fp32 CUDA code with no GEMM/conv library kernels: no Tensor Core finding.
    EXPECT_EQ(findRule(report, "tensor_cores"), nullptr);
    EXPECT_FALSE(report.tfOpPlacement.has_value()); // no TensorFlow op: no op placement figure
    EXPECT_EQ(renderMarkdownReport(report).find("TensorFlow op placement"), std::string::npos);
    for (const auto& finding : report.findings)
        EXPECT_FALSE(finding.saving.method.empty()) << finding.ruleId;
}

// TensorFlow BERT training on V100s (XPlane; the capture's one step, tests/data/traces/tf_bert_v100_step_excerpt,
// made by scripts/make_tf_bert_step_excerpt.py): TF ops that launched no GPU work ran on the host between a DtoH
// copy and an HtoD copy of the same size. The kernels are tied to the TF ops that launched them (xplane_ref.py on
// the file: kernels 665, api_calls 688), so ops that ran GPU work are not taken for host ops.
TEST(RealTraceFindings, TensorFlowBertOpsOnTheHostBetweenCopies)
{
    const std::string file = dataPath("tf_bert_v100_step_excerpt.xplane.pb");
    const auto dir = std::filesystem::temp_directory_path() / ("ps_findings_tf_bert_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "run.sqlite").string();
    auto imported = importTraces({ file }, path, ImportOptions {});
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    auto db = openTrace(path);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    auto kernelsOfOps = db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN PS_EXTERNAL_CORRELATION e "
                                     "ON e.correlationId = k.correlationId JOIN PS_FRAMEWORK_OPS f ON f.externalId = "
                                     "e.externalId WHERE f.category = 'tf_op'");
    ASSERT_TRUE(kernelsOfOps.isOk());
    EXPECT_EQ(*kernelsOfOps, 665); // every kernel of the step was launched inside a TF op
    auto report = analyzeTrace(*db, AnalysisOptions {});
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_EQ(traceFramework(*report), "tf") << "XPlane with TensorFlow ops";
    const Finding* f = findRule(*report, "placement.cpu_fallback");
    ASSERT_NE(f, nullptr) << ruleIds(*report);
    const Evidence* trips = evidenceStarting(*f, "DtoH -> host op(s) -> HtoD");
    ASSERT_NE(trips, nullptr);
    EXPECT_GT(trips->count, 0);
    EXPECT_NE(f->summary.find(":Identity"), std::string::npos) << f->summary;
    // Each op named in the evidence is a TF op, not the executor's range around the ops nor a _Send/_Recv.
    const Evidence* ops = evidenceStarting(*f, "host ops involved");
    ASSERT_NE(ops, nullptr);
    ASSERT_FALSE(ops->examples.empty());
    for (const auto& example : ops->examples) {
        const std::string name = example.label.substr(0, example.label.rfind(": "));
        auto other = db->queryInt("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS f JOIN StringIds s ON s.id = f.nameId "
                                  "WHERE s.value = '"
            + name + "' AND f.category <> 'tf_op'");
        ASSERT_TRUE(other.isOk());
        EXPECT_EQ(*other, 0) << name;
    }
    EXPECT_EQ(f->saving.proposedEdit.rfind("op:", 0), 0u);
    EXPECT_NE(f->fix.tensorflow.find("combined_non_max_suppression"), std::string::npos);

    // TensorFlow's op placement, against xplane_ref.py on the same file (protoc --decode): tf_ops_host 453,
    // tf_ops_device 667, tf_op_host_ns 1857309, tf_op_device_ns 14834633.
    ASSERT_TRUE(report->tfOpPlacement.has_value());
    const OpPlacement& placement = *report->tfOpPlacement;
    EXPECT_EQ(placement.hostOps, 453);
    EXPECT_EQ(placement.deviceOps, 667);
    EXPECT_EQ(placement.hostOpNs, 1857309);
    EXPECT_EQ(placement.deviceOpNs, 14834633);
    const std::string figure = opPlacementText(placement);
    EXPECT_EQ(figure, "host 453 of 1,120 ops (40 %), 1.86 ms on the host; device 667 (60 %), 14.8 ms of GPU time");
    EXPECT_NE(renderTextReport(*report).find("TensorFlow op placement (xprof's overview: share of ops): " + figure),
        std::string::npos);
    EXPECT_NE(renderHtmlReport(*report, nullptr).find(figure), std::string::npos);
    // Every report format has it (issue 28): the Markdown report as a section of its own.
    EXPECT_NE(
        renderMarkdownReport(*report).find("\n## TensorFlow op placement\n\n" + figure + "\n\n" + opPlacementMeaning()),
        std::string::npos);
    auto json = nlohmann::json::parse(renderJsonReport(*report));
    EXPECT_EQ(json["tf_op_placement"]["host_ops"], 453);
    EXPECT_EQ(json["tf_op_placement"]["device_op_ns"], 14834633);
    std::filesystem::remove_all(dir);
}

// ONNX Runtime on the CPU only (ort130_ultraface_rfb320_cpu.json): every node on CPUExecutionProvider is where the
// session put it, not a fallback.
TEST(RealTraceFindings, OrtCpuSessionHasNoFallback)
{
    RealTrace trace("ort130_ultraface_rfb320_cpu.json");
    ASSERT_TRUE(trace.ok()) << trace.error();
    auto report = trace.analyze();
    EXPECT_EQ(findRule(report, "placement.cpu_fallback"), nullptr) << ruleIds(report);
    EXPECT_EQ(report.stepCount, 2); // its two model_run events
    EXPECT_EQ(traceFramework(report), "ort");
}

TEST(RealTraceFindings, TheFrameworkIsTheTracesOwnOrNoneWhereTheFormatDoesNotSay)
{
    RealTrace kineto("hta_alexnet_a100_1rank.json.gz");
    ASSERT_TRUE(kineto.ok()) << kineto.error();
    EXPECT_EQ(traceFramework(kineto.analyze()), "torch");
    RealTrace nsys("pipit_cloverleaf_a100_nsys_sanitized.sqlite");
    ASSERT_TRUE(nsys.ok()) << nsys.error();
    EXPECT_EQ(traceFramework(nsys.analyze()), "") << "a CUDA program's nsys trace names no framework";
}

// JAX on MI300X (3-D convolutions): XLA transposes NCDHW data around every convolution; the layout finding counts those
// kernels as SQL over the same trace does, and its fix says what to change in JAX.
TEST(RealTraceFindings, JaxConv3dTransposesAreLayoutConversionsWithAJaxFix)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ps_findings_jax_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "run.sqlite").string();
    auto imported = importTraces({ dataPath("jax08_conv3d_mi300x8.xplane.pb") }, path, ImportOptions {});
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    auto db = openTrace(path);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    auto transposes = db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                                   "k.shortName WHERE s.value LIKE '%transpose%'");
    ASSERT_TRUE(transposes.isOk());
    EXPECT_EQ(*transposes, 120);
    auto report = analyzeTrace(*db, AnalysisOptions {});
    ASSERT_TRUE(report.isOk()) << report.status().message();
    const Finding* f = findRule(*report, "layout.conversions");
    ASSERT_NE(f, nullptr);
    ASSERT_FALSE(f->evidence.empty());
    EXPECT_EQ(f->evidence[0].count, *transposes);
    EXPECT_NE(f->fix.jax.find("NDHWC"), std::string::npos) << f->fix.jax;
    EXPECT_EQ(traceFramework(*report), "jax") << "XPlane without TensorFlow ops";
    // Steps: the calls of the jitted function; PJRT ran its executable once per call (an independent count).
    auto executions = db->queryInt("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS f JOIN StringIds s ON s.id = f.nameId "
                                   "WHERE s.value = 'PjRtStreamExecutorLoadedExecutable::Execute'");
    ASSERT_TRUE(executions.isOk());
    EXPECT_EQ(*executions, 5);
    EXPECT_EQ(report->stepCount, *executions) << report->stepDescription;
    EXPECT_NE(report->stepDescription.find("PjitFunction(forward_3d_conv)"), std::string::npos);
    const std::string text = renderTextReport(*report);
    EXPECT_NE(text.find("Fix (JAX): write convolutions channels-last"), std::string::npos);
    // The header's layout share is the finding's (it counted only cuDNN's conversions and said 0.0 % beside a
    // finding of 53 %): the same kernels, the same percentage in the text report's line and the finding's title.
    EXPECT_EQ(report->layoutKernelCount, f->evidence[0].count);
    EXPECT_EQ(report->layoutKernelNs, f->evidence[0].totalNs);
    const std::string share
        = formatPercent(100.0 * static_cast<double>(report->layoutKernelNs) / static_cast<double>(report->kernelNs));
    EXPECT_NE(f->title.find(share), std::string::npos) << f->title << " vs " << share;
    EXPECT_NE(text.find(share + " of kernel time\n"), std::string::npos) << share;
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace placescope::testing
