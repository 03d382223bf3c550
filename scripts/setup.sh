#!/usr/bin/env bash
# Installs what the build needs when it is missing: Debian packages through
# apt-get (as root, with a network), Python plotting packages through pip.
# Where something is missing and cannot be installed, says which and why.
# Exit 1 only when a required piece (compiler, CMake, JSON, fmt, GoogleTest)
# is still missing; OpenCL and matplotlib are optional (backend off / no figures).
set -u
need_tests=${HARNESS_NEED_TESTS:-1}

# probe-path|debian-package|required(1)/optional(0)
probes=(
  "/usr/include/nlohmann/json.hpp|nlohmann-json3-dev|1"
  "/usr/include/fmt/format.h|libfmt-dev|1"
  "/usr/include/CL/cl.h|opencl-headers|0"
  "libOpenCL.so|ocl-icd-opencl-dev|0"
  "/etc/OpenCL/vendors/pocl.icd|pocl-opencl-icd|0"
  "/usr/include/benchmark/benchmark.h|libbenchmark-dev|0"
)
[ "$need_tests" = 1 ] && probes+=("/usr/include/gtest/gtest.h|libgtest-dev|1")

have() {
  case "$1" in
    /*) [ -e "$1" ] ;;
    *) ldconfig -p 2>/dev/null | grep -q "$1" ;;
  esac
}

missing=()
for p in "${probes[@]}"; do
  IFS='|' read -r path pkg _ <<<"$p"
  have "$path" || missing+=("$pkg")
done
command -v cmake >/dev/null || missing+=(cmake)
command -v g++ >/dev/null || missing+=(g++)
command -v python3 >/dev/null || missing+=(python3)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]}" >&2
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/tmp/harness-apt.log 2>&1; then
      echo "setup: apt-get could not install them (see /tmp/harness-apt.log; no network?)" >&2
    fi
  else
    echo "setup: missing ${missing[*]} and cannot install (need root and apt-get)" >&2
  fi
fi

status=0
for p in "${probes[@]}"; do
  IFS='|' read -r path pkg required <<<"$p"
  if ! have "$path"; then
    if [ "$required" = 1 ]; then
      echo "setup: REQUIRED package $pkg is missing" >&2
      status=1
    else
      echo "setup: optional package $pkg is missing (that part is switched off)" >&2
    fi
  fi
done
for tool in cmake g++ python3; do
  command -v $tool >/dev/null || { echo "setup: REQUIRED tool $tool is missing" >&2; status=1; }
done

# Python plotting and schema checks.
if command -v python3 >/dev/null; then
  py_missing=()
  python3 -c "import matplotlib" 2>/dev/null || py_missing+=(matplotlib)
  python3 -c "import jsonschema" 2>/dev/null || py_missing+=(jsonschema)
  if [ ${#py_missing[@]} -gt 0 ]; then
    echo "setup: pip install ${py_missing[*]}" >&2
    python3 -m pip install -q "${py_missing[@]}" >/tmp/harness-pip.log 2>&1 ||
      python3 -m pip install -q --break-system-packages "${py_missing[@]}" >>/tmp/harness-pip.log 2>&1 ||
      for m in "${py_missing[@]}"; do
        case $m in
          matplotlib) echo "setup: could not pip install matplotlib: figures will not be drawn" >&2 ;;
          jsonschema) echo "setup: could not pip install jsonschema: schema checks will be skipped" >&2 ;;
        esac
      done
  fi
fi
exit $status
