#!/usr/bin/env python3
"""Writes Tests/PipelineTests/Fixtures/refiner-peaks.onnx: a constant peak refiner
(output [1, 3, 48, 48] whatever the crop: a zero-weight Conv plus a fixed map) to
test peak decoding through the pipeline without a trained model.

The map (cells one input px, cell (i, j) centred at (j + 0.5 - 24, i + 0.5 - 24);
with --cells 96, refiner-peaks96.onnx, the same points on a 96x96 map of 0.5 px
cells, each in the cell that holds it, its right-hand neighbour likewise):
  (24, 25) p 0.9, offset (+0.25, -0.25) -> entry (+1.75, +0.25)   kept
  (24, 26) p 0.7                                                   its neighbour, not a peak
  (24, 22) p 0.8, offset (0, 0)         -> entry (-1.5, +0.5)      kept
  (24, 44) p 0.95                        centre (20.5, 0.5)        beyond the trusted 12 px
  (30, 24) p 0.4                         centre (0.5, 6.5)         below an accept of 0.5
With --gate P it also answers `window` = [P, 0, 0] (a gated refiner, as
`refiner.py bundle` makes). With --channels 1 only the probability channel is
written: a malformed refiner (refiner-peaks-1ch.onnx) the pipeline must refuse.
Usage: python Training/make_peak_refiner_fixture.py OUT.onnx [--gate P] [--cells 96] [--channels 1]  (needs the onnx package)
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--gate", type=float)
ap.add_argument("--cells", type=int, default=48, choices=(48, 96))
ap.add_argument("--channels", type=int, default=3, choices=(1, 3))
a = ap.parse_args()
n, cs = a.cells, 48.0 / a.cells
m = np.zeros((1, 3, n, n), np.float32)
# (x, y) input px from the window centre; a cell's offset is the point minus its centre
for (x, y), p, right in [((1.75, 0.25), 0.9, 0.7), ((-1.5, 0.5), 0.8, None), ((20.5, 0.5), 0.95, None),
                         ((0.5, 6.5), 0.4, None)]:
    j, i = int(np.floor((x + 24) / cs)), int(np.floor((y + 24) / cs))
    m[0, :, i, j] = (p, x - ((j + 0.5) * cs - 24), y - ((i + 0.5) * cs - 24))
    if right is not None:
        m[0, 0, i, j + 1] = right
c = a.channels
m = m[:, :c].copy()
k = 96 // n  # the zero Conv's stride, so its output is the map's size
w = np.zeros((c, 3, k, k), np.float32)
nodes = [helper.make_node("Conv", ["crop", "w"], ["zero"], kernel_shape=[k, k], strides=[k, k]),
         helper.make_node("Add", ["zero", "map"], ["refined"])]
outputs = [helper.make_tensor_value_info("refined", TensorProto.FLOAT, [1, c, n, n])]
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
