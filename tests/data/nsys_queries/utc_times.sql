SELECT t.utcEpochNs, t.utcTime, (SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL) + t.utcEpochNs AS first_kernel_utc_ns
FROM TARGET_INFO_SESSION_START_TIME AS t;
