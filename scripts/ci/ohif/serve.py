"""The OHIF viewer's built app and Orthanc's DICOMweb on one origin, as a hospital's reverse
proxy serves them: GET /dicom-web/... is passed to Orthanc; any other path is a file of OHIF's
dist/ folder, or its index.html (OHIF routes /viewer?StudyInstanceUIDs=... itself), except
/app-config.js, which is CONFIG (the app's own stays untouched).
Usage: python3 serve.py PORT DIST ORTHANC_URL CONFIG"""
import http.server
import os
import sys
import urllib.error
import urllib.request

port, dist, orthanc = int(sys.argv[1]), os.path.realpath(sys.argv[2]), sys.argv[3].rstrip("/")
config = open(sys.argv[4], "rb").read()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=dist, **k)

    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path.startswith("/dicom-web/"):
            return self.proxy()
        path = self.path.split("?", 1)[0]
        if path == "/app-config.js":
            self.send_response(200)
            self.send_header("Content-Type", "application/javascript")
            self.send_header("Content-Length", str(len(config)))
            self.end_headers()
            self.wfile.write(config)
            return
        if path == "/" or not os.path.isfile(os.path.join(dist, path.lstrip("/"))):
            self.path = "/index.html"
        return super().do_GET()

    def proxy(self):
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("accept", "range")}
        req = urllib.request.Request(orthanc + self.path, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                body, status, got = r.read(), r.status, r.headers
        except urllib.error.HTTPError as e:
            body, status, got = e.read(), e.code, e.headers
        self.send_response(status)
        for k in ("Content-Type",):
            if got.get(k):
                self.send_header(k, got[k])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
