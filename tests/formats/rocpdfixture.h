#pragma once
// A small rocprofv3 rocpd database written by the test, in schema 3 (inline start/end) or 4
// (rocpd_timestamp / rocpd_track), with what the real sample lacks: roctx ranges and marks and
// memory copies. Physical tables carry a uuid suffix and unsuffixed views select from them, as
// rocprofv3 writes them. The expected values in tst_rocpdreader are the rows inserted here.

#include <sqlite3.h>

#include <string>

namespace rocpdfixture {

inline const char *const kCommon = R"SQL(
CREATE TABLE rocpd_metadata_u1(id INTEGER PRIMARY KEY, tag TEXT, value TEXT);
CREATE TABLE rocpd_string_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', string TEXT);
CREATE TABLE rocpd_info_node_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', hostname TEXT);
CREATE TABLE rocpd_info_process_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, command TEXT);
CREATE TABLE rocpd_info_thread_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT, name TEXT);
CREATE TABLE rocpd_info_agent_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', type TEXT, type_index INT, name TEXT,
                                 product_name TEXT);
CREATE TABLE rocpd_info_kernel_symbol_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', kernel_name TEXT,
                                         display_name TEXT);
CREATE TABLE rocpd_event_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', category_id INT, stack_id INT,
                            correlation_id INT, extdata TEXT DEFAULT '{}');
INSERT INTO rocpd_string_u1(id, string) VALUES (1, 'hipLaunchKernel'), (2, 'roctxRangePushA'), (3, 'roctxMarkA'),
  (4, 'HIP_RUNTIME_API_EXT'), (5, 'MARKER_CORE_API'), (6, 'Memcpy HtoD'), (7, 'hipMemcpyAsync'),
  (8, 'roctxRangeStartA'), (9, 'markers'), (10, 'Memcpy PtoP');
INSERT INTO rocpd_info_node_u1 VALUES (1, 'g1', 'testhost');
INSERT INTO rocpd_info_process_u1 VALUES (1, 'g1', 1, 4242, '/usr/bin/python3 train.py');
INSERT INTO rocpd_info_thread_u1 VALUES (1, 'g1', 1, 1, 4242, 'main'), (2, 'g1', 1, 1, 4243, 'worker');
INSERT INTO rocpd_info_agent_u1 VALUES (1, 'g1', 'CPU', 0, 'cpu', 'Xeon'), (2, 'g1', 'GPU', 0, 'gfx942', 'MI300X'),
  (3, 'g1', 'GPU', 1, 'gfx942', 'MI300X');
INSERT INTO rocpd_info_kernel_symbol_u1 VALUES (1, 'g1', '_Z4gemmPf', 'gemm_kernel(float*)');
INSERT INTO rocpd_event_u1(id, category_id, stack_id, correlation_id, extdata) VALUES
  (1, 4, 101, 0, '{}'), (2, 5, 0, 0, '{"message":"step 1"}'), (3, 5, 0, 0, '{"message":"checkpoint"}'),
  (4, 4, 101, 0, '{}'), (5, 4, 102, 0, '{}'), (6, 4, 102, 0, '{}'), (7, 5, 0, 0, '{"message":"async range"}'),
  (8, 4, 0, 0, '{}');
)SQL";

inline const char *const kV3 = R"SQL(
INSERT INTO rocpd_metadata_u1(tag, value) VALUES ('schema_version', '3'), ('uuid', '_u1'), ('guid', 'g1');
CREATE TABLE rocpd_region_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT, start INT,
                             end INT, name_id INT, event_id INT);
CREATE TABLE rocpd_kernel_dispatch_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT,
  agent_id INT, kernel_id INT, queue_id INT, stream_id INT, start INT, end INT, grid_size_x INT, grid_size_y INT,
  grid_size_z INT, workgroup_size_x INT, workgroup_size_y INT, workgroup_size_z INT, event_id INT);
CREATE TABLE rocpd_memory_copy_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT, start INT,
  end INT, name_id INT, src_agent_id INT, dst_agent_id INT, size INT, queue_id INT, stream_id INT, event_id INT);
