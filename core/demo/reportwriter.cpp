#include "core/demo/reportwriter.h"

#include "core/demo/demorandom.h"
#include "core/demo/eventsink.h"
#include "core/demo/nsysschema.h"
#include "core/demo/sqlitewriter.h"
#include "core/demo/stepmodel.h"
#include "core/trace/nsys/nvtxeventtype.h"

#include <array>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ps::core::demo {

namespace nsys = trace::nsys;

namespace {

struct ApiName
{
    const char *name;
    int eventClass; // ENUM_NSYS_EVENT_CLASS: 0 CUDA runtime, 1 CUDA driver
};
// Order follows enum ApiCall.
constexpr std::array<ApiName, static_cast<size_t>(ApiCall::Count)> kApiNames = {{
    {"cudaLaunchKernel_v7000", 0},
    {"cudaMemcpyAsync_v3020", 0},
    {"cudaMemsetAsync_v3020", 0},
    {"cudaStreamSynchronize_v3020", 0},
    {"cuLaunchKernelEx", 1},
}};

// Order follows enum Range. NCCL's are registered strings in its own domain.
constexpr std::array<const char *, static_cast<size_t>(Range::Count)> kRangeLabels = {{
    "actor/sync_model_to_rollout",
    "actor/recv_traj",
    "actor/compute_adv",
    "run_training",
    "training_step",
    "forward_actor",
    "forward_critic",
    "ncclAllGather",
    "ncclReduceScatter",
    "ncclAllReduce",
}};
constexpr int64_t kNcclDomainId = 1;

bool isNcclRange(Range r)
{
    return r == Range::NcclAllGather || r == Range::NcclReduceScatter || r == Range::NcclAllReduce;
}

std::string isoTime(int64_t utcNs, int offsetHours)
{
    const std::time_t seconds = static_cast<std::time_t>(utcNs / 1000000000 + offsetHours * 3600);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
    return buffer;
}

class ReportWriter : public EventSink
{
public:
    ReportWriter(const RunPlan &plan, int rank, SqliteWriter &db)
        : m_plan(plan), m_rank(rank), m_info(plan.rank(rank)), m_db(db),
          m_strings(db, "INSERT INTO StringIds(id, value) VALUES(?,?)"),
          m_runtime(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start, end, eventClass, globalTid, correlationId, "
                        "nameId, returnValue) VALUES(?,?,?,?,?,?,0)"),
          m_kernel(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId, contextId, streamId, "
                       "correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, "
                       "registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, "
                       "dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, "
                       "sharedMemoryLimitConfig) VALUES(?,?,?,1,?,?,?,?,?,?,0,0,?,?,?,?,?,?,?,?,?,0,?,?,?,0)"),
          m_memcpy(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start, end, deviceId, contextId, streamId, "
                       "correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES(?,?,?,1,?,?,?,?,?,?,?)"),
          m_memset(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET(start, end, deviceId, contextId, streamId, "
                       "correlationId, globalPid, value, bytes, memKind) VALUES(?,?,?,1,?,?,?,0,?,2)"),
          m_sync(db, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start, end, deviceId, contextId, streamId, "
                     "correlationId, globalPid, syncType, eventId) VALUES(?,?,?,1,?,?,?,3,4294967295)"),
          m_nvtxText(db, "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, domainId) "
                         "VALUES(?1,?2,?5,?3,?4,0)"),
          m_nvtxRegistered(db, "INSERT INTO NVTX_EVENTS(start, end, eventType, globalTid, textId, domainId) "
                               "VALUES(?1,?2,?6,?3,?4,?5)"),
          m_nvtxDomain(db, "INSERT INTO NVTX_EVENTS(start, eventType, text, globalTid, domainId) "
                           "VALUES(?1,?4,'NCCL',?2,?3)"),
          m_memory(db, "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS(start, globalPid, deviceId, contextId, address, pc, "
                       "bytes, memKind, memoryOperationType, name, correlationId) VALUES(?,?,?,1,?,0,?,2,?,NULL,0)")
    {
        m_globalPid = globalPid(m_info.pid);
        // Threads: the Python main thread (tid = pid), PyTorch's autograd device thread, and the
        // CUDA driver's helper threads.
        m_tids = {m_info.pid, m_info.pid + 41};
        for (int i = 0; i < kKernelCount; ++i) {
            const KernelSpec &spec = kernelSpec(static_cast<Kernel>(i));
            m_kernelNames[static_cast<size_t>(i)] = {intern(spec.demangledName), intern(spec.shortName)};
        }
        for (size_t i = 0; i < kApiNames.size(); ++i)
            m_apiNames[i] = intern(kApiNames[i].name);
        for (size_t i = 0; i < kRangeLabels.size(); ++i)
            if (isNcclRange(static_cast<Range>(i)))
                m_rangeIds[i] = intern(kRangeLabels[i]);
    }

    void writeMetadata(const std::string &fileName)
    {
        writeExportMetadata(fileName);
        writeSession();
        writeProcessAndThreads();
        writeDevice();
    }

    int64_t rows() const { return m_rows; }

    void runtime(int64_t start, int64_t end, ApiCall api, DemoThread thread, int64_t correlationId) override
    {
        const size_t a = static_cast<size_t>(api);
        m_runtime.bind(1, start);
        m_runtime.bind(2, end);
        m_runtime.bind(3, static_cast<int64_t>(kApiNames[a].eventClass));
        m_runtime.bind(4, tid(thread));
        m_runtime.bind(5, correlationId);
        m_runtime.bind(6, m_apiNames[a]);
        m_runtime.run();
        ++m_rows;
    }

    void kernel(int64_t start, int64_t end, int streamId, int64_t correlationId, Kernel k, int64_t gridId) override
    {
        const KernelSpec &spec = kernelSpec(k);
        const auto &names = m_kernelNames[static_cast<size_t>(k)];
        m_kernel.bind(1, start);
        m_kernel.bind(2, end);
        m_kernel.bind(3, static_cast<int64_t>(m_info.deviceId));
        m_kernel.bind(4, static_cast<int64_t>(streamId));
        m_kernel.bind(5, correlationId);
        m_kernel.bind(6, m_globalPid);
        m_kernel.bind(7, names.first);
        m_kernel.bind(8, names.second);
        if (spec.externC)
            m_kernel.bind(9, names.second);
        else
            m_kernel.bindNull(9);
        m_kernel.bind(10, static_cast<int64_t>(spec.registersPerThread));
        m_kernel.bind(11, static_cast<int64_t>(spec.gridX));
        m_kernel.bind(12, static_cast<int64_t>(spec.gridY));
        m_kernel.bind(13, static_cast<int64_t>(spec.gridZ));
        m_kernel.bind(14, static_cast<int64_t>(spec.blockX));
        m_kernel.bind(15, static_cast<int64_t>(spec.blockY));
        m_kernel.bind(16, static_cast<int64_t>(spec.blockZ));
        m_kernel.bind(17, static_cast<int64_t>(spec.staticSharedMemory));
        m_kernel.bind(18, static_cast<int64_t>(spec.dynamicSharedMemory));
        m_kernel.bind(19, static_cast<int64_t>(0));
        m_kernel.bind(20, gridId);
        m_kernel.bind(21, static_cast<int64_t>(spec.dynamicSharedMemory > 0 ? 167936 : 32768));
        m_kernel.run();
        ++m_rows;
    }

    void memcpy(int64_t start, int64_t end, int streamId, int64_t correlationId, int64_t bytes, int copyKind,
                int srcKind, int dstKind) override
    {
        m_memcpy.bind(1, start);
        m_memcpy.bind(2, end);
        m_memcpy.bind(3, static_cast<int64_t>(m_info.deviceId));
        m_memcpy.bind(4, static_cast<int64_t>(streamId));
        m_memcpy.bind(5, correlationId);
        m_memcpy.bind(6, m_globalPid);
        m_memcpy.bind(7, bytes);
        m_memcpy.bind(8, static_cast<int64_t>(copyKind));
        m_memcpy.bind(9, static_cast<int64_t>(srcKind));
        m_memcpy.bind(10, static_cast<int64_t>(dstKind));
        m_memcpy.run();
        ++m_rows;
    }

    void memoryUsage(int64_t time, int64_t address, int64_t bytes, bool allocated) override
    {
        m_memory.bind(1, time);
        m_memory.bind(2, m_globalPid);
        m_memory.bind(3, static_cast<int64_t>(m_info.deviceId));
        m_memory.bind(4, address);
        m_memory.bind(5, bytes);
        m_memory.bind(6, int64_t(allocated ? 0 : 1)); // memoryOperationType: 0 allocation, 1 free
        m_memory.run();
        ++m_rows;
    }

    void memset(int64_t start, int64_t end, int streamId, int64_t correlationId, int64_t bytes) override
    {
        m_memset.bind(1, start);
        m_memset.bind(2, end);
        m_memset.bind(3, static_cast<int64_t>(m_info.deviceId));
        m_memset.bind(4, static_cast<int64_t>(streamId));
        m_memset.bind(5, correlationId);
        m_memset.bind(6, m_globalPid);
        m_memset.bind(7, bytes);
        m_memset.run();
        ++m_rows;
    }

    void synchronization(int64_t start, int64_t end, int streamId, int64_t correlationId) override
    {
        m_sync.bind(1, start);
        m_sync.bind(2, end);
        m_sync.bind(3, static_cast<int64_t>(m_info.deviceId));
        m_sync.bind(4, static_cast<int64_t>(streamId));
        m_sync.bind(5, correlationId);
        m_sync.bind(6, m_globalPid);
        m_sync.run();
        ++m_rows;
    }

    void range(int64_t start, int64_t end, DemoThread thread, Range r) override
    {
        const size_t i = static_cast<size_t>(r);
        if (isNcclRange(r)) {
            m_nvtxRegistered.bind(1, start);
            m_nvtxRegistered.bind(2, end);
            m_nvtxRegistered.bind(3, tid(thread));
            m_nvtxRegistered.bind(4, m_rangeIds[i]);
            m_nvtxRegistered.bind(5, kNcclDomainId);
            m_nvtxRegistered.bind(6, int64_t(nsys::number(nsys::NvtxEventType::PushPopRange)));
            m_nvtxRegistered.run();
        } else {
            m_nvtxText.bind(1, start);
            m_nvtxText.bind(2, end);
            m_nvtxText.bind(3, std::string_view(kRangeLabels[i]));
            m_nvtxText.bind(4, tid(thread));
            m_nvtxText.bind(5, int64_t(nsys::number(nsys::NvtxEventType::PushPopRange)));
            m_nvtxText.run();
        }
        ++m_rows;
    }

    void ncclDomainCreated(int64_t time, DemoThread thread) override
    {
        m_nvtxDomain.bind(1, time);
        m_nvtxDomain.bind(2, tid(thread));
        m_nvtxDomain.bind(3, kNcclDomainId);
        m_nvtxDomain.bind(4, int64_t(nsys::number(nsys::NvtxEventType::DomainCreate)));
        m_nvtxDomain.run();
        ++m_rows;
    }

private:
    int64_t tid(DemoThread t) const { return globalTid(m_info.pid, m_tids[static_cast<size_t>(t)]); }

    int64_t intern(const std::string &value)
    {
        auto it = m_stringIds.find(value);
        if (it != m_stringIds.end())
            return it->second;
        const int64_t id = static_cast<int64_t>(m_stringIds.size()) + 1;
        m_stringIds.emplace(value, id);
        m_strings.bind(1, id);
        m_strings.bind(2, std::string_view(value));
        m_strings.run();
        return id;
    }

    void keyValues(const char *sql, const std::vector<std::pair<std::string, std::string>> &rows)
    {
        WriteStatement insert(m_db, sql);
        for (const auto &[name, value] : rows) {
            insert.bind(1, std::string_view(name));
            insert.bind(2, std::string_view(value));
            insert.run();
        }
    }

    // Keys as a 2025.6 export writes them (ppcu-lab7__report1.sqlite), values for this report.
    void writeExportMetadata(const std::string &fileName)
    {
        const std::string stem = fileName.substr(0, fileName.size() - std::string_view(".sqlite").size());
        const std::string clusterDir = "/mnt/public/rlinf/logs/demo/maniskill_ppo_demo/profiling/";
        const int64_t exportedAt = m_info.utcEpochNs + 3600LL * 1000000000LL;
        keyValues("INSERT INTO META_DATA_EXPORT(name, value) VALUES(?,?)",
                  {{"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
                   {"EXPORT_PRODUCT_VERSION", "2025.6.1.190"},
                   {"EXPORT_PRODUCT_DATE", "2025.6"},
                   {"EXPORT_SCHEMA_VERSION", "3.24.7"},
                   {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
                   {"EXPORT_SCHEMA_VERSION_MINOR", "24"},
                   {"EXPORT_SCHEMA_VERSION_MICRO", "7"},
                   {"EXPORT_PLATFORM", "linux-desktop"},
                   {"EXPORT_ARCH", "x64"},
                   {"EXPORT_TIME_UTC", isoTime(exportedAt, 0)},
                   {"EXPORT_TIME_LOCAL", isoTime(exportedAt, 8) + " +0800 CST"},
                   {"EXPORT_HOST", m_info.host},
                   {"EXPORT_USER", "rlinf"},
                   {"EXPORT_PARAM_INPUT_FILE", stem + ".nsys-rep"},
                   {"EXPORT_PARAM_OUTPUT_FILE", fileName},
                   {"EXPORT_PARAM_INPUT_PATH", stem + ".nsys-rep"},
                   {"EXPORT_PARAM_OUTPUT_PATH", fileName},
                   {"EXPORT_PARAM_INPUT_PATH_ABS", clusterDir + stem + ".nsys-rep"},
                   {"EXPORT_PARAM_OUTPUT_PATH_ABS", clusterDir + fileName},
                   {"EXPORT_PARAM_OVERWRITE", "false"},
                   {"EXPORT_PARAM_APPEND", "false"},
                   {"EXPORT_PARAM_LAZY", "true"},
                   {"EXPORT_PARAM_TIME_NORMALIZE", "false"},
                   {"EXPORT_PARAM_TIME_SHIFT", "0"},
                   {"EXPORT_PARAM_TABLES_TO_EXPORT", ""},
                   {"EXPORT_PARAM_TIMES_TO_EXPORT", ""},
                   {"EXPORT_CONFIG_TIME_SHIFT", "0"}});
    }

    void writeSession()
    {
        WriteStatement insert(m_db, "INSERT INTO TARGET_INFO_SESSION_START_TIME(utcEpochNs, utcTime, localTime, "
                                    "systemClockNs) VALUES(?,?,?,?)");
        insert.bind(1, m_info.utcEpochNs);
        insert.bind(2, std::string_view(isoTime(m_info.utcEpochNs, 0)));
        insert.bind(3, std::string_view(isoTime(m_info.utcEpochNs, 8)));
        insert.bind(4, m_info.systemClockNs);
        insert.run();

        const int64_t globalVid = kVmId << 48;
        WriteStatement env(m_db, "INSERT INTO TARGET_INFO_SYSTEM_ENV(globalVid, devStateName, name, nameEnum, "
                                 "value) VALUES(?,'Local (CLI)',?,?,?)");
        const std::vector<std::tuple<const char *, int64_t, std::string>> rows = {
            {"CpuCores", 1, "128"},
            {"CpuArchitecture", 3, "x86_64"},
            {"CpuDescription", 13, "AMD EPYC 7742 64-Core Processor"},
            {"NvDriverVersion", 205, "535.161.08"},
            {"OsDescription", 605, "Ubuntu 22.04.4 LTS"},
            {"CudaDriverVersion", 611, "12020"},
            {"Hostname", 619, m_info.host}};
        for (const auto &[name, nameEnum, value] : rows) {
            env.bind(1, globalVid);
            env.bind(2, std::string_view(name));
            env.bind(3, nameEnum);
            env.bind(4, std::string_view(value));
            env.run();
        }
    }

    void writeProcessAndThreads()
    {
        WriteStatement process(m_db, "INSERT INTO PROCESSES(globalPid, pid, name) VALUES(?,?,?)");
        process.bind(1, m_globalPid);
        process.bind(2, m_info.pid);
        process.bind(3, std::string_view("python3"));
        process.run();

        WriteStatement thread(m_db, "INSERT INTO ThreadNames(nameId, priority, globalTid) VALUES(?,20,?)");
        const std::vector<std::pair<std::string, int64_t>> threads = {{"python3", m_tids[0]},
                                                                      {"pt_autograd_0", m_tids[1]},
                                                                      {"cuda00001400006", m_info.pid + 17},
                                                                      {"cuda-EvtHandlr", m_info.pid + 18},
                                                                      {"python3", m_info.pid + 29}};
        for (const auto &[name, tidValue] : threads) {
            thread.bind(1, intern(name));
            thread.bind(2, globalTid(m_info.pid, tidValue));
            thread.run();
        }

        // Captured stdout/stderr, as nsys stores them per process.
        char dir[96];
        std::snprintf(dir, sizeof dir, "/tmp/nvidia/nsight_systems/quadd_session_%lld/streams/",
                      static_cast<long long>(m_info.pid % 100000 + 1000000));
        char out[256];
        std::snprintf(out, sizeof out,
                      "ActorGroup rank %d on %s (CUDA device %d): profiling steps %d-%d with nsys "
                      "(capture-range=cudaProfilerApi)\n",
                      m_rank, m_info.host.c_str(), m_info.deviceId, m_plan.firstStep(),
                      m_plan.firstStep() + m_plan.steps() - 1);
        WriteStatement streams(m_db, "INSERT INTO ProcessStreams(globalPid, filenameId, contentId) VALUES(?,?,?)");
        const std::string base = std::string(dir) + "pid_" + std::to_string(m_info.pid);
        for (const auto &[file, content] : std::vector<std::pair<std::string, std::string>>{
                 {base + "_stdout.log", out}, {base + "_stderr.log", ""}}) {
            streams.bind(1, m_globalPid);
            streams.bind(2, intern(file));
            streams.bind(3, intern(content));
            streams.run();
        }
    }

    void writeDevice()
    {
        WriteStatement gpu(m_db, "INSERT INTO TARGET_INFO_GPU(vmId, id, name, busLocation, isDiscrete, "
                                 "l2CacheSize, totalMemory, memoryBandwidth, clockRate, smCount, uuid, chipName, "
                                 "cuDevice, threadsPerWarp, computeMajor, computeMinor) "
                                 "VALUES(?,?,'NVIDIA A100-SXM4-80GB',?,1,41943040,85899345920,2039000000000,"
                                 "1410000000,108,?,'GA100',?,32,8,0)");
        static constexpr const char *kBus[] = {"0000:07:00.0", "0000:0f:00.0", "0000:47:00.0", "0000:4e:00.0",
                                               "0000:87:00.0", "0000:90:00.0", "0000:b7:00.0", "0000:bd:00.0"};
        DemoRandom rng(DemoRandom::mix(m_plan.seed(), static_cast<uint64_t>(m_rank), 0x75756964)); // "uuid"
        char uuid[40];
        std::snprintf(uuid, sizeof uuid, "%08llx-%04llx-%04llx-%04llx-%012llx",
                      static_cast<unsigned long long>(rng.next() & 0xFFFFFFFF),
                      static_cast<unsigned long long>(rng.next() & 0xFFFF),
                      static_cast<unsigned long long>(rng.next() & 0xFFFF),
                      static_cast<unsigned long long>(rng.next() & 0xFFFF),
                      static_cast<unsigned long long>(rng.next() & 0xFFFFFFFFFFFF));
        gpu.bind(1, kVmId << 48);
        gpu.bind(2, static_cast<int64_t>(m_info.deviceId));
        gpu.bind(3, std::string_view(kBus[m_info.deviceId % 8]));
        gpu.bind(4, std::string_view(uuid));
        gpu.bind(5, static_cast<int64_t>(m_info.deviceId));
        gpu.run();

        // Stream flags (ENUM_CUPTI_STREAM_TYPE) as the real exports show them: 3 = legacy default
        // stream, 2 = created by the application.
        WriteStatement stream(m_db, "INSERT INTO TARGET_INFO_CUDA_STREAM(streamId, hwId, vmId, processId, "
                                    "contextId, priority, flag) VALUES(?,0,1,?,1,?,?)");
        for (const auto &[id, priority, flag] : std::vector<std::tuple<int, int64_t, int>>{
                 {kComputeStream, 0, 3}, {kNcclStream, 4294967295, 2}, {kCopyStream, 0, 2}}) {
            stream.bind(1, static_cast<int64_t>(id));
            stream.bind(2, m_info.pid);
            stream.bind(3, priority);
            stream.bind(4, static_cast<int64_t>(flag));
            stream.run();
        }
    }

    const RunPlan &m_plan;
    const int m_rank;
    const RankInfo &m_info;
    SqliteWriter &m_db;
    WriteStatement m_strings, m_runtime, m_kernel, m_memcpy, m_memset, m_sync, m_nvtxText, m_nvtxRegistered,
        m_nvtxDomain, m_memory;
    std::unordered_map<std::string, int64_t> m_stringIds;
    std::array<std::pair<int64_t, int64_t>, kKernelCount> m_kernelNames{};
    std::array<int64_t, kApiNames.size()> m_apiNames{};
    std::array<int64_t, kRangeLabels.size()> m_rangeIds{};
    std::array<int64_t, 2> m_tids{};
    int64_t m_globalPid = 0;
    int64_t m_rows = 0;
};

} // namespace

std::string reportFileName(int rank, int64_t pid)
{
    return "rlinf_profile_ActorGroup_" + std::to_string(rank) + "_" + std::to_string(pid) + ".sqlite";
}

bool writeReport(const RunPlan &plan, int rank, const std::string &path, int64_t &rows, std::string &error)
{
    const std::string temporary = path + ".part";
    {
        SqliteWriter db;
        if (!db.create(temporary)) {
            error = db.error();
            return false;
        }
        db.exec("BEGIN");
        for (const char *sql : nsysCreateStatements())
            db.exec(sql);
        {
            ReportWriter writer(plan, rank, db);
            writer.writeMetadata(std::filesystem::path(path).filename().string());
            StepModel model(plan, rank, writer);
            model.run();
            rows = writer.rows();
        }
        db.exec("COMMIT");
        if (!db.close()) {
            error = db.error();
            std::filesystem::remove(temporary);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        error = "cannot rename " + temporary + " to " + path + ": " + ec.message();
        std::filesystem::remove(temporary, ec);
        return false;
    }
    return true;
}

} // namespace ps::core::demo
