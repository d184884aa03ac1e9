# Validation on a real GPU (not part of the project): two small PyTorch programs profiled with torch.profiler,
# each in a "bad" and a "fixed" variant, with step times measured without the profiler.
import os, time, torch, torch.nn as nn
from torch.profiler import profile, ProfilerActivity, schedule, record_function
out = os.environ["OUT"]
dev = "cuda"
torch.backends.cudnn.benchmark = True

def convnet():
    layers, c = [], 3
    for w in (64, 64, 128, 128, 256, 256):
        layers += [nn.Conv2d(c, w, 3, padding=1, bias=False), nn.BatchNorm2d(w), nn.ReLU()]
        c = w
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 10)).to(dev)

def timed(step, n=30):
    for _ in range(5): step()
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(n): step()
    torch.cuda.synchronize(); return (time.perf_counter() - t) / n * 1e3

def profiled(step, name):
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, profile_memory=True,
                 schedule=schedule(wait=1, warmup=2, active=5)) as p:
        for _ in range(8):
            step(); p.step()
    p.export_chrome_trace(os.path.join(out, name + ".json"))

# 1. Layout: NCHW vs channels_last, fp16 autocast training step.
res = {}
for cl in (False, True):
    m = convnet(); opt = torch.optim.SGD(m.parameters(), lr=0.01)
    x = torch.randn(64, 3, 128, 128, device=dev); y = torch.randint(0, 10, (64,), device=dev)
    if cl:
        m = m.to(memory_format=torch.channels_last); x = x.to(memory_format=torch.channels_last)
    def step():
        with torch.autocast("cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(m(x), y)
        opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    res["layout_" + ("channels_last" if cl else "nchw")] = timed(step)
    profiled(step, "layout_" + ("channels_last" if cl else "nchw"))

# 2. Habits: data loading on the host, pageable input copy, .item() every step; fixed: pinned + no sync + prefetched.
m = convnet(); opt = torch.optim.SGD(m.parameters(), lr=0.01)
host = torch.randn(64, 3, 128, 128); hostPinned = host.pin_memory(); y = torch.randint(0, 10, (64,), device=dev)
def bad():
    with record_function("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"):
        time.sleep(0.004)  # 4 ms of host-side loading while the GPU waits
    x = host.to(dev)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    loss.item()
def fixed():
    x = hostPinned.to(dev, non_blocking=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
res["habits_bad"] = timed(bad); res["habits_fixed"] = timed(fixed)
profiled(bad, "habits_bad"); profiled(fixed, "habits_fixed")
import json; json.dump(res, open(os.path.join(out, "times.json"), "w"), indent=1)
print(res, torch.__version__, torch.backends.cudnn.version(), torch.cuda.get_device_name())
