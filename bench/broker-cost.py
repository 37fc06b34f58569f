#!/usr/bin/env python3
"""The NATS broker's CPU per forwarded message, apart from CityTable.

Starts a nats-server of its own on 127.0.0.1 (PORT, default 14333), subscribes one
connection to `citytable.edge.>` and publishes from another connection on one subject
shaped like a forwarded connection's (`citytable.edge.<node>.<conn>.<owner>`), then
reads the broker's CPU time from /proc. Each step sends COUNT messages of SIZE bytes,
either in bursts (RATE 0: many messages per socket write, the broker busy) or paced at
RATE a second, one message per write (each its own wake-up of the broker).

    bench/broker-cost.py                       # the default steps below
    bench/broker-cost.py 400:200000:0 1500:20000:5000   # SIZE:COUNT:RATE steps
"""
import os
import socket
import subprocess
import sys
import threading
import time

PORT = int(os.environ.get("PORT", "14333"))
NODE, OWNER = "6f1c2a4e-1d7b-4c8e-9a3f-2b5d7e8f9a01", "0b3e9c4d-5a6f-4e7b-8c9d-1e2f3a4b5c6d"
SUBJECT = f"citytable.edge.{NODE}.17.{OWNER}"
STEPS = ["150:400000:0", "400:400000:0", "1500:200000:0",
         "400:20000:5000", "1500:20000:5000", "400:40000:20000", "1500:40000:20000"]
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def connect():
    s = socket.create_connection(("127.0.0.1", PORT))
    s.recv(4096)  # INFO
    s.sendall(b'CONNECT {"verbose":false,"pedantic":false}\r\nPING\r\n')
    s.recv(4096)  # PONG
    return s


def step(pid, size, count, rate):
    sub = connect()
    sub.sendall(b"SUB citytable.edge.> 1\r\nPING\r\n")
    sub.recv(4096)
    one = f"PUB {SUBJECT} {size}\r\n".encode() + b"F" + b"x" * (size - 1) + b"\r\n"
    each = len(f"MSG {SUBJECT} 1 {size}\r\n") + size + 2
    received = [0]

    def read():
        while received[0] < each * count:
            chunk = sub.recv(1 << 20)
            if not chunk:
                return
            received[0] += len(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    pub = connect()
    cpu0, t0 = cpu_seconds(pid), time.time()
    if rate == 0:
        burst = 200
        for _ in range(count // burst):
            pub.sendall(one * burst)
    else:
        for i in range(count):
            due = t0 + i / rate
            while time.time() < due:
                pass
            pub.sendall(one)
    reader.join(timeout=60)
    cpu1, t1 = cpu_seconds(pid), time.time()
    n = received[0] // each
    pub.close()
    sub.close()
    mode = "bursts" if rate == 0 else f"paced {rate}/s"
    print(f"{size:>5} B  {mode:<15} {n:>7} messages  {n / (t1 - t0):>9,.0f}/s  "
          f"broker CPU {cpu1 - cpu0:.2f} s = {1e6 * (cpu1 - cpu0) / max(n, 1):.1f} us a message",
          flush=True)


def main():
    steps = sys.argv[1:] or STEPS
    server = subprocess.Popen(["nats-server", "-a", "127.0.0.1", "-p", str(PORT)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", PORT)).close()
                break
            except OSError:
                time.sleep(0.1)
        version = subprocess.run(["nats-server", "--version"], capture_output=True, text=True)
        print(f"# {version.stdout.strip()} nproc={os.cpu_count()} load1={os.getloadavg()[0]:.1f}")
        for s in steps:
            size, count, rate = map(int, s.split(":"))
            step(server.pid, size, count, rate)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
