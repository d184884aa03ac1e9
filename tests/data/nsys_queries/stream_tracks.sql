-- One track per declared stream and per context, with the device and null stream, to lay out a timeline.
SELECT s.processId, s.streamId, c.deviceId, c.nullStreamId, s.streamId = c.nullStreamId AS is_null_stream
FROM TARGET_INFO_CUDA_STREAM AS s
JOIN TARGET_INFO_CUDA_CONTEXT_INFO AS c ON c.processId = s.processId AND c.contextId = s.contextId
ORDER BY s.processId, s.streamId;
