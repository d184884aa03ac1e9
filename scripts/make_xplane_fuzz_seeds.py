#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the XPlane fuzz target's seed corpus (tests/profiler/fuzz/corpus/xplane): a small XSpace in the shape of
the real files (a GPU plane with a kernel, a copy and a memset on stream lines, a derived Steps line, device stats;
a host plane with the launch), encoded by Debian's protoc from text, and damaged copies of it (cut in half, a
string made non-UTF-8, a TPU plane instead of the GPU one, no GPU plane; and, for the hand-written wire readers
(xline_view.h, xspace_wire.h), a stat whose length runs past its event and an event metadata entry whose packed
child ids end inside a varint).

    python3 scripts/make_xplane_fuzz_seeds.py
"""
import subprocess

from seed_corpus import ROOT, write_seeds

GPU_PLANE = '''planes {
  id: 1
  name: "/device:GPU:0"
  lines { id: 7 name: "Stream #7(Compute)" timestamp_ns: 1000
    events { metadata_id: 1 offset_ps: 5000000 duration_ps: 2000000
      stats { metadata_id: 1 uint64_value: 42 }
      stats { metadata_id: 2 ref_value: 3 } }
    events { metadata_id: 2 offset_ps: 9000000 duration_ps: 1000000
      stats { metadata_id: 1 uint64_value: 43 }
      stats { metadata_id: 4 str_value: "kind:HtoD size:4096 dest:0 async:1" } }
    events { metadata_id: 3 offset_ps: 11000000 duration_ps: 500000
      stats { metadata_id: 5 str_value: "num_bytes:256" } } }
  lines { id: -559038737 name: "Steps" timestamp_ns: 1000
    events { metadata_id: 4 offset_ps: 0 duration_ps: 20000000 } }
  event_metadata { key: 1 value { id: 1 name: "volta_sgemm_128x64_nn" } }
  event_metadata { key: 2 value { id: 2 name: "MemcpyH2D" } }
  event_metadata { key: 3 value { id: 3 name: "Memset" } }
  event_metadata { key: 4 value { id: 4 name: "0" } }
  stat_metadata { key: 1 value { id: 1 name: "correlation_id" } }
  stat_metadata { key: 2 value { id: 2 name: "kernel_details" } }
  stat_metadata { key: 3 value { id: 3 name: "regs:38 shm:0 grid:160,1,1 block:1024,1,1" } }
  stat_metadata { key: 4 value { id: 4 name: "memcpy_details" } }
  stat_metadata { key: 5 value { id: 5 name: "memset_details" } }
  stat_metadata { key: 6 value { id: 6 name: "clock_rate" } }
  stat_metadata { key: 7 value { id: 7 name: "core_count" } }
  stats { metadata_id: 6 int64_value: 1530000 }
  stats { metadata_id: 7 int64_value: 80 }
}
'''
HOST_PLANE = '''planes {
  name: "/host:CPU"
  lines { id: 100 name: "python3" timestamp_ns: 900
    events { metadata_id: 1 offset_ps: 1000000 duration_ps: 3000000
      stats { metadata_id: 1 uint64_value: 42 } }
    events { metadata_id: 2 offset_ps: 0 duration_ps: 9000000 }
    events { metadata_id: 3 offset_ps: 500000 duration_ps: 0
      stats { metadata_id: 2 uint64_value: 1024 } } }
  event_metadata { key: 1 value { id: 1 name: "cudaLaunchKernel" } }
  event_metadata { key: 2 value { id: 2 name: "dense/MatMul:MatMul" } }
  event_metadata { key: 3 value { id: 3 name: "MemoryAllocation" } }
  event_metadata { key: 4 value { id: 4 name: "parent" child_id: 300 child_id: 5 } }
  stat_metadata { key: 1 value { id: 1 name: "correlation_id" } }
  stat_metadata { key: 2 value { id: 2 name: "allocation_bytes" } }
}
hostnames: "worker0"
'''


def encode(text):
    return subprocess.run(['protoc', '-I', ROOT, '--encode=tensorflow.profiler.XSpace',
                           'profiler/importers/xplane/xplane.proto'], input=text.encode(), capture_output=True,
                          check=True, cwd=ROOT).stdout


def main():
    good = encode(GPU_PLANE + HOST_PLANE)
    seeds = {
        'small_xspace.xplane.pb': good,
        'cut_in_half.xplane.pb': good[:len(good) // 2],
        'non_utf8_name.xplane.pb': good.replace(b'volta_sgemm', b'volta\xffsgemm'),
        'tpu_plane.xplane.pb': good.replace(b'/device:GPU:', b'/device:TPU:'),
        'host_only.xplane.pb': encode(HOST_PLANE),
        # The copy's details string (34 bytes) said to be 127 long: past the end of its stat, event and line.
        'stat_runs_past_its_line.xplane.pb': good.replace(b'\x22kind:HtoD', b'\x7fkind:HtoD'),
        # child_id 300, 5 packed as ac 02 05: every byte made a continuation byte, so the last varint never ends.
        'packed_child_id_cut.xplane.pb': good.replace(b'\xac\x02\x05', b'\xac\x82\x85'),
    }
    assert seeds['stat_runs_past_its_line.xplane.pb'] != good and seeds['packed_child_id_cut.xplane.pb'] != good
    write_seeds('xplane', seeds)


if __name__ == '__main__':
    main()
