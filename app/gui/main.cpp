// SPDX-License-Identifier: MIT
// placescope-gui JOB/   (a folder `placescope job import` made: the job window, ranks x steps heatmap)
// placescope-gui [trace.sqlite | trace.json.gz | nsys.sqlite] [--model model.onnx] [--whatif EDIT]...
//               [--compare other.sqlite] [--screenshot out.png [--select-op name] [--select-event name]]
#include "app/gui/display_check.h"
#include "app/gui/quit_on_signals.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/units.h"
#include "profiler/store/trace_writer.h"
#include "ui/compare/compare_window.h"
#include "ui/compare/delta_table_model.h"
#include "ui/graphview/graph_view.h"
#include "ui/job/job_window.h"
#include "ui/placement/placement_panel.h"
#include "ui/placement/placement_session.h"
#include "ui/timeline/timeline_view.h"
#include "ui/whatif/whatif_controls.h"
#include "ui/whatif/whatif_session.h"
#include "ui/window/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QPainter>
#include <QTableView>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {

// Selects a model op by name in the graph (centred) and the placement table; false when there is no such op.
bool selectModelOp(placescope::ui::MainWindow& window, const QString& name)
{
    auto model = window.placementSession()->model();
    if (!model)
        return false;
    for (size_t op = 0; op < model->ops.size(); ++op) {
        if (QString::fromStdString(model->ops[op].name) != name)
            continue;
        window.graphView()->selectModelOp(static_cast<int>(op));
        window.graphView()->centerOnNode(window.graphView()->nodeOfModelOp(static_cast<int>(op)));
        window.placementPanel()->selectModelOp(static_cast<int>(op));
        return true;
    }
    return false;
}

// The bundled sample, found relative to the executable: <prefix>/share/placescope/samples/ when installed; the
// build tree has the same share/ folder (a link to resources/samples). Empty when there is none.
QString bundledSample()
{
    const QString dir = QCoreApplication::applicationDirPath() + "/../share/placescope/samples";
    const auto files = QDir(dir).entryInfoList({ "*.sqlite", "*.json.gz" }, QDir::Files);
    return files.isEmpty() ? QString() : files.first().absoluteFilePath();
}

