"""Builds small reference models with the operator mix of YOLOv8/YOLO11 and
MobileNetV3, exports them to ONNX, and writes inputs plus onnxruntime outputs.

Random initialisation with fixed seeds; no pretrained weights or datasets.
Usage (from the package root, venv from requirements.txt):
  python Training/inference/gen_reference_models.py Tests/InferenceTests/Fixtures/models
Writes <name>.onnx, <name>.input.npy and <name>.output.npy per model.
"""
import os
import sys

import numpy as np
import onnxruntime as ort
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvSiLU(nn.Module):
    def __init__(self, c1, c2, k=3, s=1, g=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, groups=g, bias=False)
        self.bn = nn.BatchNorm2d(c2)

    def forward(self, x):
        return F.silu(self.bn(self.conv(x)))


class C2f(nn.Module):
    """Split / Concat block with a residual bottleneck (as in YOLOv8)."""

    def __init__(self, c):
        super().__init__()
        self.cv1 = ConvSiLU(c, 2 * c, 1)
        self.m = nn.Sequential(ConvSiLU(c, c, 3), ConvSiLU(c, c, 3))
        self.cv2 = ConvSiLU(3 * c, c, 1)

    def forward(self, x):
        a, b = self.cv1(x).split((x.shape[1], x.shape[1]), 1)
        return self.cv2(torch.cat([a, b, b + self.m(b)], 1))


