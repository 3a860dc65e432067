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
Usage: python scripts/make_peak_refiner_fixture.py OUT.onnx  (needs the onnx package)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

m = np.zeros((1, 3, 48, 48), np.float32)
for (i, j), p, dx, dy in [((24, 25), 0.9, 0.25, -0.25), ((24, 26), 0.7, 0, 0), ((24, 22), 0.8, 0, 0),
                          ((24, 44), 0.95, 0, 0), ((30, 24), 0.4, 0, 0)]:
    m[0, :, i, j] = (p, dx, dy)
w = np.zeros((3, 3, 2, 2), np.float32)
graph = helper.make_graph(
    [helper.make_node("Conv", ["crop", "w"], ["zero"], kernel_shape=[2, 2], strides=[2, 2]),
     helper.make_node("Add", ["zero", "map"], ["refined"])],
    "peak_refiner_fixture",
    [helper.make_tensor_value_info("crop", TensorProto.FLOAT, [1, 3, 96, 96])],
    [helper.make_tensor_value_info("refined", TensorProto.FLOAT, [1, 3, 48, 48])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(m, "map")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bullseye-fixture")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
