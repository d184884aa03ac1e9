-- Kernels with their launch configuration and the GPU's name from TARGET_INFO_GPU, for Paraver rows.
SELECT k.start, k.end - k.start AS duration, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ,
       k.registersPerThread, k.staticSharedMemory, k.dynamicSharedMemory, k.localMemoryTotal,
       printf('%s (%d)', gpu.name, k.deviceId) AS device, k.deviceId, k.contextId, k.greenContextId, k.streamId,
       s.value AS name, k.correlationId, k.globalPid / 0x1000000 % 0x1000000 AS pid, coalesce(k.graphNodeId, NULL) AS graphNode
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
LEFT JOIN TARGET_INFO_GPU AS gpu ON gpu.id == k.deviceId
LEFT JOIN StringIds AS s ON s.id == k.shortName
ORDER BY k.start LIMIT 400;
