"""`refiner.py recover`: a trainable checkpoint rebuilt from a shipped refiner's ONNX.

Checkpoints (.pt) live in runs/, which no clone carries; the shipped ONNX does, but
its exporter folded every BatchNorm into the convolution before it. This rebuilds
the network of --arch with the ONNX's weights: each folded convolution keeps the
folded kernel, and its BatchNorm is set to the statistics that kernel produces on
real crops (mean m, std s per channel: running stats m, s^2; gain sqrt(s^2 + eps);
shift m + folded bias). In eval mode that is exactly the shipped function; in train
mode a batch's statistics are close to those, so fine-tuning starts where the
shipped model is instead of from a shifted one. A bundle (`refined` and `window`
outputs) is read for its peak map, or with --gate for its gate (a one-answer net
such as --arch heat, whose Gemm layers are copied as they are)."""
import numpy as np
import torch
import torch.nn as nn

from refiner_nets import ARCHS, CROP


def conv_order(model):
    """The model's Conv2d modules in the order a forward pass runs them (the order
    the ONNX exporter writes their nodes), each with the BatchNorm2d that follows
    it in its Sequential (None for a head's last convolution)."""
    after = {}
    for mod in model.modules():
        if isinstance(mod, nn.Sequential):
            kids = list(mod)
            for a, b in zip(kids, kids[1:] + [None]):
                if isinstance(a, nn.Conv2d):
                    after[a] = b if isinstance(b, nn.BatchNorm2d) else None
    ran = []
    hooks = [c.register_forward_hook(lambda m, i, o: ran.append(m)) for c in after]
    with torch.no_grad():
        model(torch.zeros(1, 3, CROP, CROP))
    for h in hooks:
        h.remove()
    return [(c, after[c]) for c in ran]


def source_graph(path, gate):
    """The graph to read: the file's own, or with `gate` a bundle's gate alone."""
    import onnx
    m = onnx.load(path)
    if gate:
        if [o.name for o in m.graph.output] != ["refined", "window"]:
            raise SystemExit(f"{path}: --gate needs a bundle (outputs refined, window)")
        from refiner_eval import gate_of_bundle
        m = gate_of_bundle(m)
    return m.graph


def initializers(g):
    """The graph's weights by name, as arrays."""
    from onnx import numpy_helper
    return {t.name: numpy_helper.to_array(t) for t in g.initializer}


def onnx_convs(g, init):
    """(weight, bias) arrays of the peak network's Conv nodes in graph order (a
    bundle's `gate/` nodes left out)."""
    convs = []
    for n in g.node:
        if n.op_type == "Conv" and not n.name.startswith("gate/") and not n.input[1].startswith("gate/"):
            convs.append((init[n.input[1]], init[n.input[2]] if len(n.input) > 2 else None))
    return convs


def load_linear(model, init):
    """Copies each Linear layer's weights from the Gemm initializers of the same name
    (the exporter keeps a Linear's parameters under its module path)."""
    with torch.no_grad():
        for name, mod in model.named_modules():
            if isinstance(mod, nn.Linear):
                w, b = init.get(name + ".weight"), init.get(name + ".bias")
                if w is None or b is None or tuple(mod.weight.shape) != w.shape:
                    raise SystemExit(f"Linear {name}: no matching Gemm weights of shape {tuple(mod.weight.shape)}")
                mod.weight.copy_(torch.from_numpy(np.array(w)))
                mod.bias.copy_(torch.from_numpy(np.array(b)))


def load_folded(model, path, g, init):
    """Copies the ONNX kernels of graph `g` (read from `path`) into `model`, each
    BatchNorm an identity plus the folded bias; returns the (conv, bn, folded bias)
    list for calibration."""
    ours, theirs = conv_order(model), onnx_convs(g, init)
    if len(ours) != len(theirs):
        raise SystemExit(f"{path}: {len(theirs)} convolutions, expected {len(ours)} for this --arch")
    folded = []
    with torch.no_grad():
        for i, ((conv, bn), (w, b)) in enumerate(zip(ours, theirs)):
            if tuple(conv.weight.shape) != w.shape:
                raise SystemExit(f"{path}: convolution {i} has shape {w.shape}, expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(np.array(w)))  # ONNX arrays are read-only
            bias = torch.from_numpy(np.array(b)) if b is not None else torch.zeros(w.shape[0])
            if bn is None:
                conv.bias.copy_(bias)
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            folded.append((conv, bn, bias))
    return folded


def calibrate(model, folded, x):
    """Sets each folded BatchNorm to its convolution's statistics on crops `x`
    (N, 3, CROP, CROP), keeping the eval-mode function unchanged."""
    stats = {}

    def grab(conv):
        def hook(m, i, o):
            z = o.detach().double()
            stats[conv] = (z.mean((0, 2, 3)), z.var((0, 2, 3), unbiased=False))
        return hook

    hooks = [conv.register_forward_hook(grab(conv)) for conv, _, _ in folded]
    with torch.no_grad():
        model(x)  # eval mode: every layer before a hook is already the shipped function
        for h in hooks:
            h.remove()
        for conv, bn, bias in folded:
            m, v = stats[conv]
            bn.running_mean.copy_(m.float())
            bn.running_var.copy_(v.float())
            bn.weight.copy_(torch.sqrt(v + bn.eps).float())
            bn.bias.copy_((m + bias.double()).float())


def recover(args):
    """`refiner.py recover --onnx M --arch A --crops C --out run.pt`: see the module doc."""
    import onnxruntime as ort
    torch.manual_seed(0)
    model = ARCHS[args.arch]()
    model.eval()
    g = source_graph(args.onnx, args.gate)
    init = initializers(g)
    folded = load_folded(model, args.onnx, g, init)
    load_linear(model, init)
    output = "window" if args.gate else "refined"
    z = np.load(args.crops)
    rng = np.random.default_rng(args.seed)
    idx = np.sort(rng.choice(len(z["x"]), min(args.count, len(z["x"])), replace=False))
    x = torch.from_numpy(z["x"][idx]).float().div(255)
    calibrate(model, folded, x)
    sess = ort.InferenceSession(args.onnx, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    worst = 0.0
    with torch.no_grad():
        for i in range(min(16, len(x))):
            want = sess.run([output], {name: x[i:i + 1].numpy()})[0]
            got = model(x[i:i + 1]).numpy()
            worst = max(worst, float(np.abs(got - want).max()))
    print(f"{len(folded)} BatchNorms calibrated on {len(x)} crops; largest difference from {args.onnx} "
          f"on 16 crops: {worst:.2e}")
    if worst > 1e-3:
        raise SystemExit(f"recovered model differs from {args.onnx} by {worst:.2e} (expected under 1e-3)")
    torch.save({"model": model.state_dict(), "arch": args.arch,
                "args": {"recovered_from": args.onnx, "crops": args.crops, "count": len(x)}}, args.out)
    print(f"saved {args.out}")
