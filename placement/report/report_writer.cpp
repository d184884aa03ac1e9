// SPDX-License-Identifier: MIT
#include "placement/report/report_writer.h"

#include <cstdio>
#include <fstream>

namespace placescope {

Result<ReportFormat> parseReportFormat(const std::string& name)
{
    if (name == "text" || name == "txt")
        return ReportFormat::Text;
    if (name == "md" || name == "markdown")
        return ReportFormat::Markdown;
    if (name == "html")
        return ReportFormat::Html;
    if (name == "json")
        return ReportFormat::Json;
    return Status::error("unknown report format '" + name + "' (expected text, md, html or json)");
}

std::string renderReport(const AnalysisReport& report, ReportFormat format)
{
    switch (format) {
    case ReportFormat::Text: return renderTextReport(report);
    case ReportFormat::Markdown: return renderMarkdownReport(report);
    case ReportFormat::Html: return renderHtmlReport(report);
    case ReportFormat::Json: return renderJsonReport(report);
    }
    return {};
}

Status writeReportFile(const std::string& path, const std::string& content)
{
    std::string temp = path + ".partial";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            return Status::error("cannot write " + path);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            out.close();
            std::remove(temp.c_str());
            return Status::error("cannot write " + path + " (disk full?)");
        }
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        std::remove(temp.c_str());
        return Status::error("cannot move the report to " + path);
    }
    return Status::ok();
}

} // namespace placescope
