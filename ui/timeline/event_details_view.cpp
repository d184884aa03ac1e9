// SPDX-License-Identifier: MIT
#include "ui/timeline/event_details_view.h"

#include "profiler/base/units.h"
#include "ui/core/lane_folding.h"
#include "ui/core/trace_loader.h"

#include <QUrl>

#include <algorithm>
#include <map>
#include <set>

namespace placescope::ui {
namespace {

QString duration(int64_t ns) { return QString::fromStdString(formatNanoseconds(static_cast<double>(ns))); }
QString count(int64_t n) { return QString::fromStdString(withThousands(n)); }

QString kindName(EventKind kind)
{
    switch (kind) {
    case EventKind::Kernel:
        return QObject::tr("Kernel");
    case EventKind::Memcpy:
        return QObject::tr("Memory copy");
    case EventKind::Memset:
        return QObject::tr("Memset");
    case EventKind::Runtime:
        return QObject::tr("CUDA API call");
    case EventKind::Nvtx:
        return QObject::tr("NVTX range");
    case EventKind::FrameworkOp:
        return QObject::tr("Framework op");
    case EventKind::GpuAnnotation:
        return QObject::tr("GPU annotation");
    case EventKind::Predicted:
        return QObject::tr("Predicted");
    }
    return {};
}

QString row(const QString& key, const QString& value)
{
    return "<tr><td valign=top style=\"white-space: nowrap; padding-right: 8px\"><b>" + key.toHtmlEscaped()
        + "</b></td><td>" + value + "</td></tr>";
}

// Columns shown above (or as links) rather than among the recorded arguments.
const std::set<std::string> kShownColumns
    = { "start", "end", "duration", "demangledName", "shortName", "nameId", "textId", "correlationId", "deviceId",
          "streamId", "globalTid", "globalPid", "contextId", "id", "bandwidth", "bytes" };

} // namespace

EventDetailsView::EventDetailsView(TimelineView* timeline, QWidget* parent)
    : QTextBrowser(parent)
    , m_timeline(timeline)
{
    setObjectName("eventDetails");
    setOpenLinks(false);
    setPlaceholderText(tr("Click an event on the timeline (or a row of a table) to see its details here; "
                          "Shift+drag selects a range."));
    connect(timeline, &TimelineView::selectionChanged, this, &EventDetailsView::showSelection);
    connect(timeline, &TimelineView::rangeSelected, this, &EventDetailsView::showRange);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QStringList parts = url.path().split(':');
        if (url.scheme() != "event" || parts.size() != 3 || !m_timeline->trace())
            return;
        const TimelineView::EventRef ref { parts[0].toInt(), parts[1].toInt(), parts[2].toUInt() };
        const auto& lanes = m_timeline->trace()->lanes;
        if (ref.lane < 0 || ref.lane >= static_cast<int>(lanes.size()) || ref.row < 0
            || ref.row >= static_cast<int>(lanes[static_cast<size_t>(ref.lane)].rows.size())
            || ref.index >= m_timeline->rowOf(ref).size())
            return; // a link from an older trace
        m_timeline->selectEvent(ref, true); // jumps to it, off screen or not
    });
}

QString EventDetailsView::linkFor(const TimelineView::EventRef& ref)
{
    return QString("event:%1:%2:%3").arg(ref.lane).arg(ref.row).arg(ref.index);
}

QString EventDetailsView::hostThreadsHtml(const LoadedTrace& trace, int64_t from, int64_t to)
{
    // What each host thread was doing in the range (a GPU gap is often a host busy elsewhere): how much of it its
    // outermost events cover and the longest of them, or idle.
    QString rows;
    for (const Lane& lane : trace.lanes) {
        if (lane.group != Lane::Group::Host || lane.rows.empty())
            continue;
        const LaneRow& top = lane.rows.front();
        int64_t busyNs = 0, longestNs = 0;
        uint32_t longestName = 0;
        for (size_t i = firstVisibleEvent(top, from); i < top.size() && top.startNs[i] < to; ++i) {
            const int64_t inside = std::min(top.endNs[i], to) - std::max(top.startNs[i], from);
            if (inside <= 0)
                continue;
            busyNs += inside;
            if (inside > longestNs) {
                longestNs = inside;
                longestName = top.nameIndex[i];
            }
        }
        const QString doing = busyNs == 0
            ? tr("idle")
            : tr("busy %1, longest %2 (%3)")
                  .arg(duration(busyNs), QString::fromStdString(trace.names[longestName]).toHtmlEscaped(),
                      duration(longestNs));
        rows += "<tr><td>" + QString::fromStdString(lane.title).toHtmlEscaped() + "</td><td>" + doing + "</td></tr>";
    }
    return rows.isEmpty() ? QString()
                          : "<h4>" + tr("Host threads") + "</h4><table cellspacing=3>" + rows + "</table><h4>"
            + tr("Events in the range") + "</h4>";
}

