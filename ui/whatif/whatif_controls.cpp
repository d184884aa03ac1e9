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
    if (c.overlapComm)
        edits << "overlap-comm";
    if (!c.extraEdit.trimmed().isEmpty())
        edits << c.extraEdit.trimmed();
    std::vector<std::string> texts;
    for (const QString& edit : edits)
        texts.push_back(edit.toStdString());
    return texts;
}

QString editSummary(const WhatIfControls& controls)
{
    QStringList parts;
    for (const std::string& edit : editTexts(controls))
        parts << QString::fromStdString(edit);
    return parts.isEmpty() ? QObject::tr("none") : parts.join(", ");
}

} // namespace placescope::ui