class SPPF(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.cv1 = ConvSiLU(c, c // 2, 1)
        self.cv2 = ConvSiLU(2 * c, c, 1)
        self.pool = nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.pool(y[-1]) for _ in range(3))
        return self.cv2(torch.cat(y, 1))


class Attention(nn.Module):
    """Multi-head attention over pixels with a depthwise positional conv (as in YOLO11's C2PSA)."""

    def __init__(self, c, heads=2):
        super().__init__()
        self.h = heads
        self.qkv = ConvSiLU(c, 3 * c, 1)
        self.pe = nn.Conv2d(c, c, 3, 1, 1, groups=c)
        self.proj = nn.Conv2d(c, c, 1)

    def forward(self, x):
        b, c, hh, ww = x.shape
        n = hh * ww
        q, k, v = self.qkv(x).view(b, self.h, 3 * c // self.h, n).split([c // self.h] * 3, dim=2)
        attn = (q.transpose(-2, -1) @ k) * (c // self.h) ** -0.5
        attn = attn.softmax(dim=-1)
        y = (v @ attn.transpose(-2, -1)).view(b, c, hh, ww) + self.pe(v.reshape(b, c, hh, ww))
        return x + self.proj(y)


class YoloLike(nn.Module):
    def __init__(self, nc=3, reg=4, attention=False):
        super().__init__()
        self.reg = reg
        self.stem = ConvSiLU(3, 8, 3, 2)
        self.down = ConvSiLU(8, 16, 3, 2)
        self.c2f = C2f(16)
        self.down2 = ConvSiLU(16, 32, 3, 2)
        self.sppf = SPPF(32)
        self.attn = Attention(32) if attention else nn.Identity()
        self.dw = ConvSiLU(32, 32, 3, 1, g=32)
        self.fuse = ConvSiLU(48, 16, 1)
        self.box = nn.Conv2d(16, 4 * reg, 1)
        self.cls = nn.Conv2d(16, nc, 1)

    def forward(self, x):
        p3 = self.c2f(self.down(self.stem(x)))
        p4 = self.dw(self.attn(self.sppf(self.down2(p3))))
        up = F.interpolate(p4, scale_factor=2.0, mode="nearest")
        f = self.fuse(torch.cat([up, p3], 1))
        b, _, h, w = f.shape
        box = self.box(f).view(b, 4, self.reg, h * w).transpose(2, 1).softmax(1)
        # DFL as a 1x1 conv with fixed weights 0..reg-1, as Ultralytics exports it.
        dist = F.conv2d(box, torch.arange(self.reg, dtype=torch.float32).view(1, self.reg, 1, 1)).view(b, 4, h * w)
        lt, rb = dist.split(2, 1)
        xy = (rb - lt) / 2
        wh = lt + rb
        return torch.cat([xy, wh, self.cls(f).view(b, -1, h * w).sigmoid()], 1)


class SE(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.fc1 = nn.Conv2d(c, c // 2, 1)
        self.fc2 = nn.Conv2d(c // 2, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        return x * F.hardsigmoid(self.fc2(F.relu(self.fc1(s))))


class MobileLike(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish())
        self.dw = nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1, groups=16, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.se = SE(16)
        self.pw = nn.Sequential(nn.Conv2d(16, 24, 1, bias=False), nn.BatchNorm2d(24))
        self.expand = nn.Sequential(nn.Conv2d(24, 48, 1, bias=False), nn.BatchNorm2d(48), nn.Hardswish())
        self.dw2 = nn.Sequential(nn.Conv2d(48, 48, 5, 1, 2, groups=48, bias=False), nn.BatchNorm2d(48), nn.Hardswish())
        self.project = nn.Sequential(nn.Conv2d(48, 24, 1, bias=False), nn.BatchNorm2d(24))
        self.head = nn.Sequential(nn.Linear(24, 32), nn.Hardswish(), nn.Dropout(0.2), nn.Linear(32, classes))

    def forward(self, x):
        x = self.pw(self.se(self.dw(self.stem(x))))
        x = x + self.project(self.dw2(self.expand(x)))
        up = F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
        x = F.adaptive_avg_pool2d(up, 1).flatten(1)
        return self.head(x)


def randomise_bn(model, seed):
    g = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.weight.data = 0.5 + torch.rand(m.weight.shape, generator=g)
            m.bias.data = 0.2 * torch.randn(m.bias.shape, generator=g)
            m.running_mean = 0.1 * torch.randn(m.running_mean.shape, generator=g)
            m.running_var = 0.5 + torch.rand(m.running_var.shape, generator=g)


def export(model, name, shape, opset, out, seed, dynamic=False):
    torch.manual_seed(seed)
    for p in model.parameters():
        nn.init.normal_(p, 0.0, 0.3)
    randomise_bn(model, seed)
    model.eval()
    x = torch.rand(shape, generator=torch.Generator().manual_seed(seed + 1))
    path = os.path.join(out, f"{name}.onnx")
    axes = {"images": {0: "batch", 2: "height", 3: "width"}, "output0": {0: "batch", 2: "anchors"}}
    torch.onnx.export(model, (x,), path, opset_version=opset, input_names=["images"],
                      output_names=["output0"], dynamo=False, dynamic_axes=axes if dynamic else None)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    y = sess.run(None, {"images": x.numpy()})[0]
    np.save(os.path.join(out, f"{name}.input.npy"), x.numpy().astype(np.float32))
    np.save(os.path.join(out, f"{name}.output.npy"), y.astype(np.float32))
    with torch.no_grad():
        t = model(x).numpy()
    print(f"{name}: output {y.shape}, max|ORT - torch| {np.abs(t - y).max():.3g}, max|ref| {np.abs(y).max():.3g}")


def main(out):
    os.makedirs(out, exist_ok=True)
    torch.use_deterministic_algorithms(True)
    export(YoloLike(), "yolo_like", (1, 3, 64, 64), 17, out, 1)
    export(YoloLike(), "yolo_like_opset12", (1, 3, 64, 64), 12, out, 2)
    export(YoloLike(attention=True), "yolo11_like", (1, 3, 64, 64), 17, out, 3)
    export(MobileLike(), "mobilenet_like", (1, 3, 64, 64), 17, out, 4)
    # Dynamic batch and size: Shape / Gather / Concat shape arithmetic at plan time.
    export(YoloLike(attention=True), "yolo11_like_dynamic", (2, 3, 32, 48), 17, out, 5, dynamic=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Tests/InferenceTests/Fixtures/models")