QString EventDetailsView::eventLink(const TimelineView::EventRef& ref) const
{
    const LaneRow& r = m_timeline->rowOf(ref);
    const QString name = QString::fromStdString(m_timeline->trace()->names[r.nameIndex[ref.index]]);
    return "<a href=\"" + linkFor(ref) + "\">" + name.toHtmlEscaped() + "</a> (" + duration(r.durationNs(ref.index))
        + ")";
}

void EventDetailsView::showSelection()
{
    const LoadedTrace* trace = m_timeline->trace();
    const auto selected = m_timeline->selectedEvent();
    if (!trace || !selected) {
        clear();
        return;
    }
    const TimelineView::EventRef ref = *selected;
    const Lane& lane = trace->lanes[static_cast<size_t>(ref.lane)];
    const LaneRow& r = m_timeline->rowOf(ref);
    const EventKind kind = r.kind[ref.index];
    const QString name = QString::fromStdString(trace->names[r.nameIndex[ref.index]]);
    const QString fullName = QString::fromStdString(trace->names[r.fullNameIndex[ref.index]]);
    QString html = "<h3>" + name.toHtmlEscaped() + "</h3><table cellspacing=2>";
    if (fullName != name)
        html += row(tr("Full name"), fullName.toHtmlEscaped());
    html += row(tr("Kind"), kindName(kind));
    html += row(tr("Start"), duration(r.startNs[ref.index] - trace->firstNs) + tr(" after the trace's first event"));
    html += row(tr("Duration"), duration(r.durationNs(ref.index)));
    html += row(lane.group == Lane::Group::Device ? tr("Device, stream") : tr("Thread"),
        QString::fromStdString(lane.title).toHtmlEscaped());
    if (r.correlationId[ref.index] != 0)
        html += row(kind == EventKind::FrameworkOp ? tr("External id") : tr("Correlation id"),
            QString::number(r.correlationId[ref.index]));

    // What the source table recorded: launch geometry and resources, bytes, shapes and the rest as arguments.
    std::map<std::string, std::string> columns;
    for (auto& [key, value] : eventDetails(trace->path, kind, r.sourceRow[ref.index]))
        columns[key] = value;
    auto column = [&](const char* key) {
        auto it = columns.find(key);
        return it == columns.end() ? std::string() : it->second;
    };
    if (kind == EventKind::Kernel) {
        html += row(
            tr("Grid"), QString::fromStdString(column("gridX") + " x " + column("gridY") + " x " + column("gridZ")));
        html += row(tr("Block"),
            QString::fromStdString(column("blockX") + " x " + column("blockY") + " x " + column("blockZ")));
        if (!column("registersPerThread").empty())
            html += row(tr("Registers per thread"), QString::fromStdString(column("registersPerThread")));
        auto bytes
            = [&](const char* key) { return count(QString::fromStdString(column(key)).toLongLong()); }; // NULL: 0
        html += row(tr("Shared memory"),
            tr("%1 B static, %2 B dynamic").arg(bytes("staticSharedMemory"), bytes("dynamicSharedMemory")));
    }
    if (!column("bytes").empty())
        html += row(tr("Bytes"), count(QString::fromStdString(column("bytes")).toLongLong()));
    if (!column("bandwidth").empty())
        html += row(tr("Bandwidth"), QString::fromStdString(column("bandwidth")));
    for (const auto& [key, value] : columns) {
        static const std::set<std::string> geometry = { "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
            "registersPerThread", "staticSharedMemory", "dynamicSharedMemory" };
        if (kShownColumns.count(key) || (kind == EventKind::Kernel && geometry.count(key)))
            continue;
        html += row(QString::fromStdString(key), QString::fromStdString(value).toHtmlEscaped());
    }

    // Links: the call that launched it, the work it launched, the ops around it (its call stack).
    if (const auto other = m_timeline->correlatedEvent(ref))
        html += row(kind == EventKind::Runtime ? tr("Launched") : tr("Launched by"), eventLink(*other));
    if (kind == EventKind::FrameworkOp) {
        // By name, longest total first (a step launches thousands of kernels of a few dozen names): each name's
        // count and total time, linked to its first launch.
        struct Launched
        {
            TimelineView::EventRef first;
            int64_t count = 0;
            int64_t totalNs = 0;
        };
        std::map<uint32_t, Launched> byName;
        const auto work = m_timeline->launchedWork(ref);
        for (const auto& [call, device] : work) {
            const LaneRow& deviceRow = m_timeline->rowOf(device);
            Launched& entry = byName.try_emplace(deviceRow.nameIndex[device.index], Launched { device }).first->second;
            ++entry.count;
            entry.totalNs += deviceRow.durationNs(device.index);
        }
        std::vector<Launched> names;
        for (const auto& named : byName)
            names.push_back(named.second);
        std::sort(names.begin(), names.end(), [&](const Launched& a, const Launched& b) {
            return m_timeline->rowOf(a.first).startNs[a.first.index]
                < m_timeline->rowOf(b.first).startNs[b.first.index];
        });
        // Longest total first; launch order among equals (the first launch's place on the timeline).
        std::stable_sort(
            names.begin(), names.end(), [](const Launched& a, const Launched& b) { return a.totalNs > b.totalNs; });
        QString list;
        const size_t shown = std::min<size_t>(names.size(), 20);
        for (size_t i = 0; i < shown; ++i) {
            const LaneRow& firstRow = m_timeline->rowOf(names[i].first);
            const QString launchedName = QString::fromStdString(trace->names[firstRow.nameIndex[names[i].first.index]]);
            list += "<a href=\"" + linkFor(names[i].first) + "\">" + launchedName.toHtmlEscaped() + "</a> ("
                + tr("%1 launches, %2").arg(count(names[i].count), duration(names[i].totalNs)) + ")<br>";
        }
        if (names.size() > shown)
            list += tr("and %1 more; ").arg(names.size() - shown);
        if (!work.empty())
            html += row(tr("GPU work launched (%1)").arg(count(static_cast<int64_t>(work.size()))),
                list + tr("%1 names").arg(names.size()));
    }
    QString stack;
    for (const TimelineView::EventRef& op : m_timeline->enclosingFrameworkOps(ref))
        if (!(op == ref))
            stack += eventLink(op) + "<br>";
    if (!stack.isEmpty())
        html += row(kind == EventKind::FrameworkOp ? tr("Inside") : tr("Launching op and its callers"), stack);
    html += "</table>";
    setHtml(html);
}

