// SPDX-License-Identifier: MIT
#include "profiler/capture/part_merger.h"

#include "profiler/model/system_facts.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_writer.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace placescope::capture {
namespace {

// Columns that hold StringIds ids, in any table.
const std::set<std::string> kStringColumns
    = { "demangledName", "shortName", "mangledName", "nameId", "textId", "jsonTextId" };
// Columns that hold times (ns).
const std::set<std::string> kTimeColumns = { "start", "end", "fromTs", "toTs" };
// Tables whose rows describe the run, not events: handled by hand or not copied.
const std::set<std::string> kSkippedTables = { "StringIds", "PS_META", "PS_PROBLEMS" };

std::string quoted(const std::string& text)
{
    std::string out = "'";
    for (char c : text) {
        out += c;
        if (c == '\'')
            out += '\'';
    }
    return out + "'";
}

struct Column
{
    std::string name;
    bool integerKeyId = false; // an INTEGER PRIMARY KEY named id: a row number the output assigns anew
};

Result<std::vector<Column>> columnsOf(SqliteDb& db, const std::string& schema, const std::string& table)
{
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement info, db.prepare("PRAGMA " + schema + ".table_info(" + quoted(table) + ")"));
    std::vector<Column> columns;
    while (info.step()) {
        Column column;
        column.name = info.columnText(1);
        column.integerKeyId = column.name == "id" && info.columnInt(5) == 1 && info.columnText(2) == "INTEGER";
        columns.push_back(column);
    }
    PLACESCOPE_RETURN_IF_ERROR(info.status());
    return columns;
}

// Checks that a part is a trace SQLite can read to the end. A crash-safe part killed mid-write is fine (WAL
// recovery); one killed while its schema was being created is not a trace.
Status checkPart(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(path, SqliteDb::Mode::ReadWrite));
    PLACESCOPE_ASSIGN_OR_RETURN(int64_t version, db.queryInt("PRAGMA user_version"));
    if (version != kTraceSchemaVersion || !db.hasTable("PS_META"))
        return Status::error("not a Placescope trace part");
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement check, db.prepare("PRAGMA quick_check"));
    if (!check.step() || check.columnText(0) != "ok")
        return Status::error("damaged: " + (check.status().isOk() ? check.columnText(0) : check.status().message()));
    return Status::ok();
}

ProblemSeverity severityFromName(const std::string& name)
{
    if (name == "info")
        return ProblemSeverity::Info;
    if (name == "data_loss")
        return ProblemSeverity::DataLoss;
    return ProblemSeverity::Error;
}

class PartCopier
{
public:
    PartCopier(TraceWriter& writer, MergeSummary& summary, std::map<std::string, std::string>& meta)
        : m_writer(writer)
        , m_summary(summary)
        , m_meta(meta)
    { }

