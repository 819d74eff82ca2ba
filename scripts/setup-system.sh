#!/usr/bin/env bash
# Installs the system packages ich needs to build on Debian/Ubuntu: a C/C++ toolchain and cmake
# (the JPEG-LS decoder, CharLS, is C++ built with cmake; the mimalloc allocator is C). With
# `--pacs` (scripts/test.sh, scripts/pacs-demo.sh) also the PACS the tests send results to and the
# tools that check them: Orthanc with its DICOMweb and Web Viewer plugins (its Lua routing is
# built in), dcmtk (dsrdump; storescu and storescp for `ich serve`'s tests and
# scripts/bench/bench-serve.sh), dicom3tools (dciodvfy), Chromium (the pages in a real browser) and
# Mesa's OpenGL (the wgpu kernel test). Does nothing when they are present. With `--slurm` (scripts/test.sh) also Slurm and munge, for the
# real single-node cluster of scripts/slurm-test.sh. Flags may be combined.
set -euo pipefail
pacs=""; slurm=""; pip_packages=""
for a in "$@"; do
  case "$a" in
    --pacs) pacs=1 ;;
    --slurm) slurm=1 ;;
    *) echo "setup-system.sh: unknown option $a (--pacs, --slurm)" >&2; exit 2 ;;
  esac
done
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v c++ >/dev/null 2>&1 || need+=(g++)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# .ci/run checks the module graph (scripts/ci/module-graph.py) and slurm-test.sh compares the merged
# dataset.json with python3's json module
command -v python3 >/dev/null 2>&1 || need+=(python3)
# pgrep and pkill (scripts/ci/lock-namespaces-test.sh); unshare comes with util-linux, always there
command -v pkill >/dev/null 2>&1 || need+=(procps)
if [ -n "$slurm" ]; then
  command -v slurmctld >/dev/null 2>&1 || need+=(slurmctld)
  command -v slurmd >/dev/null 2>&1 || need+=(slurmd)
  command -v sbatch >/dev/null 2>&1 || need+=(slurm-client)
  command -v munged >/dev/null 2>&1 || need+=(munge)
fi
if [ -n "$pacs" ]; then
  command -v Orthanc >/dev/null 2>&1 || [ -x /usr/sbin/Orthanc ] || need+=(orthanc)
  [ -f /usr/share/orthanc/plugins/libOrthancDicomWeb.so ] || need+=(orthanc-dicomweb)
  [ -f /usr/share/orthanc/plugins/libOrthancWebViewer.so ] || need+=(orthanc-webviewer)
  command -v dsrdump >/dev/null 2>&1 || need+=(dcmtk)
  command -v dciodvfy >/dev/null 2>&1 || need+=(dicom3tools)
  command -v curl >/dev/null 2>&1 || need+=(curl) # scripts/pacs-demo.sh waits for Orthanc with it
  # headless Chromium: the report's pages in a real browser (crates/ich/tests/browser.rs), and
  # the OHIF viewer (scripts/ci/ohif-test.sh: npm fetches the app; ct-ich's to_dicom.py makes its
  # study with numpy, pillow and pydicom)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  # to_dicom.py writes with pydicom 3 (`save_as(enforce_file_format=True)`); Debian's
  # python3-pydicom is 2.x, so these come from PyPI into the python3 on the PATH (below, once
  # pip is there)
  if ! python3 -c 'import numpy, PIL, pydicom; assert int(pydicom.__version__.split(".")[0]) >= 3' >/dev/null 2>&1; then
    pip_packages=1
    python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
  fi
  # Mesa's OpenGL on the CPU (llvmpipe): the wgpu adapter of the fused batch-norm kernels' test
  # (scripts/ci/fused-bn-test.sh)
  for p in libegl1 libgl1-mesa-dri libegl-mesa0; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  # --no-install-recommends: Orthanc's recommends pull in a lot; the service it registers is not
  # used (tests start their own Orthanc on loopback ports)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ -n "$pip_packages" ]; then
  echo "installing (pip): numpy pillow pydicom>=3" >&2
  python3 -m pip install --quiet --disable-pip-version-check numpy pillow 'pydicom>=3,<4' \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages \
      numpy pillow 'pydicom>=3,<4'
fi
