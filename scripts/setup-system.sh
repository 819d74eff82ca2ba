#!/usr/bin/env bash
# Installs the system packages ich needs to build on Debian/Ubuntu: a C/C++ toolchain and cmake
# (the JPEG-LS decoder, CharLS, is C++ built with cmake; the mimalloc allocator is C). Does nothing when they are present.
set -euo pipefail
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v c++ >/dev/null 2>&1 || need+=(g++)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
