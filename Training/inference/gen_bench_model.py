"""Builds a YOLOv8n-sized detector from this file's own layers (random init,
not Ultralytics code or weights) for timing: 640×640 input, widths
16-32-64-128-256, C2f blocks, SPPF, an FPN/PAN neck with nearest Resize and
three heads with DFL (Softmax) and sigmoid scores: [1, 84, 8400].

Usage: python Training/inference/gen_bench_model.py OUT_DIR [size]
Writes yolov8n_like.onnx, .input.npy, .output.npy (onnxruntime) and prints
onnxruntime timings at 1 and 2 threads. Not committed (about 12 MB).
"""
import os
import sys
import time

import numpy as np
import onnxruntime as ort
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference_models import ConvSiLU, SPPF, randomise_bn  # noqa: E402


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut=True):
        super().__init__()
        self.a = ConvSiLU(c, c, 3)
        self.b = ConvSiLU(c, c, 3)
        self.add = shortcut

    def forward(self, x):
        y = self.b(self.a(x))
        return x + y if self.add else y


class C2f(nn.Module):
    def __init__(self, c1, c2, n=1, shortcut=True):
        super().__init__()
        self.c = c2 // 2
        self.cv1 = ConvSiLU(c1, 2 * self.c, 1)
        self.cv2 = ConvSiLU((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).split((self.c, self.c), 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class Head(nn.Module):
    def __init__(self, chs, nc=80, reg=16):
        super().__init__()
        self.nc, self.reg = nc, reg
        c2, c3 = max(16, chs[0] // 4, reg * 4), max(chs[0], min(nc, 100))
        self.box = nn.ModuleList(nn.Sequential(ConvSiLU(c, c2, 3), ConvSiLU(c2, c2, 3), nn.Conv2d(c2, 4 * reg, 1)) for c in chs)
        self.cls = nn.ModuleList(nn.Sequential(ConvSiLU(c, c3, 3), ConvSiLU(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for c in chs)
        self.dfl = nn.Conv2d(reg, 1, 1, bias=False)
        self.dfl.weight.data[:] = torch.arange(reg, dtype=torch.float32).view(1, reg, 1, 1)
        self.dfl.weight.requires_grad_(False)

    def forward(self, xs):
        outs = [torch.cat([b(x), c(x)], 1) for x, b, c in zip(xs, self.box, self.cls)]
        b = outs[0].shape[0]
        cat = torch.cat([o.view(b, 4 * self.reg + self.nc, -1) for o in outs], 2)
        box, cls = cat.split((4 * self.reg, self.nc), 1)
        n = box.shape[2]
        dist = self.dfl(box.view(b, 4, self.reg, n).transpose(2, 1).softmax(1)).view(b, 4, n)
        lt, rb = dist.chunk(2, 1)
        return torch.cat([(lt + rb) / 2, rb - lt, cls.sigmoid()], 1)


class YoloV8nLike(nn.Module):
    def __init__(self, nc=80):
        super().__init__()
        self.b0 = ConvSiLU(3, 16, 3, 2)
        self.b1 = ConvSiLU(16, 32, 3, 2)
        self.b2 = C2f(32, 32, 1)
        self.b3 = ConvSiLU(32, 64, 3, 2)
        self.b4 = C2f(64, 64, 2)
        self.b5 = ConvSiLU(64, 128, 3, 2)
        self.b6 = C2f(128, 128, 2)
        self.b7 = ConvSiLU(128, 256, 3, 2)
        self.b8 = C2f(256, 256, 1)
        self.b9 = SPPF(256)
        self.n12 = C2f(384, 128, 1, False)
        self.n15 = C2f(192, 64, 1, False)
        self.n16 = ConvSiLU(64, 64, 3, 2)
        self.n18 = C2f(192, 128, 1, False)
        self.n19 = ConvSiLU(128, 128, 3, 2)
        self.n21 = C2f(384, 256, 1, False)
        self.head = Head((64, 128, 256), nc)

    def forward(self, x):
        p3 = self.b4(self.b3(self.b2(self.b1(self.b0(x)))))
        p4 = self.b6(self.b5(p3))
        p5 = self.b9(self.b8(self.b7(p4)))
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")
        n12 = self.n12(torch.cat([up(p5), p4], 1))
        n15 = self.n15(torch.cat([up(n12), p3], 1))
        n18 = self.n18(torch.cat([self.n16(n15), n12], 1))
        n21 = self.n21(torch.cat([self.n19(n18), p5], 1))
        return self.head([n15, n18, n21])


def main(out, size):
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = YoloV8nLike()
    for p in model.parameters():
        if p.requires_grad:
            nn.init.normal_(p, 0.0, 0.05)
    randomise_bn(model, 0)
    model.eval()
    x = torch.rand((1, 3, size, size), generator=torch.Generator().manual_seed(1))
    path = os.path.join(out, "yolov8n_like.onnx")
    torch.onnx.export(model, (x,), path, opset_version=17, input_names=["images"], output_names=["output0"], dynamo=False)
    for threads in (1, 2):
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        y = sess.run(None, {"images": x.numpy()})[0]
        times = []
        for _ in range(10):
            t = time.perf_counter()
            sess.run(None, {"images": x.numpy()})
            times.append((time.perf_counter() - t) * 1000)
        print(f"onnxruntime {threads} thread(s): median {np.median(times):.1f} ms")
    np.save(os.path.join(out, "yolov8n_like.input.npy"), x.numpy())
    np.save(os.path.join(out, "yolov8n_like.output.npy"), y)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 640)
