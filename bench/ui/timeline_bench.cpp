// SPDX-License-Identifier: MIT
// timeline_bench [events_millions...]: offscreen per-frame draw times of the timeline widget on synthetic traces
// (default 1M and 10M events), against a baseline in the same run that paints every event without folding;
// GUI memory per event; and opening the V100 Kineto trace to a first drawn timeline.
#include "profiler/base/units.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/open_job.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

using namespace placescope;
using namespace placescope::ui;

namespace {

// 8 device streams with one row and 4 host threads with 3 nesting levels; event lengths from 1 us to 1 ms,
// mostly short (kernels), so the whole view folds heavily as on a real trace.
std::shared_ptr<LoadedTrace> syntheticTrace(size_t events)
{
    auto trace = std::make_shared<LoadedTrace>();
    for (int i = 0; i < 64; ++i)
        trace->names.push_back("kernel_" + std::to_string(i));
    std::mt19937_64 rng(42);
    const size_t lanes = 12;
    for (size_t l = 0; l < lanes; ++l) {
        Lane lane;
        lane.group = l < 8 ? Lane::Group::Device : Lane::Group::Host;
        lane.title = (l < 8 ? "GPU 0 stream " : "thread ") + std::to_string(l);
        const size_t rows = l < 8 ? 1 : 3;
        lane.rows.resize(rows);
        const size_t perRow = events / (8 + 4 * 3);
        for (auto& row : lane.rows) {
            row.startNs.reserve(perRow);
            row.endNs.reserve(perRow);
            row.nameIndex.reserve(perRow);
            row.sourceRow.reserve(perRow);
            row.correlationId.reserve(perRow);
            row.kind.reserve(perRow);
            int64_t t = 0;
            for (size_t i = 0; i < perRow; ++i) {
                t += static_cast<int64_t>(rng() % 3000);
                const int64_t d = rng() % 100 == 0 ? 1'000'000 : 1000 + static_cast<int64_t>(rng() % 20'000);
                row.push(t, t + d, static_cast<uint32_t>(rng() % 64), static_cast<uint32_t>(i), 0,
                    l < 8 ? EventKind::Kernel : EventKind::FrameworkOp);
                t += d;
            }
            row.finish();
            trace->eventCount += row.size();
            trace->lastNs = std::max(trace->lastNs, row.endNs.back());
        }
        trace->lanes.push_back(std::move(lane));
    }
    return trace;
}

std::string ms(double milliseconds) { return formatNanoseconds(milliseconds * 1e6); }

double msPerFrame(QWidget& widget, int frames)
{
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < frames; ++i) {
        QPainter painter(&image);
        widget.render(&painter);
    }
    return static_cast<double>(timer.nsecsElapsed()) / 1e6 / frames;
}

// Baseline: every event of every row drawn as its own rectangle (what folding avoids).
double naiveMsPerFrame(const LoadedTrace& trace, const TimeAxis& axis, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QElapsedTimer timer;
    timer.start();
    QPainter painter(&image);
    int y = 0;
    for (const auto& lane : trace.lanes)
        for (const auto& row : lane.rows) {
            for (size_t i = 0; i < row.size(); ++i) {
                const double x0 = axis.xForTime(row.startNs[i]), x1 = axis.xForTime(row.endNs[i]);
                painter.fillRect(
                    QRectF(TimelineView::kHeaderWidth + x0, y, std::max(1.0, x1 - x0), 14), QColor(100, 150, 200));
            }
            y += 16;
        }
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<double> sizesM;
    for (int i = 1; i < argc; ++i)
        sizesM.push_back(std::atof(argv[i]));
    if (sizesM.empty())
        sizesM = { 1, 10 };
    for (double millions : sizesM) {
        const auto events = static_cast<size_t>(millions * 1e6);
        auto trace = syntheticTrace(events);
        TimelineView view;
        view.resize(1600, 900);
        view.setTrace(trace);
        const double whole = msPerFrame(view, 20);
        const size_t items = view.lastDrawItemCount();
        const double naive = naiveMsPerFrame(*trace, view.axis(), view.size());
        TimelineView zoomed;
        zoomed.resize(1600, 900);
        zoomed.setTrace(trace);
        zoomed.showRange(trace->lastNs / 2, trace->lastNs / 2 + trace->lastNs / 1000);
        const double zoom = msPerFrame(zoomed, 20);
        const double budget = millions <= 1 ? 16.0 : 50.0;
        std::printf("%.0fM events: whole view %s/frame (%zu draw items; goal < %s: %.2fx of budget), "
                    "naive unfolded %s (folding %.0fx faster), zoomed 1000x %s/frame; memory %.1f bytes/event "
                    "(goal < 64)\n",
            millions, ms(whole).c_str(), items, ms(budget).c_str(), whole / budget, ms(naive).c_str(), naive / whole,
            ms(zoom).c_str(), static_cast<double>(trace->memoryBytes()) / static_cast<double>(trace->eventCount));
        std::fflush(stdout);
    }
    // Opening the 53.7 MB V100 Kineto trace to a first drawn timeline (needs the Kineto importer).
    QTemporaryDir temp;
    QElapsedTimer timer;
    timer.start();
    const std::string v100 = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz";
    OpenResult opened = openAnyTrace(v100, temp.path().toStdString(), {}, nullptr);
    if (!opened.error.empty()) {
        std::printf("V100 trace: cannot open: %s\n", opened.error.c_str());
        return 0;
    }
    TimelineView view;
    view.resize(1600, 900);
    view.setTrace(opened.trace);
    msPerFrame(view, 1);
    std::printf("V100 trace (%llu events): first drawn timeline after %s (goal < 5.00 s; includes stats+findings)\n",
        static_cast<unsigned long long>(opened.trace->eventCount),
        formatNanoseconds(static_cast<double>(timer.nsecsElapsed())).c_str());
    return 0;
}
