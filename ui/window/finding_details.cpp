// SPDX-License-Identifier: MIT
#include "ui/window/finding_details.h"

#include "analysis/findings/saving_text.h"
#include "profiler/base/units.h"

#include <QObject>
#include <QUrl>

#include <algorithm>
#include <limits>

namespace placescope::ui {
namespace {

QString text(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString duration(double ns) { return QString::fromStdString(formatNanoseconds(ns)); }
// "range:START:END#WHAT": the window zooms to the range and the Details panel heads it with WHAT (the evidence and
// the GPU it was on), so each link says which gap it is.
QString rangeLink(int64_t start, int64_t end, const QString& label, const std::string& what = {})
{
    const QString fragment = what.empty()
        ? QString()
        : "#" + QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(what))).toHtmlEscaped();
    return QString("<a href=\"range:%1:%2%3\">%4</a>").arg(start).arg(end).arg(fragment, label);
}

} // namespace

QString findingDetailsHtml(const Finding& finding, const std::string& framework, int64_t originNs)
{
    QString html = "<h3>" + text(finding.title) + "</h3><p><i>" + text(std::string(severityName(finding.severity)))
        + "</i> &middot; " + text(finding.ruleId) + "</p><p>" + text(finding.summary) + "</p>";
    // The same words as the CLI and the HTML report (one wording in analysis/findings), only escaped here.
    html += "<p><b>" + QObject::tr("Saving") + ":</b> " + text(savingText(finding.saving));
    if (!finding.saving.method.empty())
        html += "<br><small>" + text(finding.saving.method) + "</small>";
    html += "</p>";
    // The user's framework first (the trace's own where its format says, traceFramework), then the others.
    std::vector<FrameworkFix> fixes = frameworkFixes(finding.fix);
    std::stable_partition(fixes.begin(), fixes.end(), [&](const FrameworkFix& f) { return framework == f.id; });
    bool first = true;
    for (const FrameworkFix& fix : fixes) {
        if (fix.text->empty())
            continue;
        html += "<p><b>"
            + (first ? QObject::tr("Fix (%1)") : QObject::tr("In %1"))
                  .arg(QString::fromUtf8(fix.label.data(), static_cast<qsizetype>(fix.label.size())))
            + ":</b> " + text(*fix.text) + "</p>";
        first = false;
    }
    for (const Evidence& evidence : finding.evidence) {
        int64_t from = std::numeric_limits<int64_t>::max(), to = std::numeric_limits<int64_t>::min();
        for (const EvidenceRange& example : evidence.examples)
            if (example.startNs >= 0 && example.endNs > example.startNs) {
                from = std::min(from, example.startNs);
                to = std::max(to, example.endNs);
            }
        QString head = text(evidence.what);
        if (from < to)
            head = rangeLink(from, to, head);
        html += "<p><b>" + head + "</b>";
        if (evidence.count > 0)
            html += " &middot; " + QObject::tr("%1 events").arg(QString::fromStdString(withThousands(evidence.count)));
        if (evidence.totalNs > 0)
            html += " &middot; " + duration(static_cast<double>(evidence.totalNs));
        if (evidence.totalBytes > 0)
            html += " &middot; "
                + QObject::tr("%1 bytes").arg(QString::fromStdString(withThousands(evidence.totalBytes)));
        html += "</p><ul>";
        for (const EvidenceRange& example : evidence.examples) {
            const bool timed = example.startNs >= 0 && example.endNs > example.startNs;
            // An instant (a memory peak) links too: the window selects the memory track there.
            const bool instant = example.startNs >= 0 && example.endNs == example.startNs;
            const std::string name = example.label.empty() ? std::string("example") : example.label;
            // Each link carries its own time, as the CLI's "[at T, D] label": five gaps on one GPU read apart.
            const QString at = example.startNs >= 0
                ? QObject::tr("at %1").arg(duration(static_cast<double>(example.startNs - originNs)))
                : QString();
            const std::string what = evidence.what + ": " + name;
            html += "<li>"
                + (timed ? rangeLink(example.startNs, example.endNs, text(name) + " " + at, what) + " ("
                            + duration(static_cast<double>(example.endNs - example.startNs)) + ")"
                        : instant ? rangeLink(example.startNs, example.startNs, text(name) + " " + at, what)
                                  : text(name))
                + "</li>";
        }
        html += "</ul>";
    }
    return html;
}

} // namespace placescope::ui
