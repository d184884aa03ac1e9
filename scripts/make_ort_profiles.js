// SPDX-License-Identifier: MIT
// Makes the ONNX Runtime profiles in tests/data/traces: runs each model with ONNX Runtime's Node.js binding and
// profiling on, and keeps the JSON profile ORT writes (onnxruntime_profile_<prefix>_<date>.json).
//
//   mkdir /tmp/ort && cd /tmp/ort && npm install --ignore-scripts onnxruntime-node   # the CPU runtime only
//   NODE_PATH=/tmp/ort/node_modules node scripts/make_ort_profiles.js OUTDIR MODEL.onnx [RUNS]
//
// Inputs are filled with a fixed ramp (no randomness): every dimension ORT reports as symbolic is taken as 1.
// --ignore-scripts leaves out the CUDA provider, so every node of these profiles runs on CPUExecutionProvider.
'use strict';
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');

const kTypes = {
    float32: Float32Array, float64: Float64Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array,
};

function inputTensor(meta) {
    const dims = (meta.shape || []).map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    const count = dims.reduce((a, b) => a * b, 1);
    const Type = kTypes[meta.type];
    if (!Type)
        throw new Error('input ' + meta.name + ' has type ' + meta.type + ', which this script does not fill');
    const data = new Type(count);
    for (let i = 0; i < count; ++i)
        data[i] = Type === BigInt64Array ? BigInt(i % 7) : (i % 255) / 255;
    return new ort.Tensor(meta.type, data, dims);
}

async function main() {
    const [outDir, model, runsText] = process.argv.slice(2);
    if (!outDir || !model) {
        console.error('usage: node make_ort_profiles.js OUTDIR MODEL.onnx [RUNS]');
        process.exit(2);
    }
    const runs = Number(runsText || 2);
    const prefix = path.join(outDir, 'ort_' + path.basename(model, '.onnx'));
    const session = await ort.InferenceSession.create(model, {
        executionProviders: ['cpu'], enableProfiling: true, profileFilePrefix: prefix, graphOptimizationLevel: 'all',
    });
    const feeds = {};
    for (const meta of session.inputMetadata)
        feeds[meta.name] = inputTensor(meta);
    for (let i = 0; i < runs; ++i)
        await session.run(feeds);
    session.endProfiling();
    const written = fs.readdirSync(outDir).filter((f) => f.startsWith(path.basename(prefix)) && f.endsWith('.json'));
    console.log(written.map((f) => path.join(outDir, f)).join('\n'));
}

main().catch((error) => {
    console.error(String(error.message || error));
    process.exit(1);
});
