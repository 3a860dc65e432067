"""The refiner networks (`refiner.py train --arch`): one-answer refiners (fc, heat,
heat2) and entry-map refiners (peak, peakpair, peakpair96; their targets and decoding are in
peaks.py). Input 1x3xCROPxCROP, a window WINDOW input px wide."""
import torch
import torch.nn as nn

import peaks as P

WINDOW = P.WINDOW  # window side in 640-input pixels (peaks.py holds it: it imports nothing of ours)
CROP = 96       # crop side in pixels fed to the refiner
OFFSET_SCALE = 8.0  # the network predicts offsets / OFFSET_SCALE


class CBR(nn.Sequential):
    def __init__(self, c1, c2, s=1):
        super().__init__(nn.Conv2d(c1, c2, 3, s, 1, bias=False), nn.BatchNorm2d(c2), nn.ReLU())


class Refiner(nn.Module):
    def __init__(self, w=(16, 32, 48, 64)):
        super().__init__()
        a, b, c, d = w
        self.f = nn.Sequential(CBR(3, a, 2), CBR(a, a),      # 48
                               CBR(a, b, 2), CBR(b, b),      # 24
                               CBR(b, c, 2), CBR(c, c),      # 12
                               CBR(c, d, 2), CBR(d, d))      # 6
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(d * (CROP // 16) ** 2, 96), nn.ReLU(), nn.Linear(96, 3))

    def raw(self, x):
        return self.fc(self.f(x))

    def forward(self, x):
        r = self.raw(x)
        return torch.cat([torch.sigmoid(r[:, :1]), r[:, 1:] * OFFSET_SCALE], 1)


def cell_centres(stride):
    """(n*n, 2) centres of a heatmap's cells, `stride` crop pixels apart, as (x, y)
    offsets from the window centre in input px, row-major like the flattened map."""
    n = CROP // stride
    c = ((torch.arange(n, dtype=torch.float32) + 0.5) * stride - CROP / 2) * (WINDOW / CROP)
    gy, gx = torch.meshgrid(c, c, indexing="ij")
    return torch.stack([gx.flatten(), gy.flatten()], 1)


class HeatRefiner(nn.Module):
    """Classification from a 6x6 context map; the entry point as the soft-argmax
    of a 24x24 heatmap (cells 2 input px apart), so the offset is a weighted mean
    of cell centres rather than a regression through a fully connected layer."""

    def __init__(self):
        super().__init__()
        self.s4 = nn.Sequential(CBR(3, 24, 2), CBR(24, 24), CBR(24, 32, 2), CBR(32, 32))       # 24x24
        self.s16 = nn.Sequential(CBR(32, 48, 2), CBR(48, 48), CBR(48, 64, 2), CBR(64, 64))     # 6x6
        self.cls = nn.Sequential(nn.Flatten(), nn.Linear(64 * (CROP // 16) ** 2, 96), nn.ReLU(), nn.Linear(96, 1))
        self.up = nn.Upsample(scale_factor=4, mode="nearest")
        self.heat = nn.Sequential(nn.Conv2d(96, 16, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                                  CBR(16, 16), nn.Conv2d(16, 1, 1))
        self.register_buffer("grid", cell_centres(4), persistent=False)

    def heat_input(self, x, a, b):
        """Features the heatmap head reads, at the heatmap's resolution."""
        return torch.cat([a, self.up(b)], 1)

    def raw(self, x):
        a = self.s4(x)
        b = self.s16(a)
        logit = self.cls(b)
        h = self.heat(self.heat_input(x, a, b)).flatten(1)
        off = torch.softmax(h, 1) @ self.grid  # B, 2 in input px
        return torch.cat([logit, off / OFFSET_SCALE], 1)

    def forward(self, x):
        r = self.raw(x)
        return torch.cat([torch.sigmoid(r[:, :1]), r[:, 1:] * OFFSET_SCALE], 1)


class FineHeatRefiner(HeatRefiner):
    """HeatRefiner with the heatmap at 48x48 (cells 1 input px apart): a stride-2
    branch of its own joins the stride-4 and stride-16 features, so two entries
    one shaft apart (about 2 input px) land in different cells instead of being
    averaged by the soft-argmax. The classification path is HeatRefiner's, so it
    can start from one (--init-partial)."""

    def __init__(self):
        super().__init__()
        self.s2 = nn.Sequential(CBR(3, 16, 2), CBR(16, 16))                                     # 48x48
        self.up2 = nn.Upsample(scale_factor=2, mode="nearest")
        self.up8 = nn.Upsample(scale_factor=8, mode="nearest")
        self.heat = nn.Sequential(nn.Conv2d(112, 24, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(),
                                  CBR(24, 24), CBR(24, 16), nn.Conv2d(16, 1, 1))
        self.grid = cell_centres(2)

    def heat_input(self, x, a, b):
        return torch.cat([self.s2(x), self.up2(a), self.up8(b)], 1)


class PeakRefiner(FineHeatRefiner):
    """FineHeatRefiner's features and heatmap head without the window-level answer:
    the head's last layer gives each of the 48x48 cells a probability and an
    offset (see peaks.py), so a window can report every entry in it."""

    def __init__(self):
        super().__init__()
        del self.cls
        self.heat[-1] = nn.Conv2d(16, 3, 1)
        P.head_bias(self.heat[-1])

    def raw(self, x):
        a = self.s4(x)
        return self.heat(self.heat_input(x, a, self.s16(a)))

    def forward(self, x):
        r = self.raw(x)
        return torch.cat([torch.sigmoid(r[:, :1]), r[:, 1:]], 1)


class PairPeakRefiner(PeakRefiner):
    """PeakRefiner whose cells also say whether their entry has a partner within
    peaks.PAIR_R (two arrows touching, 1.5-2.5 input px apart, which one 1 px
    heatmap shows as a single peak) and where it is: output (1, 6, 48, 48)."""

    def __init__(self):
        super().__init__()
        self.heat[-1] = nn.Conv2d(16, 6, 1)
        P.head_bias(self.heat[-1])

    def forward(self, x):
        r = self.raw(x)
        return torch.cat([torch.sigmoid(r[:, :1]), r[:, 1:3], torch.sigmoid(r[:, 3:4]), r[:, 4:]], 1)


class PairPeakRefiner96(PairPeakRefiner):
    """PairPeakRefiner with its map at 96x96 (cells 0.5 input px, one photo px at
    1280x960), so two touching entries 1.5 input px apart are three cells apart and
    both survive as local maxima. The 48x48 map stays inside as a prior: its logits
    and offsets, upsampled, plus a correction from a stride-1 branch and the 48x48
    head's last features. The correction's last layer starts at zero, so training
    starts from the 48x48 model's function (--init-partial from a peakpair run):
    `parity` moves each offset from the coarse cell's centre to the fine one's.
    Output (1, 6, 96, 96), channels as PairPeakRefiner's."""

    def __init__(self):
        super().__init__()
        self.s1 = nn.Sequential(CBR(3, 8), CBR(8, 8))                                            # 96x96
        self.fine = nn.Sequential(nn.Conv2d(24, 16, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                                  CBR(16, 16), nn.Conv2d(16, 6, 1))
        with torch.no_grad():
            self.fine[-1].weight.zero_()
            self.fine[-1].bias.zero_()
        n = CROP
        # fine cell j's centre is a quarter input px before (j even) or after (j odd) its coarse cell's
        q = torch.tensor([0.25 if j % 2 == 0 else -0.25 for j in range(n)])
        par = torch.zeros(1, 6, n, n)
        for ch in (1, 4):
            par[0, ch] = q[None, :]
        for ch in (2, 5):
            par[0, ch] = q[:, None]
        self.register_buffer("parity", par)

    def head_features(self, x):
        """The map head's last features (B, 16, 48, 48), read by the coarse map and the correction."""
        a = self.s4(x)
        return self.heat[:-1](self.heat_input(x, a, self.s16(a)))

    def base_map(self, x, h):
        """The 96x96 map from the crop and the head's features `h`: the 48x48 map
        upsampled, plus the stride-1 correction."""
        coarse = self.up2(self.heat[-1](h)) + self.parity
        return coarse + self.fine(torch.cat([self.s1(x), self.up2(h)], 1))

    def raw(self, x):
        return self.base_map(x, self.head_features(x))


class WidePairPeakRefiner96(PairPeakRefiner96):
    """PairPeakRefiner96 with a wider context path: three 3x3 convolutions of 64
    channels on the stride-4 features (24x24), upsampled and added to the map head's
    first features through a 1x1 convolution that starts at zero, so training starts
    from the narrower model's function (--init-partial from a peakpair96 run).
    About 54 MMAC more per window."""

    def __init__(self):
        super().__init__()
        self.ctx = nn.Sequential(CBR(32, 64), CBR(64, 64), CBR(64, 64))                          # 24x24
        self.ctx_out = nn.Conv2d(64, 24, 1)
        with torch.no_grad():
            self.ctx_out.weight.zero_()
            self.ctx_out.bias.zero_()

    def head_features(self, x):
        a = self.s4(x)
        h = self.heat[:3](self.heat_input(x, a, self.s16(a))) + self.up2(self.ctx_out(self.ctx(a)))
        return self.heat[3:-1](h)


class UNetPairPeakRefiner96(PairPeakRefiner96):
    """PairPeakRefiner96 plus a small encoder-decoder at full resolution: the
    shipped model's fine path is two 8-channel convolutions on the pixels, so
    two shafts a few photo px apart meet only features with a 5-pixel view.
    Here a 96 -> 48 -> 24 encoder and a decoder with skips back to 96x96 (reading
    the map head's features at 48x48) add a correction whose last layer starts
    at zero, so training starts from the narrower model's function
    (--init-partial from a peakpair96 run)."""

    def __init__(self):
        super().__init__()
        self.u1 = nn.Sequential(CBR(3, 12), CBR(12, 12))                                        # 96
        self.u2 = nn.Sequential(CBR(12, 24, 2), CBR(24, 24))                                    # 48
        self.u3 = nn.Sequential(CBR(24, 48, 2), CBR(48, 48), CBR(48, 48))                       # 24
        self.d2 = nn.Sequential(CBR(48 + 24 + 16, 32), CBR(32, 24))                             # 48
        self.d1 = nn.Sequential(CBR(24 + 12, 16), CBR(16, 16), nn.Conv2d(16, 6, 1))             # 96
        with torch.no_grad():
            self.d1[-1].weight.zero_()
            self.d1[-1].bias.zero_()

    def raw(self, x):
        h = self.head_features(x)
        e1 = self.u1(x)
        e2 = self.u2(e1)
        e3 = self.u3(e2)
        d2 = self.d2(torch.cat([self.up2(e3), e2, h], 1))
        return self.base_map(x, h) + self.d1(torch.cat([self.up2(d2), e1], 1))


ARCHS = {"fc": Refiner, "heat": HeatRefiner, "heat2": FineHeatRefiner, "peak": PeakRefiner, "peakpair": PairPeakRefiner,
         "peakpair96": PairPeakRefiner96, "peakpair96w": WidePairPeakRefiner96,
         "peakpair96u": UNetPairPeakRefiner96}
MAP_ARCHS = tuple(k for k, net in ARCHS.items() if issubclass(net, PeakRefiner))  # entry maps (peaks.py targets and decoding)


def from_checkpoint(path):
    """(network in eval mode, its --arch) from a `refiner.py train` checkpoint
    (checkpoints from before --arch existed are `fc`)."""
    ck = torch.load(path, map_location="cpu")
    arch = ck.get("arch", "fc")
    model = ARCHS[arch]()
    model.load_state_dict(ck["model"])
    model.eval()
    return model, arch
