SELECT vmId, id, name, busLocation, isDiscrete, l2CacheSize, totalMemory, memoryBandwidth, clockRate, smCount, uuid,
       chipName, constantMemory, maxRegistersPerBlock, maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm,
       maxRegistersPerSm, threadsPerWarp, asyncEngines, maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock,
       maxBlockDimX, maxBlockDimY, maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, computeMajor, computeMinor,
       smMajor, smMinor
FROM TARGET_INFO_GPU ORDER BY id;
