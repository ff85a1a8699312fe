#!/usr/bin/env bash
# Fills .dev/ (git-ignored) with what a bare GPU machine lacks for bench/gpu_device_run.sh: Debian's
# bubblewrap (the sandbox; the H200 image of 2026-12 has none) and the wheels the runner's tests need
# beyond that image's own Python packages (jsonschema and its dependencies, for cp312).
# Run here, on a machine that reaches Debian's and PyPI's archives; then send .dev with the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
PYVER=${GPU_PYTHON_VERSION:-3.12}  # the GPU machine's python3
mkdir -p .dev/deb .dev/whl
apt-get update -qq  # apt-get download finds nothing on a machine whose package lists are empty
(cd .dev/deb && apt-get download bubblewrap libselinux1 libcap2 libpcre2-8-0)
python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$PYVER" \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 -d .dev/whl \
  jsonschema==4.25.1 rfc3339-validator==0.1.4 referencing==0.36.2 \
  jsonschema-specifications==2025.4.1 rpds-py==0.27.1
ls .dev/deb .dev/whl
