#include "core/trace/formats/qdstrmimport.h"

#include "core/common/shellquote.h"
#include "core/trace/formats/childprocess.h"
#include "core/trace/read/tracereader.h"

#include <filesystem>

namespace ps::core::trace::formats {

namespace fs = std::filesystem;

std::vector<std::string> importArgv(const std::string &importer, const std::string &qdstrm, const std::string &output)
{
    return {importer, "--input-file", qdstrm, "--output-file", output, "--force-overwrite"};
}

std::string importQdstrm(const std::string &importer, const std::string &qdstrm, const std::string &output,
                         const ReadContext &ctx)
{
    const std::vector<std::string> argv = importArgv(importer, qdstrm, output);
    const ChildResult r = runChild(argv, ctx.cancel);
    std::error_code ec;
    if (r.cancelled) {
        fs::remove(output, ec);
        return qdstrm + ": cancelled";
    }
    if (!r.started)
        return qdstrm + ": cannot run " + importer + " (" + r.error + ")";
    if (r.exitCode == 0 && fs::is_regular_file(output, ec))
        return {};
    fs::remove(output, ec);
    std::string said = r.output;
    if (said.size() > 2000)
        said = "..." + said.substr(said.size() - 2000);
    return qdstrm + ": `" + ps::core::shellJoin(argv) + "` failed (" +
           (r.signal ? "killed by signal " + std::to_string(r.signal) : "exit " + std::to_string(r.exitCode)) + ")" +
           (said.empty() ? "" : ":\n" + said);
}

std::string importHelp(const std::string &qdstrm, const std::string &release)
{
    return qdstrm +
           ": a .qdstrm is the raw stream nsys leaves when its import into a .nsys-rep failed; it is "
           "imported by the QdstrmImporter of Nsight Systems " +
           (release.empty() ? std::string("(the release that wrote it)") : release) +
           ", in the host-linux-x64 folder of that install (beside target-linux-x64, where nsys is). None was "
           "found beside the nsys found here. Import it where that release is installed with:\n  " +
           ps::core::shellJoin({"<nsight-systems>/host-linux-x64/QdstrmImporter", "--input-file", qdstrm}) +
           "\nand open the .nsys-rep it writes beside it";
}

} // namespace ps::core::trace::formats
