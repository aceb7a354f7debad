#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test Hidet-MLIR:
# LLVM/MLIR 22.1 (headers, libMLIR.so, mlir-tblgen, lit/FileCheck), clang-22
# with its sanitizer runtimes (utils/sanitizer-tests.sh),
# CMake, Ninja, GoogleTest, and the ONNX front door's libonnx 1.12 with
# protobuf 3.21 (protoc, libprotobuf.a and onnx.proto also give hidet-run its
# TensorProto files) and the ONNX backend test data. Idempotent: packages
# already present are skipped.
#
#   utils/install-deps.sh [--models]
#
# --models also installs PyTorch, torchvision and onnx for Python
# (python3-torch 1.13, python3-torchvision 0.14, python3-onnx 1.12), which
# utils/models/generate.py and bench/models/compile-times.sh need to export
# the models on this machine (run them with /usr/bin/python3); the product
# and its tests do not.
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 libclang-rt-22-dev
  cmake ninja-build libgtest-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  patchelf
)
case "${1:-}" in
"") ;;
--models) packages+=(python3-torch python3-torchvision python3-onnx) ;;
*)
  echo "usage: utils/install-deps.sh [--models]" >&2
  exit 2
  ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
