#!/usr/bin/env bash
# Source this file: when NVIDIA's OpenCL driver is installed but not registered
# with the ICD loader (as on the project's GPU machines), registers it beside
# the platforms already listed (PoCL stays visible) through OCL_ICD_VENDORS.
_harness_nv_lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
if [ -n "$_harness_nv_lib" ] && ! grep -qs nvidia-opencl /etc/OpenCL/vendors/*.icd "${OCL_ICD_VENDORS:-/nonexistent}"/*.icd; then
  _harness_vendors=${TMPDIR:-/tmp}/harness-opencl-vendors
  mkdir -p "$_harness_vendors"
  cp /etc/OpenCL/vendors/*.icd "$_harness_vendors"/ 2>/dev/null || true
  echo libnvidia-opencl.so.1 > "$_harness_vendors/nvidia.icd"
  export OCL_ICD_VENDORS=$_harness_vendors
  echo "registered NVIDIA OpenCL ($_harness_nv_lib) through OCL_ICD_VENDORS=$OCL_ICD_VENDORS" >&2
fi
unset _harness_nv_lib _harness_vendors
