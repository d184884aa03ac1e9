#!/usr/bin/env python3
# Writes the seed inputs of two fuzz targets; scripts/fuzz.sh grows their corpora from these.
# - nsys SQLite (tests/profiler/fuzz/corpus/nsys_sqlite), from the real export in tests/data/traces: the export cut
#   to a few rows of the tables the importer reads, small pages, and variants with the damage the importer must
#   count or refuse (values of the wrong type, NULL times, a view where a table belongs, a missing StringIds, times
#   past int64, a file cut in half, a damaged page).
# - ONNX (tests/placement/fuzz/corpus/onnx): mnist.onnx whole and cut, and small models written here in protobuf
#   text format and encoded with protoc (If, Loop, a custom domain, unsorted nodes, IR 3 weights listed as inputs,
#   an input nobody produces, If nested 32 deep).
# Run from anywhere: scripts/make_fuzz_seeds.py (needs protoc and libonnx's onnx.proto, both Debian packages).
import os
import shutil
import sqlite3
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPORT = os.path.join(ROOT, "tests/data/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite")
OUT = os.path.join(ROOT, "tests/profiler/fuzz/corpus/nsys_sqlite")
ONNX_OUT = os.path.join(ROOT, "tests/placement/fuzz/corpus/onnx")
ONNX_PROTO = "/usr/include/onnx/onnx.proto"
ROWS = 12
KEEP_PREFIXES = ("CUPTI_", "StringIds", "TARGET_INFO_", "ThreadNames", "PROCESSES", "ANALYSIS_DETAILS",
                 "ENUM_CUDA_", "ENUM_CUPTI_", "DIAGNOSTIC_EVENT", "ProcessStreams", "NVTX_EVENTS")


ONNX_TEXT = {
    "ghost_input": """
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "ghost"
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  node { name: "add" op_type: "Add" input: "x" input: "ghost" output: "y" }
  node { name: "again" op_type: "Neg" input: "x" output: "y" }
  output { name: "y" type { tensor_type { elem_type: 1 } } }
}
""",
    "if_nested": """
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "main"
  input { name: "cond" type { tensor_type { elem_type: 9 shape {} } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  node { name: "pre" op_type: "Relu" input: "x" output: "y" }
  node {
    name: "branch" op_type: "If" input: "cond" output: "z"
    attribute { name: "then_branch" type: GRAPH g {
      name: "then"
      node { name: "then_add" op_type: "Add" input: "y" input: "y" output: "t" }
      output { name: "t" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
    } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "else"
      node { name: "else_neg" op_type: "Neg" input: "y" output: "e" }
      output { name: "e" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
    } }
  }
  node { op_type: "Sigmoid" input: "z" output: "out" }
  output { name: "out" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}
""",
    "loop_scan": """
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "loop"
  input { name: "trip" type { tensor_type { elem_type: 7 shape {} } } }
  input { name: "cond" type { tensor_type { elem_type: 9 shape {} } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  node {
    name: "repeat" op_type: "Loop" input: "trip" input: "cond" input: "x" output: "x_final"
    attribute { name: "body" type: GRAPH g {
      name: "body"
      input { name: "i" type { tensor_type { elem_type: 7 shape {} } } }
      input { name: "c" type { tensor_type { elem_type: 9 shape {} } } }
      input { name: "v" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
      node { name: "keep" op_type: "Identity" input: "c" output: "c_out" }
      node { name: "step" op_type: "Add" input: "v" input: "v" output: "v_out" }
      output { name: "c_out" type { tensor_type { elem_type: 9 shape {} } } }
      output { name: "v_out" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
    } }
  }
  node { name: "conv_like" op_type: "Custom" domain: "com.example" input: "x_final" output: "out" }
  output { name: "out" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
}
""",
    "unsorted_with_weights": """
ir_version: 3
opset_import { domain: "" version: 9 }
graph {
  name: "unsorted"
  initializer { name: "w" dims: 1 dims: 3 dims: 3 dims: 3 data_type: 1 float_data: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1] }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 8 } dim { dim_value: 8 } } } } }
  input { name: "w" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 3 } dim { dim_value: 3 } } } } }
  node { name: "second" op_type: "Relu" input: "c" output: "out" }
  node { name: "first" op_type: "Conv" input: "x" input: "w" output: "c" attribute { name: "pads" type: INTS ints: [1,1,1,1] } }
  output { name: "out" type { tensor_type { elem_type: 1 } } }
}
""",
}


def tensor(name, dims):
    shape = " ".join(f"dim {{ dim_value: {d} }}" for d in dims)
    return f'{{ name: "{name}" type {{ tensor_type {{ elem_type: 1 shape {{ {shape} }} }} }} }}'


