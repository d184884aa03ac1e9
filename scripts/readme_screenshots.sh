#!/bin/sh
# SPDX-License-Identifier: MIT
# Renders every screenshot the README and the manual (docs/) show, with the placescope-gui of a build, offscreen, with fresh settings,
# from inputs in this repository; then checks that they show exactly these files. The test suite runs it into
# the build tree (ctest -R readme_screenshots), so a picture whose command stops working fails a test;
# to refresh the pictures themselves:
#     scripts/readme_screenshots.sh build/bin/placescope-gui docs/screenshots
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 PLACESCOPE_GUI OUT_DIR" >&2
    exit 2
fi
gui=$1
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$settings" XDG_RUNTIME_DIR="$settings"
traces=$src/tests/data/traces
models=$src/tests/data/models
made=""

# shot NAME ARGS...: one picture; the GUI exits non-zero when an input, a model, a selection or the picture failed.
shot() {
    name=$1
    shift
    rm -rf "$settings/placescope"* "$settings/Placescope"* # every picture starts from the default layout
    if ! "$gui" "$@" --screenshot "$out/$name" >"$settings/log" 2>&1; then
        echo "readme_screenshots: $name failed:" >&2
        cat "$settings/log" >&2
        exit 1
    fi
    made="$made $name"
}

v100=$traces/hta_v100_rank1of2_memory.json.gz
nsys=$traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite
alexnet=$traces/hta_alexnet_a100_1rank.json.gz
shot timeline_v100.png "$v100"
shot timeline_v100_finding_dark.png "$v100" --finding 1 --dark
shot timeline_light.png "$nsys"
shot finding_evidence.png "$nsys" --finding 2
shot timeline_dark.png "$nsys" --dark
shot details_kernel.png "$alexnet" --select-event nchwToNhwcKernel
shot whatif_v100.png "$v100" --whatif 'launch=x0.5'
shot placement_resnet50.png "$src/resources/samples/resnet50_train_3steps.sqlite" --model "$models/light_resnet50.onnx"
shot placement_superres.png --model "$models/superres_prepost_op18.onnx" --select-op Conv_2
shot op_graph.png --model "$models/mnist.onnx"
# The compare window: ResNet-50 training on a V100 (2021) against the bundled H100 capture.
shot compare_resnet50_v100_h100.png "$traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" \
    --compare "$src/resources/samples/resnet50_train_3steps.sqlite"

# The README and the manual in docs/ show these and only these (docs/ pages name them screenshots/NAME.png).
shown=$(grep -oh 'screenshots/[A-Za-z0-9_]*\.png' "$src/README.md" "$src"/docs/*.md "$src"/docs/commands/*.md |
    sed 's|.*screenshots/||' | sort -u)
rendered=$(for name in $made; do echo "$name"; done | sort -u)
if [ "$shown" != "$rendered" ]; then
    echo "readme_screenshots: the README and docs/ show:" $shown >&2
    echo "readme_screenshots: this script renders:" $rendered >&2
    exit 1
fi
for name in $made; do
    # A rendered window is far larger than an empty PNG (a blank 1600x900 picture is about 10 KB).
    if [ "$(wc -c <"$out/$name")" -lt 40000 ]; then
        echo "readme_screenshots: $out/$name looks blank" >&2
        exit 1
    fi
done
echo "readme_screenshots: $(echo $made | wc -w) pictures in $out"
