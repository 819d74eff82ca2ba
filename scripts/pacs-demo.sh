#!/usr/bin/env bash
# "Into your PACS", end to end on this machine: the demo model (`ich demo`), a real Orthanc on
# loopback (Debian's orthanc, orthanc-dicomweb and orthanc-webviewer), one held-out synthetic
# scan stored in it by `ich send` (C-STORE), then `ich predict --study UID --dicomweb …` pulls
# it by WADO-RS, predicts it and sends the Structured Report and the Secondary Captures back by
# C-STORE. Screenshots land in docs/img/: the Secondary Capture as Orthanc renders it, Orthanc
# Explorer's study page and the Orthanc Web Viewer on the Secondary Capture series (headless
# Chromium). Usage: bash scripts/pacs-demo.sh [OUT] (default pacs-demo/; reuses OUT/demo).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh --pacs
out="${1:-pacs-demo}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cargo build --locked -p ich
ich="${CARGO_TARGET_DIR:-target}/debug/ich"
command -v chromium >/dev/null || { echo "needs chromium for the screenshots: apt-get install chromium" >&2; exit 1; }
[ -f "$out/demo/model/gp.json" ] || "$ich" -q demo --out "$out/demo"

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
http=$(port); dimse=$(port)
rm -rf "$out/orthanc"; mkdir -p "$out/orthanc"
cat > "$out/orthanc/orthanc.json" <<JSON
{ "Name": "ich-pacs-demo", "StorageDirectory": "$out/orthanc/db", "IndexDirectory": "$out/orthanc/db",
  "HttpPort": $http, "DicomPort": $dimse, "DicomAet": "ORTHANC", "RemoteAccessAllowed": false,
  "AuthenticationEnabled": false,
  "Plugins": ["/usr/share/orthanc/plugins/libOrthancDicomWeb.so", "/usr/share/orthanc/plugins/libOrthancWebViewer.so"],
  "DicomWeb": {"Enable": true, "Root": "/dicom-web/"} }
JSON
Orthanc "$out/orthanc/orthanc.json" 2> "$out/orthanc/orthanc.log" &
orthanc_pid=$!
trap 'kill $orthanc_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$http/system" >/dev/null && break; sleep 0.2; done

# the most suspicious held-out scan of the demo's report, by its label: a positive one
scan=$(python3 -c '
import csv,sys
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r["label"]=="1"]
print(rows[0]["scan_id"])' "$out/demo/report/scans.csv")
src=$(python3 -c '
import json,sys,os
r=json.load(open(sys.argv[1]))
s=[s for s in r["scans"] if s["id"]==sys.argv[2]][0]
print(s["slices"][0]["sop_instance_uid"])' "$out/demo/report/report.json" "$scan")
folder=$(grep -rl --include='*.dcm' "$src" "$out/demo/dicom-test" | head -1 | xargs dirname)
"$ich" -q send "$folder" --to "ORTHANC@127.0.0.1:$dimse"
study=$(python3 -c '
import json,sys,urllib.request
base=sys.argv[1]
st=json.load(urllib.request.urlopen(base+"/studies"))[0]
print(json.load(urllib.request.urlopen(base+"/studies/"+st))["MainDicomTags"]["StudyInstanceUID"])' "http://127.0.0.1:$http")
rm -rf "$out/predict"
"$ich" predict --model "$out/demo/model" --study "$study" --dicomweb "http://127.0.0.1:$http/dicom-web" \
  --out "$out/predict" --send "ORTHANC@127.0.0.1:$dimse"
dsrdump "$out"/predict/dicom/*/sr.dcm > "$out/predict/sr-dsrdump.txt"

mkdir -p docs/img
python3 - "http://127.0.0.1:$http" "$out" <<'PY'
import json, sys, urllib.request, subprocess
base, out = sys.argv[1], sys.argv[2]
get = lambda p: json.load(urllib.request.urlopen(base + p))
study = get("/studies")[0]
series = get(f"/studies/{study}/series")
for s in series:
    print(s["MainDicomTags"].get("Modality"), len(s["Instances"]), s["MainDicomTags"].get("SeriesDescription", ""))
sc = [s for s in series if s["MainDicomTags"].get("Modality") == "OT"][0]
# the Secondary Capture of the most probable slice (InstanceNumber = its 1-based slice index)
rep = json.load(open(f"{out}/predict/report.json"))
top = max(rep["scans"][0]["slices"], key=lambda s: s["probability"])["index"] + 1
inst = [i for i in sc["Instances"]
        if int(get(f"/instances/{i}/simplified-tags").get("InstanceNumber", "0")) == top][0]
open("docs/img/pacs-secondary-capture.png", "wb").write(urllib.request.urlopen(f"{base}/instances/{inst}/preview").read())
shots = [
    (f"{base}/app/explorer.html#study?uuid={study}", "docs/img/pacs-orthanc-study.png"),
    (f"{base}/web-viewer/app/viewer.html?series={sc['ID']}", "docs/img/pacs-web-viewer.png"),
]
for url, png in shots:
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", f"--user-data-dir={out}/chromium", "--window-size=1280,800",
                    "--virtual-time-budget=8000", f"--screenshot={png}", url], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("screenshot:", png)
PY