def nested_if(depth):
    """If(cond) { then: If(cond) { ... Relu(x) }, else: Neg(x) }, `depth` levels (protobuf's default limit of 100
    nested messages is passed at 32)."""
    body = f'name: "innermost" node {{ name: "leaf" op_type: "Relu" input: "x" output: "leaf_out" }} output {tensor("leaf_out", [4])}'
    for level in range(depth, 0, -1):
        body = (f'name: "level{level}" node {{ name: "if{level}" op_type: "If" input: "cond" output: "if_out{level}" '
                f'attribute {{ name: "then_branch" type: GRAPH g {{ {body} }} }} '
                f'attribute {{ name: "else_branch" type: GRAPH g {{ name: "else{level}" node {{ name: "neg{level}" '
                f'op_type: "Neg" input: "x" output: "else_out{level}" }} output {tensor(f"else_out{level}", [4])} }} }} }} '
                f'output {tensor(f"if_out{level}", [4])}')
    return ('ir_version: 8 opset_import { domain: "" version: 13 } graph { ' + body +
            ' input { name: "cond" type { tensor_type { elem_type: 9 shape {} } } } input ' + tensor("x", [4]) + ' }')


def onnx_seeds():
    os.makedirs(ONNX_OUT, exist_ok=True)
    texts = dict(ONNX_TEXT)
    texts["if_nested_32_deep"] = nested_if(32)
    for name, text in texts.items():
        encoded = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I/usr/include", ONNX_PROTO],
                                 input=text.encode(), capture_output=True, check=True).stdout
        with open(os.path.join(ONNX_OUT, name + ".onnx"), "wb") as f:
            f.write(encoded)
    mnist = open(os.path.join(ROOT, "tests/data/models/mnist.onnx"), "rb").read()
    with open(os.path.join(ONNX_OUT, "mnist.onnx"), "wb") as f:
        f.write(mnist)
    with open(os.path.join(ONNX_OUT, "mnist_cut.onnx"), "wb") as f:
        f.write(mnist[: len(mnist) // 2])


def small_export(path):
    shutil.copyfile(EXPORT, path)
    db = sqlite3.connect(path)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        if not table.startswith(KEEP_PREFIXES):
            db.execute(f'DROP TABLE "{table}"')
        else:
            db.execute(f'DELETE FROM "{table}" WHERE rowid NOT IN (SELECT rowid FROM "{table}" LIMIT {ROWS})')
    db.commit()
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("PRAGMA page_size = 512")
    db.execute("VACUUM")
    db.close()


def variant(base, name, statements):
    path = os.path.join(OUT, name)
    shutil.copyfile(base, path)
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.execute("VACUUM")
    db.close()


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        base = os.path.join(work, "base.sqlite")
        small_export(base)
        shutil.copyfile(base, os.path.join(OUT, "small_export.sqlite"))
        kernel = "CUPTI_ACTIVITY_KIND_KERNEL"
        variant(base, "text_in_integer_columns.sqlite",
                [f"UPDATE {kernel} SET start = 'soon', deviceId = 'gpu0', gridX = x'00ff'"])
        # nsys declares the times NOT NULL: a copy of the table without the constraints holds the NULLs.
        variant(base, "null_times.sqlite", [f"CREATE TABLE loose AS SELECT * FROM {kernel}", f"DROP TABLE {kernel}",
                                            f"ALTER TABLE loose RENAME TO {kernel}",
                                            f"UPDATE {kernel} SET start = NULL, [end] = NULL"])
        variant(base, "view_instead_of_table.sqlite",
                [f"ALTER TABLE {kernel} RENAME TO kernel_rows", f"CREATE VIEW {kernel} AS SELECT * FROM kernel_rows"])
        variant(base, "no_string_ids.sqlite", ["DROP TABLE StringIds"])
        variant(base, "times_past_int64.sqlite",
                [f"UPDATE {kernel} SET start = 9223372036854775807, [end] = -9223372036854775808",
                 "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes = -1, start = 1e30"])
        variant(base, "dangling_ids.sqlite", [f"UPDATE {kernel} SET demangledName = 999999, shortName = -4",
                                              "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 123456789"])
        data = open(base, "rb").read()
        with open(os.path.join(OUT, "cut_in_half.sqlite"), "wb") as f:
            f.write(data[: len(data) // 2])
        damaged = bytearray(data)
        for offset in range(3 * 512 + 8, 3 * 512 + 40):  # inside the third page's b-tree header and cells
            damaged[offset] ^= 0x5A
        with open(os.path.join(OUT, "damaged_page.sqlite"), "wb") as f:
            f.write(bytes(damaged))
    onnx_seeds()
    for folder in (OUT, ONNX_OUT):
        for name in sorted(os.listdir(folder)):
            print(f"{os.path.getsize(os.path.join(folder, name)):8d} {os.path.relpath(os.path.join(folder, name), ROOT)}")


if __name__ == "__main__":
    main()
