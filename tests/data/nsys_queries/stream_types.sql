-- Kernels per stream with the stream's type and priority, joined on the process's pid and context.
SELECT k.globalPid / 0x1000000 % 0x1000000 AS pid, k.streamId, t.label AS type, st.priority, COUNT(*) AS kernels
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN TARGET_INFO_CUDA_STREAM AS st
  ON st.streamId = k.streamId AND st.contextId = k.contextId AND st.processId = k.globalPid / 0x1000000 % 0x1000000
JOIN ENUM_CUPTI_STREAM_TYPE AS t ON t.id = st.flag
GROUP BY pid, k.streamId, type, st.priority ORDER BY pid, k.streamId;