CREATE TABLE rocpd_track_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT, name_id INT);
CREATE TABLE rocpd_sample_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', track_id INT, timestamp INT,
                             event_id INT);
INSERT INTO rocpd_region_u1(id, nid, pid, tid, start, end, name_id, event_id) VALUES
  (1, 1, 1, 1, 1000, 1100, 1, 1), (2, 1, 1, 1, 900, 2000, 2, 2), (3, 1, 1, 1, 1200, 1300, 7, 5),
  (4, 1, 1, 2, 950, 3000, 8, 7);
INSERT INTO rocpd_kernel_dispatch_u1(id, nid, pid, tid, agent_id, kernel_id, queue_id, stream_id, start, end,
  grid_size_x, grid_size_y, grid_size_z, workgroup_size_x, workgroup_size_y, workgroup_size_z, event_id) VALUES
  (1, 1, 1, 1, 2, 1, 5, 0, 1150, 1900, 1024, 1, 1, 256, 1, 1, 4);
INSERT INTO rocpd_memory_copy_u1(id, nid, pid, tid, start, end, name_id, src_agent_id, dst_agent_id, size, queue_id,
  stream_id, event_id) VALUES (1, 1, 1, 1, 1250, 1400, 6, 1, 2, 4096, 5, 0, 6),
  (2, 1, 1, 1, 2000, 2100, 10, 2, 3, 8192, 5, 0, 8);
INSERT INTO rocpd_track_u1 VALUES (1, 'g1', 1, 1, 1, 9);
INSERT INTO rocpd_sample_u1(id, track_id, timestamp, event_id) VALUES (1, 1, 1500, 3);
CREATE TABLE rocpd_memory_allocate_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT,
  agent_id INT, type TEXT, level TEXT, start INT, end INT, address INT, size INT, queue_id INT, stream_id INT,
  event_id INT);
-- GPU 0: 4096 + 8192 allocated, the first freed (with size 0, as rocprofiler-sdk records frees);
-- a VIRTUAL reservation and a CPU allocation that are not device memory; GPU 1: 100 bytes.
INSERT INTO rocpd_memory_allocate_u1(id, nid, pid, tid, agent_id, type, level, start, end, address, size) VALUES
  (1, 1, 1, 1, 2, 'ALLOC', 'REAL', 1000, 1001, 256, 4096), (2, 1, 1, 1, 2, 'ALLOC', 'REAL', 1100, 1101, 512, 8192),
  (3, 1, 1, 1, 2, 'ALLOC', 'VIRTUAL', 1150, 1151, 4096, 1073741824), (4, 1, 1, 1, 1, 'ALLOC', 'REAL', 1160, 1161, 8, 64),
  (5, 1, 1, 1, 2, 'FREE', 'REAL', 1200, 1201, 256, 0), (6, 1, 1, 1, 3, 'ALLOC', 'REAL', 1300, 1301, 1024, 100);
)SQL";

inline const char *const kV4 = R"SQL(
INSERT INTO rocpd_metadata_u1(tag, value) VALUES ('schema_version', '4.0.0'), ('uuid', '_u1'), ('guid', 'g1');
CREATE TABLE rocpd_timestamp_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', value INT, track_id INT);
CREATE TABLE rocpd_track_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', nid INT, pid INT, tid INT, agent_id INT,
                            queue_id INT, name_id INT);
CREATE TABLE rocpd_region_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', track_id INT, name_id INT, start_id INT,
                             end_id INT, event_id INT);
CREATE TABLE rocpd_kernel_dispatch_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', track_id INT, kernel_id INT,
  dispatch_id INT, start_id INT, end_id INT, grid_size_x INT, grid_size_y INT, grid_size_z INT, workgroup_size_x INT,
  workgroup_size_y INT, workgroup_size_z INT, event_id INT);
CREATE TABLE rocpd_memory_copy_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', track_id INT, start_id INT,
  end_id INT, name_id INT, src_agent_id INT, dst_agent_id INT, size INT, event_id INT);
CREATE TABLE rocpd_sample_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', track_id INT, name_id INT,
                             timestamp_id INT, event_id INT);
