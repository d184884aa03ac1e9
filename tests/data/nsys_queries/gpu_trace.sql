SELECT k.start, k.end - k.start AS duration, k.deviceId, k.contextId, k.greenContextId, k.streamId,
       k.globalPid / 0x1000000 % 0x1000000 AS pid, k.correlationId, k.gridX, k.blockX, k.registersPerThread,
       s.value AS name
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.shortName
ORDER BY k.start LIMIT 50;
