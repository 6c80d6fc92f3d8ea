#include "core/demo/nsysschema.h"

namespace ps::core::demo {

// Sources: ppcu-lab7__report1.sqlite = nsys 2025.6.1 (schema 3.24.7), recon-stream__report14.sqlite
// = 2023.1.2 (3.1.2, the newest sample with CUPTI kernel/memcpy/runtime rows),
// pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite = 2022.2.1 (2.9.1, the newest with NVTX_EVENTS,
// memset and synchronization rows). Comments are kept: they carry the REFERENCES hints that
// schema-introspecting readers use.
const std::vector<const char *> &nsysCreateStatements()
{
    static const std::vector<const char *> k = {
        // StringIds — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE StringIds (
        -- Consolidation of repetitive string values.
    
        id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
        value                       TEXT      NOT NULL                     -- String value.
    );)sql",
        // ThreadNames — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE ThreadNames (
        nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
        priority                    INTEGER,                               -- Priority of the thread.
        globalTid                   INTEGER                                -- Serialized GlobalId.
    );)sql",
        // ProcessStreams — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE ProcessStreams (
        globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
        filenameId                  INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- File name
        contentId                   INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Stream content
    );)sql",
        // PROCESSES — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE PROCESSES (
        -- Names and identifiers of processes captured in the report.
    
        globalPid                   INTEGER,                               -- Serialized GlobalId.
        pid                         INTEGER,                               -- The process ID.
        name                        TEXT                                   -- The process name.
    );)sql",
        // TARGET_INFO_SESSION_START_TIME — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE TARGET_INFO_SESSION_START_TIME (
        utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
        utcTime                     TEXT,                                  -- Start of the capture in UTC.
        localTime                   TEXT,                                  -- Start of the capture in local time of target.
        systemClockNs               INTEGER                                -- Target system clock timestamp at start of the capture (ns).
    );)sql",
        // META_DATA_EXPORT — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE META_DATA_EXPORT (
        -- information about nsys export process
    
        name                        TEXT      NOT NULL,                    -- Name of meta-data record
        value                       TEXT                                   -- Value of meta-data record
    );)sql",
        // TARGET_INFO_SYSTEM_ENV — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE TARGET_INFO_SYSTEM_ENV (
        globalVid                   INTEGER,                               -- Serialized GlobalId.
        devStateName                TEXT      NOT NULL,                    -- Device state name.
        name                        TEXT      NOT NULL,                    -- Property name.
        nameEnum                    INTEGER   NOT NULL,                    -- Property enum value.
        value                       TEXT      NOT NULL                     -- Property value.
    );)sql",
        // TARGET_INFO_GPU — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE TARGET_INFO_GPU (
        vmId                        INTEGER   NOT NULL,                    -- Serialized GlobalId.
        id                          INTEGER   NOT NULL,                    -- Device ID.
        name                        TEXT,                                  -- Device name.
        busLocation                 TEXT,                                  -- PCI bus location.
        isDiscrete                  INTEGER,                               -- True if discrete, false if integrated.
        l2CacheSize                 INTEGER,                               -- Size of L2 cache (B).
        totalMemory                 INTEGER,                               -- Total amount of memory on the device (B).
        memoryBandwidth             INTEGER,                               -- Amount of memory transferred (B).
        clockRate                   INTEGER,                               -- Clock frequency (Hz).
        smCount                     INTEGER,                               -- Number of multiprocessors on the device.
        pwGpuId                     INTEGER,                               -- PerfWorks GPU ID.
        uuid                        TEXT,                                  -- Device UUID.
        luid                        INTEGER,                               -- Device LUID.
        chipName                    TEXT,                                  -- Chip name.
        cuDevice                    INTEGER,                               -- CUDA device ID.
        ctxswDevPath                TEXT,                                  -- GPU context switch device node path.
        ctrlDevPath                 TEXT,                                  -- GPU control device node path.
        revision                    INTEGER,                               -- Revision number.
        nodeMask                    INTEGER,                               -- Device node mask.
        constantMemory              INTEGER,                               -- Memory available on device for __constant__ variables (B).
        maxIPC                      INTEGER,                               -- Maximum instructions per count.
        maxRegistersPerBlock        INTEGER,                               -- Maximum number of 32-bit registers available per block.
        maxShmemPerBlock            INTEGER,                               -- Maximum optin shared memory per block.
        maxShmemPerBlockOptin       INTEGER,                               -- Maximum optin shared memory per block.
        maxShmemPerSm               INTEGER,                               -- Maximum shared memory available per multiprocessor (B).
        maxRegistersPerSm           INTEGER,                               -- Maximum number of 32-bit registers available per multiprocessor.
        threadsPerWarp              INTEGER,                               -- Warp size in threads.
        asyncEngines                INTEGER,                               -- Number of asynchronous engines.
        maxWarpsPerSm               INTEGER,                               -- Maximum number of warps per multiprocessor.
        maxBlocksPerSm              INTEGER,                               -- Maximum number of blocks per multiprocessor.
        maxThreadsPerBlock          INTEGER,                               -- Maximum number of threads per block.
        maxBlockDimX                INTEGER,                               -- Maximum X-dimension of a block.
        maxBlockDimY                INTEGER,                               -- Maximum Y-dimension of a block.
        maxBlockDimZ                INTEGER,                               -- Maximum Z-dimension of a block.
        maxGridDimX                 INTEGER,                               -- Maximum X-dimension of a grid.
        maxGridDimY                 INTEGER,                               -- Maximum Y-dimension of a grid.
        maxGridDimZ                 INTEGER,                               -- Maximum Z-dimension of a grid.
        computeMajor                INTEGER,                               -- Major compute capability version number.
        computeMinor                INTEGER,                               -- Minor compute capability version number.
        smMajor                     INTEGER,                               -- Major multiprocessor version number.
        smMinor                     INTEGER                                -- Minor multiprocessor version number.
    );)sql",
        // TARGET_INFO_CUDA_STREAM — as declared by ppcu-lab7__report1.sqlite
        R"sql(CREATE TABLE TARGET_INFO_CUDA_STREAM (
        streamId                    INTEGER   NOT NULL,                    -- Stream ID.
        hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
        vmId                        INTEGER   NOT NULL,                    -- VM ID.
        processId                   INTEGER   NOT NULL,                    -- Process ID.
        contextId                   INTEGER   NOT NULL,                    -- Context ID.
        priority                    INTEGER   NOT NULL,                    -- Priority of the stream.
        flag                        INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_STREAM_TYPE(id)
    );)sql",
        // CUPTI_ACTIVITY_KIND_KERNEL — as declared by recon-stream__report14.sqlite
        R"sql(CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
        deviceId                    INTEGER   NOT NULL,                    -- Device ID.
        contextId                   INTEGER   NOT NULL,                    -- Context ID.
        streamId                    INTEGER   NOT NULL,                    -- Stream ID.
        correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
        globalPid                   INTEGER,                               -- Serialized GlobalId.
        demangledName               INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Kernel function name w/ templates
        shortName                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Base kernel function name
        mangledName                 INTEGER,                               -- REFERENCES StringIds(id) -- Raw C++ mangled kernel function name
        launchType                  INTEGER,                               -- REFERENCES ENUM_CUDA_KRENEL_LAUNCH_TYPE(id)
        cacheConfig                 INTEGER,                               -- REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)
        registersPerThread          INTEGER   NOT NULL,                    -- Number of registers required for each thread executing the kernel.
        gridX                       INTEGER   NOT NULL,                    -- X-dimension grid size.
        gridY                       INTEGER   NOT NULL,                    -- Y-dimension grid size.
        gridZ                       INTEGER   NOT NULL,                    -- Z-dimension grid size.
        blockX                      INTEGER   NOT NULL,                    -- X-dimension block size.
        blockY                      INTEGER   NOT NULL,                    -- Y-dimension block size.
        blockZ                      INTEGER   NOT NULL,                    -- Z-dimension block size.
        staticSharedMemory          INTEGER   NOT NULL,                    -- Static shared memory allocated for the kernel (B).
        dynamicSharedMemory         INTEGER   NOT NULL,                    -- Dynamic shared memory reserved for the kernel (B).
        localMemoryPerThread        INTEGER   NOT NULL,                    -- Amount of local memory reserved for each thread (B).
        localMemoryTotal            INTEGER   NOT NULL,                    -- Total amount of local memory reserved for the kernel (B).
        gridId                      INTEGER   NOT NULL,                    -- Unique grid ID of the kernel assigned at runtime.
        sharedMemoryExecuted        INTEGER,                               -- Shared memory size set by the driver.
        graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_EVENTS(graphNodeId)
        sharedMemoryLimitConfig     INTEGER                                -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
    );)sql",
        // CUPTI_ACTIVITY_KIND_MEMCPY — as declared by recon-stream__report14.sqlite
        R"sql(CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
        deviceId                    INTEGER   NOT NULL,                    -- Device ID.
        contextId                   INTEGER   NOT NULL,                    -- Context ID.
        streamId                    INTEGER   NOT NULL,                    -- Stream ID.
        correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
        globalPid                   INTEGER,                               -- Serialized GlobalId.
        bytes                       INTEGER   NOT NULL,                    -- Number of bytes transferred (B).
        copyKind                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_MEMCPY_OPER(id)
        deprecatedSrcId             INTEGER,                               -- Deprecated, use srcDeviceId instead.
        srcKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
        dstKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
        srcDeviceId                 INTEGER,                               -- Source device ID.
        srcContextId                INTEGER,                               -- Source context ID.
        dstDeviceId                 INTEGER,                               -- Destination device ID.
        dstContextId                INTEGER,                               -- Destination context ID.
        migrationCause              INTEGER,                               -- REFERENCES ENUM_CUDA_UNIF_MEM_MIGRATION(id)
        graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_EVENTS(graphNodeId)
        virtualAddress              INTEGER                                -- Virtual base address of the page/s being transferred.
    );)sql",
        // CUPTI_ACTIVITY_KIND_RUNTIME — as declared by recon-stream__report14.sqlite
        R"sql(CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
        eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
        globalTid                   INTEGER,                               -- Serialized GlobalId.
        correlationId               INTEGER,                               -- ID used to identify events that this function call has triggered.
        nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
        returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
        callchainId                 INTEGER                                -- REFERENCES CUDA_CALLCHAINS(id)
    );)sql",
        // CUPTI_ACTIVITY_KIND_MEMSET — as declared by pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite
        R"sql(CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
        deviceId                    INTEGER   NOT NULL,                    -- Device ID.
        contextId                   INTEGER   NOT NULL,                    -- Context ID.
        streamId                    INTEGER   NOT NULL,                    -- Stream ID.
        correlationId               INTEGER   REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId), -- ID used to identify the API call that launched the event.
        globalPid                   INTEGER,                               -- Serialized GlobalId.
        value                       INTEGER   NOT NULL,                    -- Value assigned to memory.
        bytes                       INTEGER   NOT NULL,                    -- Number of bytes set (B).
        graphNodeId                 INTEGER   REFERENCES CUDA_GRAPH_EVENTS(graphNodeId), -- CUDA graph node creation ID.
        memKind                     INTEGER                                -- Type of memory being set. See enum CUDA_MEMOPR_MEMORY_KIND.
    );)sql",
        // CUDA_GPU_MEMORY_USAGE_EVENTS — as declared by extrap__concurrent.s1.sqlite
        R"sql(CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
        deviceId                    INTEGER   NOT NULL,                    -- Device ID.
        contextId                   INTEGER   NOT NULL,                    -- Context ID.
        address                     INTEGER   NOT NULL,                    -- Virtual address of the allocation/deallocation.
        pc                          INTEGER   NOT NULL,                    -- Program counter of the allocation/deallocation.
        bytes                       INTEGER   NOT NULL,                    -- Number of bytes allocated/deallocated (B).
        memKind                     INTEGER   NOT NULL,                    -- Type of memory being allocated/deallocated. See enum CUDA_MEMOPR_MEMORY_KIND.
        memoryOperationType         INTEGER   NOT NULL,                    -- 0 if memory was allocated and 1 if memory was deallocated.
        name                        TEXT,                                  -- Variable name, if available.
        correlationId               INTEGER                                -- ID used to identify the API call that launched the event.
    );)sql",
        // CUPTI_ACTIVITY_KIND_SYNCHRONIZATION — as declared by pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite
        R"sql(CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
        deviceId                    INTEGER   NOT NULL,                    -- Device ID.
        contextId                   INTEGER   NOT NULL,                    -- Context ID.
        streamId                    INTEGER   NOT NULL,                    -- Stream ID.
        correlationId               INTEGER,                               -- Correlation ID of the synchronization API to which this result is associated.
        globalPid                   INTEGER,                               -- Serialized GlobalId.
        syncType                    INTEGER   NOT NULL,                    -- Type of synchronization. See enum CUpti_ActivitySynchronizationType.
        eventId                     INTEGER   NOT NULL                     -- Event ID for which the synchronization API is called.
    );)sql",
        // NVTX_EVENTS — as declared by pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite
        R"sql(CREATE TABLE NVTX_EVENTS (
        start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
        end                         INTEGER,                               -- Event end timestamp (ns).
        eventType                   INTEGER   NOT NULL,                    -- NVTX event type enum value. See docs for specifics.
        rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
        category                    INTEGER,                               -- User-controlled ID that can be used to group events.
        color                       INTEGER,                               -- Encoded ARGB color value.
        text                        TEXT,                                  -- Optional text message for non registered strings.
        globalTid                   INTEGER,                               -- Serialized GlobalId.
        endGlobalTid                INTEGER,                               -- Serialized GlobalId. See docs for specifics.
        textId                      INTEGER   REFERENCES StringIds(id),    -- StringId of the NVTX domain registered string.
        domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
        uint64Value                 INTEGER,                               -- One of possible payload value union members.
        int64Value                  INTEGER,                               -- One of possible payload value union members.
        doubleValue                 REAL,                                  -- One of possible payload value union members.
        uint32Value                 INTEGER,                               -- One of possible payload value union members.
        int32Value                  INTEGER,                               -- One of possible payload value union members.
        floatValue                  REAL,                                  -- One of possible payload value union members.
        jsonTextId                  INTEGER,                               -- One of possible payload value union members.
        jsonText                    TEXT                                   -- One of possible payload value union members.
    );)sql",
    };
    return k;
}

} // namespace ps::core::demo
