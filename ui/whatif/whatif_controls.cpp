// SPDX-License-Identifier: MIT
#include "ui/whatif/whatif_controls.h"

#include <QObject>
#include <QStringList>

namespace placescope::ui {

namespace {

// Factors as the CLI writes them (x0.5, x2): 'g' keeps 0.25 as 0.25 and drops trailing zeros.
QString factorText(double factor) { return "x" + QString::number(factor, 'g', 6); }

} // namespace

std::vector<std::string> editTexts(const WhatIfControls& c)
{
    // Built as QString: the controls hold QStrings, and one conversion at the end keeps UTF-8 regexes intact.
    QStringList edits;
    if (c.noSync)
        edits << (c.noSyncRegex.isEmpty() ? QString("no-sync") : "no-sync:" + c.noSyncRegex);
    if (!c.kernelsRegex.isEmpty())
        edits << "kernels:" + c.kernelsRegex + "=" + factorText(c.kernelsFactor);
    if (!c.dropRegex.isEmpty())
        edits << "drop:" + c.dropRegex;
    if (c.pinned)
        edits << "pinned";
    if (c.launchFactor != 1.0)
        edits << "launch=" + factorText(c.launchFactor);
    if (c.inputFactor != 1.0)
        edits << "input=" + factorText(c.inputFactor);
    if (c.loaderWorkers > 0)
        edits << "workers=" + QString::number(c.loaderWorkers);
    if (c.overlapComm)
        edits << "overlap-comm";
    if (!c.extraEdit.trimmed().isEmpty())
        edits << c.extraEdit.trimmed();
    std::vector<std::string> texts;
    for (const QString& edit : edits)
        texts.push_back(edit.toStdString());
    return texts;
}

namespace {

// "x0.5" or "0.5" -> 0.5; false for anything else (then the edit goes to the extra field, where parseEdit says why).
bool readFactor(const QString& text, double* factor)
{
    bool ok = false;
    *factor = (text.startsWith('x') ? text.mid(1) : text).toDouble(&ok);
    return ok && *factor >= 0;
}

} // namespace

WhatIfControls controlsFor(const std::vector<std::string>& edits)
{
    WhatIfControls c;
    for (const std::string& raw : edits) {
        const QString edit = QString::fromStdString(raw).trimmed();
        double factor = 1.0;
        if (edit == "no-sync" || edit.startsWith("no-sync:")) {
            c.noSync = true;
            c.noSyncRegex = edit.mid(8);
        } else if (edit.startsWith("kernels:") && edit.lastIndexOf('=') > 8
            && readFactor(edit.mid(edit.lastIndexOf('=') + 1), &factor)) {
            c.kernelsRegex = edit.mid(8, edit.lastIndexOf('=') - 8);
            c.kernelsFactor = factor;
        } else if (edit.startsWith("drop:") && edit.size() > 5) {
            c.dropRegex = edit.mid(5);
        } else if (edit == "pinned") {
            c.pinned = true;
        } else if (edit.startsWith("launch=") && readFactor(edit.mid(7), &factor)) {
            c.launchFactor = factor;
        } else if (edit.startsWith("input=") && readFactor(edit.mid(6), &factor)) {
            c.inputFactor = factor;
        } else if (edit.startsWith("workers=") && edit.mid(8).toInt() > 0
            && QString::number(edit.mid(8).toInt()) == edit.mid(8)) {
            c.loaderWorkers = edit.mid(8).toInt();
        } else if (edit == "overlap-comm") {
            c.overlapComm = true;
        } else {
            c.extraEdit = edit;
        }
    }
    return c;
}

QString editSummary(const WhatIfControls& controls)
{
    QStringList parts;
    for (const std::string& edit : editTexts(controls))
        parts << QString::fromStdString(edit);
    return parts.isEmpty() ? QObject::tr("none") : parts.join(", ");
}

} // namespace placescope::ui
