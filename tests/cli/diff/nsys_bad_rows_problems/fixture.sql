-- Source of fixture.sqlite (sqlite3 fixture.sqlite < fixture.sql): a small export in the shape of an nsys
-- 2021-era file with rows the importer must count and skip or keep. Expected problems, worked out by hand:
--   nsys.bad_interval   3  (kernel end < start, kernel with NULL start, runtime call with NULL end)
--   nsys.missing_lane   1  (memcpy without deviceId)
--   nsys.missing_name   2  (kernel demangledName 99, runtime nameId 98: not in StringIds; both kept)
--   nsys.missing_thread 1  (runtime call without globalTid)
-- Kept: kernels 3 (ids 1, 1, 99), memcpys 1, runtime calls 2 (nameIds 2 and 98).
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'void scale<double>(double*, int)'), (2, 'cudaLaunchKernel_v7000');
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '2.7.1'), ('EXPORT_HOST', 'secret-host');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT, streamId INT, correlationId INT,
    globalPid INT, demangledName INT, shortName INT);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
    (1000, 1500, 0, 7, 1, 100 * 16777216, 1, NULL),
    (2000, 2600, 0, 7, 2, 100 * 16777216, 1, NULL),
    (3000, 2900, 0, 7, 3, 100 * 16777216, 1, NULL),
    (NULL, 4000, 0, 7, 4, 100 * 16777216, 1, NULL),
    (5000, 5100, 0, 8, 5, 100 * 16777216, 99, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, deviceId INT, streamId INT, bytes INT, copyKind INT,
    srcKind INT, dstKind INT);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (100, 200, 0, 7, 4096, 1, 0, 2), (300, 400, NULL, 7, 4096, 1, 0, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, eventClass INT, globalTid INT, correlationId INT,
    nameId INT);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (900, 950, 0, 100 * 16777216 + 101, 1, 2),
    (1900, 1950, 0, 100 * 16777216 + 101, 2, 98),
    (2900, NULL, 0, 100 * 16777216 + 101, 3, 2),
    (3900, 3950, 0, NULL, 4, 2);