// --help and --version print and exit: they need no display, so they run on the offscreen platform.
bool onlyPrints(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--version" || arg == "-v" || arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "-?")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    // --screenshot renders offscreen: pick the offscreen platform before QApplication exists.
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--screenshot" && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    if (onlyPrints(argc, argv) && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    placescope::gui::holdQtStartupMessages(); // no display: one line and exit 1, not Qt's abort
    QApplication app(argc, argv);
    placescope::gui::releaseQtStartupMessages();
    QApplication::setOrganizationName("Placescope");
    QApplication::setApplicationName("placescope-gui");
    QApplication::setApplicationVersion(QString::fromUtf8(
        placescope::placescopeVersion().data(), static_cast<qsizetype>(placescope::placescopeVersion().size())));
    QIcon icon; // the icon the .desktop entry installs (resources/icons/hicolor), compiled in
    for (int size : { 16, 22, 24, 32, 48, 64, 128, 256 })
        icon.addFile(QString(":/icons/%1x%1/placescope.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);
    QCommandLineParser parser;
    parser.setApplicationDescription("Placescope: GPU trace timeline, findings and placement");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("trace", "trace.sqlite, Kineto trace.json(.gz) or an nsys SQLite export");
    QCommandLineOption model("model", "ONNX model of the traced program", "model.onnx");
    QCommandLineOption screenshot("screenshot", "Render the window offscreen to a PNG and exit", "out.png");
    QCommandLineOption dark("dark", "Use the dark palette");
    QCommandLineOption finding("finding",
        "Select finding N once the trace is open (shows its evidence); numbered as placescope analyze prints them, "
        "#1 first",
        "N");
    QCommandLineOption selectOp(
        "select-op", "With --screenshot: select a model op (by name) in the graph, centred, and the op table", "name");
    QCommandLineOption whatIf(
        "whatif", "Show the What-if panel with this edit (repeatable; placescope whatif's --edit syntax)", "edit");
    QCommandLineOption compare("compare",
        "Compare the trace with another run (File > Compare with...); with --screenshot, "
        "the compare window is rendered",
        "other");
    parser.addOptions({ model, screenshot, dark, finding, selectOp, whatIf, compare });
    QCommandLineOption selectEvent("select-event",
        "Once the trace is open, select the first event with this exact name "
        "(short or full, as the kernel table shows it): framed, with its details",
        "name");
    parser.addOption(selectEvent);
    parser.process(app);
    // Findings are numbered as `placescope analyze` prints them: #1 is the first.
    bool numbered = true;
    const int findingNumber = parser.isSet(finding) ? parser.value(finding).toInt(&numbered) : 0;
    if (parser.isSet(finding) && (!numbered || findingNumber < 1)) {
        placescope::printLine(stderr,
            "placescope-gui: --finding: write the finding's number as placescope analyze "
            "prints it (1 for #1), not '%s'\n",
            qPrintable(parser.value(finding)));
        return 2;
    }

    // Before the windows, so destroyed after them: SIGINT/SIGTERM/SIGHUP close them (their temporary copies go).
    placescope::gui::QuitOnSignals quitOnSignals;
    if (const QString first = parser.positionalArguments().value(0);
        placescope::ui::JobWindow::isJobFolder(first) && !parser.isSet(screenshot)) {
        placescope::ui::JobWindow jobWindow;
        jobWindow.show();
        jobWindow.openJob(first);
        return app.exec();
    }
    placescope::ui::MainWindow window;
    if (parser.isSet(dark))
        window.setDarkPalette(true);
    QString input = parser.positionalArguments().value(0);
    // The bundled sample only when nothing was asked for: next to a model it would be another program's trace.
    if (input.isEmpty() && !parser.isSet(model))
        input = bundledSample();
    if (parser.isSet(model))
        window.openModel(parser.value(model));
    // A picture has one size whatever the user's saved window; a session keeps the size the user left.
    if (parser.isSet(screenshot))
        window.resize(1600, 900);
    window.show();
    if (!input.isEmpty())
        window.openFile(input);
    if (parser.isSet(finding))
        QObject::connect(&window, &placescope::ui::MainWindow::openFinished, &window, [&](bool ok) {
            if (ok && !window.selectFinding(findingNumber - 1))
                placescope::printLine(stderr, "placescope-gui: --finding %d: the trace has no finding #%d\n",
                    findingNumber, findingNumber);
        });
    if (parser.isSet(whatIf)) {
        std::vector<std::string> edits;
        for (const QString& edit : parser.values(whatIf))
            edits.push_back(edit.toStdString());
        window.whatIfSession()->setControls(placescope::ui::controlsFor(edits));
        window.findChild<QDockWidget*>("dock_whatif")->raise(); // shown: the panel loads the trace once it is open
    }
    std::unique_ptr<placescope::ui::CompareWindow> compareWindow;
    if (parser.isSet(compare)) {
        compareWindow = std::make_unique<placescope::ui::CompareWindow>();
        compareWindow->show();
        compareWindow->compare(input, parser.value(compare));
    }
    if (!parser.isSet(screenshot))
        return app.exec();
    if (compareWindow) {
        const bool compared = compareWindow->waitForResult(180000);
        if (quitOnSignals.received())
            return 1; // stopped: no picture (the process dies of the signal once the windows are gone)
        if (!compared)
            placescope::printLine(stderr, "placescope-gui: --compare: %s\n", qPrintable(compareWindow->lastError()));
        else
            std::printf("compare: %d kernel names, mean step %s -> %s\n", compareWindow->kernelModel()->rowCount(),
                placescope::formatNanoseconds(static_cast<double>(compareWindow->diff()->meanStepNsA)).c_str(),
                placescope::formatNanoseconds(static_cast<double>(compareWindow->diff()->meanStepNsB)).c_str());
        QApplication::processEvents();
        QImage image(compareWindow->size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            compareWindow->render(&painter);
        }
        if (!image.save(parser.value(screenshot))) {
            placescope::printLine(stderr, "placescope-gui: cannot write %s\n", qPrintable(parser.value(screenshot)));
            return 1;
        }
        return compared ? 0 : 2;
    }

    const bool opened = input.isEmpty() || window.waitForOpen(120000);
    bool ok = opened;
    if (parser.isSet(model)) {
        // The model is read and planned first, then laid out: wait for both.
        if (!window.placementSession()->waitForPlan(120000)) {
            placescope::printLine(stderr, "placescope-gui: %s: %s\n", qPrintable(parser.value(model)),
                qPrintable(window.placementSession()->lastError()));
            ok = false;
        }
        if (window.placementSession()->model() && !window.graphView()->waitForLayout(120000)) {
            placescope::printLine(stderr, "placescope-gui: %s: %s\n", qPrintable(parser.value(model)),
                qPrintable(window.graphView()->lastError()));
            ok = false;
        }
    }
    if (!opened) {
        // No picture of a window that shows no trace (issue 27): the error, exit 1, nothing written.
        placescope::printLine(stderr, "placescope-gui: %s: %s\n", qPrintable(input), qPrintable(window.lastError()));
        return 1;
    }
    if (!ok)
        placescope::printLine(stderr, "placescope-gui: %s: %s\n", qPrintable(input), qPrintable(window.lastError()));
    if (parser.isSet(selectOp) && !selectModelOp(window, parser.value(selectOp))) {
        placescope::printLine(
            stderr, "placescope-gui: --select-op: no op named %s in the model\n", qPrintable(parser.value(selectOp)));
        ok = false;
    }
    if (parser.isSet(selectEvent) && !window.timeline()->selectNamed(parser.value(selectEvent))) {
        placescope::printLine(
            stderr, "placescope-gui: --select-event: no event named %s\n", qPrintable(parser.value(selectEvent)));
        ok = false;
    }
    // What the picture should show, for the screenshot test and for people reading CI logs.
    auto* findingsDock = window.findChild<QDockWidget*>("dock_Findings");
    if (parser.isSet(finding) && findingsDock)
        if (auto* view = findingsDock->findChild<QTableView*>(); view && view->currentIndex().isValid())
            std::printf("finding: #%d %s\n", findingNumber,
                qPrintable(view->model()->index(view->currentIndex().row(), 0).data().toString()));
    if (auto plan = window.placementSession()->plan())
        std::printf("placement: %zu ops, predicted step %s (all GPU %s); predicted lanes: %zu; %s, gpu %s\n",
            plan->proposal.assignment.size(), placescope::formatNanoseconds(plan->proposalUs * 1e3).c_str(),
            placescope::formatNanoseconds(plan->allGpuUs * 1e3).c_str(),
            window.timeline()->predicted() ? window.timeline()->predicted()->lanes.size() : size_t(0),
            window.placementSession()->costOptions().framework.c_str(),
            window.placementSession()->costOptions().gpu.c_str());
    if (parser.isSet(whatIf)) {
        auto* session = window.whatIfSession();
        if (!session->waitForRun(120000)) {
            placescope::printLine(stderr, "placescope-gui: --whatif: %s\n", qPrintable(session->lastError()));
            ok = false;
        } else {
            const auto& r = session->run()->result;
            std::printf("whatif: measured step %s, replay %s, predicted %s\n",
                placescope::formatNanoseconds(static_cast<double>(r.measured.stepNs)).c_str(),
                placescope::formatNanoseconds(static_cast<double>(r.replay.stepNs)).c_str(),
                placescope::formatNanoseconds(static_cast<double>(r.predicted.stepNs)).c_str());
        }
    }
    if (quitOnSignals.received())
        return 1;
    QApplication::processEvents();
    QImage image(window.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        window.render(&painter);
    }
    if (!image.save(parser.value(screenshot))) {
        placescope::printLine(stderr, "placescope-gui: cannot write %s\n", qPrintable(parser.value(screenshot)));
        return 1;
    }
    return ok ? 0 : 2;
}
