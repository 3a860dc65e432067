#!/usr/bin/env python3
"""Writes a constant pair verifier (pairs-yes.onnx, pairs-no.onnx: answers 0.9 and 0.1):
input `crop` [1, 3, 128, 128], output `pair` [1, 1] = P whatever the crop
(GlobalAveragePool -> Flatten -> Gemm with zero weights, so the answer is the bias,
then Sigmoid), to test how a pipeline settles touching pairs without a trained model.
Part of the pair-verifier experiment (Training/experiments/README.md); the shipped
pipeline has no pair verifier.
Usage: python Training/experiments/make_pair_verifier_fixture.py OUT.onnx --answer P  (needs the onnx package)
"""
import argparse
import math

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--answer", type=float, required=True, help="the probability answered, in (0, 1)")
a = ap.parse_args()
logit = math.log(a.answer / (1 - a.answer))
nodes = [helper.make_node("GlobalAveragePool", ["crop"], ["pooled"]),
         helper.make_node("Flatten", ["pooled"], ["flat"]),
         helper.make_node("Gemm", ["flat", "w", "b"], ["logit"], transB=1),
         helper.make_node("Sigmoid", ["logit"], ["pair"])]
inits = [numpy_helper.from_array(np.zeros((1, 3), np.float32), "w"),
         numpy_helper.from_array(np.array([logit], np.float32), "b")]
graph = helper.make_graph(nodes, "pair_verifier_fixture",
                          [helper.make_tensor_value_info("crop", TensorProto.FLOAT, [1, 3, 128, 128])],
                          [helper.make_tensor_value_info("pair", TensorProto.FLOAT, [1, 1])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bullseye-fixture")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, a.out)
