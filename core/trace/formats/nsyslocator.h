#pragma once
// Which nsys can read a report. nsys reads the reports of its own release and older ones only:
// nsys 2022.4 given a 2025.3 report fails with "Version number is invalid: 2025@3@2@474-…".
// A .nsys-rep says which release wrote it in its first line ("NVIDIA Tegra Profiler Report
// 2025@3@2@474-253236389321v0."; 2022.4 wrote "… Report 1." and no release), so the nsys is
// chosen before it is run, among every one installed.

#include "core/common/canceltoken.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace::formats {

// A release as numbers: {2025, 3, 2, 474}.
using NsysVersion = std::vector<int>;

std::string versionText(const NsysVersion &v); // "2025.3.2.474"

// The release that wrote a .nsys-rep, from its first bytes; nullopt when it does not say.
std::optional<NsysVersion> reportVersion(std::string_view head);
// The release of nsys that wrote a .qdstrm ("…Nsight Systems Stream 2022.4.2.1-df9881f!").
std::optional<NsysVersion> qdstrmVersion(std::string_view head);

// Can an nsys of release `nsys` read a report of release `report`? Compared by year, minor
// and patch release; the build number does not matter.
bool canRead(const NsysVersion &nsys, const NsysVersion &report);

struct NsysInstall
{
    std::string path;                   // the executable
    std::optional<NsysVersion> version; // from `nsys --version`; nullopt when it did not say
};

// Every nsys found, first the preferred: `configured` (the option or the preferences), then
// $PROFSTUDIO_NSYS, each `nsys` on PATH, /opt/nvidia/nsight-systems/*/bin/nsys (newest first),
// /usr/local/cuda*/bin/nsys. Each executable once (by its real path), with its release (asked
// once per path and process).
std::vector<NsysInstall> findNsysInstalls(const std::string &configured, const CancelToken *cancel = nullptr);

// The first install that can read a report of `needed` (any one when nullopt), or nullptr.
const NsysInstall *pickNsys(const std::vector<NsysInstall> &installs, const std::optional<NsysVersion> &needed);

// "/opt/…/nsys (2024.1.1), /usr/bin/nsys (2022.4.2.1)": the installs as an error lists them.
std::string describeInstalls(const std::vector<NsysInstall> &installs);

// The QdstrmImporter of an nsys install: in host-linux-x64 beside the nsys's target folder
// (NVIDIA's and Debian's layouts, through symbolic links); "" when there is none.
std::string importerBeside(const std::string &nsys);

} // namespace ps::core::trace::formats