    Status copy(SqliteDb& db, const MergeInput& input)
    {
        PLACESCOPE_RETURN_IF_ERROR(db.exec("ATTACH DATABASE " + quoted(input.path) + " AS part"));
        Status status = copyAttached(db, input);
        if (!status.isOk())
            (void)db.exec("ROLLBACK");
        Status detached = db.exec("DETACH DATABASE part");
        PLACESCOPE_RETURN_IF_ERROR(status);
        return detached;
    }

private:
    Status copyAttached(SqliteDb& db, const MergeInput& input)
    {
        // Strings first, in a transaction of their own that is never rolled back: the writer remembers every
        // string it interned, so its StringIds rows must stay even if this part's rows are rolled back.
        PLACESCOPE_RETURN_IF_ERROR(db.exec("BEGIN"));
        PLACESCOPE_RETURN_IF_ERROR(remapStrings(db));
        PLACESCOPE_RETURN_IF_ERROR(db.exec("COMMIT"));
        PLACESCOPE_RETURN_IF_ERROR(db.exec("BEGIN"));
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement tables,
            db.prepare("SELECT name FROM part.sqlite_master WHERE type = 'table' AND name "
                       "NOT LIKE 'sqlite_%' AND name NOT LIKE 'ENUM_%' ORDER BY name"));
        std::vector<std::string> names;
        while (tables.step())
            names.push_back(tables.columnText(0));
        PLACESCOPE_RETURN_IF_ERROR(tables.status());
        for (const std::string& table : names) {
            if (kSkippedTables.count(table))
                continue;
            if (!input.onlyTables.empty()
                && std::find(input.onlyTables.begin(), input.onlyTables.end(), table) == input.onlyTables.end())
                continue;
            PLACESCOPE_RETURN_IF_ERROR(copyTable(db, table, input.timeShiftNs));
        }
        if (input.onlyTables.empty())
            PLACESCOPE_RETURN_IF_ERROR(copyProblemsAndMeta(db));
        return db.exec("COMMIT");
    }

    Status remapStrings(SqliteDb& db)
    {
        PLACESCOPE_RETURN_IF_ERROR(db.exec("CREATE TEMP TABLE IF NOT EXISTS ps_string_map (old INTEGER PRIMARY KEY, "
                                           "new INTEGER NOT NULL); DELETE FROM ps_string_map;"));
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement strings, db.prepare("SELECT id, value FROM part.StringIds"));
        PLACESCOPE_ASSIGN_OR_RETURN(
            SqliteStatement insert, db.prepare("INSERT INTO ps_string_map (old, new) VALUES (?, ?)"));
        while (strings.step()) {
            insert.bind(1, strings.columnInt(0));
            insert.bind(2, m_writer.internString(strings.columnText(1)));
            PLACESCOPE_RETURN_IF_ERROR(insert.execute());
        }
        return strings.status();
    }

    Status copyTable(SqliteDb& db, const std::string& table, int64_t timeShiftNs)
    {
        PLACESCOPE_ASSIGN_OR_RETURN(std::vector<Column> source, columnsOf(db, "part", table));
        PLACESCOPE_ASSIGN_OR_RETURN(std::vector<Column> target, columnsOf(db, "main", table));
        if (target.empty())
            return Status::ok(); // a table the output's schema does not have
        std::string columns, values;
        for (const Column& column : source) {
            bool inTarget
                = std::any_of(target.begin(), target.end(), [&](const Column& t) { return t.name == column.name; });
            if (!inTarget || column.integerKeyId)
                continue;
            if (!columns.empty()) {
                columns += ", ";
                values += ", ";
            }
            columns += "\"" + column.name + "\"";
            if (kStringColumns.count(column.name))
                values += "(SELECT new FROM ps_string_map WHERE old = src.\"" + column.name + "\")";
            else if (timeShiftNs != 0 && kTimeColumns.count(column.name))
                values += "src.\"" + column.name + "\" + " + std::to_string(timeShiftNs);
            else
                values += "src.\"" + column.name + "\"";
        }
        if (columns.empty())
            return Status::ok();
        std::string verb = "INSERT INTO";
        std::string where;
        if (table == "PS_PROCESSES" || table == "PS_THREADS")
            verb = "INSERT OR REPLACE INTO";
        else if (table == "TARGET_INFO_GPU")
            where = " WHERE src.id NOT IN (SELECT id FROM main.TARGET_INFO_GPU)";
        PLACESCOPE_RETURN_IF_ERROR(db.exec(verb + " main.\"" + table + "\" (" + columns + ") SELECT " + values
            + " FROM part.\"" + table + "\" AS src" + where));
        PLACESCOPE_ASSIGN_OR_RETURN(int64_t changed, db.queryInt("SELECT changes()"));
        m_summary.rowsByTable[table] += changed;
        if (table == "PS_PROCESSES")
            m_summary.processes += changed;
        return Status::ok();
    }

    Status copyProblemsAndMeta(SqliteDb& db)
    {
        PLACESCOPE_ASSIGN_OR_RETURN(
            SqliteStatement problems, db.prepare("SELECT kind, severity, count, help, example FROM part.PS_PROBLEMS"));
        while (problems.step()) {
            std::string kind = problems.columnText(0);
            int64_t count = problems.columnInt(2);
            m_writer.countProblem(
                kind, severityFromName(problems.columnText(1)), problems.columnText(3), problems.columnText(4), count);
            if (kind == "capture.dropped_records")
                m_summary.droppedRecords += count;
        }
        PLACESCOPE_RETURN_IF_ERROR(problems.status());
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement meta, db.prepare("SELECT key, value FROM part.PS_META"));
        while (meta.step())
            m_meta.emplace(meta.columnText(0), meta.columnText(1)); // the first part's value wins
        return meta.status();
    }

    TraceWriter& m_writer;
    MergeSummary& m_summary;
    std::map<std::string, std::string>& m_meta;
};

} // namespace

Result<MergeSummary> mergeParts(const std::vector<MergeInput>& inputs, const std::string& outputPath)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::unique_ptr<TraceWriter> writer, TraceWriter::create(outputPath));
    MergeSummary summary;
    std::map<std::string, std::string> meta;
    PartCopier copier(*writer, summary, meta);
    for (const MergeInput& input : inputs) {
        std::string name = std::filesystem::path(input.path).filename().string();
        Status readable = checkPart(input.path);
        // A part that fails to copy is rolled back and skipped; a failing output shows at commit().
        if (readable.isOk())
            readable = writer->withConnection([&](SqliteDb& db) { return copier.copy(db, input); });
        if (!readable.isOk()) {
            summary.partsSkipped.push_back(name + ": " + readable.message());
            writer->countProblem("capture.part_unreadable", ProblemSeverity::DataLoss,
                "A traced process left a part that is not a readable trace (killed while creating "
                "it); its events are not in the trace.",
                name + ": " + readable.message());
            continue;
        }
        if (input.onlyTables.empty())
            ++summary.partsMerged;
    }
    if (summary.partsMerged == 0)
        return Status::error(summary.partsSkipped.empty() ? std::string("no capture part to merge")
                                                          : "no readable capture part: " + summary.partsSkipped[0]);
    // Run-level metadata: the first part's values; per-process values (pid, rank) live in PS_PROCESSES.
    for (const auto& [key, value] : meta) {
        if (key == "capture_pid" || key == "capture_rank" || key == "capture_local_rank" || key == "tool_version"
            || key == "schema_version" || key == "created_at_utc" || key == "capture_clock_offset_ns")
            continue;
        writer->setMeta(key, value);
    }
    writer->setMeta("source_format", "cupti_capture");
    writer->setMeta("capture_parts", std::to_string(summary.partsMerged));
    // The machine the capture ran on (the merge runs there, in the launcher), as nsys's TARGET_INFO_SYSTEM_ENV.
    for (const SystemFact& fact : localSystemFacts())
        writer->add(fact);
    PLACESCOPE_RETURN_IF_ERROR(writer->commit());
    return summary;
}

} // namespace placescope::capture
