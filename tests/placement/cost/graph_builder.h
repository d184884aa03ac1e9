// SPDX-License-Identifier: MIT
// Builds small ModelGraphs by hand for the cost model tests: values with shapes and dtypes, ops wired to them.
#pragma once

#include "placement/graph/model_graph.h"

#include <string>
#include <vector>

namespace placescope::testing {

class GraphBuilder
{
public:
    // A value with a static shape; bytes = elements x element size.
    int value(const std::string& name, std::vector<int64_t> shape, const std::string& dtype = "float32")
    {
        ModelValue v;
        v.name = name;
        v.shape = std::move(shape);
        v.shapeKnown = true;
        v.dtype = dtype;
        int64_t count = 1;
        for (int64_t d : v.shape)
            count *= d;
        int64_t size = dtype == "float16" || dtype == "bfloat16" ? 2 : dtype == "int64" ? 8 : dtype == "uint8" ? 1 : 4;
        v.bytes = count * size;
        graph.values.push_back(v);
        return static_cast<int>(graph.values.size()) - 1;
    }
    int input(const std::string& name, std::vector<int64_t> shape, const std::string& dtype = "float32")
    {
        int v = value(name, std::move(shape), dtype);
        graph.values[v].isGraphInput = true;
        return v;
    }
    int weight(const std::string& name, std::vector<int64_t> shape, const std::string& dtype = "float32")
    {
        int v = value(name, std::move(shape), dtype);
        graph.values[v].isWeight = true;
        return v;
    }
    int unknownShape(const std::string& name)
    {
        ModelValue v;
        v.name = name;
        graph.values.push_back(v);
        return static_cast<int>(graph.values.size()) - 1;
    }
    int op(const std::string& name, const std::string& type, std::vector<int> inputs, std::vector<int> outputs)
    {
        ModelOp o;
        o.name = name;
        o.type = type;
        o.inputs = std::move(inputs);
        o.outputs = std::move(outputs);
        int index = static_cast<int>(graph.ops.size());
        for (int v : o.outputs)
            graph.values[v].producer = index;
        graph.ops.push_back(o);
        return index;
    }
    void output(int valueIndex) { graph.values[valueIndex].isGraphOutput = true; }

    ModelGraph graph;
};

} // namespace placescope::testing
