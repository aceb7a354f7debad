#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test Hidet-MLIR:
# LLVM/MLIR 22.1 (headers, libMLIR.so, mlir-tblgen, lit/FileCheck), clang-22
# with its sanitizer runtimes (utils/sanitizer-tests.sh),
# CMake, Ninja, GoogleTest, and the ONNX front door's libonnx 1.12 with
# protobuf 3.21 (protoc, libprotobuf.a and onnx.proto also give hidet-run its
# TensorProto files) and the ONNX backend test data. Idempotent: packages
# already present are skipped.
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 libclang-rt-22-dev
  cmake ninja-build libgtest-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  patchelf
)

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
