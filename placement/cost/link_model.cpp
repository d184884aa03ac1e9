// SPDX-License-Identifier: MIT
#include "placement/cost/link_model.h"

#include "profiler/base/units.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/sqlite_db.h"

#include <set>

namespace placescope {

PcieModel PcieModel::fromSpec(const LinkSpec& spec)
{
    LinkFit pinned { spec.pinnedLatencyUs, spec.pinnedGBps, 0, false };
    LinkFit pageable { spec.pageableLatencyUs, spec.pageableGBps, 0, false };
    return PcieModel { pinned, pageable, pinned, pageable };
}

const LinkFit& PcieModel::link(bool hostToDevice, bool pinned) const
{
    if (hostToDevice)
        return pinned ? htodPinned : htodPageable;
    return pinned ? dtohPinned : dtohPageable;
}

Result<LinkFit> fitLink(const std::vector<MemcpySample>& samples)
{
    // Weighted least squares with weights 1/duration^2, i.e. relative errors: timing noise grows with the
    // copy's duration, so plain least squares would let a few large copies' jitter decide the latency.
    // Small copies fix the latency, large ones the bandwidth.
    std::set<int64_t> sizes;
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    int used = 0;
    for (const MemcpySample& s : samples) {
        if (s.bytes <= 0 || s.durationUs <= 0)
            continue;
        double x = double(s.bytes), y = s.durationUs, w = 1.0 / (y * y);
        sizes.insert(s.bytes);
        ++used;
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
    }
    if (sizes.size() < 2)
        return Status::error("needs copies of at least two different sizes (has " + std::to_string(sizes.size()) + ")");
    double denominator = sw * sxx - sx * sx;
    double slope = (sw * sxy - sx * sy) / denominator; // us per byte
    double intercept = (sy - slope * sx) / sw;
    if (intercept < 0) {
        slope = sxy / sxx;
        intercept = 0;
    }
    if (!(slope > 0))
        return Status::error("duration does not grow with size");
    LinkFit fit;
    fit.latencyUs = intercept;
    fit.bandwidthGBps = 1.0 / (slope * 1e3);
    fit.samples = used;
    fit.fitted = true;
    return fit;
}

Result<PcieModel> fitPcieFromTrace(
    const std::string& tracePath, const PcieModel& defaults, std::vector<std::string>* notes)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(tracePath, SqliteDb::Mode::ReadOnly));
    PcieModel model = defaults;
    if (!db.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY")) {
        if (notes)
            notes->push_back("PCIe: the trace has no memcpy table; using the device table's link figures");
        return model;
    }
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement stmt,
        db.prepare("SELECT bytes, end - start, copyKind, srcKind, dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY"
                   " WHERE copyKind IN (1, 2) AND end > start"));
    // [hostToDevice][pinned]
    std::vector<MemcpySample> samples[2][2];
    while (stmt.step()) {
        bool hostToDevice = stmt.columnInt(2) == static_cast<int64_t>(CopyKind::HtoD);
        int hostKindColumn = hostToDevice ? 3 : 4;
        if (stmt.isNull(hostKindColumn))
            continue;
        int64_t hostKind = stmt.columnInt(hostKindColumn);
        if (hostKind != static_cast<int64_t>(MemKind::Pageable) && hostKind != static_cast<int64_t>(MemKind::Pinned))
            continue; // managed or unknown host memory: neither figure
        bool pinned = hostKind == static_cast<int64_t>(MemKind::Pinned);
        samples[hostToDevice][pinned].push_back({ stmt.columnInt(0), double(stmt.columnInt(1)) / 1000.0 });
    }
    PLACESCOPE_RETURN_IF_ERROR(stmt.status());

    struct Slot
    {
        bool hostToDevice;
        bool pinned;
        LinkFit* fit;
        const char* label;
    };
    Slot slots[] = { { true, true, &model.htodPinned, "HtoD pinned" },
        { true, false, &model.htodPageable, "HtoD pageable" }, { false, true, &model.dtohPinned, "DtoH pinned" },
        { false, false, &model.dtohPageable, "DtoH pageable" } };
    for (const Slot& slot : slots) {
        const auto& rows = samples[slot.hostToDevice][slot.pinned];
        auto fit = fitLink(rows);
        std::string line;
        if (fit) {
            *slot.fit = *fit;
            line = std::string("PCIe ") + slot.label + " fitted from " + std::to_string(fit->samples)
                + " memcpys: " + formatNanoseconds(fit->latencyUs * 1e3) + " + bytes / "
                + formatRate(fit->bandwidthGBps * 1e9) + " (device-side durations: API and staging time not included)";
        } else {
            line = std::string("PCIe ") + slot.label + ": " + std::to_string(rows.size())
                + " memcpys in the trace, not fitted (" + fit.status().message() + "); default "
                + formatNanoseconds(slot.fit->latencyUs * 1e3) + " + bytes / "
                + formatRate(slot.fit->bandwidthGBps * 1e9);
        }
        if (notes)
            notes->push_back(line);
    }
    return model;
}

} // namespace placescope