INSERT INTO rocpd_track_u1(id, nid, pid, tid, agent_id, queue_id, name_id) VALUES
  (1, 1, 1, 1, NULL, NULL, 9), (2, 1, 1, 2, NULL, NULL, NULL), (3, 1, 1, 1, 2, 5, NULL);
-- Out of value order on purpose: times come from the values, not the ids.
INSERT INTO rocpd_timestamp_u1(id, value, track_id) VALUES (1, 1100, 1), (2, 1000, 1), (3, 900, 1), (4, 2000, 1),
  (5, 1200, 1), (6, 1300, 1), (7, 950, 2), (8, 3000, 2), (9, 1150, 3), (10, 1900, 3), (11, 1250, 3), (12, 1400, 3),
  (13, 2000, 3), (14, 2100, 3), (15, 1500, 1);
INSERT INTO rocpd_region_u1(id, track_id, name_id, start_id, end_id, event_id) VALUES
  (1, 1, 1, 2, 1, 1), (2, 1, 2, 3, 4, 2), (3, 1, 7, 5, 6, 5), (4, 2, 8, 7, 8, 7);
INSERT INTO rocpd_kernel_dispatch_u1(id, track_id, kernel_id, dispatch_id, start_id, end_id, grid_size_x, grid_size_y,
  grid_size_z, workgroup_size_x, workgroup_size_y, workgroup_size_z, event_id) VALUES
  (1, 3, 1, 1, 9, 10, 1024, 1, 1, 256, 1, 1, 4);
INSERT INTO rocpd_memory_copy_u1(id, track_id, start_id, end_id, name_id, src_agent_id, dst_agent_id, size, event_id)
  VALUES (1, 3, 11, 12, 6, 1, 2, 4096, 6), (2, 3, 13, 14, 10, 2, 3, 8192, 8);
INSERT INTO rocpd_sample_u1(id, track_id, name_id, timestamp_id, event_id) VALUES (1, 1, 9, 15, 3);
CREATE TABLE rocpd_memory_allocate_u1(id INTEGER PRIMARY KEY, guid TEXT DEFAULT 'g1', track_id INT, agent_id INT,
  type TEXT, level TEXT, start_id INT, end_id INT, address INT, size INT, event_id INT);
INSERT INTO rocpd_timestamp_u1(id, value, track_id) VALUES (16, 1000, 1), (17, 1100, 1), (18, 1150, 1), (19, 1160, 1),
  (20, 1200, 1), (21, 1300, 1);
INSERT INTO rocpd_memory_allocate_u1(id, track_id, agent_id, type, level, start_id, end_id, address, size) VALUES
  (1, 1, 2, 'ALLOC', 'REAL', 16, 16, 256, 4096), (2, 1, 2, 'ALLOC', 'REAL', 17, 17, 512, 8192),
  (3, 1, 2, 'ALLOC', 'VIRTUAL', 18, 18, 4096, 1073741824), (4, 1, 1, 'ALLOC', 'REAL', 19, 19, 8, 64),
  (5, 1, 2, 'FREE', 'REAL', 20, 20, 256, 0), (6, 1, 3, 'ALLOC', 'REAL', 21, 21, 1024, 100);
)SQL";

// Writes the fixture; returns "" or the SQLite error.
inline std::string write(const std::string &path, bool v4)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        return "open failed";
    std::string sql = std::string(kCommon) + (v4 ? kV4 : kV3);
    for (const char *t :
         {"metadata", "string", "info_node", "info_process", "info_thread", "info_agent", "info_kernel_symbol", "event",
          "region", "kernel_dispatch", "memory_copy", "track", "sample", "memory_allocate"})
        sql += std::string("CREATE VIEW rocpd_") + t + " AS SELECT * FROM rocpd_" + t + "_u1;\n";
    if (v4)
        sql += "CREATE VIEW rocpd_timestamp AS SELECT * FROM rocpd_timestamp_u1;\n";
    char *err = nullptr;
    std::string out;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK)
        out = err ? err : "exec failed";
    sqlite3_free(err);
    sqlite3_close(db);
    return out;
}

} // namespace rocpdfixture
