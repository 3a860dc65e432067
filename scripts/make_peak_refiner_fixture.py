#!/usr/bin/env python3
"""Writes Tests/PipelineTests/Fixtures/refiner-peaks.onnx: a constant peak refiner
(output [1, 3, 48, 48] whatever the crop: a zero-weight Conv plus a fixed map) to
test peak decoding through the pipeline without a trained model.

The map (cells one input px, cell (i, j) centred at (j + 0.5 - 24, i + 0.5 - 24)):
  (24, 25) p 0.9, offset (+0.25, -0.25) -> entry (+1.75, +0.25)   kept
  (24, 26) p 0.7                                                   its neighbour, not a peak
  (24, 22) p 0.8, offset (0, 0)         -> entry (-1.5, +0.5)      kept
  (24, 44) p 0.95                        centre (20.5, 0.5)        beyond the trusted 12 px
  (30, 24) p 0.4                         centre (0.5, 6.5)         below an accept of 0.5
With --gate P it also answers `window` = [P, 0, 0] (a gated refiner, as
`refiner.py bundle` makes).
Usage: python scripts/make_peak_refiner_fixture.py OUT.onnx [--gate P]  (needs the onnx package)
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

m = np.zeros((1, 3, 48, 48), np.float32)
for (i, j), p, dx, dy in [((24, 25), 0.9, 0.25, -0.25), ((24, 26), 0.7, 0, 0), ((24, 22), 0.8, 0, 0),
                          ((24, 44), 0.95, 0, 0), ((30, 24), 0.4, 0, 0)]:
    m[0, :, i, j] = (p, dx, dy)
ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--gate", type=float)
a = ap.parse_args()
w = np.zeros((3, 3, 2, 2), np.float32)
nodes = [helper.make_node("Conv", ["crop", "w"], ["zero"], kernel_shape=[2, 2], strides=[2, 2]),
         helper.make_node("Add", ["zero", "map"], ["refined"])]
outputs = [helper.make_tensor_value_info("refined", TensorProto.FLOAT, [1, 3, 48, 48])]
inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(m, "map")]
if a.gate is not None:
    nodes += [helper.make_node("GlobalAveragePool", ["zero"], ["pooled"]),
              helper.make_node("Flatten", ["pooled"], ["flat"]),
              helper.make_node("Add", ["flat", "answer"], ["window"])]
    outputs.append(helper.make_tensor_value_info("window", TensorProto.FLOAT, [1, 3]))
    inits.append(numpy_helper.from_array(np.array([[a.gate, 0, 0]], np.float32), "answer"))
graph = helper.make_graph(nodes, "peak_refiner_fixture",
                          [helper.make_tensor_value_info("crop", TensorProto.FLOAT, [1, 3, 96, 96])], outputs, inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bullseye-fixture")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, a.out)
