"""Writes the ONNX backend node tests for the operators Inference supports.

The onnx wheel ships the node-test generators but not their data. This script
runs the generators and keeps only the tests whose graphs use supported
operators, in the standard layout:
  ROOT/node/<test>/model.onnx, ROOT/node/<test>/test_data_set_0/{input,output}_<i>.pb
and copies the wheel's pytorch-converted / pytorch-operator tests that use only
supported operators to ROOT/pytorch/<test>/.

Usage (from the package root, with the venv in requirements.txt):
  python Training/inference/gen_node_tests.py Tests/InferenceTests/Fixtures
"""
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import numpy_helper
import onnx.backend.test.case.node as node_cases

SUPPORTED = {
    "Conv", "Relu", "Sigmoid", "HardSigmoid", "HardSwish", "Mul", "Add", "Sub",
    "Div", "Pow", "Concat", "Split", "Slice", "Reshape", "Transpose", "Softmax",
    "MaxPool", "Resize", "GlobalAveragePool", "Flatten", "Gemm", "MatMul",
    "Constant", "Shape", "Gather", "Unsqueeze", "Squeeze", "ReduceMean",
    "Identity", "Cast", "Expand", "Range", "Equal", "Where",
}
# Element types the runtime represents: float, int32, int64, bool.
TYPES = {1, 6, 7, 9}


def tensor_types(model):
    g = model.graph
    for v in list(g.input) + list(g.output):
        if not v.type.HasField("tensor_type"):
            return None
        yield v.type.tensor_type.elem_type


def main(out):
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    kept = []
    for case in node_cases.collect_testcases():
        m = case.model
        ops = {n.op_type for n in m.graph.node}
        if not ops <= SUPPORTED or any(n.domain not in ("", "ai.onnx") for n in m.graph.node):
            continue
        types = list(tensor_types(m))
        if None in types or not set(types) <= TYPES:
            continue
        inputs, outputs = case.data_sets[0]
        payload = sum(np.asarray(a).nbytes for a in list(inputs) + list(outputs)
                      if not isinstance(a, onnx.TensorProto))
        if payload > 100_000:  # keeps the committed fixtures small (drops 3-D pools)
            continue
        d = os.path.join(out, case.name)
        os.makedirs(d)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(m.SerializeToString())
        ds = os.path.join(d, "test_data_set_0")
        os.makedirs(ds)
        for kind, arrays, infos in (("input", inputs, m.graph.input), ("output", outputs, m.graph.output)):
            for j, a in enumerate(arrays):
                t = a if isinstance(a, onnx.TensorProto) else numpy_helper.from_array(np.asarray(a), infos[j].name)
                with open(os.path.join(ds, f"{kind}_{j}.pb"), "wb") as f:
                    f.write(t.SerializeToString())
        kept.append(case.name)
    print(f"wrote {len(kept)} node tests to {out}")


def copy_pytorch(out):
    """Copies the wheel's pytorch-converted/-operator tests that use supported ops.

    Node tests only cover single-channel Conv; these add bias, groups, depthwise.
    """
    data = os.path.join(os.path.dirname(node_cases.__file__), "..", "..", "data")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    kept = 0
    for kind in ("pytorch-converted", "pytorch-operator"):
        for name in sorted(os.listdir(os.path.join(data, kind))):
            src = os.path.join(data, kind, name)
            m = onnx.load(os.path.join(src, "model.onnx"))
            ops = {n.op_type for n in m.graph.node}
            types = list(tensor_types(m))
            if not ops <= SUPPORTED or None in types or not set(types) <= TYPES:
                continue
            if "3d" in name:  # 3-D convolution and pooling are not supported
                continue
            size = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(src) for f in fs)
            if size > 100_000:
                continue
            shutil.copytree(src, os.path.join(out, name))
            kept += 1
    print(f"copied {kept} pytorch tests to {out}")


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "Tests/InferenceTests/Fixtures"
    main(os.path.join(root, "node"))
    copy_pytorch(os.path.join(root, "pytorch"))
