// SPDX-License-Identifier: MIT
#include "placement/cost/op_work.h"

#include "graph_builder.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

using testing::GraphBuilder;

TEST(OpWork, GroupedStridedConvMatchesTheFormula)
{
    // N=2, Cin=8, 15x15 input, Cout=16, group=2, 3x3 kernel, stride 2, pad 1 -> 8x8 output.
    const int64_t n = 2, cin = 8, cout = 16, group = 2, kh = 3, kw = 3, hout = 8, wout = 8;
    GraphBuilder b;
    int x = b.input("x", { n, cin, 15, 15 });
    int w = b.weight("w", { cout, cin / group, kh, kw });
    int bias = b.weight("b", { cout });
    int y = b.value("y", { n, cout, hout, wout });
    int conv = b.op("conv", "Conv", { x, w, bias }, { y });
    b.graph.ops[conv].intAttributes["group"] = { group };
    b.graph.ops[conv].intAttributes["strides"] = { 2, 2 };

    OpWork work = opWork(b.graph, conv);
    EXPECT_EQ(work.kind, WorkKind::Compute);
    EXPECT_DOUBLE_EQ(work.flops, 2.0 * n * cout * hout * wout * (cin / group) * kh * kw);
    EXPECT_DOUBLE_EQ(
        work.bytes, 4.0 * (n * cin * 15 * 15 + cout * (cin / group) * kh * kw + cout + n * cout * hout * wout));
    EXPECT_TRUE(work.shapesKnown);
    EXPECT_FALSE(work.tensorCoreEligible);
}

TEST(OpWork, AtenConvUsesTheSameFormulaAndHalfPrecisionUsesTensorCores)
{
    GraphBuilder b;
    int x = b.input("x", { 1, 3, 224, 224 }, "float16");
    int w = b.weight("w", { 64, 3, 7, 7 }, "float16");
    int y = b.value("y", { 1, 64, 112, 112 }, "float16");
    int conv = b.op("conv", "aten::conv2d", { x, w }, { y });
    OpWork work = opWork(b.graph, conv);
    EXPECT_EQ(work.canonicalType, "Conv");
    EXPECT_DOUBLE_EQ(work.flops, 2.0 * 64 * 112 * 112 * 3 * 7 * 7);
    EXPECT_TRUE(work.tensorCoreEligible);
}

TEST(OpWork, GemmAndMatMulAreTwoMnk)
{
    GraphBuilder b;
    int a = b.input("a", { 32, 2048 });
    int w = b.weight("w", { 1000, 2048 });
    int c = b.weight("c", { 1000 });
    int y = b.value("y", { 32, 1000 });
    int gemm = b.op("gemm", "Gemm", { a, w, c }, { y });
    b.graph.ops[gemm].intAttributes["transB"] = { 1 };
    EXPECT_DOUBLE_EQ(opWork(b.graph, gemm).flops, 2.0 * 32 * 1000 * 2048 + 32 * 1000);

    int at = b.input("at", { 2048, 32 });
    int y2 = b.value("y2", { 32, 1000 });
    int gemmT = b.op("gemmT", "Gemm", { at, w }, { y2 });
    b.graph.ops[gemmT].intAttributes["transA"] = { 1 };
    EXPECT_DOUBLE_EQ(opWork(b.graph, gemmT).flops, 2.0 * 32 * 1000 * 2048);

    int q = b.input("q", { 4, 12, 128, 64 });
    int k = b.input("k", { 4, 12, 64, 128 });
    int s = b.value("s", { 4, 12, 128, 128 });
    int mm = b.op("mm", "MatMul", { q, k }, { s });
    EXPECT_DOUBLE_EQ(opWork(b.graph, mm).flops, 2.0 * 4 * 12 * 128 * 128 * 64);

    // aten::addmm(bias, mat1, mat2): K is mat1's last dimension, not the bias's.
    int bias = b.weight("bias", { 1000 });
    int m1 = b.input("m1", { 32, 512 });
    int m2 = b.weight("m2", { 512, 1000 });
    int y3 = b.value("y3", { 32, 1000 });
    int addmm = b.op("addmm", "aten::addmm", { bias, m1, m2 }, { y3 });
    EXPECT_DOUBLE_EQ(opWork(b.graph, addmm).flops, 2.0 * 32 * 1000 * 512);
}

TEST(OpWork, PoolingElementwiseAndViews)
{
    GraphBuilder b;
    int x = b.input("x", { 1, 64, 112, 112 });
    int p = b.value("p", { 1, 64, 56, 56 });
    int pool = b.op("pool", "MaxPool", { x }, { p });
    b.graph.ops[pool].intAttributes["kernel_shape"] = { 3, 3 };
    EXPECT_DOUBLE_EQ(opWork(b.graph, pool).flops, 64.0 * 56 * 56 * 9);

    int r = b.value("r", { 1, 64, 56, 56 });
    int relu = b.op("relu", "Relu", { p }, { r });
    OpWork reluWork = opWork(b.graph, relu);
    EXPECT_DOUBLE_EQ(reluWork.flops, 64.0 * 56 * 56);
    EXPECT_DOUBLE_EQ(reluWork.bytes, 2 * 4.0 * 64 * 56 * 56);

    int flat = b.value("flat", { 1, 64 * 56 * 56 });
    int reshape = b.op("reshape", "Reshape", { r }, { flat });
    OpWork view = opWork(b.graph, reshape);
    EXPECT_EQ(view.kind, WorkKind::View);
    EXPECT_EQ(view.bytes, 0);

    int t = b.value("t", { 1, 56, 56, 64 });
    int transpose = b.op("transpose", "Transpose", { r }, { t });
    OpWork move = opWork(b.graph, transpose);
    EXPECT_EQ(move.kind, WorkKind::Memory);
    EXPECT_EQ(move.flops, 0);
    EXPECT_DOUBLE_EQ(move.bytes, 2 * 4.0 * 64 * 56 * 56);
}

TEST(OpWork, UnknownOpIsBytesInPlusOutAndMissingShapesAreFlagged)
{
    GraphBuilder b;
    int x = b.input("x", { 1000 });
    int y = b.value("y", { 10 });
    int custom = b.op("custom", "MyVendorOp", { x }, { y });
    OpWork work = opWork(b.graph, custom);
    EXPECT_EQ(work.kind, WorkKind::Unknown);
    EXPECT_DOUBLE_EQ(work.bytes, 4.0 * 1010);

    int u = b.unknownShape("u");
    int z = b.unknownShape("z");
    int relu = b.op("relu", "Relu", { u }, { z });
    OpWork unknown = opWork(b.graph, relu);
    EXPECT_FALSE(unknown.shapesKnown);
    EXPECT_EQ(unknown.flops, 0);
}

} // namespace
} // namespace placescope
