#!/usr/bin/env bash
# Cross-checks the nsys_* expected.csv files without Placescope: runs each case's query.sql with the sqlite3
# shell on the ORIGINAL Nsight Systems export (the queries use only nsys tables and columns, so they run
# unchanged there) and diffs with expected.csv. nsys_meta_and_problems reads our own tables; its figures are
# checked against the export's META_DATA_EXPORT, TARGET_INFO_GPU and PROCESSES below.
set -euo pipefail
cd "$(dirname "$0")"
export_file=../../data/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite
status=0
for case in nsys_kernel_time_by_name nsys_pageable_memcpy nsys_stream_kernel_counts nsys_runtime_calls_by_name \
            nsys_launch_kernel_links; do
  if diff <(sqlite3 -csv -header "$export_file" < "$case/query.sql" | tr -d '\r') "$case/expected.csv"; then
    echo "ok   $case (sqlite3 on the nsys export gives the same rows)"
  else
    echo "FAIL $case"; status=1
  fi
done
sqlite3 "$export_file" "SELECT 'export', value FROM META_DATA_EXPORT WHERE name IN ('EXPORT_SCHEMA_VERSION',
  'EXPORT_PRODUCT_VERSION'); SELECT 'gpu', id, name FROM TARGET_INFO_GPU ORDER BY id;
  SELECT 'process', pid, name FROM PROCESSES WHERE globalPid IN (SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL);"
exit $status
