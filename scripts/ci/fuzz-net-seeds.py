#!/usr/bin/env python3
"""Seeds for the network fuzz targets (docs/ROBUSTNESS.md), recorded from real traffic and built
from a small CT file:

- `association`: what dcmtk's echoscu and storescu send to a Storage SCP (called AE title ICH,
  as `ich serve` has it), recorded by a proxy in front of dcmtk's storescp;
- `pdu`: those streams and the SCP's answers (A-ASSOCIATE-AC, C-STORE-RSP, A-RELEASE-RP);
- `store`: storescp's answers to a C-STORE association, as a PACS answers `ich send`;
- `dicomweb`: HTTP answers of a DICOMweb server: a WADO-RS multipart study (by Content-Length and
  chunked), a QIDO-RS JSON search answer, a redirect, a 100 Continue before the answer.

    python3 scripts/ci/fuzz-net-seeds.py CORPUS_ROOT CT_FILE.dcm [ICH_BINARY]

With ICH_BINARY, `ich send`'s own association is recorded too (the `store` target's client is
ich's, so storescp's answers to it are the seed that reaches a stored instance).

Needs dcmtk (storescp, echoscu, storescu: `bash scripts/setup-system.sh --pacs`).
"""
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


class Recorder:
    """A TCP proxy to the SCP that keeps both directions of each connection."""

    def __init__(self, upstream: int):
        self.upstream = upstream
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.sessions = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            u = socket.create_connection(("127.0.0.1", self.upstream))
            rec = {"c2s": bytearray(), "s2c": bytearray()}
            self.sessions.append(rec)
            done = []
            for src, dst, key in ((c, u, "c2s"), (u, c, "s2c")):
                t = threading.Thread(target=self.pump, args=(src, dst, rec[key]), daemon=True)
                t.start()
                done.append(t)
            rec["threads"] = done

    @staticmethod
    def pump(src, dst, keep):
        while True:
            try:
                b = src.recv(65536)
            except OSError:
                b = b""
            if not b:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            keep += b
            try:
                dst.sendall(b)
            except OSError:
                return

    def last(self):
        rec = self.sessions[-1]
        for t in rec["threads"]:
            t.join(10)
        return bytes(rec["c2s"]), bytes(rec["s2c"])


def http(status: str, headers, body: bytes, chunked=False) -> bytes:
    head = f"HTTP/1.1 {status}\r\n"
    for k, v in headers:
        head += f"{k}: {v}\r\n"
    if chunked:
        head += "Transfer-Encoding: chunked\r\n\r\n"
        out = head.encode()
        for i in range(0, len(body), 700):
            part = body[i : i + 700]
            out += f"{len(part):x}\r\n".encode() + part + b"\r\n"
        return out + b"0\r\n\r\n"
    head += f"Content-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


def main() -> None:
    root, ct = Path(sys.argv[1]), Path(sys.argv[2])
    ich = sys.argv[3] if len(sys.argv) > 3 else None
    for t in ("association", "pdu", "dicomweb", "store"):
        (root / t).mkdir(parents=True, exist_ok=True)
    data = ct.read_bytes()

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        scp = subprocess.Popen(
            ["storescp", "-od", tmp, "-aet", "ICH", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_listening(port)
            proxy = Recorder(port)
            runs = {
                "echo": ["echoscu", "-aet", "SENDER", "-aec", "ICH"],
                "store": ["storescu", "-aet", "SENDER", "-aec", "ICH"],
                "store-implicit": ["storescu", "-xi", "-aet", "SENDER", "-aec", "ICH"],
                "store-two": ["storescu", "-aet", "SENDER", "-aec", "ICH"],
            }
            if ich:
                runs["ich-send"] = [ich, "-q", "send", "--send-retries", "0", "--to"]
            for name, cmd in runs.items():
                if name == "ich-send":
                    args = cmd + [f"ICH@127.0.0.1:{proxy.port}", str(ct)]
                else:
                    args = cmd + ["127.0.0.1", str(proxy.port)]
                if name.startswith("store"):
                    args += [str(ct)] * (2 if name == "store-two" else 1)
                subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
                c2s, s2c = proxy.last()
                (root / "association" / name).write_bytes(c2s)
                (root / "pdu" / f"{name}-sender").write_bytes(c2s)
                (root / "pdu" / f"{name}-scp").write_bytes(s2c)
                if name.startswith("store") or name == "ich-send":
                    (root / "store" / name).write_bytes(s2c)
                if name == "store":
                    # the same association with a TAB closing the calling AE title (bytes
                    # 26..42 of the A-ASSOCIATE-RQ), which the node must refuse (issue 53)
                    tab = bytearray(c2s)
                    title = bytes(tab[26:42]).rstrip(b" ")
                    if len(title) < 16:
                        tab[26 + len(title)] = 0x09
                        (root / "association" / "store-ae-tab").write_bytes(bytes(tab))
        finally:
            scp.terminate()
            scp.wait()

    b = "ich-fuzz-boundary"
    parts = b"".join(
        f"--{b}\r\nContent-Type: application/dicom\r\n\r\n".encode() + data + b"\r\n"
        for _ in range(2)
    ) + f"--{b}--\r\n".encode()
    mp = [("Content-Type", f'multipart/related; type="application/dicom"; boundary={b}')]
    qido = json.dumps(
        [
            {
                "0020000D": {"vr": "UI", "Value": ["1.2.826.0.1.3680043.10.1.1"]},
                "00201208": {"vr": "IS", "Value": [2]},
            },
            {"0020000D": {"vr": "UI", "Value": ["1.2.3"]}, "00201208": {"vr": "IS", "Value": ["7"]}},
        ]
    ).encode()
    seeds = {
        "wado-length": http("200 OK", mp, parts),
        "wado-chunked": http("200 OK", mp, parts, chunked=True),
        "qido": http("200 OK", [("Content-Type", "application/dicom+json")], qido),
        "redirect": http("302 Found", [("Location", "/dicom-web/other")], b""),
        "continue": b"HTTP/1.1 100 Continue\r\n\r\n" + http("200 OK", mp, parts),
        "error": http("503 Service Unavailable", [("Content-Type", "text/plain")], b"busy"),
        # the streamed QIDO parser (issue 53): values of every kind where a UID or a count goes,
        # attributes nobody keeps, an empty answer
        "qido-odd": http(
            "200 OK",
            [("Content-Type", "application/dicom+json")],
            json.dumps(
                [
                    {"0020000D": {"Value": [{"deep": [1, [2, {"x": None}]]}]}},
                    {"0020000D": {"Value": ["", "1.2.4"]}, "00201208": {"Value": [-5, 1.5]}},
                    {"00081030": {"vr": "LO", "Value": ["x" * 5000]},
                     "0020000d": {"vr": "UI", "Value": ["1.2.5"]}},
                    7, "s", None, [],
                ]
            ).encode(),
        ),
        "qido-blank": http("200 OK", [("Content-Type", "application/dicom+json")], b" \r\n"),
        "stow-stored": http("200 OK", [("Content-Type", "application/dicom+json")], b"{}"),
        "stow-failed": http(
            "202 Accepted",
            [("Content-Type", "application/dicom+json")],
            b'{"00081198": {"vr": "SQ", "Value": [{"00081150": {"vr": "UI", "Value": ["1.2"]}}]}}',
        ),
    }
    for name, bytes_ in seeds.items():
        (root / "dicomweb" / name).write_bytes(bytes_)
    print(f"seeds: {len(runs)} associations, {2 * len(runs)} PDU streams, {len(seeds)} HTTP answers")


if __name__ == "__main__":
    main()