void EventDetailsView::showRange()
{
    const LoadedTrace* trace = m_timeline->trace();
    if (!trace || !m_timeline->hasRange())
        return;
    const int64_t from = m_timeline->rangeStartNs(), to = m_timeline->rangeEndNs();
    // Per name: events that overlap the range, their time inside it, and self time (minus the nested events on the
    // next row of the same lane that start inside them: ops' children).
    struct Totals
    {
        int64_t count = 0, totalNs = 0, selfNs = 0;
    };
    std::map<uint32_t, Totals> byName;
    auto clipped = [&](const LaneRow& r, size_t i) { return std::min(r.endNs[i], to) - std::max(r.startNs[i], from); };
    for (const Lane& lane : trace->lanes) {
        for (size_t level = 0; level < lane.rows.size(); ++level) {
            const LaneRow& r = lane.rows[level];
            const LaneRow* children = level + 1 < lane.rows.size() ? &lane.rows[level + 1] : nullptr;
            const bool nests = lane.group == Lane::Group::Host;
            for (size_t i = firstVisibleEvent(r, from); i < r.size() && r.startNs[i] < to; ++i) {
                Totals& t = byName[r.nameIndex[i]];
                const int64_t inside = clipped(r, i);
                ++t.count;
                t.totalNs += inside;
                int64_t childNs = 0;
                if (nests && children)
                    for (size_t c = firstVisibleEvent(*children, r.startNs[i]);
                         c < children->size() && children->startNs[c] < r.endNs[i]; ++c)
                        if (children->startNs[c] < to && children->endNs[c] > from)
                            childNs += clipped(*children, c);
                t.selfNs += std::max<int64_t>(0, inside - childNs);
            }
        }
    }
    std::vector<std::pair<uint32_t, Totals>> rows(byName.begin(), byName.end());
    std::sort(
        rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.totalNs > b.second.totalNs; });
    // A range named elsewhere (a finding's evidence: the gap and its GPU) says so first; then where it is and how long.
    const QString what = m_timeline->rangeWhat();
    QString html = "<h3>" + (what.isEmpty() ? tr("Range of %1").arg(duration(to - from)) : what.toHtmlEscaped())
        + "</h3><p>" + (what.isEmpty() ? QString() : tr("Lasts %1, ").arg(duration(to - from)))
        + tr("from %1 to %2 after the trace's first event")
              .arg(duration(from - trace->firstNs), duration(to - trace->firstNs))
        + "</p>" + hostThreadsHtml(*trace, from, to) + "<table cellspacing=3><tr><th align=left>" + tr("Name")
        + "</th><th>" + tr("Count") + "</th><th>" + tr("Total") + "</th><th>" + tr("Self") + "</th></tr>";
    const size_t shown = std::min<size_t>(rows.size(), 100);
    for (size_t i = 0; i < shown; ++i)
        html += "<tr><td>" + QString::fromStdString(trace->names[rows[i].first]).toHtmlEscaped()
            + "</td><td align=right>" + count(rows[i].second.count) + "</td><td align=right>"
            + duration(rows[i].second.totalNs) + "</td><td align=right>" + duration(rows[i].second.selfNs)
            + "</td></tr>";
    html += "</table>";
    if (rows.size() > shown)
        html += "<p>" + tr("and %1 more names").arg(rows.size() - shown) + "</p>";
    setHtml(html);
}

} // namespace placescope::ui
