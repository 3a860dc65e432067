"""The multi-entry refiner (`refiner.py train --arch peak`): a per-cell heatmap of
entry points over the whole window instead of one answer per window.

One output per window was the single-answer refiner's limit: two arrows touching
(entries 1.5-3 input px apart) sent both their windows to the same arrow, and the
merge kept one. Here every cell of a 48x48 map (1 input px each; 96x96 maps have
0.5 px cells, --arch peakpair96) says whether an
entry lies in it and where inside it, trained CenterNet-style from every entry
the mining stored for the crop, and the pipeline keeps the local maxima.

Model output (1, 3, N, N), N = 48 or 96: channel 0 the cell's probability,
channels 1-2 the entry's (dx, dy) from the cell's centre in input px. Cell (i, j)
is centred at ((j + 0.5) * 48 / N - 24, (i + 0.5) * 48 / N - 24) input px from the
window centre.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F

WINDOW = 48.0       # window side in input px (refiner_nets and refiner.py take it from here)
CELLS = 48          # heatmap side of the 48x48 maps; one cell per input px of the window
SIGMA = 0.8         # Gaussian around each entry, in input px (0.8 cells at 48, 1.6 at 96)
OFFSET_REACH = 1.5  # input px: cells within this (each axis) of an entry learn its offset
PAIR_R = 2.5        # input px: an entry with another this close is one of a touching pair


def cell_axis(cells=CELLS):
    """(cells,) centres of one heatmap axis, in input px from the window centre:
    a map `cells` wide over the WINDOW px window (1 px cells at 48, 0.5 px at 96)."""
    return (torch.arange(cells, dtype=torch.float32) + 0.5 - cells / 2) * (WINDOW / cells)


def targets(entries, cells=CELLS):
    """entries: (B, K, 2) float tensor of entry offsets in input px, NaN-padded.
    Returns heat (B, H, W) in [0, 1] with exactly 1 at each entry's own cell,
    offsets (B, 2, H, W) to the nearest entry, and where they count (B, H, W);
    H = W = cells."""
    valid = ~torch.isnan(entries[..., 0])
    e = torch.nan_to_num(entries, nan=1e4)
    c = cell_axis(cells)
    k = cells / WINDOW  # cells per input px
    dx = c[None, None, None, :] - e[..., 0, None, None]      # B, K, 1, W
    dy = c[None, None, :, None] - e[..., 1, None, None]      # B, K, H, 1
    d2 = dx * dx + dy * dy                                   # B, K, H, W
    d2 = torch.where(valid[..., None, None], d2, torch.full_like(d2, 1e8))
    heat = torch.exp(-d2 / (2 * SIGMA * SIGMA)).amax(1)
    ix = torch.floor((e[..., 0] + WINDOW / 2) * k).long()
    iy = torch.floor((e[..., 1] + WINDOW / 2) * k).long()
    inside = valid & (ix >= 0) & (ix < cells) & (iy >= 0) & (iy < cells)
    b = torch.arange(len(e))[:, None].expand_as(ix)
    heat[b[inside], iy[inside], ix[inside]] = 1.0
    near = d2.argmin(1, keepdim=True)                        # B, 1, H, W
    ox = -torch.gather(dx.expand_as(d2), 1, near)[:, 0]
    oy = -torch.gather(dy.expand_as(d2), 1, near)[:, 0]
    reach = (torch.gather(dx.expand_as(d2).abs(), 1, near)[:, 0] <= OFFSET_REACH) & \
            (torch.gather(dy.expand_as(d2).abs(), 1, near)[:, 0] <= OFFSET_REACH)
    return heat, torch.stack([ox, oy], 1), reach, near[:, 0]


def pair_targets(entries, near, cells=CELLS):
    """For the pair channels: whether each cell's nearest entry has a partner
    within PAIR_R (B, H, W), and the offset from the cell's centre to that
    partner (B, 2, H, W)."""
    valid = ~torch.isnan(entries[..., 0])
    e = torch.nan_to_num(entries, nan=1e4)
    dd = (e[:, :, None, :] - e[:, None, :, :]).norm(dim=-1)          # B, K, K
    k = e.shape[1]
    bad = ~(valid[:, :, None] & valid[:, None, :]) | torch.eye(k, dtype=torch.bool)[None]
    dd = torch.where(bad, torch.full_like(dd, 1e8), dd)
    dmin, partner = dd.min(2)                                        # B, K
    flat = near.flatten(1)
    has = torch.gather(dmin <= PAIR_R, 1, flat).view_as(near)
    pk = torch.gather(partner, 1, flat)
    c = cell_axis(cells)
    px = torch.gather(e[..., 0], 1, pk).view_as(near) - c[None, None, :]
    py = torch.gather(e[..., 1], 1, pk).view_as(near) - c[None, :, None]
    return has.float(), torch.stack([px, py], 1)


def loss(raw, entries):
    """Focal loss on the heatmap (CenterNet's: positives are the entries' own
    cells, the Gaussian softens the penalty around them) plus L1 on the offsets
    of the cells near an entry. raw: (B, 3, H, W) logits and offsets, or
    (B, 6, H, W) with a touching-pair probability and the partner's offset, whose
    BCE and L1 (on the cells near an entry) join the second term."""
    cells = raw.shape[-1]
    heat, off, reach, near = targets(entries, cells)
    p = torch.sigmoid(raw[:, 0]).clamp(1e-6, 1 - 1e-6)
    pos = heat >= 1.0
    lpos = -((1 - p) ** 2 * torch.log(p))[pos].sum()
    lneg = -((1 - heat) ** 4 * p ** 2 * torch.log(1 - p))[~pos].sum()
    n = max(1, int(pos.sum()))
    lheat = (lpos + lneg) / n
    m = reach[:, None].expand_as(off)
    loff = F.l1_loss(raw[:, 1:3][m], off[m]) if m.any() else raw.sum() * 0
    if raw.shape[1] == 6 and reach.any():
        has, poff = pair_targets(entries, near, cells)
        loff = loff + F.binary_cross_entropy_with_logits(raw[:, 3][reach], has[reach], pos_weight=torch.tensor(4.0))
        pm = (reach & (has > 0))[:, None].expand_as(poff)
        if pm.any():
            loff = loff + F.l1_loss(raw[:, 4:6][pm], poff[pm])
    return lheat, loff


def peaks(out, accept, trust, pair_accept=1.1):
    """Local maxima of one window's output (3 or 6, H, W numpy): cells whose
    probability is >= accept and >= each of their 8 neighbours, within `trust`
    input px of the window centre on both axes. Returns [(x, y, p, reach, pair)]
    in cell order (row-major): the entry in input px from the window centre,
    how far its cell's centre is from it (the larger axis), and with a pair
    channel whose probability q >= pair_accept, the partner (x, y, min(p, q)), else
    None. As ArrowRefinement+Peaks.swift."""
    prob = out[0]
    h, w = prob.shape
    c = (np.arange(w) + 0.5 - w / 2) * (WINDOW / w)
    found = []
    for i in range(h):
        if abs(c[i]) > trust:
            continue
        for j in range(w):
            v = float(prob[i, j])
            if abs(c[j]) > trust or v < accept:
                continue
            nb = prob[max(0, i - 1):i + 2, max(0, j - 1):j + 2]
            if v < nb.max():
                continue
            pair = None
            if len(out) == 6 and float(out[3, i, j]) >= pair_accept:
                pair = (float(c[j]) + float(out[4, i, j]), float(c[i]) + float(out[5, i, j]), min(v, float(out[3, i, j])))
            found.append((float(c[j]) + float(out[1, i, j]), float(c[i]) + float(out[2, i, j]), v,
                          float(max(abs(c[i]), abs(c[j]))), pair))
    return found


def merge(points, radius):
    """points: [(x, y, p)] in input px; the most probable first (ties keep list
    order), dropping any within `radius` of one already kept."""
    order = sorted(range(len(points)), key=lambda i: (-points[i][2], i))
    kept = []
    for i in order:
        x, y, p = points[i]
        if all(math.hypot(x - k[0], y - k[1]) > radius for k in kept):
            kept.append(points[i])
    return kept


# The eight symmetries of the square window as (transpose, mirror x, mirror y),
# applied in that order; --views N reads the first N (the multi-view experiment,
# Training/experiments/README.md; the shipped refiner reads one view).
VIEWS = [(t, fx, fy) for t in (False, True) for fx, fy in ((False, False), (True, False), (False, True), (True, True))]


def view_crop(c, view):
    """c: a (C, n, n) crop, or a batch of them, as `view` shows it: transposed, then
    mirrored left-right, then top-bottom (the last two axes)."""
    t, fx, fy = view
    if t:
        c = c.swapaxes(-1, -2)
    if fx:
        c = c[..., ::-1]
    if fy:
        c = c[..., ::-1, :]
    return np.ascontiguousarray(c)


def unview(out, view):
    """A refiner output for `view`'s crop -- a map (C, n, n) or one answer (3,) --
    in the window's own frame: cells back where they were read from, offsets
    (channels 1-2 and 4-5) mirrored back, then swapped back."""
    t, fx, fy = view
    m = np.array(out, np.float32).reshape(len(out), *(out.shape[1:] if out.ndim == 3 else (1, 1)))
    if fy:
        m = m[:, ::-1, :].copy()
        m[2::3] *= -1
    if fx:
        m = m[:, :, ::-1].copy()
        m[1::3] *= -1
    if t:
        m = m.transpose(0, 2, 1)[[0, 2, 1, 3, 5, 4][:len(m)]]
    return np.ascontiguousarray(m).reshape(out.shape)


def read_views(run, crop, views, first=None):
    """run(crop (C, n, n)) -> the refiner's output for one crop; averaged over
    `views` in the window's frame, summed in order in float32 then scaled by
    1/len(views), as the Swift pipeline does. `first`: the output for views[0]
    when the caller already ran it."""
    total = None
    for k, v in enumerate(views):
        o = unview(first if k == 0 and first is not None else run(view_crop(crop, v)), v)
        total = o if total is None else total + o
    return total * np.float32(1.0 / len(views))


def head_bias(conv):
    """Start the probability channels near 0.01 (entries fill a few of 2304 cells;
    touching pairs are rarer still)."""
    with torch.no_grad():
        conv.bias.zero_()
        conv.bias[0] = -math.log(99.0)
        if conv.out_channels == 6:
            conv.bias[3] = -math.log(99.0)
