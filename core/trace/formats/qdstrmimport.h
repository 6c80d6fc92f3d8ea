#pragma once
// A .qdstrm is the raw stream `nsys profile` leaves when it could not import it into a
// .nsys-rep ("Importer error status: …", or a profile cut off before the import). The
// QdstrmImporter of the same Nsight Systems release makes the .nsys-rep:
//   QdstrmImporter --input-file X.qdstrm --output-file <cache>/nsys-export/X-<key>.nsys-rep
// which is then read through `nsys export` as any .nsys-rep.

#include <string>
#include <vector>

namespace ps::core::trace {
struct ReadContext;
}

namespace ps::core::trace::formats {

// The argv run to import `qdstrm` into `output` (argv[0] = the importer).
std::vector<std::string> importArgv(const std::string &importer, const std::string &qdstrm, const std::string &output);

// Runs the importer (Cancel kills it). Returns "" once `output` is written, else the reason
// with the importer's own output.
std::string importQdstrm(const std::string &importer, const std::string &qdstrm, const std::string &output,
                         const ReadContext &ctx);

// What to run by hand when no importer of the stream's release is here: the message names the
// release the stream needs and the command, e.g. for 2022.4.2.1 "…/host-linux-x64/QdstrmImporter
// --input-file X.qdstrm" (it writes X.nsys-rep beside it).
std::string importHelp(const std::string &qdstrm, const std::string &release);

} // namespace ps::core::trace::formats
