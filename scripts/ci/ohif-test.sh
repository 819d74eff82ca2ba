#!/usr/bin/env bash
# The results in a real viewer, in a real browser: the OHIF viewer's built app (npm's
# @ohif/app, its dist/) served with Orthanc's DICOMweb on one origin (scripts/ci/ohif/serve.py),
# a real head CT with a bleed (ct-ich patient 53, 5 mm) stored in Orthanc, `ich predict` with
# the shipped model sending its SR and captures there and linking each scan to OHIF by `--viewer-url`, then headless Chromium opening that link
# (scripts/ci/ohif/check.mjs): the study browser must list the CT, the SR and the captures, the
# viewport must show the CT, then a capture opened from its thumbnail, and OHIF must read every
# slice finding of the SR (it draws none: see docs/REPORT.md). Screenshots and the screen's text
# land in OUT (default: a temporary folder; docs/img/ohif-capture.png comes from here).
# Usage: bash scripts/ci/ohif-test.sh [OUT]. Needs npm (the app, puppeteer-core and pngjs are
# fetched once into ~/.cache/ich-ohif) and ../shared/data (or ICH_SHARED_DATA).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup-system.sh --pacs
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
data="${ICH_SHARED_DATA:-../shared/data}"
ich="${CARGO_TARGET_DIR:-target}/debug/ich"
[ -x "$ich" ] || cargo build --locked --workspace
OHIF_VERSION=3.13.2
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ich-ohif"
dist="$cache/ohif-$OHIF_VERSION/package/dist"
if [ ! -f "$dist/index.html" ]; then
  mkdir -p "$cache/ohif-$OHIF_VERSION"
  (cd "$cache/ohif-$OHIF_VERSION" && npm pack --silent "@ohif/app@$OHIF_VERSION" >/dev/null \
    && tar xzf "ohif-app-$OHIF_VERSION.tgz" && rm "ohif-app-$OHIF_VERSION.tgz")
fi
if ! grep -qs '"version": "24.15.0"' "$cache/node/node_modules/puppeteer-core/package.json" \
  || [ ! -d "$cache/node/node_modules/pngjs" ]; then
  mkdir -p "$cache/node"
  npm install --silent --no-audit --no-fund --prefix "$cache/node" puppeteer-core@24.15.0 pngjs@7.0.0 >/dev/null
fi

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
http=$(port); dimse=$(port); web=$(port)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
rm -rf "$out/orthanc"; mkdir -p "$out/orthanc"
cat > "$out/orthanc/orthanc.json" <<JSON
{ "Name": "ich-ohif-test", "StorageDirectory": "$out/orthanc/db", "IndexDirectory": "$out/orthanc/db",
  "HttpPort": $http, "DicomPort": $dimse, "DicomAet": "ORTHANC", "RemoteAccessAllowed": false,
  "AuthenticationEnabled": false,
  "Plugins": ["/usr/share/orthanc/plugins/libOrthancDicomWeb.so"],
  "DicomWeb": {"Enable": true, "Root": "/dicom-web/"} }
JSON
Orthanc "$out/orthanc/orthanc.json" 2> "$out/orthanc/orthanc.log" &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$http/system" >/dev/null && break; sleep 0.2; done

# OHIF's configuration: one DICOMweb source, on this origin
cat > "$out/app-config.js" <<JS
window.config = {
  routerBasename: '/',
  extensions: [],
  modes: [],
  showStudyList: true,
  showWarningMessageForCrossOrigin: false,
  showCPUFallbackMessage: false,
  defaultDataSourceName: 'orthanc',
  dataSources: [{
    namespace: '@ohif/extension-default.dataSourcesModule.dicomweb',
    sourceName: 'orthanc',
    configuration: {
      friendlyName: 'Orthanc',
      name: 'orthanc',
      wadoUriRoot: 'http://127.0.0.1:$web/dicom-web',
      qidoRoot: 'http://127.0.0.1:$web/dicom-web',
      wadoRoot: 'http://127.0.0.1:$web/dicom-web',
      qidoSupportsIncludeField: false,
      imageRendering: 'wadors',
      thumbnailRendering: 'wadors',
      enableStudyLazyLoad: true,
      supportsFuzzyMatching: false,
      supportsWildcard: true,
      staticWado: false,
      singlepart: 'bulkdata,video',
      bulkDataURI: { enabled: true, relativeResolution: 'studies' },
      omitQuotationForMultipartRequest: true,
    },
  }],
};
JS
python3 scripts/ci/ohif/serve.py "$web" "$dist" "http://127.0.0.1:$http" "$out/app-config.js" &
pids+=($!)

# a real head CT with a bleed (ct-ich patient 53) into the PACS; predicted, its results sent
# there too
rm -rf "$out/ct" "$out/report"
python3 -c 'import numpy, PIL, pydicom' 2>/dev/null || { echo "ohif-test: python3 lacks numpy, pillow or pydicom: bash scripts/setup-system.sh --pacs installs them" >&2; exit 1; }
python3 "$data/ct-ich/to_dicom.py" "$data/ct-ich" "$out/ct" --patients 53 >/dev/null
rm "$out/ct/labels.csv" "$out/ct/slice_labels.csv"
"$ich" -q send "$out/ct" --to "ORTHANC@127.0.0.1:$dimse"
"$ich" predict "$out/ct" --out "$out/report" --send "ORTHANC@127.0.0.1:$dimse" \
  --viewer-url "http://127.0.0.1:$web/viewer?StudyInstanceUIDs={study}"
study=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scans"][0]["study_instance_uid"])' "$out/report/report.json")
# the link a reader follows, from the report's index page
url=$(grep -o "http://127.0.0.1:$web/viewer?StudyInstanceUIDs=[0-9.]*" "$out/report/index.html" | head -1)
[ "$url" = "http://127.0.0.1:$web/viewer?StudyInstanceUIDs=$study" ] \
  || { echo "FAIL: the index links ${url:-nothing}, not the study $study" >&2; exit 1; }
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$web/dicom-web/studies?StudyInstanceUID=$study" >/dev/null && break; sleep 0.2; done
# run beside its node_modules, so that its imports resolve
cp scripts/ci/ohif/check.mjs "$cache/node/check.mjs"
slices=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["scans"][0]["slices"]))' "$out/report/report.json")
node "$cache/node/check.mjs" "$url" "$study" "ich ICH probabilities" "ich flagged slices" "$slices" "$out"
echo "OHIF: the study, its SR and captures shown; screenshots in $out"
